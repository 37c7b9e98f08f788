//! Notes and call logs, and their validation.

use reqwest::StatusCode;
use serde_json::json;

use crate::support::{TestServer, expect_error, expect_json, intake_form};

#[tokio::test]
async fn notes_calls_and_their_validation() {
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
    let (_, message, _) = expect_error(
        staff
            .post(
                "/api/communications/notes",
                json!({"intake_id": intake_id, "content": ""}),
            )
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(message, "Please enter a note");
    let note = expect_json(
        staff
            .post(
                "/api/communications/notes",
                json!({"intake_id": intake_id, "content": "Called"}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(
        (note["visibility"].as_str(), note["status"].as_str()),
        (Some("internal"), Some("sent"))
    );
    let (_, message, _) = expect_error(
        staff
            .post("/api/communications/calls", json!({"intake_id": intake_id}))
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(message, "Please fill in phone number and notes");
    let call = staff
        .post(
            "/api/communications/calls",
            json!({"intake_id": intake_id, "phone": "555", "notes": "ok", "duration": "5 min"}),
        )
        .await;
    assert_eq!(
        expect_json(call, StatusCode::OK).await["visibility"],
        "client"
    );
    let (_, message, _) = expect_error(
        staff
            .post(
                "/api/communications/email",
                json!({"to": "", "subject": "", "body": ""}),
            )
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(message, "Please fill in all fields");
    let internal = staff
        .ok(&format!(
            "/api/communications?intake_id={intake_id}&visibility=internal"
        ))
        .await;
    assert_eq!(internal["items"].as_array().unwrap().len(), 1);
    let (_, message, _) = expect_error(
        staff
            .post(
                "/api/ai/draft",
                json!({"message_type": "note", "user_input": ""}),
            )
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(message, "Please enter what you'd like the note to say");
    let draft = staff.post("/api/ai/draft", json!({"message_type": "email", "user_input": "Confirm the visit", "intake_id": intake_id})).await;
    let draft = expect_json(draft, StatusCode::OK).await;
    // Without an AI service the built-in writer writes the client's stage's letter from
    // the facts: what staff typed is an instruction to a writer, not words for the family.
    let text = draft["generated_text"].as_str().unwrap();
    assert!(
        text.starts_with("Dear ") && text.contains("in-home assessment"),
        "{text}"
    );
    assert!(!text.contains("Confirm the visit"), "{text}");
}
