//! CSV downloads, streamed from core's exports.

use reqwest::StatusCode;
use serde_json::json;

use crate::support::{TestServer, expect_error, expect_json, intake_form};

#[tokio::test]
async fn csv_downloads_stream_core_exports() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let form = intake_form("Smith, \"Ada\"");
    expect_json(
        staff.post("/api/intakes", json!({"form": form})).await,
        StatusCode::OK,
    )
    .await;

    let response = staff.get("/api/intakes/export.csv").await;
    assert_eq!(response.status(), StatusCode::OK);
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/csv")
    );
    let disposition = response.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(
        disposition.starts_with("attachment; filename=\"intakes_")
            && disposition.ends_with(".csv\""),
        "{disposition}"
    );
    let text = response.text().await.unwrap();
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(
        text.contains("\"Smith, \"\"Ada\"\"\""),
        "quoted as the spec says: {text}"
    );

    for kind in [
        "clients",
        "assessments",
        "care-plans",
        "contracts",
        "communications",
        "contacts",
    ] {
        let response = staff.get(&format!("/api/{kind}/export.csv")).await;
        assert_eq!(response.status(), StatusCode::OK, "{kind}");
        assert!(
            !response.text().await.unwrap().is_empty(),
            "{kind} has its header row"
        );
    }
    // The list exports take their list's filters.
    expect_json(
        staff
            .post("/api/intakes", json!({"form": intake_form("Jones Other")}))
            .await,
        StatusCode::OK,
    )
    .await;
    let count_rows = |text: String| text.lines().count() - 1;
    for (query, rows) in [
        ("", 2),
        ("?q=Smith", 1),
        ("?stage=intake&q=Jones", 1),
        ("?stage=assessment", 0),
        ("?urgency=on_track", 2),
        ("?urgency=overdue", 0),
    ] {
        let response = staff.get(&format!("/api/clients/export.csv{query}")).await;
        assert_eq!(response.status(), StatusCode::OK, "{query}");
        assert_eq!(count_rows(response.text().await.unwrap()), rows, "{query}");
    }
    let drafts = staff
        .get("/api/assessments/export.csv?status=completed&q=Smith")
        .await;
    assert_eq!(count_rows(drafts.text().await.unwrap()), 0);
    expect_error(
        staff.get("/api/clients/export.csv?stage=patients").await,
        StatusCode::BAD_REQUEST,
    )
    .await;

    let recent = staff.get("/api/intakes/export.csv?since=7d").await;
    assert_eq!(recent.text().await.unwrap().lines().count(), 3);
    expect_error(
        staff.get("/api/intakes/export.csv?since=someday").await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    expect_error(
        staff
            .get("/api/intakes/export.csv?include_deleted=true")
            .await,
        StatusCode::FORBIDDEN,
    )
    .await;
    let admin = server.admin().await;
    assert_eq!(
        admin
            .get("/api/intakes/export.csv?include_deleted=true")
            .await
            .status(),
        StatusCode::OK
    );
}
