//! The office manager's setup on a fresh database: the default pricing templates let the
//! first care plan be priced and sent with no demo data; the outbox, the trash, the
//! holiday policy and analytics answer as the screens need.

use reqwest::StatusCode;
use serde_json::json;

use crate::support::{TestServer, expect_error, expect_json, intake_form, saved_assessment};

#[tokio::test]
async fn a_fresh_database_prices_and_sends_a_first_care_plan() {
    let server = TestServer::start().await;
    let staff = server.staff().await;

    let templates = staff.ok("/api/pricing-templates").await;
    let names: Vec<&str> = templates["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 3, "{names:?}");
    for name in [
        "Standard Companion Care",
        "Personal Care Services",
        "Complex/Medical Care",
    ] {
        assert!(names.contains(&name), "{name} missing: {names:?}");
    }

    let intake = expect_json(
        staff
            .post("/api/intakes", json!({"form": intake_form("First Client")}))
            .await,
        StatusCode::OK,
    )
    .await;
    let intake_id = intake["id"].as_str().unwrap();
    let mut form = staff
        .ok(&format!("/api/assessments/prefill?intake_id={intake_id}"))
        .await;
    form["clientName"] = json!("First Client");
    form["phone"] = json!("(217) 555-0100");
    form["coordinatorName"] = json!("Sam Staff");
    form["recommendedServices"] = json!(["Companionship"]);
    form["recommendedHours"] = json!(6);
    form["preferredDays"] = json!(["Monday"]);
    let assessment_id = saved_assessment(&staff, intake_id, form).await;

    let prefill = staff
        .ok(&format!(
            "/api/care-plans/prefill?assessment_id={assessment_id}"
        ))
        .await;
    let suggested = prefill["suggested_pricing_template_id"]
        .as_str()
        .expect("a template is suggested on a fresh database");
    let template = templates["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == suggested)
        .unwrap();
    assert_eq!(template["name"], "Standard Companion Care");

    let mut plan = prefill["plan"].clone();
    plan["family_contact_email"] = json!("family@example.com");
    plan["family_contact_name"] = json!("Grace Hopper");
    plan["services"] = json!(["companionship"]);
    plan["schedule"] = json!({"monday": {"time": "9am-1pm", "hours": 4}});
    plan["pricing_template_id"] = json!(suggested);
    plan["hourly_rate"] = template["base_rate"].clone();
    let plan = expect_json(
        staff
            .post(
                "/api/care-plans",
                json!({"assessment_id": assessment_id, "plan": plan}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(plan["hourly_rate"], 28.5);
    assert_eq!(plan["weekly_cost"], 114.0);
    let plan_id = plan["id"].as_str().unwrap();
    let sent = expect_json(
        staff
            .post(
                &format!("/api/care-plans/{plan_id}/send"),
                json!({"to": "family@example.com", "body": "Your care plan proposal.", "version": staff.version(&format!("/api/care-plans/{plan_id}")).await}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(sent["communication"]["status"], "sent");
    assert_eq!(sent["care_plan"]["status"], "sent");

    // The proposal is in the outbox and opens by the name the listing gave.
    let outbox = staff.ok("/api/outbox").await;
    let entry = outbox["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|item| item["subject"] == "Home Care Proposal")
        .expect("the proposal is in the outbox")
        .clone();
    let file = entry["file_name"].as_str().unwrap();
    let message = staff.ok(&format!("/api/outbox/{file}")).await;
    assert_eq!(message["to"], "family@example.com");
    assert!(
        message["body"]
            .as_str()
            .unwrap()
            .contains("Your care plan proposal.")
    );
    for outside in ["..%2Fcarepath.db", "carepath.db", ".hidden.eml"] {
        let response = staff.get(&format!("/api/outbox/{outside}")).await;
        expect_error(response, StatusCode::NOT_FOUND).await;
    }
}

#[tokio::test]
async fn the_trash_lists_who_deleted_what_and_restores_it() {
    let server = TestServer::start().await;
    let admin = server.admin().await;
    let staff = server.staff().await;
    let intake = expect_json(
        staff
            .post(
                "/api/intakes",
                json!({"form": intake_form("Trashed Client")}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    let intake_id = intake["id"].as_str().unwrap();
    let deleted = admin.delete(&format!("/api/intakes/{intake_id}")).await;
    assert!(deleted.status().is_success(), "{}", deleted.status());

    expect_error(staff.get("/api/admin/trash").await, StatusCode::FORBIDDEN).await;
    let trash = admin.ok("/api/admin/trash").await;
    let item = &trash["items"][0];
    assert_eq!(item["kind"], "intake");
    assert_eq!(item["id"], intake_id);
    assert_eq!(item["client_name"], "Trashed Client");
    assert_eq!(item["deleted_by"], "Ada Admin");
    assert!(item["deleted_at"].as_str().is_some());

    let restored = admin
        .post(&format!("/api/intakes/{intake_id}/restore"), json!({}))
        .await;
    assert!(restored.status().is_success(), "{}", restored.status());
    assert_eq!(
        admin.ok("/api/admin/trash").await["items"]
            .as_array()
            .unwrap()
            .len(),
        0
    );
    let users = admin.ok("/api/admin/users").await;
    assert!(
        users["items"]
            .as_array()
            .unwrap()
            .iter()
            .all(|user| user["last_sign_in_at"].as_str().is_some()),
        "both users signed in: {users}"
    );
}

#[tokio::test]
async fn the_holiday_policy_and_analytics_answer_for_this_year_and_a_range() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let policy = staff.ok("/api/holiday-policy").await;
    assert_eq!(policy["holidays"].as_array().unwrap().len(), 6);
    let year = policy["year"].as_i64().unwrap();
    assert_eq!(policy["holidays"][0]["date"], format!("{year}-01-01"));
    assert_eq!(policy["holidays"][5]["date"], format!("{year}-12-25"));

    let report = staff
        .ok("/api/analytics?from=2026-01-01&to=2026-03-31")
        .await;
    assert_eq!(report["from"], "2026-01-01");
    assert_eq!(report["funnel"].as_array().unwrap().len(), 5);
    let backwards = staff
        .get("/api/analytics?from=2026-03-31&to=2026-01-01")
        .await;
    let (code, _, body) = expect_error(backwards, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(code, "validation");
    assert!(body["error"]["fields"]["from"].is_string(), "{body}");
}
