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
