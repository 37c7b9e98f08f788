//! Assessments: refused while incomplete, counted once completed, drafted and updated;
//! the contract template's versions.

use reqwest::StatusCode;
use serde_json::json;

use super::{complete_assessment_form, new_intake};
use crate::support::{TestServer, expect_error, expect_json};

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
