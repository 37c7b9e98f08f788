//! Deleting and restoring the pipeline's records: administrators only.

use reqwest::StatusCode;
use serde_json::json;

use super::{Journey, signed_journey};
use crate::support::TestServer;

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
