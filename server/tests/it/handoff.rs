//! The hand-off to care over HTTP: a signed client's hand-off (JSON and CSV) carries the
//! schedule and rate that were signed even after the care plan is edited through the
//! API; the checklist is read and ticked (who and when); Settings edit the agency's
//! checklist with core's messages; an unsigned or unknown client is a 404 that says
//! why, and nothing answers without a session.

use carepath_core::model::{
    Actor, CarePlanService, Channel, DaySchedule, IntakeForm, WeeklySchedule,
};
use carepath_core::store::{AssessmentSave, Store};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::support::{TestServer, expect_error, expect_json, intake_form};

/// A client walked through core to a sent contract (signed too when `sign`): Monday and
/// Thursday at $32.50 an hour. Answers the intake's and the care plan's ids.
fn walk(server: &TestServer, name: &str, sign: bool) -> (String, String) {
    let mut store = Store::open(&server.db).unwrap();
    let actor = Actor::system(Channel::Cli);
    let form: IntakeForm = serde_json::from_value(intake_form(name)).unwrap();
    let intake = store.create_intake(&actor, form).unwrap();
    let mut form = store.assessment_prefill(&intake.id).unwrap();
    form.coordinator_name = "Priya Shah".into();
    form.phone = "(217) 555-0100".into();
    form.recommended_services = vec!["Companionship".into()];
    form.recommended_hours = Some(7.5);
    form.preferred_days = vec!["Monday".into()];
    form.caregiver_gender_preference = "Female".into();
    form.special_requests = "Two dogs; no smoking in the house".into();
    let assessment = store
        .save_assessment(
            &actor,
            AssessmentSave {
                existing: None,
                intake_id: Some(intake.id.clone()),
                form,
                complete: true,
            },
        )
        .unwrap();
    let mut plan = store.care_plan_prefill(&assessment.id).unwrap().plan;
    plan.family_contact_email = "family@example.com".into();
    plan.schedule = WeeklySchedule {
        monday: DaySchedule {
            time: "9:00 AM - 1:00 PM".into(),
            hours: 4.0,
        },
        thursday: DaySchedule {
            time: "2:00 PM - 5:30 PM".into(),
            hours: 3.5,
        },
        ..WeeklySchedule::default()
    };
    plan.hourly_rate = Some(32.5);
    plan.pricing_template_id = None;
    plan.services = vec![CarePlanService::Companionship];
    let plan = store
        .create_care_plan(&actor, Some(&assessment.id), plan)
        .unwrap();
    store.mark_care_plan_sent(&actor, &plan.id).unwrap();
    let contract = store
        .create_contract(&actor, &plan.id, None, "Agreement")
        .unwrap();
    store.mark_contract_sent(&actor, &contract.id).unwrap();
    if sign {
        store.sign_contract(&actor, &contract.id).unwrap();
    }
    (intake.id.to_string(), plan.id.to_string())
}

#[tokio::test]
async fn a_signed_client_s_handoff_carries_what_was_signed_after_the_plan_is_edited() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let (intake, plan) = walk(&server, "Avery Active", true);

    // The care plan is edited through the API after signing: another rate and day.
    let stored = staff.ok(&format!("/api/care-plans/{plan}")).await;
    let mut edited = stored.clone();
    edited["hourly_rate"] = json!(55);
    edited["schedule"]["friday"] = json!({"time": "8:00 AM - 4:00 PM", "hours": 8});
    let input: Value = [
        "client_name",
        "family_contact_name",
        "family_contact_email",
        "care_coordinator_name",
        "services",
        "additional_notes",
        "schedule",
        "hourly_rate",
    ]
    .into_iter()
    .map(|field| (field.to_owned(), edited[field].clone()))
    .collect::<serde_json::Map<String, Value>>()
    .into();
    let saved = expect_json(
        staff
            .put(
                &format!("/api/care-plans/{plan}"),
                json!({"version": stored["version"], "plan": input}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(saved["hourly_rate"], 55.0);

    let handoff = staff.ok(&format!("/api/clients/{intake}/handoff")).await;
    assert_eq!(handoff["client_id"], intake.as_str());
    assert_eq!(handoff["hourly_rate"], 32.5);
    assert_eq!(handoff["total_weekly_hours"], 7.5);
    assert_eq!(
        handoff["schedule"],
        json!([
            {"day": "Monday", "time": "9:00 AM - 1:00 PM", "hours": 4.0},
            {"day": "Thursday", "time": "2:00 PM - 5:30 PM", "hours": 3.5},
        ])
    );
    assert_eq!(handoff["services"], json!(["Friendly Companionship"]));
    assert_eq!(handoff["client"]["full_name"], "Avery Active");
    assert_eq!(handoff["contacts"][0]["full_name"], "Grace Hopper");
    assert_eq!(handoff["preferences"]["caregiver_gender"], "Female");
    assert_eq!(
        handoff["preferences"]["special_requests"],
        "Two dogs; no smoking in the house"
    );

    let response = staff
        .get(&format!("/api/clients/{intake}/handoff.csv"))
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    let headers = response.headers().clone();
    assert_eq!(headers["content-type"], "text/csv; charset=utf-8");
    let disposition = headers["content-disposition"].to_str().unwrap();
    assert!(
        disposition.starts_with("attachment; filename=\"handoff_"),
        "{disposition}"
    );
    let csv = response.text().await.unwrap();
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 1, "{csv}");
    let cell = |name: &str| rows[0][header.iter().position(|h| h == name).unwrap()].to_owned();
    assert_eq!(cell("Hourly Rate"), "32.50");
    assert_eq!(cell("Monday Hours"), "4");
    assert_eq!(cell("Thursday Time"), "2:00 PM - 5:30 PM");
    assert_eq!(cell("Friday Hours"), "0");
    assert_eq!(cell("Weekly Cost"), "243.75");
}

#[tokio::test]
async fn the_checklist_is_ticked_with_who_and_when_and_settings_edit_the_agency_s_list() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let (intake, _) = walk(&server, "Avery Active", true);

    let checklist = staff
        .ok(&format!("/api/clients/{intake}/start-of-care"))
        .await;
    let labels: Vec<&str> = checklist["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["label"].as_str().unwrap())
        .collect();
    assert_eq!(
        labels,
        [
            "Caregiver matched",
            "Schedule set",
            "First visit",
            "First invoice"
        ]
    );
    let item = &checklist["items"][2];
    let path = format!(
        "/api/clients/{intake}/start-of-care/{}",
        item["id"].as_str().unwrap()
    );
    let ticked = expect_json(
        staff
            .put(&path, json!({"done": true, "version": item["version"]}))
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(ticked["done_count"], 1);
    assert_eq!(ticked["items"][2]["done"], true);
    assert_eq!(ticked["items"][2]["done_by"], "Sam Staff");
    assert!(
        ticked["items"][2]["done_at"]
            .as_str()
            .unwrap()
            .ends_with('Z')
    );
    let timeline = staff
        .ok(&format!("/api/communications?intake_id={intake}"))
        .await;
    assert!(
        timeline["items"]
            .as_array()
            .unwrap()
            .iter()
            .any(|entry| entry["content"] == "Start of care: First visit done"),
        "{timeline}"
    );
    // The version read before the tick is stale now.
    let (code, _, body) = expect_error(
        staff
            .put(&path, json!({"done": false, "version": item["version"]}))
            .await,
        StatusCode::CONFLICT,
    )
    .await;
    assert_eq!(code, "conflict", "{body}");

    // Settings → Workflow carries the agency's list; core's messages refuse a bad one.
    let settings = staff.ok("/api/settings").await;
    let mut workflow = settings["workflow"].clone();
    workflow["start_of_care_checklist"] = json!(["Keys collected", "keys collected "]);
    let (_, message, _) = expect_error(
        staff
            .put(
                "/api/settings",
                json!({"version": settings["versions"]["workflow"], "tab": "workflow", "values": workflow}),
            )
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(message, "This item is already on the checklist.");
    workflow["start_of_care_checklist"] = json!(["Keys collected", "First visit"]);
    let saved = expect_json(
        staff
            .put(
                "/api/settings",
                json!({"version": settings["versions"]["workflow"], "tab": "workflow", "values": workflow}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(
        saved["workflow"]["start_of_care_checklist"],
        json!(["Keys collected", "First visit"])
    );
    // The next client signed gets the new list; the first keeps its own.
    let (next, _) = walk(&server, "Nora Next", true);
    let next = staff
        .ok(&format!("/api/clients/{next}/start-of-care"))
        .await;
    assert_eq!(next["items"][0]["label"], "Keys collected");
    assert_eq!(next["items"].as_array().unwrap().len(), 2);
    let first = staff
        .ok(&format!("/api/clients/{intake}/start-of-care"))
        .await;
    assert_eq!(first["items"].as_array().unwrap().len(), 4);
}

#[tokio::test]
async fn an_unsigned_or_unknown_client_has_no_handoff_and_a_visitor_gets_nothing() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let (waiting, _) = walk(&server, "Wanda Waiting", false);
    let (signed, _) = walk(&server, "Avery Active", true);

    for path in [
        format!("/api/clients/{waiting}/handoff"),
        format!("/api/clients/{waiting}/handoff.csv"),
        format!("/api/clients/{waiting}/start-of-care"),
    ] {
        let (_, message, _) = expect_error(staff.get(&path).await, StatusCode::NOT_FOUND).await;
        assert_eq!(
            message, "Signed contract for this client not found",
            "{path}"
        );
    }
    let (_, message, _) = expect_error(
        staff.get("/api/clients/no-such-client/handoff").await,
        StatusCode::NOT_FOUND,
    )
    .await;
    assert_eq!(message, "Client not found");

    let visitor = server.anonymous();
    for path in [
        format!("/api/clients/{signed}/handoff"),
        format!("/api/clients/{signed}/handoff.csv"),
        format!("/api/clients/{signed}/start-of-care"),
    ] {
        assert_eq!(
            visitor.get(&path).await.status(),
            StatusCode::UNAUTHORIZED,
            "{path}"
        );
    }
    let checklist = staff
        .ok(&format!("/api/clients/{signed}/start-of-care"))
        .await;
    let item = &checklist["items"][0];
    let response = visitor
        .put(
            &format!(
                "/api/clients/{signed}/start-of-care/{}",
                item["id"].as_str().unwrap()
            ),
            json!({"done": true, "version": item["version"]}),
        )
        .await;
    assert!(
        matches!(
            response.status(),
            StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN
        ),
        "{}",
        response.status()
    );
    let still = staff
        .ok(&format!("/api/clients/{signed}/start-of-care"))
        .await;
    assert_eq!(still["done_count"], 0);
}
