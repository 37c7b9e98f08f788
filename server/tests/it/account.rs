//! A user's own sessions: each lists where it was opened from, and ending one ends it at
//! once (its cached session too); an administrator re-enables a disabled user.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::support::{STAFF, Session, TestServer, expect_error, expect_json, session_cookie};

const FIREFOX: &str = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
const SAFARI: &str = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

/// Signs in as `credentials` from a browser saying `user_agent`.
async fn sign_in_from(server: &TestServer, credentials: (&str, &str), user_agent: &str) -> Session {
    let mut session = server.anonymous();
    let response = session
        .request(reqwest::Method::POST, "/api/auth/sign-in")
        .header("user-agent", user_agent)
        .json(&json!({"email": credentials.0, "password": credentials.1}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    session.cookie = session_cookie(&response);
    session
}

fn listed(sessions: &Value) -> Vec<(String, bool)> {
    sessions["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["device"].as_str().unwrap().to_owned(),
                s["current"].as_bool().unwrap(),
            )
        })
        .collect()
}

#[tokio::test]
async fn a_user_sees_their_sessions_and_ends_one_at_once() {
    let server = TestServer::start().await;
    let laptop = sign_in_from(&server, STAFF, FIREFOX).await;
    let phone = sign_in_from(&server, STAFF, SAFARI).await;
    let admin = server.admin().await;
    // Warm the phone's session into the cache: ending it must still take at once.
    for _ in 0..2 {
        assert_eq!(phone.get("/api/auth/me").await.status(), StatusCode::OK);
    }

    let sessions = laptop.ok("/api/account/sessions").await;
    let mut seen = listed(&sessions);
    seen.sort();
    assert_eq!(
        seen,
        vec![
            ("Firefox on Linux".to_owned(), true),
            ("Safari on iPhone".to_owned(), false)
        ]
    );
    let first = &sessions["items"][0];
    assert_eq!(first["address"], "127.0.0.1");
    assert!(first["created_at"].as_str().unwrap().ends_with('Z'));
    assert!(first["last_seen_at"].is_string());
    // Nothing of the token is answered.
    let text = sessions.to_string();
    assert!(!text.contains("token"), "{text}");
    // The administrator's own session is not in the staff member's list.
    assert_eq!(sessions["items"].as_array().unwrap().len(), 2);

    let phone_id = sessions["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["current"] == false)
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    // Another user cannot end it.
    expect_error(
        admin
            .delete(&format!("/api/account/sessions/{phone_id}"))
            .await,
        StatusCode::NOT_FOUND,
    )
    .await;
    assert_eq!(phone.get("/api/auth/me").await.status(), StatusCode::OK);

    let response = laptop
        .delete(&format!("/api/account/sessions/{phone_id}"))
        .await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    assert_eq!(
        phone.get("/api/auth/me").await.status(),
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(laptop.get("/api/auth/me").await.status(), StatusCode::OK);
    // Ended already: not found, not a silent success.
    expect_error(
        laptop
            .delete(&format!("/api/account/sessions/{phone_id}"))
            .await,
        StatusCode::NOT_FOUND,
    )
    .await;

    // Ending this one signs out here and clears the cookie.
    let sessions = laptop.ok("/api/account/sessions").await;
    assert_eq!(
        listed(&sessions),
        vec![("Firefox on Linux".to_owned(), true)]
    );
    let here = sessions["items"][0]["id"].as_str().unwrap().to_owned();
    let response = laptop
        .delete(&format!("/api/account/sessions/{here}"))
        .await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    let cleared = response
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    assert!(cleared.contains("Max-Age=0"), "{cleared}");
    assert_eq!(
        laptop.get("/api/auth/me").await.status(),
        StatusCode::UNAUTHORIZED
    );
    server.stop().await;
}

#[tokio::test]
async fn an_administrator_re_enables_a_disabled_user_with_an_audit_row() {
    let server = TestServer::start().await;
    let admin = server.admin().await;
    let users = admin.ok("/api/admin/users").await;
    let staff_id = users["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["email"] == STAFF.0)
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let staff = server.staff().await;
    // Staff cannot re-enable anyone.
    expect_error(
        staff
            .post(&format!("/api/admin/users/{staff_id}/enable"), json!({}))
            .await,
        StatusCode::FORBIDDEN,
    )
    .await;
    expect_json(
        admin
            .post(&format!("/api/admin/users/{staff_id}/disable"), json!({}))
            .await,
        StatusCode::OK,
    )
    .await;
    let refused = server
        .anonymous()
        .post(
            "/api/auth/sign-in",
            json!({"email": STAFF.0, "password": STAFF.1}),
        )
        .await;
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
    let user = expect_json(
        admin
            .post(&format!("/api/admin/users/{staff_id}/enable"), json!({}))
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(user["disabled"], false);
    // The old session does not come back; a new sign-in works.
    assert_eq!(
        staff.get("/api/auth/me").await.status(),
        StatusCode::UNAUTHORIZED
    );
    let again = server.staff().await;
    assert_eq!(again.get("/api/auth/me").await.status(), StatusCode::OK);

    let store = carepath_core::store::Store::open(&server.db).unwrap();
    let actions: Vec<String> = store
        .audit_since(0, 10_000)
        .unwrap()
        .into_iter()
        .filter(|entry| entry.entity == "user" && entry.entity_id == staff_id)
        .map(|entry| entry.action)
        .collect();
    assert!(actions.contains(&"enable".to_owned()), "{actions:?}");
    server.stop().await;
}
