//! Live updates: a change written by another process's connection reaches an open
//! event stream.

use std::time::Duration;

use carepath_core::model::{Actor, Channel, NoteInput, Parents};
use carepath_core::store::Store;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::support::{TestServer, expect_json, intake_form};

#[tokio::test]
async fn a_note_written_through_core_elsewhere_reaches_the_event_stream() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let intake = expect_json(
        staff
            .post("/api/intakes", json!({"form": intake_form("Ada")}))
            .await,
        StatusCode::OK,
    )
    .await;
    let intake_id = intake["id"].as_str().unwrap().to_owned();

    let mut stream = staff.get("/api/events").await;
    assert_eq!(stream.status(), StatusCode::OK);
    assert!(
        stream.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/event-stream")
    );
    // Let the stream subscribe before the change is made.
    tokio::time::sleep(Duration::from_millis(300)).await;

    // Another process (the TUI, the CLI) has its own connection to the same file.
    let db = server.db.clone();
    let note_intake = intake_id.clone();
    tokio::task::spawn_blocking(move || {
        let mut store = Store::open(&db).unwrap();
        let note = NoteInput {
            parents: Parents {
                intake_id: Some(note_intake.as_str().into()),
                ..Parents::default()
            },
            content: "Typed in the terminal".into(),
            ..NoteInput::default()
        };
        store.add_note(&Actor::system(Channel::Tui), &note).unwrap();
    })
    .await
    .unwrap();

    let mut text = String::new();
    let found = tokio::time::timeout(Duration::from_secs(2), async {
        loop {
            let chunk = stream.chunk().await.unwrap()?;
            text.push_str(&String::from_utf8_lossy(&chunk));
            for block in text.split("\n\n") {
                if !block.lines().any(|line| line == "event: changes") {
                    continue;
                }
                let Some(data) = block.lines().find_map(|line| line.strip_prefix("data: ")) else {
                    continue;
                };
                // A block cut off at the chunk's end is read again whole with the next.
                let Ok(Value::Array(changes)) = serde_json::from_str::<Value>(data) else {
                    continue;
                };
                let last = changes.last().unwrap()["seq"].to_string();
                assert!(
                    block.lines().any(|line| line == format!("id: {last}")),
                    "the event's id is its last change's: {block}"
                );
                if let Some(change) = changes.into_iter().find(|c| c["entity"] == "communication") {
                    return Some(change);
                }
            }
        }
    })
    .await
    .expect("the change arrived within a second or two")
    .expect("the stream stayed open");
    assert_eq!(found["action"], "create");
    assert_eq!(found["intake_id"], intake_id.as_str());
    assert!(found["seq"].as_i64().unwrap() > 0);
    assert!(found["id"].is_string());
}

/// One session holds a few event streams, not the server's connections: one stream more
/// is answered 429, and a stream that ends gives its place back. Another session of the
/// same user is counted toward the user's own bound.
#[tokio::test]
async fn a_session_holds_a_bounded_number_of_event_streams() {
    use carepath_server::events::{STREAMS_PER_SESSION, STREAMS_PER_USER};
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let mut open = Vec::new();
    for _ in 0..STREAMS_PER_SESSION {
        let stream = staff.get("/api/events").await;
        assert_eq!(stream.status(), StatusCode::OK);
        open.push(stream);
    }
    let (code, message, _) = crate::support::expect_error(
        staff.get("/api/events").await,
        StatusCode::TOO_MANY_REQUESTS,
    )
    .await;
    assert_eq!(code, "rate_limited");
    assert!(message.contains("Too many Carepath tabs"), "{message}");
    // Everything else still answers that session.
    assert_eq!(staff.get("/api/auth/me").await.status(), StatusCode::OK);

    // A closed stream frees its place.
    drop(open.pop());
    let mut retried = None;
    for _ in 0..50 {
        let stream = staff.get("/api/events").await;
        if stream.status() == StatusCode::OK {
            retried = Some(stream);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    open.push(retried.expect("a freed place is taken again"));

    // The same user's other sessions share the user's bound.
    let mut others = Vec::new();
    let mut refused = false;
    for _ in 0..STREAMS_PER_USER {
        let session = server.staff().await;
        let stream = session.get("/api/events").await;
        if stream.status() == StatusCode::TOO_MANY_REQUESTS {
            refused = true;
            break;
        }
        assert_eq!(stream.status(), StatusCode::OK);
        others.push((session, stream));
    }
    assert!(refused, "the user's bound applies across sessions");
    assert_eq!(open.len() + others.len(), STREAMS_PER_USER);
}

/// A stream belongs to its session: once the session is signed out, the next change
/// ends the stream instead of reaching the browser.
#[tokio::test]
async fn a_signed_out_sessions_stream_ends_and_carries_no_change() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let intake = expect_json(
        staff
            .post("/api/intakes", json!({"form": intake_form("Ada")}))
            .await,
        StatusCode::OK,
    )
    .await;
    let intake_id = intake["id"].as_str().unwrap().to_owned();
    let mut stream = staff.get("/api/events").await;
    assert_eq!(stream.status(), StatusCode::OK);
    tokio::time::sleep(Duration::from_millis(300)).await;

    let signed_out = staff
        .post("/api/auth/sign-out", json!({"everywhere": false}))
        .await;
    assert!(signed_out.status().is_success(), "{}", signed_out.status());
    let db = server.db.clone();
    tokio::task::spawn_blocking(move || {
        let mut store = Store::open(&db).unwrap();
        let note = NoteInput {
            parents: Parents {
                intake_id: Some(intake_id.as_str().into()),
                ..Parents::default()
            },
            content: "Written after the sign-out".into(),
            ..NoteInput::default()
        };
        store.add_note(&Actor::system(Channel::Tui), &note).unwrap();
    })
    .await
    .unwrap();

    let mut text = String::new();
    let ended = tokio::time::timeout(Duration::from_secs(5), async {
        while let Some(chunk) = stream.chunk().await.ok().flatten() {
            text.push_str(&String::from_utf8_lossy(&chunk));
        }
    })
    .await;
    assert!(ended.is_ok(), "the stream ended");
    // The intake's own creation may arrive before the sign-out; the note never does.
    assert!(!text.contains(r#""entity":"communication""#), "{text}");
}
