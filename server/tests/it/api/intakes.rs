//! Intakes: the form submitted, updated, refused when stale and kept as a draft; the lists, the
//! waiting count and the search.

use reqwest::StatusCode;
use serde_json::json;

use crate::support::{TestServer, expect_error, expect_json, intake_form};

#[tokio::test]
async fn intake_form_submit_update_conflict_and_draft() {
    let server = TestServer::start().await;
    let staff = server.staff().await;

    let missing = staff
        .post("/api/intakes", json!({"form": {"callerPhone": "555"}}))
        .await;
    let (code, message, body) = expect_error(missing, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(code, "validation");
    assert!(message.starts_with("Missing Required Fields"), "{message}");
    assert_eq!(
        body["error"]["fields"]["callerName"],
        "This field is required"
    );

    let intake = expect_json(
        staff
            .post("/api/intakes", json!({"form": intake_form("Ada Lovelace")}))
            .await,
        StatusCode::OK,
    )
    .await;
    let id = intake["id"].as_str().unwrap().to_owned();
    assert_eq!(intake["status"], "pending");
    assert!(intake["pipeline"].is_object());
    let loaded = staff.ok(&format!("/api/intakes/{id}")).await;
    assert_eq!(loaded["form"]["clientFullName"], "Ada Lovelace");
    // Reading an intake fills its stored form out without parsing it; the answer is the
    // one the save sent from the parsed form, every field of the form included.
    assert_eq!(loaded, intake);
    assert_eq!(loaded["form"]["livingSituationOther"], "");

    let mut form = intake_form("Ada King");
    form["followUpNotes"] = json!("Call back Friday");
    let updated = staff
        .put(
            &format!("/api/intakes/{id}"),
            json!({"version": loaded["version"], "form": form}),
        )
        .await;
    let updated = expect_json(updated, StatusCode::OK).await;
    assert_eq!(updated["client_full_name"], "Ada King");

    // Someone else's save came first: the stale version gets the stored record back.
    let stale = staff
        .put(
            &format!("/api/intakes/{id}"),
            json!({"version": loaded["version"], "form": intake_form("Lost Update")}),
        )
        .await;
    let (code, _, body) = expect_error(stale, StatusCode::CONFLICT).await;
    assert_eq!(code, "conflict");
    assert_eq!(body["current"]["client_full_name"], "Ada King");
    assert_eq!(body["current"]["version"], updated["version"]);

    let draft = expect_json(
        staff.post("/api/intakes/draft", json!({"form": {}})).await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(draft["client_full_name"], "Draft - Unnamed Client");
    let draft_id = draft["id"].as_str().unwrap();
    let redrafted = staff
        .put(
            &format!("/api/intakes/{draft_id}/draft"),
            json!({"version": draft["version"], "form": {"clientFullName": "Later"}}),
        )
        .await;
    assert_eq!(
        expect_json(redrafted, StatusCode::OK).await["client_full_name"],
        "Later"
    );

    let page = staff.ok("/api/intakes?urgency=new").await;
    assert!(page["items"].as_array().unwrap().len() >= 2);
    assert!(page["summary"]["new"].as_i64().unwrap() >= 2);
    let awaiting = staff.ok("/api/intakes/awaiting-assessment").await;
    let listed = awaiting["items"].as_array().unwrap().len();
    assert!(listed > 0);
    assert_eq!(
        awaiting["total"].as_u64(),
        Some(listed as u64),
        "the server counts the waiting intakes: {awaiting}"
    );
    let found = staff.ok("/api/search?q=ada").await;
    assert_eq!(found["items"][0]["client_full_name"], "Ada King");
    assert_eq!(
        staff.ok("/api/search?q=a").await["items"]
            .as_array()
            .unwrap()
            .len(),
        0
    );
    let dashboard = staff.ok("/api/dashboard").await;
    assert!(dashboard["counts"]["new_intakes"].as_i64().unwrap() >= 1);
    assert!(staff.ok("/api/analytics").await["funnel"].is_array());

    let admin = server.admin().await;
    assert_eq!(
        staff.delete(&format!("/api/intakes/{id}")).await.status(),
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        admin.delete(&format!("/api/intakes/{id}")).await.status(),
        StatusCode::NO_CONTENT
    );
    assert!(staff.ok(&format!("/api/intakes/{id}")).await["deleted_at"].is_string());
    let restored = admin
        .post(&format!("/api/intakes/{id}/restore"), json!({}))
        .await;
    assert_eq!(restored.status(), StatusCode::OK);
}
