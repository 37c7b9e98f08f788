//! The care plan and contract moves as the web app makes them: quotes, Update Mode, the
//! proposal and contract emails with their PDFs (read back from the outbox), the
//! timeline's system events, and losing and reopening a lead.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::support::{
    Session, TestServer, expect_error, expect_json, intake_form, saved_assessment,
};

/// An intake with a completed assessment: (intake id, assessment id).
async fn assessed_client(staff: &Session, name: &str) -> (String, String) {
    let intake = expect_json(
        staff
            .post("/api/intakes", json!({"form": intake_form(name)}))
            .await,
        StatusCode::OK,
    )
    .await;
    let intake_id = intake["id"].as_str().unwrap().to_owned();
    let mut form = staff
        .ok(&format!("/api/assessments/prefill?intake_id={intake_id}"))
        .await;
    form["clientName"] = json!(name);
    form["phone"] = json!("(217) 555-0100");
    form["coordinatorName"] = json!("Sam Staff");
    form["recommendedServices"] = json!(["Companionship"]);
    form["recommendedHours"] = json!(6);
    form["preferredDays"] = json!(["Monday", "Wednesday"]);
    let assessment_id = saved_assessment(staff, &intake_id, form).await;
    (intake_id, assessment_id)
}

fn plan_input(name: &str) -> Value {
    json!({
        "client_name": name,
        "family_contact_name": "Grace Hopper",
        "family_contact_email": "grace@family.test",
        "services": ["companionship"],
        "schedule": {"monday": {"time": "9am-1pm", "hours": 4}, "saturday": {"time": "", "hours": 2}},
        "hourly_rate": 30,
    })
}

/// Standard base64 (with padding, line breaks ignored), enough to read a MIME part.
fn base64_decode(text: &str) -> Vec<u8> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::new();
    let (mut buffer, mut bits) = (0u32, 0u32);
    for byte in text
        .bytes()
        .filter(|b| !b.is_ascii_whitespace() && *b != b'=')
    {
        let value = ALPHABET
            .iter()
            .position(|c| *c == byte)
            .expect("a base64 character") as u32;
        buffer = (buffer << 6) | value;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((buffer >> bits) as u8);
        }
    }
    out
}

/// The decoded bytes of the attachment whose file name starts with `prefix`.
fn attachment(eml: &str, prefix: &str) -> Option<Vec<u8>> {
    let start = eml.find(&format!("filename=\"{prefix}"))?;
    let part = &eml[start..];
    let body_start = part.find("\r\n\r\n")? + 4;
    let body = &part[body_start..];
    let end = body.find("\r\n--").unwrap_or(body.len());
    Some(base64_decode(&body[..end]))
}

fn header<'a>(eml: &'a str, name: &str) -> Option<&'a str> {
    let head = eml.split("\r\n\r\n").next()?;
    head.lines()
        .find_map(|line| line.strip_prefix(&format!("{name}: ")))
}

/// The family's email whose subject is `subject`: it carries the family's personal
/// link, so the outbox keeps it in its private folder.
fn family_email(server: &TestServer, subject: &str) -> String {
    let matching: Vec<String> = crate::support::private_outbox_emails(server)
        .into_iter()
        .filter(|eml| header(eml, "Subject") == Some(subject))
        .collect();
    assert_eq!(matching.len(), 1, "one family email with subject {subject}");
    matching.into_iter().next().unwrap()
}

/// The copy of that email for the Settings' copy and blind-copy addresses (no link).
fn settings_copy(server: &TestServer, subject: &str) -> String {
    let matching: Vec<String> = crate::support::outbox_emails(server)
        .into_iter()
        .filter(|eml| header(eml, "Subject") == Some(subject))
        .filter(|eml| crate::support::readable(eml).contains("A copy of the email sent to"))
        .collect();
    assert_eq!(matching.len(), 1, "one copy with subject {subject}");
    matching.into_iter().next().unwrap()
}

#[tokio::test]
async fn proposal_and_contract_emails_carry_their_pdfs_and_each_move_is_in_the_timeline() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let settings = staff.ok("/api/settings").await;
    let values = json!({
        "default_from": "office@agency.test",
        "reply_to": "replies@agency.test",
        "signature": "",
        "default_cc": "",
        "bcc": ["records@agency.test", "owner@agency.test"],
    });
    let admin = server.admin().await;
    let saved = admin
        .put(
            "/api/settings",
            json!({"version": settings["versions"]["email"], "tab": "email", "values": values}),
        )
        .await;
    assert_eq!(saved.status(), StatusCode::OK);

    let (intake_id, assessment_id) = assessed_client(&staff, "Ada Lovelace").await;
    let plan = expect_json(
        staff
            .post(
                "/api/care-plans",
                json!({"assessment_id": assessment_id, "plan": plan_input("Ada Lovelace")}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    let plan_id = plan["id"].as_str().unwrap().to_owned();
    let sent = expect_json(
        staff
            .post(
                &format!("/api/care-plans/{plan_id}/send"),
                json!({"to": "grace@family.test", "body": "Dear Grace, here is the plan.", "version": staff.version(&format!("/api/care-plans/{plan_id}")).await}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(sent["communication"]["status"], "sent", "{sent}");
    assert_eq!(sent["care_plan"]["status"], "sent");
    let listed = &sent["communication"]["metadata"]["attachments"][0];
    assert!(listed["size"].as_u64().unwrap() > 1000, "{listed}");

    let proposal = family_email(&server, "Home Care Proposal");
    assert_eq!(header(&proposal, "Reply-To"), Some("replies@agency.test"));
    // The family's link goes to the family alone; the blind copies get a copy without it.
    let envelope = header(&proposal, "X-Envelope-To").unwrap_or_default();
    assert!(envelope.contains("grace@family.test"), "{envelope}");
    assert!(!envelope.contains("records@agency.test"), "{envelope}");
    let copy = settings_copy(&server, "Home Care Proposal");
    assert_eq!(header(&copy, "Reply-To"), Some("replies@agency.test"));
    let envelope = header(&copy, "X-Envelope-To").unwrap_or_default();
    for address in ["records@agency.test", "owner@agency.test"] {
        assert!(envelope.contains(address), "{address} in {envelope}");
    }
    assert!(!envelope.contains("grace@family.test"), "{envelope}");
    assert!(attachment(&copy, "care-plan.pdf").is_some());
    for email in [&proposal, &copy] {
        assert!(
            !email.to_ascii_lowercase().contains("\r\nbcc:"),
            "blind copies stay out of the headers"
        );
    }
    assert!(proposal.contains("Dear Grace, here is the plan."));
    let pdf = attachment(&proposal, "care-plan.pdf").expect("the proposal letter is attached");
    assert!(pdf.starts_with(b"%PDF"), "a PDF");
    let outbox = staff.ok("/api/outbox").await;
    let previews: Vec<&str> = outbox["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|item| item["preview"].as_str())
        .collect();
    assert!(
        previews
            .iter()
            .any(|preview| preview.starts_with("Dear Grace, here is the plan."))
            && previews
                .iter()
                .all(|preview| !preview.contains("Content-Type")),
        "the listing previews the text, not the MIME parts: {previews:?}"
    );

    let approved = staff
        .post(&format!("/api/care-plans/{plan_id}/approve"), json!({}))
        .await;
    assert_eq!(
        expect_json(approved, StatusCode::OK).await["status"],
        "approved"
    );
    let preview = staff
        .ok(&format!("/api/contracts/preview?care_plan_id={plan_id}"))
        .await;
    let contract = expect_json(
        staff
            .post(
                "/api/contracts",
                json!({"care_plan_id": plan_id, "content": preview["content"], "care_plan_version": staff.version(&format!("/api/care-plans/{plan_id}")).await}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    let contract_id = contract["id"].as_str().unwrap().to_owned();
    let sent = expect_json(
        staff
            .post(
                &format!("/api/contracts/{contract_id}/send"),
                json!({"body": "Please sign the agreement.", "version": staff.version(&format!("/api/contracts/{contract_id}")).await}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(sent["contract"]["status"], "sent", "{sent}");
    let agreement = family_email(&server, "Home Care Service Agreement - Ready for Signature");
    let pdf = attachment(&agreement, "contract.pdf").expect("the contract is attached");
    assert!(pdf.starts_with(b"%PDF"));
    let copy = settings_copy(&server, "Home Care Service Agreement - Ready for Signature");
    assert!(
        header(&copy, "X-Envelope-To")
            .unwrap_or_default()
            .contains("owner@agency.test")
    );
    let signed = staff
        .post(&format!("/api/contracts/{contract_id}/sign"), json!({}))
        .await;
    assert_eq!(
        expect_json(signed, StatusCode::OK).await["status"],
        "signed"
    );

    let timeline = staff
        .ok(&format!("/api/communications?intake_id={intake_id}"))
        .await;
    let mut events: Vec<&str> = timeline["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|item| item["communication_type"] == "system_event")
        .map(|item| item["content"].as_str().unwrap())
        .collect();
    events.reverse();
    assert_eq!(
        events,
        [
            "Assessment completed",
            "Care plan created",
            "Care plan proposal sent to the family",
            "Care plan approved by the family",
            "Contract created",
            "Contract sent for signature",
            "Contract signed: the client is now an Active Patient",
        ]
    );
    let profile = staff.ok(&format!("/api/clients/{intake_id}")).await;
    assert_eq!(profile["intake"]["pipeline"]["label"], "Active Patient");
}

#[tokio::test]
async fn a_send_the_document_cannot_take_is_refused_before_any_email_goes_out() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let (_, assessment_id) = assessed_client(&staff, "Alan Turing").await;
    let plan = expect_json(
        staff
            .post(
                "/api/care-plans",
                json!({"assessment_id": assessment_id, "plan": plan_input("Alan Turing")}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    let plan_id = plan["id"].as_str().unwrap();
    let _ = staff
        .post(
            &format!("/api/care-plans/{plan_id}/send"),
            json!({"to": "grace@family.test", "body": "Plan", "version": staff.version(&format!("/api/care-plans/{plan_id}")).await}),
        )
        .await;
    let approved = staff
        .post(&format!("/api/care-plans/{plan_id}/approve"), json!({}))
        .await;
    assert_eq!(approved.status(), StatusCode::OK);
    let again = staff
        .post(
            &format!("/api/care-plans/{plan_id}/send"),
            json!({"to": "grace@family.test", "body": "Plan again", "version": staff.version(&format!("/api/care-plans/{plan_id}")).await}),
        )
        .await;
    let (code, _, _) = expect_error(again, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(code, "invalid_transition");
    assert_eq!(
        crate::support::private_outbox_emails(&server).len(),
        1,
        "only the first send reached the outbox"
    );
}

#[tokio::test]
async fn quotes_price_a_schedule_like_the_save_and_refuse_unknown_templates() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let standard = expect_json(
        staff
            .post(
                "/api/pricing-templates",
                json!({"name": "Standard Companion Care", "base_rate": 28.5,
                    "premiums": {"weekend": 2, "evening": 0, "overnight": 0, "holiday_multiplier": 1.5}}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    let schedule =
        json!({"monday": {"time": "", "hours": 12}, "saturday": {"time": "", "hours": 8}});

    let quote = expect_json(
        staff
            .post(
                "/api/care-plans/quote",
                json!({"schedule": schedule, "pricing_template_id": standard["id"]}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    // 20 h × 28.50 = 570.00 a week, × 4.33 = 2468.10; blended (12×28.5 + 8×30.5) / 20.
    assert_eq!(
        quote,
        json!({
            "hourly_rate": 28.5, "total_weekly_hours": 20.0, "weekend_hours": 8.0,
            "blended_rate": 29.3, "weekly_cost": 570.0, "monthly_cost": 2468.1,
            "weekend_premium": 2.0,
            "rate_source": "The hourly rate is the Standard Companion Care template's rate.",
        })
    );
    let typed = expect_json(
        staff
            .post(
                "/api/care-plans/quote",
                json!({"schedule": schedule, "pricing_template_id": standard["id"], "hourly_rate": 30}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(
        (typed["hourly_rate"].as_f64(), typed["weekly_cost"].as_f64()),
        (Some(30.0), Some(600.0))
    );

    let unknown = staff
        .post(
            "/api/care-plans/quote",
            json!({"schedule": schedule, "pricing_template_id": "no-such-template"}),
        )
        .await;
    let (code, message, body) = expect_error(unknown, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(code, "validation");
    assert_eq!(
        message,
        "This pricing template no longer exists. Choose another template."
    );
    assert!(body["error"]["fields"]["pricing_template_id"].is_string());
    let bad_hours = staff
        .post(
            "/api/care-plans/quote",
            json!({"schedule": {"sunday": {"time": "", "hours": 1.25}}}),
        )
        .await;
    expect_error(bad_hours, StatusCode::UNPROCESSABLE_ENTITY).await;
    let unknown_field = staff
        .post("/api/care-plans/quote", json!({"weekly_cost": 1}))
        .await;
    expect_error(unknown_field, StatusCode::BAD_REQUEST).await;

    // The save stores what the quote showed, and the answer carries the breakdown.
    let (_, assessment_id) = assessed_client(&staff, "Grace Brewster").await;
    let mut input = plan_input("Grace Brewster");
    input["schedule"] = schedule;
    input["pricing_template_id"] = standard["id"].clone();
    input["hourly_rate"] = json!(28.5);
    let plan = expect_json(
        staff
            .post(
                "/api/care-plans",
                json!({"assessment_id": assessment_id, "plan": input}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(
        (
            plan["weekly_cost"].as_f64(),
            plan["monthly_cost"].as_f64(),
            plan["weekend_hours"].as_f64(),
            plan["blended_rate"].as_f64(),
            plan["assessment_changed"].as_bool(),
        ),
        (
            Some(570.0),
            Some(2468.1),
            Some(8.0),
            Some(29.3),
            Some(false)
        )
    );
}

#[tokio::test]
async fn update_mode_follows_the_assessment_and_ends_with_the_save() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let (_, assessment_id) = assessed_client(&staff, "Mary Jackson").await;
    let plan = expect_json(
        staff
            .post(
                "/api/care-plans",
                json!({"assessment_id": assessment_id, "plan": plan_input("Mary Jackson")}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    let plan_id = plan["id"].as_str().unwrap().to_owned();
    assert_eq!(plan["assessment_changed"], false);

    // The assessment changes after the plan: more hours, another service, other days.
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    let assessment = staff.ok(&format!("/api/assessments/{assessment_id}")).await;
    let mut form = assessment["form"].clone();
    form["recommendedServices"] = json!(["Companionship", "Meal Preparation"]);
    form["recommendedHours"] = json!(9);
    form["preferredDays"] = json!(["Tuesday", "Thursday", "Saturday"]);
    let updated = staff
        .put(
            &format!("/api/assessments/{assessment_id}"),
            json!({"version": assessment["version"], "form": form}),
        )
        .await;
    assert_eq!(updated.status(), StatusCode::OK);
    let plan = staff.ok(&format!("/api/care-plans/{plan_id}")).await;
    assert_eq!(plan["assessment_changed"], true);

    // The prefill answers the assessment as it is now; saving it ends Update Mode.
    let prefill = staff
        .ok(&format!(
            "/api/care-plans/prefill?assessment_id={assessment_id}"
        ))
        .await;
    let refreshed = &prefill["plan"];
    assert_eq!(refreshed["services"], json!(["companionship", "meals"]));
    assert_eq!(refreshed["schedule"]["tuesday"]["hours"], 3.0);
    assert_eq!(refreshed["schedule"]["saturday"]["hours"], 3.0);
    assert_eq!(refreshed["schedule"]["monday"]["hours"], 0.0);
    let mut input = plan_input("Mary Jackson");
    input["services"] = refreshed["services"].clone();
    input["schedule"] = refreshed["schedule"].clone();
    let saved = expect_json(
        staff
            .put(
                &format!("/api/care-plans/{plan_id}"),
                json!({"version": plan["version"], "plan": input}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(saved["assessment_changed"], false);
    assert_eq!(saved["total_weekly_hours"], 9.0);
}

#[tokio::test]
async fn a_lead_is_archived_with_a_reason_and_reopened() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let intake = expect_json(
        staff
            .post(
                "/api/intakes",
                json!({"form": intake_form("Katherine Johnson")}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    let id = intake["id"].as_str().unwrap().to_owned();

    let no_reason = staff
        .post(
            &format!("/api/clients/{id}/archive"),
            json!({"status": "declined", "reason": "  "}),
        )
        .await;
    let (_, message, _) = expect_error(no_reason, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(message, "Please enter a reason");
    let bad_status = staff
        .post(
            &format!("/api/clients/{id}/archive"),
            json!({"status": "cancelled", "reason": "x"}),
        )
        .await;
    expect_error(bad_status, StatusCode::BAD_REQUEST).await;

    let profile = expect_json(
        staff
            .post(
                &format!("/api/clients/{id}/archive"),
                json!({"status": "not_interested", "reason": "Family will care at home"}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(profile["archive_status"], "not_interested");
    assert_eq!(profile["archive_reason"], "Family will care at home");
    assert_eq!(profile["intake"]["position"]["archived"], true);
    assert_eq!(profile["intake"]["pipeline"]["label"], "Not Interested");
    let archived = staff.ok("/api/clients?stage=archived").await;
    assert_eq!(archived["counts"]["archived"], 1);
    assert_eq!(archived["counts"]["intake"], 0);
    assert_eq!(
        archived["items"][0]["archive_reason"],
        "Family will care at home"
    );
    let twice = staff
        .post(
            &format!("/api/clients/{id}/archive"),
            json!({"status": "declined", "reason": "again"}),
        )
        .await;
    expect_error(twice, StatusCode::UNPROCESSABLE_ENTITY).await;

    let reopened = expect_json(
        staff
            .post(&format!("/api/clients/{id}/reopen"), json!({}))
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(reopened["archive_status"], Value::Null);
    assert_eq!(reopened["intake"]["status"], "pending");
    assert_eq!(reopened["intake"]["position"]["archived"], false);
    let timeline = staff
        .ok(&format!("/api/communications?intake_id={id}"))
        .await;
    let contents: Vec<&str> = timeline["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["content"].as_str().unwrap())
        .collect();
    assert_eq!(
        contents,
        [
            "Client reopened",
            "Client marked Not Interested: Family will care at home"
        ]
    );
    let missing = staff
        .post("/api/clients/no-such-client/reopen", json!({}))
        .await;
    expect_error(missing, StatusCode::NOT_FOUND).await;
}

/// The text part of a family's email as their mail program shows it.
fn letter_text(eml: &str, greeting: &str) -> String {
    let text = crate::support::readable(eml).replace("\r\n", "\n");
    let start = text
        .find(greeting)
        .unwrap_or_else(|| panic!("no {greeting:?} in {text}"));
    let body = &text[start..];
    let end = body.find("\n--").unwrap_or(body.len());
    body[..end].trim_end().to_owned()
}

/// Saves one Settings tab as an administrator.
async fn save_settings(server: &TestServer, tab: &str, values: Value) {
    let admin = server.admin().await;
    let settings = admin.ok("/api/settings").await;
    let saved = admin
        .put(
            "/api/settings",
            json!({"version": settings["versions"][tab], "tab": tab, "values": values}),
        )
        .await;
    assert_eq!(saved.status(), StatusCode::OK);
}

/// What the family receives is a letter: greeted by name, the proposal or agreement in
/// words, the personal link above the sign-off, the coordinator and the agency's
/// signature last; never an instruction, a placeholder or "reply to sign".
#[tokio::test]
async fn the_family_receives_letters_that_end_with_the_coordinator_and_the_agency() {
    let server = TestServer::start().await;
    save_settings(
        &server,
        "general",
        json!({"company_name": "Sunrise Care", "contact_phone": "(217) 555-0199"}),
    )
    .await;
    save_settings(
        &server,
        "email",
        json!({"signature": "Sunrise Care\nHome care you can trust"}),
    )
    .await;
    let sign_off =
        "Warm regards,\nPriya Shah\nSunrise Care\nHome care you can trust\n(217) 555-0199";
    let staff = server.staff().await;
    let (_, assessment_id) = assessed_client(&staff, "Ada Lovelace").await;
    let mut input = plan_input("Ada Lovelace");
    input["care_coordinator_name"] = json!("Priya Shah");
    let plan = expect_json(
        staff
            .post(
                "/api/care-plans",
                json!({"assessment_id": assessment_id, "plan": input}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    let plan_id = plan["id"].as_str().unwrap().to_owned();

    let drafted = expect_json(
        staff
            .post(
                &format!("/api/care-plans/{plan_id}/marketing-email"),
                json!({}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    let draft = drafted["generated_text"].as_str().unwrap();
    assert!(draft.starts_with("Dear Grace Hopper,\n\n"), "{draft}");
    assert!(draft.contains("- Friendly Companionship"), "{draft}");
    assert!(draft.ends_with(sign_off), "{draft}");
    expect_json(
        staff
            .post(
                &format!("/api/care-plans/{plan_id}/send"),
                json!({"to": "grace@family.test", "body": draft, "version": staff.version(&format!("/api/care-plans/{plan_id}")).await}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    let proposal = letter_text(
        &family_email(&server, "Home Care Proposal"),
        "Dear Grace Hopper,",
    );
    let approve = proposal.find("please approve the proposal with your personal link below");
    let link = proposal.find("/approve/");
    let regards = proposal.rfind("Warm regards,");
    assert!(
        approve < link && link < regards && approve.is_some(),
        "{proposal}"
    );
    assert!(proposal.ends_with(sign_off), "{proposal}");

    expect_json(
        staff
            .post(&format!("/api/care-plans/{plan_id}/approve"), json!({}))
            .await,
        StatusCode::OK,
    )
    .await;
    let preview = staff
        .ok(&format!("/api/contracts/preview?care_plan_id={plan_id}"))
        .await;
    let contract = expect_json(
        staff
            .post(
                "/api/contracts",
                json!({"care_plan_id": plan_id, "content": preview["content"], "care_plan_version": preview["care_plan_version"]}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    let contract_id = contract["id"].as_str().unwrap();
    let draft = staff
        .ok(&format!("/api/contracts/{contract_id}/email-draft"))
        .await;
    assert_eq!(
        draft["subject"],
        "Home Care Service Agreement - Ready for Signature"
    );
    let body = draft["body"].as_str().unwrap();
    assert!(body.starts_with("Dear Grace Hopper,\n\n"), "{body}");
    assert!(body.ends_with(sign_off), "{body}");
    expect_json(
        staff
            .post(
                &format!("/api/contracts/{contract_id}/send"),
                json!({"subject": draft["subject"], "body": body, "version": staff.version(&format!("/api/contracts/{contract_id}")).await}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    let agreement = letter_text(
        &family_email(&server, "Home Care Service Agreement - Ready for Signature"),
        "Dear Grace Hopper,",
    );
    let sign = agreement.find("sign it online with your personal link below");
    let link = agreement.find("/sign/");
    let regards = agreement.rfind("Warm regards,");
    assert!(
        sign.is_some() && sign < link && link < regards,
        "{agreement}"
    );
    assert!(agreement.ends_with(sign_off), "{agreement}");

    for letter in [&proposal, &agreement] {
        let lower = letter.to_lowercase();
        for never in [
            "reply to sign",
            "reply yes",
            "present the care plan",
            "ask them",
        ] {
            assert!(!lower.contains(never), "{never:?} in {letter}");
        }
        assert!(!letter.contains(['{', '}']), "{letter}");
    }
}
