//! The family's links over HTTP: the emailed link approves the proposal and signs the
//! contract without a staff session; every bad link gets the same answer and changes
//! nothing; bad links are throttled; the public routes expose nothing but the document.

use carepath_core::model::{Actor, CarePlanId, Channel, ContractId, IntakeForm};
use carepath_core::store::{AssessmentSave, Store};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::support::{TestServer, expect_error, expect_json, outbox_emails};

/// A client whose care plan is ready to send; returns the plan.
pub(crate) fn plan_ready(server: &TestServer, name: &str) -> CarePlanId {
    let mut store = Store::open(&server.db).unwrap();
    let actor = Actor::system(Channel::Cli);
    let intake = store
        .create_intake(
            &actor,
            IntakeForm {
                date: "2026-11-22".to_owned(),
                staff_member_taking_call: "Sam Staff".to_owned(),
                caller_name: "Ruth Ames".to_owned(),
                relationship_to_client: "Wife".to_owned(),
                caller_phone: "(555) 010-3000".to_owned(),
                caller_email: "ruth@family.test".to_owned(),
                client_full_name: name.to_owned(),
                date_of_birth: "1940-02-01".to_owned(),
                services_required: vec!["Companionship".to_owned()],
                total_hours_per_week: Some(8.0),
                ..IntakeForm::default()
            },
        )
        .unwrap()
        .id;
    let mut form = store.assessment_prefill(&intake).unwrap();
    form.coordinator_name = "Sam Staff".to_owned();
    form.recommended_services = vec!["Companionship".to_owned()];
    form.recommended_hours = Some(8.0);
    form.preferred_days = vec!["Tuesday".to_owned(), "Thursday".to_owned()];
    form.assessor_name = "Sam Staff".to_owned();
    let assessment = store
        .save_assessment(
            &actor,
            AssessmentSave {
                existing: None,
                intake_id: Some(intake),
                form,
                complete: true,
            },
        )
        .unwrap()
        .id;
    store.generate_care_plan(&actor, &assessment).unwrap().id
}

/// All `{page}` tokens ever emailed, so a test can tell the new one.
fn link_tokens(server: &TestServer, page: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    for email in outbox_emails(server) {
        let text = email.replace("=\r\n", "").replace("=\n", "");
        let marker = format!("/{page}/");
        for (at, _) in text.match_indices(&marker) {
            let token: String = text[at + marker.len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                .collect();
            if token.len() == 43 && !tokens.contains(&token) {
                tokens.push(token);
            }
        }
    }
    tokens
}

async fn send_proposal(server: &TestServer, plan: &CarePlanId) -> String {
    let staff = server.staff().await;
    let before = link_tokens(server, "approve");
    expect_json(
        staff
            .post(
                &format!("/api/care-plans/{plan}/send"),
                json!({ "to": "ruth@family.test", "body": "Dear Ruth, here is our proposal." , "version": staff.version(&format!("/api/care-plans/{plan}")).await}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    link_tokens(server, "approve")
        .into_iter()
        .find(|token| !before.contains(token))
        .expect("a new approval link")
}

async fn contract_sent(server: &TestServer, plan: &CarePlanId) -> (ContractId, String) {
    let staff = server.staff().await;
    let preview = staff
        .ok(&format!("/api/contracts/preview?care_plan_id={plan}"))
        .await;
    let contract = expect_json(
        staff
            .post(
                "/api/contracts",
                json!({ "care_plan_id": plan, "content": preview["content"], "care_plan_version": staff.version(&format!("/api/care-plans/{plan}")).await}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    let id = ContractId::from(contract["id"].as_str().unwrap());
    let before = link_tokens(server, "sign");
    expect_json(
        staff
            .post(
                &format!("/api/contracts/{id}/send"),
                json!({ "body": "Please sign the agreement." , "version": staff.version(&format!("/api/contracts/{id}")).await}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    let token = link_tokens(server, "sign")
        .into_iter()
        .find(|token| !before.contains(token))
        .expect("a new signing link");
    (id, token)
}

fn signature(sha: &str) -> Value {
    json!({
        "signer_name": "Ruth Ames",
        "relationship": "Wife",
        "consent": true,
        "method": "drawn",
        "drawn_signature": [[[0.1, 0.5], [0.4, 0.2], [0.8, 0.7]]],
        "document_sha256": sha,
    })
}

#[tokio::test]
async fn the_family_approves_and_signs_from_the_emailed_links() {
    let server = TestServer::start().await;
    let admin = server.admin().await;
    // Copies from Settings never receive a secret link.
    let settings = admin.ok("/api/settings").await;
    let mut email = settings["email"].clone();
    email["default_cc"] = json!("office@agency.test");
    email["bcc"] = json!(["archive@agency.test"]);
    expect_json(
        admin
            .put(
                "/api/settings",
                json!({ "version": settings["versions"]["email"], "tab": "email", "values": email }),
            )
            .await,
        StatusCode::OK,
    )
    .await;

    let plan = plan_ready(&server, "Walter Ames");
    let token = send_proposal(&server, &plan).await;
    let approval_token = token.clone();
    // The family's email, with its link, went to the family alone.
    let email = crate::support::private_outbox_emails(&server)
        .into_iter()
        .find(|email| email.contains("Home Care Proposal"))
        .unwrap();
    assert!(!email.contains("office@agency.test"), "{email}");
    assert!(!email.to_lowercase().contains("\ncc:"), "{email}");
    // The kept copy in the timeline has no link.
    let staff = server.staff().await;
    let timeline = staff
        .ok(&format!("/api/communications?care_plan_id={plan}"))
        .await;
    let text = timeline.to_string();
    assert!(!text.contains(&token));
    assert!(text.contains("personal link, sent to the recipient only"));

    let family = server.anonymous();
    let response = family.get(&format!("/api/public/approve/{token}")).await;
    assert!(response.headers().get("set-cookie").is_none());
    let letter = expect_json(response, StatusCode::OK).await;
    assert_eq!(letter["client_name"], "Walter Ames");
    assert!(letter["weekly_cost"].as_f64().unwrap() > 0.0);
    let done = family
        .post(
            &format!("/api/public/approve/{token}"),
            json!({ "name": "Ruth Ames" }),
        )
        .await;
    assert!(done.headers().get("set-cookie").is_none());
    expect_json(done, StatusCode::OK).await;
    let approved = staff.ok(&format!("/api/care-plans/{plan}")).await;
    assert_eq!(approved["status"], "approved");

    let (contract, token) = contract_sent(&server, &plan).await;
    let page = expect_json(
        family.get(&format!("/api/public/sign/{token}")).await,
        StatusCode::OK,
    )
    .await;
    let sha = page["document_sha256"].as_str().unwrap().to_owned();
    let pdf = family.get(&format!("/api/public/sign/{token}/pdf")).await;
    assert_eq!(pdf.status(), StatusCode::OK);
    assert!(pdf.bytes().await.unwrap().starts_with(b"%PDF"));
    let status = staff
        .ok(&format!("/api/contracts/{contract}/signing"))
        .await;
    assert_eq!(status["links"][0]["state"], "opened");

    let signed = family
        .request(reqwest::Method::POST, &format!("/api/public/sign/{token}"))
        .header("user-agent", "Family Phone Browser")
        .json(&signature(&sha))
        .send()
        .await
        .unwrap();
    expect_json(signed, StatusCode::OK).await;
    let contract_now = staff.ok(&format!("/api/contracts/{contract}")).await;
    assert_eq!(contract_now["status"], "signed");
    assert!(contract_now["signed_at"].is_string());
    let status = staff
        .ok(&format!("/api/contracts/{contract}/signing"))
        .await;
    assert_eq!(status["links"][0]["state"], "used");
    assert_eq!(status["signature"]["signer_name"], "Ruth Ames");
    assert_eq!(status["signature"]["user_agent"], "Family Phone Browser");
    assert_eq!(status["signature"]["ip_address"], "127.0.0.1");
    assert_eq!(status["signature"]["document_sha256"], sha.as_str());

    // The confirmation goes to the family and to the coordinator who sent the link, with
    // the signed PDF attached.
    let confirmation = outbox_emails(&server)
        .into_iter()
        .find(|email| email.contains("Signed: Home Care Service Agreement"))
        .expect("a confirmation email");
    assert!(confirmation.contains("ruth@family.test"));
    assert!(confirmation.contains("staff@agency.test"));
    assert!(confirmation.contains("application/pdf"));

    let signed_pdf = staff
        .get(&format!("/api/contracts/{contract}/signed-pdf"))
        .await;
    assert_eq!(signed_pdf.status(), StatusCode::OK);
    let bytes = signed_pdf.bytes().await.unwrap().to_vec();
    let verify = |body: Vec<u8>| {
        staff
            .request(reqwest::Method::POST, "/api/contracts/verify-pdf")
            .header("content-type", "application/pdf")
            .body(body)
            .send()
    };
    let verdict = expect_json(verify(bytes.clone()).await.unwrap(), StatusCode::OK).await;
    assert_eq!(verdict["matches"], true);
    assert_eq!(verdict["contract_id"], contract.as_str());
    let mut changed = bytes;
    let middle = changed.len() / 2;
    changed[middle] ^= 0x20;
    let verdict = expect_json(verify(changed).await.unwrap(), StatusCode::OK).await;
    assert_eq!(verdict["matches"], false);

    // Opening a used link again says what was done and when, with the signed agreement.
    let outcome = expect_json(
        family
            .get(&format!("/api/public/sign/{token}/outcome"))
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(outcome["client_name"], "Walter Ames");
    assert_eq!(outcome["signed_pdf_available"], true);
    assert!(
        outcome["message"]
            .as_str()
            .unwrap()
            .starts_with("This agreement was signed on "),
        "{outcome}"
    );
    let copy = family
        .get(&format!("/api/public/sign/{token}/signed.pdf"))
        .await;
    assert_eq!(copy.status(), StatusCode::OK);
    assert!(copy.bytes().await.unwrap().starts_with(b"%PDF"));
    let approval = expect_json(
        family
            .get(&format!("/api/public/approve/{approval_token}/outcome"))
            .await,
        StatusCode::OK,
    )
    .await;
    assert!(
        approval["message"]
            .as_str()
            .unwrap()
            .starts_with("You approved this care plan proposal on "),
        "{approval}"
    );
    assert_eq!(approval["signed_pdf_available"], false);
    // A link still waiting, or of the other purpose, has no outcome: the one bad-link answer.
    for path in [
        format!("/api/public/approve/{token}/outcome"),
        format!("/api/public/sign/{approval_token}/outcome"),
        format!("/api/public/sign/{approval_token}/signed.pdf"),
    ] {
        let (code, _, _) = expect_error(family.get(&path).await, StatusCode::NOT_FOUND).await;
        assert_eq!(code, "link_unavailable", "{path}");
    }
}

#[tokio::test]
async fn every_bad_link_gets_the_same_answer_and_changes_nothing() {
    // Enough attempts for every bad link below (throttling has its own test).
    let server = TestServer::start_with(|config| config.auth_burst = 100).await;
    let staff = server.staff().await;
    let family = server.anonymous();
    let plan = plan_ready(&server, "Walter Ames");
    let approval = send_proposal(&server, &plan).await;
    let (contract, first) = contract_sent(&server, &plan).await;
    // Resend revokes the first link.
    let resent = expect_json(
        staff
            .request(
                reqwest::Method::POST,
                &format!("/api/contracts/{contract}/signing/resend"),
            )
            .send()
            .await
            .unwrap(),
        StatusCode::OK,
    )
    .await;
    assert_eq!(resent["links"][1]["state"], "revoked");
    let current = link_tokens(&server, "sign")
        .into_iter()
        .find(|token| *token != first)
        .unwrap();
    let sha = expect_json(
        family.get(&format!("/api/public/sign/{current}")).await,
        StatusCode::OK,
    )
    .await["document_sha256"]
        .as_str()
        .unwrap()
        .to_owned();
    // Another client's contract: its link signs it only.
    let other_plan = plan_ready(&server, "Rose Lee");
    send_proposal(&server, &other_plan).await;
    let (other, other_token) = contract_sent(&server, &other_plan).await;

    let mut altered = current.clone();
    let last = altered.pop().unwrap();
    altered.push(if last == 'x' { 'y' } else { 'x' });
    let before = staff.ok(&format!("/api/contracts/{contract}")).await;
    let mut answers = Vec::new();
    for bad in [
        first.clone(),
        altered,
        "A".repeat(43),
        "short".to_owned(),
        approval.clone(),
    ] {
        let (code, message, _) = expect_error(
            family.get(&format!("/api/public/sign/{bad}")).await,
            StatusCode::NOT_FOUND,
        )
        .await;
        answers.push((code, message));
        let (code, message, _) = expect_error(
            family
                .post(&format!("/api/public/sign/{bad}"), signature(&sha))
                .await,
            StatusCode::NOT_FOUND,
        )
        .await;
        answers.push((code, message));
    }
    // The signing link is no approval link.
    let (code, message, _) = expect_error(
        family
            .post(
                &format!("/api/public/approve/{current}"),
                json!({ "name": "Ruth" }),
            )
            .await,
        StatusCode::NOT_FOUND,
    )
    .await;
    answers.push((code, message));
    answers.dedup();
    assert_eq!(answers.len(), 1, "{answers:?}");
    assert_eq!(answers[0].0, "link_unavailable");
    let after = staff.ok(&format!("/api/contracts/{contract}")).await;
    assert_eq!(after["version"], before["version"]);
    assert_eq!(after["status"], "sent");

    // Used links answer the same.
    let other_sha = expect_json(
        family.get(&format!("/api/public/sign/{other_token}")).await,
        StatusCode::OK,
    )
    .await["document_sha256"]
        .as_str()
        .unwrap()
        .to_owned();
    expect_json(
        family
            .post(
                &format!("/api/public/sign/{other_token}"),
                signature(&other_sha),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    let (code, _, _) = expect_error(
        family.get(&format!("/api/public/sign/{other_token}")).await,
        StatusCode::NOT_FOUND,
    )
    .await;
    assert_eq!(code, "link_unavailable");
    assert_eq!(
        staff.ok(&format!("/api/contracts/{other}")).await["status"],
        "signed"
    );
    assert_eq!(
        staff.ok(&format!("/api/contracts/{contract}")).await["status"],
        "sent"
    );
}

#[tokio::test]
async fn repeated_bad_links_are_throttled() {
    let server = TestServer::start_with(|config| {
        config.auth_burst = 3;
        config.auth_refill = std::time::Duration::from_secs(60);
    })
    .await;
    let family = server.anonymous();
    let plan = plan_ready(&server, "Walter Ames");
    let token = send_proposal(&server, &plan).await;
    // Good requests spend nothing.
    for _ in 0..5 {
        expect_json(
            family.get(&format!("/api/public/approve/{token}")).await,
            StatusCode::OK,
        )
        .await;
    }
    for _ in 0..3 {
        expect_error(
            family
                .get(&format!("/api/public/approve/{}", "B".repeat(43)))
                .await,
            StatusCode::NOT_FOUND,
        )
        .await;
    }
    // Now even the good link waits.
    let response = family.get(&format!("/api/public/approve/{token}")).await;
    assert!(response.headers().get("retry-after").is_some());
    let (code, _, _) = expect_error(response, StatusCode::TOO_MANY_REQUESTS).await;
    assert_eq!(code, "rate_limited");
}

/// Every property name a schema can carry, following references.
fn property_names(doc: &Value, schema: &Value, names: &mut Vec<String>, depth: usize) {
    if depth > 8 {
        return;
    }
    if let Some(reference) = schema["$ref"].as_str() {
        let name = reference.rsplit('/').next().unwrap();
        property_names(doc, &doc["components"]["schemas"][name], names, depth + 1);
        return;
    }
    if let Some(properties) = schema["properties"].as_object() {
        for (name, property) in properties {
            names.push(name.clone());
            property_names(doc, property, names, depth + 1);
        }
    }
    for key in ["items", "additionalProperties"] {
        if schema[key].is_object() {
            property_names(doc, &schema[key], names, depth + 1);
        }
    }
    for key in ["allOf", "oneOf", "anyOf"] {
        for part in schema[key].as_array().into_iter().flatten() {
            property_names(doc, part, names, depth + 1);
        }
    }
}

#[test]
fn the_public_routes_expose_nothing_but_the_document() {
    let doc = serde_json::to_value(carepath_server::openapi()).unwrap();
    let allowed = [
        // The proposal letter.
        "agency_name",
        "agency_phone",
        // The agency's letterhead, as its documents print it.
        "agency_address",
        "agency_logo_url",
        "client_name",
        "family_contact_name",
        "services",
        "label",
        "description",
        "schedule",
        "day",
        "time",
        "hours",
        "total_weekly_hours",
        "hourly_rate",
        "weekly_cost",
        "monthly_cost",
        "proposed_start_date",
        "additional_notes",
        "expires_at",
        // The contract to sign.
        "contract_content",
        "document_sha256",
        "consent_text",
        // The answers after a move, and a used link's outcome.
        "message",
        "signed_pdf_available",
        "at",
        // Errors.
        "error",
        "code",
        "fields",
        "current",
    ];
    let mut public = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        if !path.starts_with("/api/public/") {
            continue;
        }
        for (method, operation) in item.as_object().unwrap() {
            public += 1;
            assert_eq!(
                operation["security"],
                json!([{}]),
                "{method} {path} is open"
            );
            for (status, response) in operation["responses"].as_object().unwrap() {
                for content in response["content"].as_object().into_iter().flatten() {
                    let mut names = Vec::new();
                    property_names(&doc, &content.1["schema"], &mut names, 0);
                    for name in names {
                        assert!(
                            allowed.contains(&name.as_str()),
                            "{method} {path} {status} exposes `{name}`"
                        );
                    }
                }
            }
        }
    }
    // The family's nine link operations, the logo and a member of staff's calendar feed
    // (its answer is the calendar text, no schema; tests/it/visits.rs reads it).
    assert_eq!(
        public, 11,
        "the nine link operations, the logo and the calendar feed"
    );
}

/// A live approval link takes a bounded number of questions an hour; past it the family
/// is told plainly to wait (429), and nothing more reaches the timeline.
#[tokio::test]
async fn a_link_takes_a_bounded_number_of_questions_an_hour() {
    use carepath_core::rules::signing::{MAX_QUESTIONS_PER_HOUR, TOO_MANY_QUESTIONS};
    let server = TestServer::start().await;
    let family = server.anonymous();
    let plan = plan_ready(&server, "Quentin Ames");
    let token = send_proposal(&server, &plan).await;
    let path = format!("/api/public/approve/{token}/questions");
    for number in 0..MAX_QUESTIONS_PER_HOUR {
        expect_json(
            family
                .post(
                    &path,
                    json!({"name": "Ruth Ames", "message": format!("Question {number}?")}),
                )
                .await,
            StatusCode::OK,
        )
        .await;
    }
    let response = family
        .post(&path, json!({"name": "Ruth Ames", "message": "One more?"}))
        .await;
    assert!(response.headers().get("retry-after").is_some());
    let (code, message, _) = expect_error(response, StatusCode::TOO_MANY_REQUESTS).await;
    assert_eq!(code, "rate_limited");
    assert_eq!(message, TOO_MANY_QUESTIONS);
    let store = Store::open(&server.db).unwrap();
    let filter = carepath_core::store::CommunicationFilter {
        parents: carepath_core::model::Parents {
            care_plan_id: Some(plan.clone()),
            ..Default::default()
        },
        visibility: None,
    };
    let questions = store
        .communications(&filter)
        .unwrap()
        .iter()
        .filter(|entry| entry.content.starts_with("Question about the proposal"))
        .count();
    assert_eq!(questions, MAX_QUESTIONS_PER_HOUR as usize);
    // The link itself still opens: approving stays possible.
    expect_json(
        family.get(&format!("/api/public/approve/{token}")).await,
        StatusCode::OK,
    )
    .await;
}

/// Bad links sent all at once spend the address's attempts exactly: no more of them are
/// looked up than the burst allows, however many arrive together.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn simultaneous_bad_links_cannot_outrun_the_throttle() {
    let server = TestServer::start_with(|config| {
        config.auth_burst = 5;
        config.auth_refill = std::time::Duration::from_secs(600);
    })
    .await;
    let family = server.anonymous();
    let tries = (0..60).map(|number| {
        let family = &family;
        async move {
            let token: String = format!("{number:0>43}");
            family
                .get(&format!("/api/public/approve/{token}"))
                .await
                .status()
        }
    });
    let answers = futures_util::future::join_all(tries).await;
    let looked_up = answers
        .iter()
        .filter(|status| **status == StatusCode::NOT_FOUND)
        .count();
    let refused = answers
        .iter()
        .filter(|status| **status == StatusCode::TOO_MANY_REQUESTS)
        .count();
    assert_eq!(looked_up, 5, "{answers:?}");
    assert_eq!(refused, 55);
}
