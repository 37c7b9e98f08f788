//! The OpenAPI document: served to signed-in users, and committed as web/openapi.json for
//! the web UI's generated types. A stale copy fails here with the command to refresh it.

use reqwest::StatusCode;

use crate::support::{TestServer, expect_json};

const REFRESH: &str = "cargo run --bin carepath -- serve --print-openapi > web/openapi.json";

#[test]
fn the_committed_web_openapi_json_is_current() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../web/openapi.json");
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    let current = carepath_server::openapi_json();
    assert!(
        committed == current,
        "web/openapi.json is stale: the API changed. Refresh it with:\n    {REFRESH}\nand commit it."
    );
}

#[tokio::test]
async fn the_document_is_served_and_describes_the_api() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let doc = expect_json(staff.get("/api/openapi.json").await, StatusCode::OK).await;
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    assert!(doc["paths"]["/api/intakes/{id}"]["put"].is_object());
    for schema in [
        "Intake",
        "IntakeForm",
        "ErrorBody",
        "ChangeEvent",
        "CarePlan",
        "Contract",
        "Communication",
        "Settings",
    ] {
        assert!(
            doc["components"]["schemas"][schema].is_object(),
            "schema {schema}"
        );
    }
}
