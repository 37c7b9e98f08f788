//! Care plans: generated from an assessment, validated, priced, edited, emailed and
//! approved.

use reqwest::StatusCode;
use serde_json::json;

use super::{assessed_client, care_plan_input, saved_care_plan};
use crate::support::{TestServer, expect_error, expect_json};

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
    assert_eq!(
        plan["can_generate_contract"], false,
        "no contract before the family has seen the plan"
    );

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
        sent["care_plan"]["can_generate_contract"], true,
        "the family has seen it"
    );
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
    assert_eq!(approved["can_generate_contract"], true);
    assert!(
        staff.ok("/api/care-plans?status=approved").await["items"]
            .as_array()
            .unwrap()
            .len()
            == 1
    );
}
