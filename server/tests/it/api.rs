//! The JSON API over core, screen by screen: success paths, validation with the spec's
//! messages, version conflicts and the pipeline from intake to signed contract.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::support::{
    Session, TestServer, expect_error, expect_json, intake_form, saved_assessment,
};

fn care_plan_input(client: &str) -> Value {
    json!({
        "client_name": client,
        "family_contact_name": "Grace Hopper",
        "family_contact_email": "grace@family.test",
        "services": ["companionship", "meals"],
        "schedule": {"monday": {"time": "9am-1pm", "hours": 4}, "saturday": {"time": "", "hours": 2}},
        "hourly_rate": 30,
    })
}

#[tokio::test]
async fn intake_form_submit_update_conflict_and_draft() {
    let server = TestServer::start().await;
    let staff = server.staff().await;

    let missing = staff
        .post("/api/intakes", json!({"form": {"callerPhone": "555"}}))
        .await;
    let (code, message, body) = expect_error(missing, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(code, "validation");
    assert!(message.starts_with("Missing Required Fields"), "{message}");
    assert_eq!(
        body["error"]["fields"]["callerName"],
        "This field is required"
    );

    let intake = expect_json(
        staff
            .post("/api/intakes", json!({"form": intake_form("Ada Lovelace")}))
            .await,
        StatusCode::OK,
    )
    .await;
    let id = intake["id"].as_str().unwrap().to_owned();
    assert_eq!(intake["status"], "pending");
    assert!(intake["pipeline"].is_object());
    let loaded = staff.ok(&format!("/api/intakes/{id}")).await;
    assert_eq!(loaded["form"]["clientFullName"], "Ada Lovelace");
    // Reading an intake fills its stored form out without parsing it; the answer is the
    // one the save sent from the parsed form, every field of the form included.
    assert_eq!(loaded, intake);
    assert_eq!(loaded["form"]["livingSituationOther"], "");

    let mut form = intake_form("Ada King");
    form["followUpNotes"] = json!("Call back Friday");
    let updated = staff
        .put(
            &format!("/api/intakes/{id}"),
            json!({"version": loaded["version"], "form": form}),
        )
        .await;
    let updated = expect_json(updated, StatusCode::OK).await;
    assert_eq!(updated["client_full_name"], "Ada King");

    // Someone else's save came first: the stale version gets the stored record back.
    let stale = staff
        .put(
            &format!("/api/intakes/{id}"),
            json!({"version": loaded["version"], "form": intake_form("Lost Update")}),
        )
        .await;
    let (code, _, body) = expect_error(stale, StatusCode::CONFLICT).await;
    assert_eq!(code, "conflict");
    assert_eq!(body["current"]["client_full_name"], "Ada King");
    assert_eq!(body["current"]["version"], updated["version"]);

    let draft = expect_json(
        staff.post("/api/intakes/draft", json!({"form": {}})).await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(draft["client_full_name"], "Draft - Unnamed Client");
    let draft_id = draft["id"].as_str().unwrap();
    let redrafted = staff
        .put(
            &format!("/api/intakes/{draft_id}/draft"),
            json!({"version": draft["version"], "form": {"clientFullName": "Later"}}),
        )
        .await;
    assert_eq!(
        expect_json(redrafted, StatusCode::OK).await["client_full_name"],
        "Later"
    );

    let page = staff.ok("/api/intakes?urgency=new").await;
    assert!(page["items"].as_array().unwrap().len() >= 2);
    assert!(page["summary"]["new"].as_i64().unwrap() >= 2);
    let awaiting = staff.ok("/api/intakes/awaiting-assessment").await;
    assert!(!awaiting["items"].as_array().unwrap().is_empty());
    let found = staff.ok("/api/search?q=ada").await;
    assert_eq!(found["items"][0]["client_full_name"], "Ada King");
    assert_eq!(
        staff.ok("/api/search?q=a").await["items"]
            .as_array()
            .unwrap()
            .len(),
        0
    );
    let dashboard = staff.ok("/api/dashboard").await;
    assert!(dashboard["counts"]["new_intakes"].as_i64().unwrap() >= 1);
    assert!(staff.ok("/api/analytics").await["funnel"].is_array());

    let admin = server.admin().await;
    assert_eq!(
        staff.delete(&format!("/api/intakes/{id}")).await.status(),
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        admin.delete(&format!("/api/intakes/{id}")).await.status(),
        StatusCode::NO_CONTENT
    );
    assert!(staff.ok(&format!("/api/intakes/{id}")).await["deleted_at"].is_string());
    let restored = admin
        .post(&format!("/api/intakes/{id}/restore"), json!({}))
        .await;
    assert_eq!(restored.status(), StatusCode::OK);
}

#[tokio::test]
async fn contacts_add_update_conflict_and_delete() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let intake = expect_json(
        staff
            .post("/api/intakes", json!({"form": intake_form("Ada")}))
            .await,
        StatusCode::OK,
    )
    .await;
    let intake_id = intake["id"].as_str().unwrap();

    let nameless = staff
        .post(
            &format!("/api/intakes/{intake_id}/contacts"),
            json!({"full_name": "  "}),
        )
        .await;
    let (_, message, _) = expect_error(nameless, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(message, "Contact name is required");

    let contact = staff
        .post(
            &format!("/api/intakes/{intake_id}/contacts"),
            json!({"full_name": " Bob ", "contact_type": "emergency", "phone": ""}),
        )
        .await;
    let contact = expect_json(contact, StatusCode::OK).await;
    assert_eq!(contact["full_name"], "Bob");
    assert_eq!(contact["phone"], Value::Null);
    let id = contact["id"].as_str().unwrap();
    let update = json!({"version": contact["version"], "full_name": "Robert", "is_primary": true});
    let updated = expect_json(
        staff
            .put(&format!("/api/contacts/{id}"), update.clone())
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(updated["full_name"], "Robert");
    expect_error(
        staff.put(&format!("/api/contacts/{id}"), update).await,
        StatusCode::CONFLICT,
    )
    .await;
    let with_id = json!({"version": updated["version"], "full_name": "R", "id": id});
    expect_error(
        staff.put(&format!("/api/contacts/{id}"), with_id).await,
        StatusCode::BAD_REQUEST,
    )
    .await;

    let list = staff
        .ok(&format!("/api/intakes/{intake_id}/contacts"))
        .await;
    assert_eq!(list["items"].as_array().unwrap().len(), 1);
    // A deletion cannot be undone: staff are refused, an administrator may.
    expect_error(
        staff.delete(&format!("/api/contacts/{id}")).await,
        StatusCode::FORBIDDEN,
    )
    .await;
    let admin = server.admin().await;
    assert_eq!(
        admin.delete(&format!("/api/contacts/{id}")).await.status(),
        StatusCode::NO_CONTENT
    );
    expect_error(
        admin.delete(&format!("/api/contacts/{id}")).await,
        StatusCode::NOT_FOUND,
    )
    .await;
}

/// What the pipeline scenarios build on: the ids of one client's records.
struct Journey {
    intake_id: String,
    assessment_id: String,
    plan_id: String,
    contract_id: String,
}

/// A submitted intake for "Ada Lovelace"; its id.
async fn new_intake(staff: &Session) -> String {
    let intake = expect_json(
        staff
            .post("/api/intakes", json!({"form": intake_form("Ada Lovelace")}))
            .await,
        StatusCode::OK,
    )
    .await;
    intake["id"].as_str().unwrap().to_owned()
}

/// The assessment form pre-filled from the intake, with what it lacks filled in.
async fn complete_assessment_form(staff: &Session, intake_id: &str) -> Value {
    let mut form = staff
        .ok(&format!("/api/assessments/prefill?intake_id={intake_id}"))
        .await;
    form["clientName"] = json!("Ada Lovelace");
    form["phone"] = json!("(217) 555-0100");
    form["coordinatorName"] = json!("Sam Staff");
    form["recommendedServices"] = json!(["Companionship"]);
    form["recommendedHours"] = json!(6);
    form["preferredDays"] = json!(["Monday", "Wednesday"]);
    form
}

/// A completed assessment for a new intake: (intake id, assessment id).
async fn assessed_client(staff: &Session) -> (String, String) {
    let intake_id = new_intake(staff).await;
    let form = complete_assessment_form(staff, &intake_id).await;
    let assessment_id = saved_assessment(staff, &intake_id, form).await;
    (intake_id, assessment_id)
}

/// A care plan saved from the assessment, as the API returned it.
async fn saved_care_plan(staff: &Session, assessment_id: &str) -> Value {
    expect_json(
        staff
            .post(
                "/api/care-plans",
                json!({"assessment_id": assessment_id, "plan": care_plan_input("Ada Lovelace")}),
            )
            .await,
        StatusCode::OK,
    )
    .await
}

/// A care plan emailed to the family and approved; its id.
async fn approved_care_plan(staff: &Session, assessment_id: &str) -> String {
    let plan = saved_care_plan(staff, assessment_id).await;
    let plan_id = plan["id"].as_str().unwrap().to_owned();
    expect_json(
        staff
            .post(
                &format!("/api/care-plans/{plan_id}/send"),
                json!({"to": "grace@family.test", "body": "Our proposal for Ada Lovelace.", "version": staff.version(&format!("/api/care-plans/{plan_id}")).await}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    expect_json(
        staff
            .post(&format!("/api/care-plans/{plan_id}/approve"), json!({}))
            .await,
        StatusCode::OK,
    )
    .await;
    plan_id
}

/// A contract drafted from the approved plan with the previewed text: (record, text).
async fn drafted_contract(staff: &Session, plan_id: &str) -> (Value, String) {
    let preview = staff
        .ok(&format!("/api/contracts/preview?care_plan_id={plan_id}"))
        .await;
    let content = preview["content"].as_str().unwrap().to_owned();
    let contract = expect_json(
        staff
            .post(
                "/api/contracts",
                json!({"care_plan_id": plan_id, "content": content, "care_plan_version": staff.version(&format!("/api/care-plans/{plan_id}")).await}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    (contract, content)
}

/// One client taken from intake to a signed contract, each step sent by email.
async fn signed_journey(staff: &Session) -> Journey {
    let (intake_id, assessment_id) = assessed_client(staff).await;
    let plan_id = approved_care_plan(staff, &assessment_id).await;
    let (contract, _) = drafted_contract(staff, &plan_id).await;
    let contract_id = contract["id"].as_str().unwrap().to_owned();
    expect_json(
        staff
            .post(
                &format!("/api/contracts/{contract_id}/send"),
                json!({"body": "Please sign.", "version": staff.version(&format!("/api/contracts/{contract_id}")).await}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    expect_json(
        staff
            .post(&format!("/api/contracts/{contract_id}/sign"), json!({}))
            .await,
        StatusCode::OK,
    )
    .await;
    Journey {
        intake_id,
        assessment_id,
        plan_id,
        contract_id,
    }
}

#[tokio::test]
async fn an_incomplete_assessment_is_refused_and_a_completed_one_is_counted() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let intake_id = new_intake(&staff).await;

    // Pre-filled from the intake, checked in the spec's order, then saved.
    let prefilled = staff
        .ok(&format!("/api/assessments/prefill?intake_id={intake_id}"))
        .await;
    let incomplete = staff
        .post(
            "/api/assessments",
            json!({"intake_id": intake_id, "form": prefilled}),
        )
        .await;
    let (_, message, _) = expect_error(incomplete, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert!(!message.is_empty());
    let form = complete_assessment_form(&staff, &intake_id).await;
    let assessment = staff
        .post(
            "/api/assessments",
            json!({"intake_id": intake_id, "form": form}),
        )
        .await;
    let assessment = expect_json(assessment, StatusCode::OK).await;
    assert_eq!(assessment["status"], "completed");
    let stats = staff.ok("/api/assessments?status=completed").await;
    assert_eq!(stats["stats"]["completed"], 1);
}

#[tokio::test]
async fn a_completed_assessment_generates_a_draft_care_plan_at_the_default_rate() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let (_, assessment_id) = assessed_client(&staff).await;
    let generated = staff
        .post(
            &format!("/api/assessments/{assessment_id}/care-plan"),
            json!({}),
        )
        .await;
    let generated = expect_json(generated, StatusCode::OK).await;
    assert_eq!(
        (
            generated["status"].as_str(),
            generated["hourly_rate"].as_f64()
        ),
        (Some("draft"), Some(25.0))
    );
    let prefill = staff
        .ok(&format!(
            "/api/care-plans/prefill?assessment_id={assessment_id}"
        ))
        .await;
    assert_eq!(prefill["assessment_id"], assessment_id);
}

#[tokio::test]
async fn a_care_plan_is_validated_then_saved_with_its_weekly_cost_and_edited() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let (_, assessment_id) = assessed_client(&staff).await;
    let invalid = staff
        .post(
            "/api/care-plans",
            json!({"plan": {"client_name": "", "services": []}}),
        )
        .await;
    let (_, message, _) = expect_error(invalid, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(
        message,
        "Client name and family email are required for sending the care plan."
    );
    let plan = saved_care_plan(&staff, &assessment_id).await;
    let plan_id = plan["id"].as_str().unwrap();
    assert_eq!(plan["weekly_cost"], 180.0);
    let mut edited = care_plan_input("Ada Lovelace");
    edited["hourly_rate"] = json!(32);
    let plan = expect_json(
        staff
            .put(
                &format!("/api/care-plans/{plan_id}"),
                json!({"version": plan["version"], "plan": edited}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(plan["hourly_rate"], 32.0);
}

#[tokio::test]
async fn a_care_plan_is_drafted_as_a_marketing_email_sent_and_approved() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let (_, assessment_id) = assessed_client(&staff).await;
    let plan = saved_care_plan(&staff, &assessment_id).await;
    let plan_id = plan["id"].as_str().unwrap();

    let marketing = staff
        .post(
            &format!("/api/care-plans/{plan_id}/marketing-email"),
            json!({}),
        )
        .await;
    let marketing = expect_json(marketing, StatusCode::OK).await;
    assert_eq!(marketing["subject"], "Home Care Proposal");
    let text = marketing["generated_text"].as_str().unwrap();
    assert!(
        text.contains("Ada Lovelace") && text.contains("Friendly Companionship"),
        "{text}"
    );

    let empty = staff
        .post(
            &format!("/api/care-plans/{plan_id}/send"),
            json!({"to": "", "body": "", "version": staff.version(&format!("/api/care-plans/{plan_id}")).await}),
        )
        .await;
    let (_, message, _) = expect_error(empty, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(message, "Please provide recipient email and email content.");
    let sent = staff
        .post(
            &format!("/api/care-plans/{plan_id}/send"),
            json!({"to": "grace@family.test", "body": text, "version": staff.version(&format!("/api/care-plans/{plan_id}")).await}),
        )
        .await;
    let sent = expect_json(sent, StatusCode::OK).await;
    assert_eq!(sent["communication"]["status"], "sent");
    assert_eq!(sent["communication"]["subject"], "Home Care Proposal");
    assert!(sent["communication"]["metadata"]["email_id"].is_string());
    assert_eq!(sent["care_plan"]["status"], "sent");
    assert_eq!(
        staff.ok("/api/care-plans/sendable").await["items"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let approved = expect_json(
        staff
            .post(&format!("/api/care-plans/{plan_id}/approve"), json!({}))
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(approved["status"], "approved");
    assert!(
        staff.ok("/api/care-plans?status=approved").await["items"]
            .as_array()
            .unwrap()
            .len()
            == 1
    );
}

#[tokio::test]
async fn a_contract_is_previewed_edited_sent_and_signed_only_once_sent() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let (_, assessment_id) = assessed_client(&staff).await;
    let plan_id = approved_care_plan(&staff, &assessment_id).await;
    let (contract, content) = drafted_contract(&staff, &plan_id).await;
    assert!(content.contains("Ada Lovelace"));
    let contract_id = contract["id"].as_str().unwrap().to_owned();
    let contract = staff
        .put(
            &format!("/api/contracts/{contract_id}"),
            json!({"version": contract["version"], "content": format!("{content}\nExtra clause.")}),
        )
        .await;
    let contract = expect_json(contract, StatusCode::OK).await;
    let early_sign = staff
        .post(&format!("/api/contracts/{contract_id}/sign"), json!({}))
        .await;
    expect_error(early_sign, StatusCode::UNPROCESSABLE_ENTITY).await;
    let sent = staff
        .post(
            &format!("/api/contracts/{contract_id}/send"),
            json!({"body": "Please sign.", "version": staff.version(&format!("/api/contracts/{contract_id}")).await}),
        )
        .await;
    let sent = expect_json(sent, StatusCode::OK).await;
    assert_eq!(
        sent["communication"]["subject"],
        "Home Care Service Agreement - Ready for Signature"
    );
    assert_eq!(sent["contract"]["status"], "sent");
    let stale = staff
        .put(
            &format!("/api/contracts/{contract_id}"),
            json!({"version": contract["version"], "content": "x"}),
        )
        .await;
    assert!(matches!(
        stale.status(),
        StatusCode::CONFLICT | StatusCode::UNPROCESSABLE_ENTITY
    ));
    let signed = expect_json(
        staff
            .post(&format!("/api/contracts/{contract_id}/sign"), json!({}))
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(signed["status"], "signed");
    let contracts = staff.ok("/api/contracts?status=signed").await;
    assert_eq!(contracts["stats"]["signed_this_month"], 1);
}

#[tokio::test]
async fn the_profile_timeline_and_outbox_show_a_signed_clients_whole_journey() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let journey = signed_journey(&staff).await;
    let intake_id = &journey.intake_id;
    let profile = staff.ok(&format!("/api/clients/{intake_id}")).await;
    assert_eq!(profile["contract"]["status"], "signed");
    let clients = staff.ok("/api/clients?stage=contract").await;
    assert_eq!(clients["counts"]["contract"], 1);
    // The list row: every dot filled, the stage, the signed status and the contract's form.
    let row = &clients["items"][0];
    assert_eq!(row["id"], intake_id.as_str());
    assert_eq!(
        row["journey_done"],
        serde_json::json!(["intake", "assessment", "care_plan", "contract"])
    );
    assert_eq!(row["stage"], "contract");
    assert_eq!(row["pipeline"]["label"], "Active Patient");
    assert_eq!(
        row["view_route"],
        format!("/contracts/new?contract_id={}", journey.contract_id)
    );
    // What the list does not show is not sent.
    for absent in [
        "caller_email",
        "services_required",
        "created_at",
        "overdue_at",
    ] {
        assert!(row.get(absent).is_none(), "{absent} is sent");
    }
    assert!(row["pipeline"].get("next_route").is_none());
    let timeline = staff
        .ok(&format!("/api/communications?intake_id={intake_id}"))
        .await;
    assert!(timeline["items"].as_array().unwrap().len() >= 2);
    let hub = staff
        .ok("/api/communications/hub?type=email&status=sent")
        .await;
    assert!(hub["items"].as_array().unwrap().len() >= 2);
    // The proposal and the contract, one email each.
    let outbox = staff.ok("/api/outbox").await;
    assert_eq!(outbox["items"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn only_an_administrator_deletes_and_restores_assessments_care_plans_and_contracts() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let Journey {
        assessment_id,
        plan_id,
        contract_id,
        ..
    } = signed_journey(&staff).await;
    let admin = server.admin().await;
    for (path, restore) in [
        (
            format!("/api/contracts/{contract_id}"),
            format!("/api/contracts/{contract_id}/restore"),
        ),
        (
            format!("/api/care-plans/{plan_id}"),
            format!("/api/care-plans/{plan_id}/restore"),
        ),
        (
            format!("/api/assessments/{assessment_id}"),
            format!("/api/assessments/{assessment_id}/restore"),
        ),
    ] {
        assert_eq!(
            staff.delete(&path).await.status(),
            StatusCode::FORBIDDEN,
            "{path}"
        );
        assert_eq!(
            admin.delete(&path).await.status(),
            StatusCode::NO_CONTENT,
            "{path}"
        );
        assert!(
            staff.ok(&path).await["deleted_at"].is_string(),
            "{path} is marked deleted"
        );
        assert_eq!(
            staff.post(&restore, json!({})).await.status(),
            StatusCode::FORBIDDEN
        );
        assert_eq!(
            admin.post(&restore, json!({})).await.status(),
            StatusCode::OK,
            "{restore}"
        );
    }
}

#[tokio::test]
async fn notes_calls_and_their_validation() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let intake = expect_json(
        staff
            .post("/api/intakes", json!({"form": intake_form("Ada")}))
            .await,
        StatusCode::OK,
    )
    .await;
    let intake_id = intake["id"].as_str().unwrap();
    let (_, message, _) = expect_error(
        staff
            .post(
                "/api/communications/notes",
                json!({"intake_id": intake_id, "content": ""}),
            )
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(message, "Please enter a note");
    let note = expect_json(
        staff
            .post(
                "/api/communications/notes",
                json!({"intake_id": intake_id, "content": "Called"}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(
        (note["visibility"].as_str(), note["status"].as_str()),
        (Some("internal"), Some("sent"))
    );
    let (_, message, _) = expect_error(
        staff
            .post("/api/communications/calls", json!({"intake_id": intake_id}))
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(message, "Please fill in phone number and notes");
    let call = staff
        .post(
            "/api/communications/calls",
            json!({"intake_id": intake_id, "phone": "555", "notes": "ok", "duration": "5 min"}),
        )
        .await;
    assert_eq!(
        expect_json(call, StatusCode::OK).await["visibility"],
        "client"
    );
    let (_, message, _) = expect_error(
        staff
            .post(
                "/api/communications/email",
                json!({"to": "", "subject": "", "body": ""}),
            )
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(message, "Please fill in all fields");
    let internal = staff
        .ok(&format!(
            "/api/communications?intake_id={intake_id}&visibility=internal"
        ))
        .await;
    assert_eq!(internal["items"].as_array().unwrap().len(), 1);
    let (_, message, _) = expect_error(
        staff
            .post(
                "/api/ai/draft",
                json!({"message_type": "note", "user_input": ""}),
            )
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(message, "Please enter what you'd like the note to say");
    let draft = staff.post("/api/ai/draft", json!({"message_type": "email", "user_input": "Confirm the visit", "intake_id": intake_id})).await;
    let draft = expect_json(draft, StatusCode::OK).await;
    // Without an AI service the built-in writer writes the client's stage's letter from
    // the facts: what staff typed is an instruction to a writer, not words for the family.
    let text = draft["generated_text"].as_str().unwrap();
    assert!(
        text.starts_with("Dear ") && text.contains("in-home assessment"),
        "{text}"
    );
    assert!(!text.contains("Confirm the visit"), "{text}");
}

#[tokio::test]
async fn templates_settings_and_users() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let (_, message, _) = expect_error(
        staff
            .post("/api/message-templates", json!({"name": ""}))
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(message, "Please fill in required fields");
    let template = staff.post("/api/message-templates", json!({"name": "Welcome", "message_type": "sms", "ai_prompt_template": "Greet {client_name}"})).await;
    let template = expect_json(template, StatusCode::OK).await;
    let id = template["id"].as_str().unwrap();
    let updated = staff.put(&format!("/api/message-templates/{id}"), json!({"version": template["version"], "template": {"name": "Hello", "ai_prompt_template": "Hi"}})).await;
    assert_eq!(expect_json(updated, StatusCode::OK).await["name"], "Hello");
    assert_eq!(
        staff.ok("/api/message-templates").await["items"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    assert_eq!(
        staff
            .delete(&format!("/api/message-templates/{id}"))
            .await
            .status(),
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        server
            .admin()
            .await
            .delete(&format!("/api/message-templates/{id}"))
            .await
            .status(),
        StatusCode::NO_CONTENT
    );

    let (_, message, _) = expect_error(
        staff
            .post("/api/pricing-templates", json!({"name": "X"}))
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(message, "Please fill in template name and base rate");
    let pricing = expect_json(
        staff
            .post(
                "/api/pricing-templates",
                json!({"name": "Basic", "base_rate": 30}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    let pricing_id = pricing["id"].as_str().unwrap();
    let stale = staff
        .put(
            &format!("/api/pricing-templates/{pricing_id}"),
            json!({"version": 99, "template": {"name": "Basic", "base_rate": 31}}),
        )
        .await;
    expect_error(stale, StatusCode::CONFLICT).await;

    let contract_template = staff.ok("/api/contract-template").await;
    assert!(!contract_template["sections"].as_array().unwrap().is_empty());
    let input =
        json!({"name": contract_template["name"], "sections": contract_template["sections"]});
    let saved = staff
        .put(
            "/api/contract-template",
            json!({"version": contract_template["version"], "template": input}),
        )
        .await;
    assert_eq!(saved.status(), StatusCode::OK);
    let version = expect_json(
        staff.post("/api/contract-template/versions", input).await,
        StatusCode::OK,
    )
    .await;
    assert_ne!(
        version["template_version"],
        contract_template["template_version"]
    );
    assert!(
        staff.ok("/api/contract-template/versions").await["items"]
            .as_array()
            .unwrap()
            .len()
            >= 2
    );

    let settings = staff.ok("/api/settings").await;
    // The answer names what the screen shows read-only to staff, and the numbers' bounds.
    assert_eq!(
        settings["admin_only"]["email"],
        json!(["default_from", "reply_to", "default_cc", "bcc"])
    );
    assert_eq!(
        settings["admin_only"]["sms"],
        json!(["default_sender_number"])
    );
    assert_eq!(
        settings["bounds"]["workflow"]["signing_link_days"],
        json!({"min": 1, "max": 90})
    );
    let version = settings["versions"]["email"].as_i64().unwrap_or(0);
    let values = json!({"default_from": "office@agency.test", "reply_to": "reply@agency.test", "signature": "", "default_cc": "", "bcc": ["records@agency.test"]});
    // Where emails go is the administrators' to change.
    let refused = staff
        .put(
            "/api/settings",
            json!({"version": version, "tab": "email", "values": values}),
        )
        .await;
    expect_error(refused, StatusCode::FORBIDDEN).await;
    let admin = server.admin().await;
    let saved = admin
        .put(
            "/api/settings",
            json!({"version": version, "tab": "email", "values": values}),
        )
        .await;
    let saved = expect_json(saved, StatusCode::OK).await;
    assert_eq!(saved["email"]["reply_to"], "reply@agency.test");
    // A staff member may still change what is theirs to change: the signature.
    let mut signed = values.clone();
    signed["signature"] = json!("Best, Sam");
    let saved = staff
        .put(
            "/api/settings",
            json!({"version": version + 1, "tab": "email", "values": signed}),
        )
        .await;
    assert_eq!(
        expect_json(saved, StatusCode::OK).await["email"]["signature"],
        "Best, Sam"
    );
    let stale = admin
        .put(
            "/api/settings",
            json!({"version": version, "tab": "email", "values": values}),
        )
        .await;
    expect_error(stale, StatusCode::CONFLICT).await;
    let unknown = staff
        .put(
            "/api/settings",
            json!({"version": 0, "tab": "email", "values": {"smtp_password": "x"}}),
        )
        .await;
    expect_error(unknown, StatusCode::BAD_REQUEST).await;
    let (_, message, _) = expect_error(
        staff.put("/api/settings", json!({"version": settings["versions"]["workflow"].as_i64().unwrap_or(0), "tab": "workflow", "values": {"idle_timeout_minutes": 0}})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(message, "Automatic log-off must be at least 1 minute");

    assert_eq!(
        staff.ok("/api/users").await["items"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    let admin = server.admin().await;
    let users = admin.ok("/api/admin/users").await;
    assert_eq!(users["items"].as_array().unwrap().len(), 2);
    let created = admin
        .post(
            "/api/admin/users",
            json!({"email": "third@agency.test", "full_name": "Third", "password": "third-secret"}),
        )
        .await;
    let created = expect_json(created, StatusCode::OK).await;
    let created_id = created["id"].as_str().unwrap();
    let promoted = admin
        .put(
            &format!("/api/admin/users/{created_id}/admin"),
            json!({"is_admin": true}),
        )
        .await;
    assert_eq!(
        expect_json(promoted, StatusCode::OK).await["is_admin"],
        true
    );
    let third = server.sign_in(("third@agency.test", "third-secret")).await;
    let disabled = admin
        .post(&format!("/api/admin/users/{created_id}/disable"), json!({}))
        .await;
    assert_eq!(
        expect_json(disabled, StatusCode::OK).await["disabled"],
        true
    );
    assert_eq!(
        third.get("/api/auth/me").await.status(),
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn csv_downloads_stream_core_exports() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let form = intake_form("Smith, \"Ada\"");
    expect_json(
        staff.post("/api/intakes", json!({"form": form})).await,
        StatusCode::OK,
    )
    .await;

    let response = staff.get("/api/intakes/export.csv").await;
    assert_eq!(response.status(), StatusCode::OK);
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/csv")
    );
    let disposition = response.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(
        disposition.starts_with("attachment; filename=\"intakes_")
            && disposition.ends_with(".csv\""),
        "{disposition}"
    );
    let text = response.text().await.unwrap();
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(
        text.contains("\"Smith, \"\"Ada\"\"\""),
        "quoted as the spec says: {text}"
    );

    for kind in [
        "clients",
        "assessments",
        "care-plans",
        "contracts",
        "communications",
        "contacts",
    ] {
        let response = staff.get(&format!("/api/{kind}/export.csv")).await;
        assert_eq!(response.status(), StatusCode::OK, "{kind}");
        assert!(
            !response.text().await.unwrap().is_empty(),
            "{kind} has its header row"
        );
    }
    // The list exports take their list's filters.
    expect_json(
        staff
            .post("/api/intakes", json!({"form": intake_form("Jones Other")}))
            .await,
        StatusCode::OK,
    )
    .await;
    let count_rows = |text: String| text.lines().count() - 1;
    for (query, rows) in [
        ("", 2),
        ("?q=Smith", 1),
        ("?stage=intake&q=Jones", 1),
        ("?stage=assessment", 0),
        ("?urgency=on_track", 2),
        ("?urgency=overdue", 0),
    ] {
        let response = staff.get(&format!("/api/clients/export.csv{query}")).await;
        assert_eq!(response.status(), StatusCode::OK, "{query}");
        assert_eq!(count_rows(response.text().await.unwrap()), rows, "{query}");
    }
    let drafts = staff
        .get("/api/assessments/export.csv?status=completed&q=Smith")
        .await;
    assert_eq!(count_rows(drafts.text().await.unwrap()), 0);
    expect_error(
        staff.get("/api/clients/export.csv?stage=patients").await,
        StatusCode::BAD_REQUEST,
    )
    .await;

    let recent = staff.get("/api/intakes/export.csv?since=7d").await;
    assert_eq!(recent.text().await.unwrap().lines().count(), 3);
    expect_error(
        staff.get("/api/intakes/export.csv?since=someday").await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    expect_error(
        staff
            .get("/api/intakes/export.csv?include_deleted=true")
            .await,
        StatusCode::FORBIDDEN,
    )
    .await;
    let admin = server.admin().await;
    assert_eq!(
        admin
            .get("/api/intakes/export.csv?include_deleted=true")
            .await
            .status(),
        StatusCode::OK
    );
}

#[tokio::test]
async fn assessment_drafts_updates_and_contract_template_versions() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let draft = expect_json(
        staff
            .post("/api/assessments/draft", json!({"form": {}}))
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(
        (draft["status"].as_str(), draft["client_name"].as_str()),
        (Some("draft"), Some("Draft Assessment"))
    );
    let id = draft["id"].as_str().unwrap();
    let redraft = staff
        .put(
            &format!("/api/assessments/{id}/draft"),
            json!({"version": draft["version"], "form": {"clientName": "Ada"}}),
        )
        .await;
    let redraft = expect_json(redraft, StatusCode::OK).await;
    assert_eq!(redraft["client_name"], "Ada");
    let incomplete = staff
        .put(
            &format!("/api/assessments/{id}"),
            json!({"version": redraft["version"], "form": {"clientName": "Ada"}}),
        )
        .await;
    let (_, message, _) = expect_error(incomplete, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(
        message,
        "Client name and phone number are required for messaging purposes."
    );
    let stale = staff
        .put(
            &format!("/api/assessments/{id}/draft"),
            json!({"version": draft["version"], "form": {}}),
        )
        .await;
    expect_error(stale, StatusCode::CONFLICT).await;
    let save_first = staff
        .post(&format!("/api/assessments/{id}/care-plan"), json!({}))
        .await;
    assert_eq!(save_first.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        staff.ok("/api/assessments?status=draft").await["stats"]["pending"],
        1
    );

    let first = staff.ok("/api/contract-template").await;
    let input = json!({"name": "Agreement v2", "sections": first["sections"]});
    let second = expect_json(
        staff
            .post("/api/contract-template/versions", input.clone())
            .await,
        StatusCode::OK,
    )
    .await;
    let third = expect_json(
        staff.post("/api/contract-template/versions", input).await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(staff.ok("/api/contract-template").await["id"], third["id"]);
    let back = staff
        .post(
            &format!(
                "/api/contract-template/versions/{}/use",
                second["id"].as_str().unwrap()
            ),
            json!({}),
        )
        .await;
    assert_eq!(expect_json(back, StatusCode::OK).await["id"], second["id"]);
    assert_eq!(staff.ok("/api/contract-template").await["id"], second["id"]);
    let mut without_required = first["sections"].as_array().unwrap().clone();
    without_required.retain(|section| section["required"] == false);
    let removed = staff
        .post(
            "/api/contract-template/versions",
            json!({"name": "Bad", "sections": without_required}),
        )
        .await;
    let (_, message, _) = expect_error(removed, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(message, "This is a required section and cannot be removed.");
}

#[tokio::test]
async fn printable_pdfs_come_from_core() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let intake = expect_json(
        staff
            .post("/api/intakes", json!({"form": intake_form("Ada Lovelace")}))
            .await,
        StatusCode::OK,
    )
    .await;
    let plan = json!({"plan": care_plan_input("Ada Lovelace")});
    let plan = expect_json(staff.post("/api/care-plans", plan).await, StatusCode::OK).await;
    for path in [
        format!("/api/intakes/{}/pdf", intake["id"].as_str().unwrap()),
        format!("/api/care-plans/{}/pdf", plan["id"].as_str().unwrap()),
    ] {
        let response = staff.get(&path).await;
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        assert_eq!(response.headers()["content-type"], "application/pdf");
        assert!(
            response.headers()["content-disposition"]
                .to_str()
                .unwrap()
                .starts_with("inline; filename=")
        );
        let bytes = response.bytes().await.unwrap();
        assert!(bytes.starts_with(b"%PDF"), "{path}");
    }
    expect_error(
        staff
            .get("/api/contracts/01a20000-0000-7000-8000-000000000000/pdf")
            .await,
        StatusCode::NOT_FOUND,
    )
    .await;
}

#[tokio::test]
async fn a_send_acts_on_the_version_on_screen_and_a_stale_one_is_refused() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let (_, assessment_id) = assessed_client(&staff).await;
    let plan = saved_care_plan(&staff, &assessment_id).await;
    let plan_id = plan["id"].as_str().unwrap();
    let seen = plan["version"].clone();

    // Another tab raises the rate after this screen loaded the plan.
    let mut raised = care_plan_input("Ada Lovelace");
    raised["hourly_rate"] = json!(32);
    let raised = expect_json(
        staff
            .put(
                &format!("/api/care-plans/{plan_id}"),
                json!({"version": seen, "plan": raised}),
            )
            .await,
        StatusCode::OK,
    )
    .await;

    let stale = staff
        .post(
            &format!("/api/care-plans/{plan_id}/send"),
            json!({"to": "grace@family.test", "body": "Our proposal.", "version": seen}),
        )
        .await;
    let (code, _, body) = expect_error(stale, StatusCode::CONFLICT).await;
    assert_eq!(code, "conflict");
    assert_eq!(body["current"]["hourly_rate"], 32.0);
    assert_eq!(body["current"]["status"], "draft");
    assert!(
        crate::support::outbox_emails(&server).is_empty(),
        "a refused send emails nobody"
    );

    expect_json(
        staff
            .post(
                &format!("/api/care-plans/{plan_id}/send"),
                json!({"to": "grace@family.test", "body": "Our proposal.", "version": raised["version"]}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    let sent = staff.ok(&format!("/api/care-plans/{plan_id}")).await;
    assert_eq!(
        (sent["status"].as_str(), sent["hourly_rate"].as_f64()),
        (Some("sent"), Some(32.0))
    );

    // A contract generated from a preview of an older version of the plan is refused too.
    let sent_version = staff.version(&format!("/api/care-plans/{plan_id}")).await;
    let preview = staff
        .ok(&format!("/api/contracts/preview?care_plan_id={plan_id}"))
        .await;
    let stale = staff
        .post(
            "/api/contracts",
            json!({"care_plan_id": plan_id, "content": preview["content"], "care_plan_version": sent_version - 1}),
        )
        .await;
    expect_error(stale, StatusCode::CONFLICT).await;

    let (contract, _) = drafted_contract(&staff, plan_id).await;
    let contract_id = contract["id"].as_str().unwrap();
    let edited = expect_json(
        staff
            .put(
                &format!("/api/contracts/{contract_id}"),
                json!({"version": contract["version"], "content": "Edited agreement for Ada Lovelace."}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    let stale = staff
        .post(
            &format!("/api/contracts/{contract_id}/send"),
            json!({"body": "Please sign.", "version": contract["version"]}),
        )
        .await;
    let (_, _, body) = expect_error(stale, StatusCode::CONFLICT).await;
    assert_eq!(body["current"]["version"], edited["version"]);
    assert_eq!(body["current"]["status"], "draft");
}

#[tokio::test]
async fn big_answers_travel_compressed_and_small_ones_plain() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    for n in 0..30 {
        expect_json(
            staff
                .post(
                    "/api/intakes",
                    json!({"form": intake_form(&format!("Compressed Client {n}"))}),
                )
                .await,
            StatusCode::OK,
        )
        .await;
    }
    let encoded = |path: &'static str, accept: &'static str| {
        staff
            .request(reqwest::Method::GET, path)
            .header("accept-encoding", accept)
            .send()
    };
    let list = encoded("/api/clients?limit=50", "br, gzip").await.unwrap();
    assert_eq!(list.headers()["content-encoding"], "br");
    assert!(
        list.headers()["vary"]
            .to_str()
            .unwrap()
            .contains("accept-encoding")
    );
    let list = encoded("/api/clients?limit=50", "gzip").await.unwrap();
    assert_eq!(list.headers()["content-encoding"], "gzip");
    let small = encoded("/api/health", "br, gzip").await.unwrap();
    assert!(small.headers().get("content-encoding").is_none());
    assert_eq!(small.text().await.unwrap(), r#"{"status":"ok"}"#);
}
