//! Passkeys as a second factor, as far as HTTP goes without a browser (the whole
//! ceremony is the browser test's, with Chromium's virtual authenticator): the relying
//! party comes from the public address and is refused in words when browsers would
//! refuse it; adding one takes a named, started ceremony and refuses a garbage answer
//! with a clear 4xx; the code step offers a passkey only to a live pending sign-in, counts
//! a refused answer like a wrong code, and a wrong password still answers alike.

use carepath_core::rules::passkeys::{
    ANSWER_MALFORMED, NAME_REQUIRED, NAME_TOO_LONG, NO_PASSKEY, PASSKEY_REFUSED,
    REGISTRATION_NOT_STARTED, REGISTRATION_REFUSED,
};
use carepath_core::rules::second_factor::{PENDING_EXPIRED, totp_code};
use carepath_server::PublicUrl;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::support::{ADMIN, STAFF, Session, TestServer, expect_error, expect_json};

/// A server whose public address is `http://localhost:PORT`: a relying party browsers
/// accept (the tests speak to 127.0.0.1 and send no Origin).
async fn localhost_server() -> TestServer {
    TestServer::start_with(|config| {
        config.auth_burst = 100;
        config.public_url =
            PublicUrl::parse(&format!("http://localhost:{}", config.addr.port())).unwrap();
    })
    .await
}

/// A browser's answer shaped right but signed by nobody.
fn forged_registration() -> Value {
    json!({"id": "AAAA", "rawId": "AAAA", "type": "public-key",
        "response": {"attestationObject": "AAAA", "clientDataJSON": "AAAA"}})
}

fn forged_assertion() -> Value {
    json!({"id": "AAAA", "rawId": "AAAA", "type": "public-key",
        "response": {"authenticatorData": "AAAA", "clientDataJSON": "AAAA", "signature": "AAAA"}})
}

fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

fn cookie_named(response: &reqwest::Response, name: &str) -> Option<String> {
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .map(|v| v.split(';').next().unwrap_or_default().to_owned())
        .find(|c| c.starts_with(&format!("{name}=")) && c.len() > name.len() + 1)
}

/// An authenticator app for the signed-in user (so the password step answers 202).
async fn enrol_totp(session: &Session) -> String {
    let started = expect_json(
        session.post("/api/account/totp", json!({})).await,
        StatusCode::OK,
    )
    .await;
    let secret = started["secret"].as_str().unwrap().to_owned();
    let code = totp_code(&secret, now_secs()).unwrap();
    expect_json(
        session
            .post("/api/account/totp/confirm", json!({"code": code}))
            .await,
        StatusCode::OK,
    )
    .await;
    secret
}

async fn password_step(server: &TestServer, credentials: (&str, &str)) -> Session {
    let mut session = server.anonymous();
    let response = session
        .post(
            "/api/auth/sign-in",
            json!({"email": credentials.0, "password": credentials.1}),
        )
        .await;
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    session.cookie = cookie_named(&response, "carepath_pending");
    assert!(session.cookie.is_some());
    session
}

#[tokio::test]
async fn an_address_browsers_refuse_for_webauthn_is_refused_in_words() {
    // The test server's public address is http://127.0.0.1:PORT: an IP address is never
    // a relying party id.
    let server = TestServer::start().await;
    let staff = server.staff().await;
    for (path, body) in [
        (
            "/api/account/passkeys/options",
            json!({"name": "Work laptop"}),
        ),
        (
            "/api/account/passkeys",
            json!({"credential": forged_registration()}),
        ),
    ] {
        let (code, message, _) = expect_error(
            staff.post(path, body).await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert_eq!(code, "rejected", "{path}");
        assert!(
            message.contains("Passkeys cannot be used")
                && message.contains("127.0.0.1")
                && message.contains("--public-url"),
            "{message}"
        );
    }
    // Listing needs no relying party.
    assert_eq!(staff.ok("/api/account/passkeys").await["items"], json!([]));
    server.stop().await;
}

#[tokio::test]
async fn adding_a_passkey_takes_a_named_started_ceremony_and_refuses_garbage_clearly() {
    let server = localhost_server().await;
    let staff = server.staff().await;

    // A name: 1 to 60 characters.
    for (name, message) in [("  ", NAME_REQUIRED), (&"x".repeat(61)[..], NAME_TOO_LONG)] {
        let (code, _, body) = expect_error(
            staff
                .post("/api/account/passkeys/options", json!({"name": name}))
                .await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert_eq!(code, "validation");
        assert_eq!(body["error"]["fields"]["name"], message);
    }
    // An answer before any challenge.
    let (_, message, _) = expect_error(
        staff
            .post(
                "/api/account/passkeys",
                json!({"credential": forged_registration()}),
            )
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(message, REGISTRATION_NOT_STARTED);

    // The challenge names this server and the user, and asks for user verification.
    let challenge = expect_json(
        staff
            .post(
                "/api/account/passkeys/options",
                json!({"name": "Work laptop"}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    let options = &challenge["public_key"];
    assert_eq!(options["rp"]["id"], "localhost");
    assert_eq!(options["user"]["name"], STAFF.0);
    assert!(options["challenge"].as_str().is_some_and(|c| c.len() >= 43));
    assert_eq!(
        options["authenticatorSelection"]["userVerification"],
        "required"
    );

    // Not JSON, or the wrong shape of body: 400, and the ceremony stays.
    let not_json = staff
        .request(reqwest::Method::POST, "/api/account/passkeys")
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    expect_error(not_json, StatusCode::BAD_REQUEST).await;
    expect_error(
        staff
            .post("/api/account/passkeys", json!({"answer": {}}))
            .await,
        StatusCode::BAD_REQUEST,
    )
    .await;
    // Something that is no WebAuthn answer: refused in words, and it used the ceremony.
    let (_, message, _) = expect_error(
        staff
            .post("/api/account/passkeys", json!({"credential": "garbage"}))
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(message, ANSWER_MALFORMED);
    let (_, message, _) = expect_error(
        staff
            .post(
                "/api/account/passkeys",
                json!({"credential": forged_registration()}),
            )
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(message, REGISTRATION_NOT_STARTED);
    // A well-formed answer signed by nobody.
    expect_json(
        staff
            .post("/api/account/passkeys/options", json!({"name": "Key"}))
            .await,
        StatusCode::OK,
    )
    .await;
    let (_, message, _) = expect_error(
        staff
            .post(
                "/api/account/passkeys",
                json!({"credential": forged_registration()}),
            )
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(message, REGISTRATION_REFUSED);

    let status = staff.ok("/api/account/second-factor").await;
    assert_eq!(
        (status["passkeys"].clone(), status["totp"].clone()),
        (json!(0), json!(false))
    );
    expect_error(
        staff.delete("/api/account/passkeys/nope").await,
        StatusCode::NOT_FOUND,
    )
    .await;
    server.stop().await;
}

#[tokio::test]
async fn the_code_step_offers_a_passkey_only_to_a_live_pending_sign_in() {
    let server = localhost_server().await;
    let anonymous = server.anonymous();
    for path in [
        "/api/auth/second-factor/passkey/options",
        "/api/auth/second-factor/passkey",
    ] {
        let (_, message, _) = expect_error(
            anonymous
                .post(path, json!({"credential": forged_assertion()}))
                .await,
            StatusCode::UNAUTHORIZED,
        )
        .await;
        assert_eq!(message, PENDING_EXPIRED, "{path}");
    }

    let staff = server.staff().await;
    let secret = enrol_totp(&staff).await;
    // A wrong password answers alike for an account with a second factor and without.
    let wrong = |email: &'static str| {
        let anonymous = server.anonymous();
        async move {
            expect_error(
                anonymous
                    .post(
                        "/api/auth/sign-in",
                        json!({"email": email, "password": "wrong"}),
                    )
                    .await,
                StatusCode::UNAUTHORIZED,
            )
            .await
        }
    };
    let (code_a, message_a, _) = wrong(STAFF.0).await;
    let (code_b, message_b, _) = wrong(ADMIN.0).await;
    assert_eq!((code_a, message_a), (code_b, message_b));

    let pending = password_step(&server, STAFF).await;
    // No passkey: said plainly, and nothing is counted.
    let (_, message, _) = expect_error(
        pending
            .post("/api/auth/second-factor/passkey/options", json!({}))
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(message, NO_PASSKEY);
    // Not JSON at all: 400, never a 500.
    let not_json = pending
        .request(reqwest::Method::POST, "/api/auth/second-factor/passkey")
        .header("content-type", "application/json")
        .body("]")
        .send()
        .await
        .unwrap();
    expect_error(not_json, StatusCode::BAD_REQUEST).await;
    // Forged answers are refused like wrong codes; five end the pending sign-in.
    for answer in [
        json!("garbage"),
        forged_assertion(),
        json!({}),
        json!(null),
        json!([1]),
    ] {
        let (code, message, _) = expect_error(
            pending
                .post(
                    "/api/auth/second-factor/passkey",
                    json!({"credential": answer}),
                )
                .await,
            StatusCode::UNAUTHORIZED,
        )
        .await;
        assert_eq!(
            (code.as_str(), message.as_str()),
            ("invalid_passkey", PASSKEY_REFUSED)
        );
    }
    let right = totp_code(&secret, now_secs() + 30).unwrap();
    let (_, message, _) = expect_error(
        pending
            .post("/api/auth/second-factor", json!({"code": right}))
            .await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
    assert_eq!(message, PENDING_EXPIRED);
    // Refused passkeys throttle the account's sign-in from here like wrong passwords.
    let response = server
        .anonymous()
        .post(
            "/api/auth/sign-in",
            json!({"email": STAFF.0, "password": STAFF.1}),
        )
        .await;
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    server.stop().await;
}
