//! A client's contacts: added, updated, refused when stale, deleted.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::support::{TestServer, expect_error, expect_json, intake_form};

#[tokio::test]
async fn contacts_add_update_conflict_and_delete() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let intake = expect_json(
        staff
            .post("/api/intakes", json!({"form": intake_form("Ada")}))
            .await,
        StatusCode::OK,
    )
    .await;
    let intake_id = intake["id"].as_str().unwrap();

    let nameless = staff
        .post(
            &format!("/api/intakes/{intake_id}/contacts"),
            json!({"full_name": "  "}),
        )
        .await;
    let (_, message, _) = expect_error(nameless, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(message, "Contact name is required");

    let contact = staff
        .post(
            &format!("/api/intakes/{intake_id}/contacts"),
            json!({"full_name": " Bob ", "contact_type": "emergency", "phone": ""}),
        )
        .await;
    let contact = expect_json(contact, StatusCode::OK).await;
    assert_eq!(contact["full_name"], "Bob");
    assert_eq!(contact["phone"], Value::Null);
    let id = contact["id"].as_str().unwrap();
    let update = json!({"version": contact["version"], "full_name": "Robert", "is_primary": true});
    let updated = expect_json(
        staff
            .put(&format!("/api/contacts/{id}"), update.clone())
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(updated["full_name"], "Robert");
    expect_error(
        staff.put(&format!("/api/contacts/{id}"), update).await,
        StatusCode::CONFLICT,
    )
    .await;
    let with_id = json!({"version": updated["version"], "full_name": "R", "id": id});
    expect_error(
        staff.put(&format!("/api/contacts/{id}"), with_id).await,
        StatusCode::BAD_REQUEST,
    )
    .await;

    let list = staff
        .ok(&format!("/api/intakes/{intake_id}/contacts"))
        .await;
    assert_eq!(list["items"].as_array().unwrap().len(), 1);
    // A deletion cannot be undone: staff are refused, an administrator may.
    expect_error(
        staff.delete(&format!("/api/contacts/{id}")).await,
        StatusCode::FORBIDDEN,
    )
    .await;
    let admin = server.admin().await;
    assert_eq!(
        admin.delete(&format!("/api/contacts/{id}")).await.status(),
        StatusCode::NO_CONTENT
    );
    expect_error(
        admin.delete(&format!("/api/contacts/{id}")).await,
        StatusCode::NOT_FOUND,
    )
    .await;
}
