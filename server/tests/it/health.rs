//! The health check a proxy or monitor polls: open without a session, and saying nothing
//! but that the server and its database are fine.

use reqwest::StatusCode;
use serde_json::json;

use crate::support::{TestServer, expect_json};

#[tokio::test]
async fn the_health_check_answers_strangers_ok_and_nothing_more() {
    let server = TestServer::start().await;
    let anonymous = server.anonymous();
    let response = anonymous.get("/api/health").await;
    assert_eq!(response.headers()["cache-control"], "no-store");
    let body = expect_json(response, StatusCode::OK).await;
    assert_eq!(body, json!({"status": "ok"}));
    // A signed-in caller gets the very same answer: no user, version or counts.
    let staff = server.staff().await;
    let body = expect_json(staff.get("/api/health").await, StatusCode::OK).await;
    assert_eq!(body, json!({"status": "ok"}));
    // Only GET is served.
    let post = anonymous.post("/api/health", json!({})).await;
    assert_eq!(post.status(), StatusCode::METHOD_NOT_ALLOWED);
}
