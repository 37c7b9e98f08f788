//! A signed-in request is answered without reading the session from the database, yet a
//! sign-out, a password change or a change made by another process (the CLI disabling an
//! account) ends cached sessions on the very next request.

use carepath_core::model::{Actor, Channel};
use carepath_core::store::Store;
use reqwest::StatusCode;
use serde_json::json;

use crate::support::{STAFF, TestServer};

/// Asks twice, so the second answer comes from the cache.
async fn warm(session: &crate::support::Session) {
    for _ in 0..2 {
        assert_eq!(session.get("/api/auth/me").await.status(), StatusCode::OK);
    }
}

#[tokio::test]
async fn cached_sessions_end_at_once_on_sign_out_and_password_change() {
    let server = TestServer::start().await;
    let first = server.staff().await;
    let second = server.staff().await;
    let third = server.staff().await;
    for session in [&first, &second, &third] {
        warm(session).await;
    }
    let response = first
        .post("/api/auth/sign-out", json!({"everywhere": false}))
        .await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    assert_eq!(
        first.get("/api/auth/me").await.status(),
        StatusCode::UNAUTHORIZED
    );
    warm(&second).await;
    let response = second
        .put(
            "/api/auth/password",
            json!({"current_password": STAFF.1, "password": "changed-1", "confirm_password": "changed-1"}),
        )
        .await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    assert_eq!(
        third.get("/api/auth/me").await.status(),
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(second.get("/api/auth/me").await.status(), StatusCode::OK);
    server.stop().await;
}

#[tokio::test]
async fn another_process_disabling_the_account_ends_its_cached_sessions() {
    let server = TestServer::start().await;
    let session = server.staff().await;
    warm(&session).await;
    // The CLI's way: its own connection to the file, not through the server.
    let mut cli = Store::open(&server.db).unwrap();
    let user = cli.user_by_email(STAFF.0).unwrap();
    cli.disable_user(&Actor::system(Channel::Cli), &user.id)
        .unwrap();
    assert_eq!(
        session.get("/api/auth/me").await.status(),
        StatusCode::UNAUTHORIZED
    );
    server.stop().await;
}

/// The reads answered in place check a cached session after reading, in the read's own
/// snapshot, instead of asking the database first.
fn read_in_place_paths(intake_id: &str) -> [String; 3] {
    [
        "/api/dashboard".to_owned(),
        format!("/api/intakes/{intake_id}"),
        format!("/api/communications?intake_id={intake_id}"),
    ]
}

/// A staff session whose reads of `path` come from the cache (the first looks it up).
async fn signed_in_reading(server: &TestServer, path: &str) -> crate::support::Session {
    let session = server.staff().await;
    for _ in 0..3 {
        assert_eq!(session.get(path).await.status(), StatusCode::OK, "{path}");
    }
    session
}

/// Ends the session the CLI's way: its own connection to the file.
fn end_from_another_process(server: &TestServer, session: &crate::support::Session) {
    let cookie = session.cookie.clone().unwrap();
    let token = cookie.trim_start_matches("carepath_session=");
    Store::open(&server.db).unwrap().end_session(token).unwrap();
}

async fn new_intake(session: &crate::support::Session) -> String {
    let intake = crate::support::expect_json(
        session
            .post(
                "/api/intakes",
                json!({"form": crate::support::intake_form("Ada Lovelace")}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    intake["id"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn reads_answered_in_place_end_with_the_session_whoever_ends_it() {
    let server = TestServer::start().await;
    let admin = server.admin().await;
    let intake_id = new_intake(&admin).await;
    let mut disabled = Vec::new();
    for path in read_in_place_paths(&intake_id) {
        // Another process ends the session: no connection of the server has seen that
        // commit when the next read starts.
        let session = signed_in_reading(&server, &path).await;
        end_from_another_process(&server, &session);
        assert_eq!(
            session.get(&path).await.status(),
            StatusCode::UNAUTHORIZED,
            "{path} after another process ended the session"
        );

        // The server's own write, on one of its connections.
        let session = signed_in_reading(&server, &path).await;
        let response = session
            .post("/api/auth/sign-out", json!({"everywhere": false}))
            .await;
        assert_eq!(response.status(), StatusCode::NO_CONTENT);
        assert_eq!(
            session.get(&path).await.status(),
            StatusCode::UNAUTHORIZED,
            "{path} after signing out"
        );

        let session = signed_in_reading(&server, &path).await;
        disabled.push((path, session));
    }
    // The CLI disables the account: every read in place ends.
    let mut cli = Store::open(&server.db).unwrap();
    let user = cli.user_by_email(STAFF.0).unwrap();
    cli.disable_user(&Actor::system(Channel::Cli), &user.id)
        .unwrap();
    for (path, session) in &disabled {
        assert_eq!(
            session.get(path).await.status(),
            StatusCode::UNAUTHORIZED,
            "{path} after the CLI disabled the account"
        );
    }
    server.stop().await;
}

#[tokio::test]
async fn reads_answered_in_place_survive_writes_that_leave_the_session_alone() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let intake_id = new_intake(&staff).await;
    let other = server.admin().await;
    for path in read_in_place_paths(&intake_id) {
        assert_eq!(staff.get(&path).await.status(), StatusCode::OK, "{path}");
        // Someone else's note, and a change from another process: the session is read
        // again and the answer is the one after them.
        let note = other
            .post(
                "/api/communications/notes",
                json!({"intake_id": intake_id, "content": format!("note before {path}")}),
            )
            .await;
        assert_eq!(note.status(), StatusCode::OK, "{path}");
        // Another process ends a different session of the same account.
        let bystander = server.staff().await;
        end_from_another_process(&server, &bystander);
        let after = staff.get(&path).await;
        assert_eq!(after.status(), StatusCode::OK, "{path}");
        if path.starts_with("/api/communications") {
            let body: serde_json::Value = after.json().await.unwrap();
            assert!(
                body["items"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|item| item["content"] == format!("note before {path}")),
                "{body}"
            );
        }
    }
    server.stop().await;
}

#[tokio::test]
async fn a_read_in_place_refused_before_reading_still_answers_an_ended_session_401() {
    let server = TestServer::start().await;
    let session = server.staff().await;
    for _ in 0..2 {
        assert_eq!(session.get("/api/dashboard").await.status(), StatusCode::OK);
    }
    // A timeline that names no client is refused before any statement runs, so its
    // read saw no snapshot to vouch for the session.
    assert_eq!(
        session.get("/api/communications").await.status(),
        StatusCode::UNPROCESSABLE_ENTITY
    );
    end_from_another_process(&server, &session);
    assert_eq!(
        session.get("/api/communications").await.status(),
        StatusCode::UNAUTHORIZED
    );
    server.stop().await;
}
