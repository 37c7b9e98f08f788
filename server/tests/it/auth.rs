//! Sign-in, sessions, sign-out, magic links, recovery, new passwords, sign-up and
//! throttling.

use reqwest::StatusCode;
use serde_json::json;

use crate::support::{
    ADMIN, STAFF, TestServer, eventually, expect_error, expect_json, outbox_emails, readable,
    session_cookie,
};

/// The token of the newest link of `kind` in the outbox.
fn link_token(server: &TestServer, kind: &str) -> Option<String> {
    let marker = format!("{}/login#type={kind}&token=", server.url);
    outbox_emails(server).iter().find_map(|email| {
        // Undo quoted-printable soft breaks and escapes, should the transport use them.
        let text = readable(email);
        let start = text.find(&marker)? + marker.len();
        Some(
            text[start..]
                .chars()
                .take_while(char::is_ascii_hexdigit)
                .collect(),
        )
    })
}

#[tokio::test]
async fn sign_in_sets_an_http_only_lax_cookie_and_me_answers_the_user() {
    let server = TestServer::start().await;
    let anonymous = server.anonymous();
    let response = anonymous
        .post(
            "/api/auth/sign-in",
            json!({"email": ADMIN.0, "password": ADMIN.1}),
        )
        .await;
    let set_cookie = response.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(
        set_cookie.contains("HttpOnly") && set_cookie.contains("SameSite=Lax"),
        "{set_cookie}"
    );
    assert!(
        !set_cookie.contains("Secure"),
        "plain http public URL: no Secure flag"
    );
    let user = expect_json(response, StatusCode::OK).await;
    assert_eq!(user["email"], ADMIN.0);
    assert_eq!(user["is_admin"], true);

    let staff = server.staff().await;
    let me = staff.ok("/api/auth/me").await;
    assert_eq!(me["email"], STAFF.0);
    assert_eq!(me["is_admin"], false);
    // A new token at every sign-in.
    let again = server.staff().await;
    assert_ne!(again.cookie, staff.cookie);
}

#[tokio::test]
async fn wrong_password_and_unknown_email_get_the_same_answer() {
    let server = TestServer::start().await;
    let anonymous = server.anonymous();
    let wrong = anonymous
        .post(
            "/api/auth/sign-in",
            json!({"email": STAFF.0, "password": "nope-nope"}),
        )
        .await;
    let (code, message, _) = expect_error(wrong, StatusCode::UNAUTHORIZED).await;
    assert_eq!(
        (code.as_str(), message.as_str()),
        ("unauthenticated", "Invalid login credentials")
    );
    let unknown = anonymous
        .post(
            "/api/auth/sign-in",
            json!({"email": "who@agency.test", "password": "nope-nope"}),
        )
        .await;
    let (_, unknown_message, _) = expect_error(unknown, StatusCode::UNAUTHORIZED).await;
    assert_eq!(unknown_message, message);
}

#[tokio::test]
async fn sign_out_ends_this_session_or_every_session() {
    let server = TestServer::start().await;
    let first = server.staff().await;
    let second = server.staff().await;
    let third = server.staff().await;

    let response = first
        .post("/api/auth/sign-out", json!({"everywhere": false}))
        .await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    assert!(
        response.headers()["set-cookie"]
            .to_str()
            .unwrap()
            .contains("Max-Age=0")
    );
    assert_eq!(
        first.get("/api/auth/me").await.status(),
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(second.get("/api/auth/me").await.status(), StatusCode::OK);

    let response = second
        .post("/api/auth/sign-out", json!({"everywhere": true}))
        .await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    assert_eq!(
        second.get("/api/auth/me").await.status(),
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        third.get("/api/auth/me").await.status(),
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn a_forged_or_stale_cookie_is_not_a_session() {
    let server = TestServer::start().await;
    let mut session = server.anonymous();
    session.cookie = Some(format!("carepath_session={}", "ab".repeat(32)));
    let (code, _, _) = expect_error(
        session.get("/api/dashboard").await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
    assert_eq!(code, "unauthenticated");
}

#[tokio::test]
async fn the_account_is_throttled_after_five_failures() {
    let server = TestServer::start().await;
    let anonymous = server.anonymous();
    for _ in 0..5 {
        let response = anonymous
            .post(
                "/api/auth/sign-in",
                json!({"email": STAFF.0, "password": "wrong-pass"}),
            )
            .await;
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    }
    // The sixth failure is counted, the seventh must wait.
    let _ = anonymous
        .post(
            "/api/auth/sign-in",
            json!({"email": STAFF.0, "password": "wrong-pass"}),
        )
        .await;
    let response = anonymous
        .post(
            "/api/auth/sign-in",
            json!({"email": STAFF.0, "password": STAFF.1}),
        )
        .await;
    let retry_after: u64 = response.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(retry_after >= 1);
    let (code, message, _) = expect_error(response, StatusCode::TOO_MANY_REQUESTS).await;
    assert_eq!(code, "rate_limited");
    assert!(message.contains("Please wait"), "{message}");
}

/// An address with no account slows down exactly as an account does, so the answers do
/// not tell which addresses have accounts.
#[tokio::test]
async fn an_unknown_address_is_throttled_like_an_account() {
    // A roomy address limit, so only the per-email limit can answer 429.
    let server = TestServer::start_with(|config| config.auth_burst = 100).await;
    let anonymous = server.anonymous();
    let mut answers = Vec::new();
    for email in [STAFF.0, "nobody@agency.test"] {
        let mut statuses = Vec::new();
        for _ in 0..7 {
            let response = anonymous
                .post(
                    "/api/auth/sign-in",
                    json!({"email": email, "password": "wrong-pass"}),
                )
                .await;
            statuses.push(response.status());
        }
        answers.push(statuses);
    }
    assert_eq!(answers[0], answers[1]);
    assert_eq!(answers[1][6], StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn the_client_address_is_throttled_after_a_burst_of_ten() {
    let server = TestServer::start().await;
    let anonymous = server.anonymous();
    for attempt in 0..10 {
        // Different unknown emails, so only the address limit can apply.
        let email = format!("nobody{attempt}@agency.test");
        let response = anonymous
            .post(
                "/api/auth/sign-in",
                json!({"email": email, "password": "whatever"}),
            )
            .await;
        assert_eq!(
            response.status(),
            StatusCode::UNAUTHORIZED,
            "attempt {attempt}"
        );
    }
    let response = anonymous
        .post("/api/auth/magic-link", json!({"email": "x@agency.test"}))
        .await;
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry_after: u64 = response.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry_after), "{retry_after}");
    let (code, _, _) = expect_error(response, StatusCode::TOO_MANY_REQUESTS).await;
    assert_eq!(code, "rate_limited");
}

#[tokio::test]
async fn a_magic_link_signs_in_once() {
    let server = TestServer::start().await;
    let anonymous = server.anonymous();
    let known = anonymous
        .post("/api/auth/magic-link", json!({"email": STAFF.0}))
        .await;
    assert_eq!(known.status(), StatusCode::ACCEPTED);
    let known_body = known.text().await.unwrap();
    let unknown = anonymous
        .post(
            "/api/auth/magic-link",
            json!({"email": "stranger@agency.test"}),
        )
        .await;
    assert_eq!(unknown.status(), StatusCode::ACCEPTED);
    assert_eq!(unknown.text().await.unwrap(), known_body);

    let token = eventually(5, || link_token(&server, "magiclink"))
        .await
        .expect("a magic link email in the outbox");
    assert_eq!(token.len(), 64);
    assert_eq!(
        outbox_emails(&server).len(),
        1,
        "no email for the unknown address"
    );

    let response = anonymous
        .post("/api/auth/verify", json!({"token": token}))
        .await;
    let cookie = session_cookie(&response);
    let user = expect_json(response, StatusCode::OK).await;
    assert_eq!(user["email"], STAFF.0);
    assert!(cookie.is_some());
    let again = anonymous
        .post("/api/auth/verify", json!({"token": token}))
        .await;
    expect_error(again, StatusCode::UNAUTHORIZED).await;
}

#[tokio::test]
async fn magic_link_needs_an_email_address() {
    let server = TestServer::start().await;
    let response = server
        .anonymous()
        .post("/api/auth/magic-link", json!({"email": " "}))
        .await;
    let (code, message, _) = expect_error(response, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(
        (code.as_str(), message.as_str()),
        ("validation", "Please enter your email address.")
    );
}

#[tokio::test]
async fn recovery_sets_a_new_password_and_ends_other_sessions() {
    let server = TestServer::start().await;
    let old_session = server.staff().await;
    let anonymous = server.anonymous();
    let response = anonymous
        .post("/api/auth/recover", json!({"email": STAFF.0}))
        .await;
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    let token = eventually(5, || link_token(&server, "recovery"))
        .await
        .expect("a recovery email");

    let mismatch = anonymous
        .post(
            "/api/auth/reset-password",
            json!({"token": token, "password": "new-secret", "confirm_password": "other-secret"}),
        )
        .await;
    let (_, message, _) = expect_error(mismatch, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(message, "Passwords do not match");
    let short = anonymous
        .post(
            "/api/auth/reset-password",
            json!({"token": token, "password": "abc", "confirm_password": "abc"}),
        )
        .await;
    let (_, message, _) = expect_error(short, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(message, "Password must be at least 6 characters");

    let reset = anonymous
        .post(
            "/api/auth/reset-password",
            json!({"token": token, "password": "new-secret", "confirm_password": "new-secret"}),
        )
        .await;
    assert_eq!(reset.status(), StatusCode::OK);
    assert_eq!(
        old_session.get("/api/auth/me").await.status(),
        StatusCode::UNAUTHORIZED
    );
    server.sign_in((STAFF.0, "new-secret")).await;
    let reused = anonymous
        .post(
            "/api/auth/reset-password",
            json!({"token": token, "password": "third-secret", "confirm_password": "third-secret"}),
        )
        .await;
    expect_error(reused, StatusCode::UNAUTHORIZED).await;
}

#[tokio::test]
async fn changing_the_password_keeps_this_session_and_ends_the_others() {
    let server = TestServer::start().await;
    let here = server.staff().await;
    let elsewhere = server.staff().await;
    let response = here
        .put(
            "/api/auth/password",
            json!({"current_password": STAFF.1, "password": "changed-1", "confirm_password": "changed-1"}),
        )
        .await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    assert_eq!(here.get("/api/auth/me").await.status(), StatusCode::OK);
    assert_eq!(
        elsewhere.get("/api/auth/me").await.status(),
        StatusCode::UNAUTHORIZED
    );
    let mismatch = here
        .put(
            "/api/auth/password",
            json!({"current_password": "changed-1", "password": "changed-2", "confirm_password": "changed-3"}),
        )
        .await;
    let (_, message, _) = expect_error(mismatch, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(message, "Passwords do not match");
    let wrong_current = here
        .put(
            "/api/auth/password",
            json!({"current_password": STAFF.1, "password": "changed-2", "confirm_password": "changed-2"}),
        )
        .await;
    let (_, message, body) = expect_error(wrong_current, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(message, "Your current password is incorrect.");
    assert!(
        body["error"]["fields"]["current_password"].is_string(),
        "{body}"
    );
}

#[tokio::test]
async fn a_password_change_revokes_links_sent_before_it() {
    let server = TestServer::start().await;
    let anonymous = server.anonymous();
    let staff = server.staff().await;
    let response = anonymous
        .post("/api/auth/magic-link", json!({"email": STAFF.0}))
        .await;
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    let magic = eventually(5, || link_token(&server, "magiclink"))
        .await
        .expect("a magic link");
    let response = anonymous
        .post("/api/auth/recover", json!({"email": STAFF.0}))
        .await;
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    let recovery = eventually(5, || link_token(&server, "recovery"))
        .await
        .expect("a recovery link");
    let changed = staff
        .put(
            "/api/auth/password",
            json!({"current_password": STAFF.1, "password": "changed-1", "confirm_password": "changed-1"}),
        )
        .await;
    assert_eq!(changed.status(), StatusCode::NO_CONTENT);
    expect_error(
        anonymous
            .post("/api/auth/verify", json!({"token": magic}))
            .await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
    expect_error(
        anonymous
            .post(
                "/api/auth/reset-password",
                json!({"token": recovery, "password": "taken-over", "confirm_password": "taken-over"}),
            )
            .await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
}

#[tokio::test]
async fn sign_up_is_by_invitation_only() {
    let server = TestServer::start().await;
    let anonymous = server.anonymous();
    let body = json!({"email": "new@agency.test", "password": "new-secret", "full_name": "Nina New", "token": "0000"});
    let (code, _, _) = expect_error(
        anonymous.post("/api/auth/sign-up", body.clone()).await,
        StatusCode::FORBIDDEN,
    )
    .await;
    assert_eq!(code, "forbidden");

    let staff = server.staff().await;
    let refused = staff
        .post(
            "/api/admin/invitations",
            json!({"email": "new@agency.test"}),
        )
        .await;
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    let admin = server.admin().await;
    let invited = admin
        .post(
            "/api/admin/invitations",
            json!({"email": "new@agency.test"}),
        )
        .await;
    assert_eq!(invited.status(), StatusCode::NO_CONTENT);
    let token = eventually(5, || link_token(&server, "invite"))
        .await
        .expect("an invitation email with its link");
    // The invited address alone is not enough: sign-up needs the link's token.
    let (code, _, _) = expect_error(
        anonymous.post("/api/auth/sign-up", body.clone()).await,
        StatusCode::FORBIDDEN,
    )
    .await;
    assert_eq!(code, "forbidden");

    let mut body = body;
    body["token"] = json!(token);
    let response = anonymous.post("/api/auth/sign-up", body).await;
    assert!(session_cookie(&response).is_some());
    let user = expect_json(response, StatusCode::OK).await;
    assert_eq!(
        (user["email"].as_str(), user["is_admin"].as_bool()),
        (Some("new@agency.test"), Some(false))
    );
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_forwarded_address_has_its_own_limit() {
    let server = TestServer::start_with(|config| config.trust_proxy = true).await;
    let anonymous = server.anonymous();
    let tries = std::sync::atomic::AtomicUsize::new(0);
    let attempt = |address: &'static str| {
        // A new unknown email each time, so only the address limit can apply.
        let n = tries.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        anonymous
            .request(reqwest::Method::POST, "/api/auth/sign-in")
            .header("x-forwarded-for", format!("203.0.113.9, {address}"))
            .json(&json!({"email": format!("nobody{n}@agency.test"), "password": "whatever"}))
            .send()
    };
    for _ in 0..10 {
        assert_eq!(
            attempt("198.51.100.1").await.unwrap().status(),
            StatusCode::UNAUTHORIZED
        );
    }
    assert_eq!(
        attempt("198.51.100.1").await.unwrap().status(),
        StatusCode::TOO_MANY_REQUESTS
    );
    assert_eq!(
        attempt("198.51.100.2").await.unwrap().status(),
        StatusCode::UNAUTHORIZED
    );
}

/// From a session, the current password cannot be guessed without limit: checking it is
/// throttled like sign-in.
#[tokio::test]
async fn the_current_password_cannot_be_guessed_from_a_session() {
    let server = TestServer::start_with(|config| {
        config.auth_burst = 4;
        config.auth_refill = std::time::Duration::from_secs(600);
    })
    .await;
    // The sign-in takes one attempt of the four.
    let staff = server.staff().await;
    let guess = |number: usize| {
        json!({
            "current_password": format!("guess-{number}"),
            "password": "a-new-long-password",
            "confirm_password": "a-new-long-password",
        })
    };
    for number in 0..3 {
        let response = staff.put("/api/auth/password", guess(number)).await;
        assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    }
    let response = staff.put("/api/auth/password", guess(3)).await;
    assert!(response.headers().get("retry-after").is_some());
    let (code, _, _) = expect_error(response, StatusCode::TOO_MANY_REQUESTS).await;
    assert_eq!(code, "rate_limited");
}
