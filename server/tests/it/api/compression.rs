//! Answers compressed when big enough to gain from it.

use reqwest::StatusCode;
use serde_json::json;

use crate::support::{TestServer, expect_json, intake_form};

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
    // gzip even where Brotli is accepted: it costs the server less per answer.
    let list = encoded("/api/clients?limit=50", "br, gzip").await.unwrap();
    assert_eq!(list.headers()["content-encoding"], "gzip");
    assert!(
        list.headers()["vary"]
            .to_str()
            .unwrap()
            .contains("accept-encoding")
    );
    let list = encoded("/api/clients?limit=50", "br").await.unwrap();
    assert!(list.headers().get("content-encoding").is_none());
    let small = encoded("/api/health", "br, gzip").await.unwrap();
    assert!(small.headers().get("content-encoding").is_none());
    assert_eq!(small.text().await.unwrap(), r#"{"status":"ok"}"#);
}
