//! Printable PDFs, drawn by core.

use reqwest::StatusCode;
use serde_json::json;

use super::care_plan_input;
use crate::support::{TestServer, expect_error, expect_json, intake_form};

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
