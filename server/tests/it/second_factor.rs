//! A second factor for staff: enrolling an authenticator app, signing in with its code
//! (each accepted once) or a recovery code (each works once), the throttle on the code
//! step, the administrators' setting that sends a user to enrolment, and the reset.

use carepath_core::rules::second_factor::totp_code;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::support::{STAFF, Session, TestServer, expect_error, expect_json, wrong_password};

fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// The `name=value` pairs of every cookie a response sets.
fn cookies(response: &reqwest::Response) -> Vec<String> {
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .map(|v| v.split(';').next().unwrap_or_default().to_owned())
        .collect()
}

fn cookie_named(response: &reqwest::Response, name: &str) -> Option<String> {
    cookies(response)
        .into_iter()
        .find(|c| c.starts_with(&format!("{name}=")) && c.len() > name.len() + 1)
}

/// Enrols an authenticator app for the signed-in user; its secret and recovery codes.
async fn enrol(session: &Session) -> (String, Vec<String>) {
    let started = expect_json(
        session.post("/api/account/totp", json!({})).await,
        StatusCode::OK,
    )
    .await;
    let secret = started["secret"].as_str().unwrap().to_owned();
    assert!(
        started["otpauth_url"]
            .as_str()
            .unwrap()
            .starts_with("otpauth://totp/")
    );
    let qr = session.get("/api/account/totp/qr").await;
    assert_eq!(qr.status(), StatusCode::OK);
    assert_eq!(qr.headers()["content-type"], "image/svg+xml");
    assert!(qr.text().await.unwrap().contains("<svg"));
    // A wrong code does not confirm it.
    expect_error(
        session
            .post("/api/account/totp/confirm", json!({"code": "000000x"}))
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    let code = totp_code(&secret, now_secs()).unwrap();
    let confirmed = expect_json(
        session
            .post("/api/account/totp/confirm", json!({"code": code}))
            .await,
        StatusCode::OK,
    )
    .await;
    let codes: Vec<String> = confirmed["codes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(codes.len(), 10);
    (secret, codes)
}

/// The password step; the pending cookie of a user with a second factor.
async fn password_step(server: &TestServer, credentials: (&str, &str)) -> Session {
    let mut session = server.anonymous();
    let response = session
        .post(
            "/api/auth/sign-in",
            json!({"email": credentials.0, "password": credentials.1}),
        )
        .await;
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    assert!(cookie_named(&response, "carepath_session").is_none());
    session.cookie = cookie_named(&response, "carepath_pending");
    assert!(session.cookie.is_some());
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["second_factor_required"], true);
    session
}

/// The code step; the signed-in session when it is accepted.
async fn code_step(pending: &Session, code: &str) -> Result<Session, (StatusCode, String)> {
    let response = pending
        .post("/api/auth/second-factor", json!({"code": code}))
        .await;
    if response.status() != StatusCode::OK {
        let status = response.status();
        return Err((status, response.text().await.unwrap()));
    }
    let mut session = Session {
        client: pending.client.clone(),
        url: pending.url.clone(),
        cookie: None,
    };
    session.cookie = cookie_named(&response, "carepath_session");
    Ok(session)
}

#[tokio::test]
async fn totp_sign_in_takes_a_code_once_and_each_recovery_code_once() {
    // Many sign-ins from one address: the per-address limit is not what is tested here.
    let server = TestServer::start_with(|config| config.auth_burst = 100).await;
    let staff = server.staff().await;
    let (secret, codes) = enrol(&staff).await;
    let status = staff.ok("/api/account/second-factor").await;
    assert_eq!(status["totp"], true);
    assert_eq!(status["recovery_codes_left"], 10);
    // A second enrolment is refused while one is active.
    expect_error(
        staff.post("/api/account/totp", json!({})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;

    // A wrong password answers exactly as before, for this account and for none.
    let (code_a, message_a, _) = wrong_password(&server, STAFF.0).await;
    let (code_b, message_b, _) = wrong_password(&server, "nobody@agency.test").await;
    assert_eq!((code_a, message_a), (code_b, message_b));

    // The pending state is not a session.
    let pending = password_step(&server, STAFF).await;
    assert_eq!(
        pending.get("/api/auth/me").await.status(),
        StatusCode::UNAUTHORIZED
    );
    // A wrong code is refused; the app's current code (already used at enrolment, so the
    // next step's) signs in.
    let (status, body) = code_step(&pending, "123456x").await.err().unwrap();
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    let next = totp_code(&secret, now_secs() + 30).unwrap();
    let signed_in = code_step(&pending, &next).await.unwrap();
    assert_eq!(signed_in.ok("/api/auth/me").await["email"], STAFF.0);
    // The pending sign-in is spent, and the same code again is a replay.
    assert!(code_step(&pending, &next).await.is_err());
    let again = password_step(&server, STAFF).await;
    let (status, _) = code_step(&again, &next).await.err().unwrap();
    assert_eq!(status, StatusCode::UNAUTHORIZED);

    // A recovery code, typed loosely, works once.
    let loose = codes[0].to_uppercase().replace('-', " ");
    assert!(code_step(&again, &loose).await.is_ok());
    let third = password_step(&server, STAFF).await;
    let (status, _) = code_step(&third, &codes[0]).await.err().unwrap();
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(code_step(&third, &codes[1]).await.is_ok());
    assert_eq!(
        staff.ok("/api/account/second-factor").await["recovery_codes_left"],
        8
    );
    server.stop().await;
}

#[tokio::test]
async fn wrong_codes_end_the_pending_sign_in_and_count_toward_the_throttle() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let (secret, _) = enrol(&staff).await;
    let pending = password_step(&server, STAFF).await;
    for _ in 0..5 {
        let (status, _) = code_step(&pending, "000000").await.err().unwrap();
        assert!(
            status == StatusCode::UNAUTHORIZED || status == StatusCode::TOO_MANY_REQUESTS,
            "{status}"
        );
    }
    // Spent: even the right code needs the password again.
    let right = totp_code(&secret, now_secs() + 30).unwrap();
    let (status, body) = code_step(&pending, &right).await.err().unwrap();
    assert!(
        status == StatusCode::UNAUTHORIZED || status == StatusCode::TOO_MANY_REQUESTS,
        "{body}"
    );
    // Five wrong codes throttle the account's sign-in from here like five wrong passwords.
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

#[tokio::test]
async fn the_setting_sends_a_user_without_a_factor_to_enrolment_and_an_admin_resets_one() {
    let server = TestServer::start_with(|config| config.auth_burst = 100).await;
    let admin = server.admin().await;
    // Under "everyone" the administrator needs one too: this one has it already.
    let _ = enrol(&admin).await;
    let settings = admin.ok("/api/settings").await;
    let mut workflow = settings["workflow"].clone();
    workflow["second_factor_required"] = json!("everyone");
    let version = settings["versions"]["workflow"].as_i64().unwrap_or(0);
    let staff = server.staff().await;
    // Staff cannot change who must have one.
    let refused = staff
        .put(
            "/api/settings",
            json!({"tab": "workflow", "values": workflow, "version": version}),
        )
        .await;
    assert!(refused.status().is_client_error(), "{}", refused.status());
    expect_json(
        admin
            .put(
                "/api/settings",
                json!({"tab": "workflow", "values": workflow, "version": version}),
            )
            .await,
        StatusCode::OK,
    )
    .await;

    // Signed in with a password alone, the staff member reaches only enrolment.
    let me = staff.ok("/api/auth/me").await;
    assert_eq!(me["needs_second_factor"], true);
    let (code, _, _) = expect_error(staff.get("/api/dashboard").await, StatusCode::FORBIDDEN).await;
    assert_eq!(code, "second_factor_required");
    expect_error(staff.get("/api/users").await, StatusCode::FORBIDDEN).await;
    let (_, _) = enrol(&staff).await;
    assert_eq!(staff.ok("/api/auth/me").await["needs_second_factor"], false);
    assert_eq!(staff.get("/api/dashboard").await.status(), StatusCode::OK);

    // The administrator resets it (audited); the next sign-in is a password again, and
    // leads to enrolment again under the setting.
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
    expect_error(
        staff
            .post(
                &format!("/api/admin/users/{staff_id}/reset-second-factor"),
                json!({}),
            )
            .await,
        StatusCode::FORBIDDEN,
    )
    .await;
    expect_json(
        admin
            .post(
                &format!("/api/admin/users/{staff_id}/reset-second-factor"),
                json!({}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    let fresh = server.staff().await;
    assert_eq!(fresh.ok("/api/auth/me").await["needs_second_factor"], true);
    let store = carepath_core::store::Store::open(&server.db).unwrap();
    let actions: Vec<String> = store
        .audit_since(0, 10_000)
        .unwrap()
        .into_iter()
        .filter(|entry| entry.entity == "user" && entry.entity_id == staff_id)
        .map(|entry| entry.action)
        .collect();
    assert!(
        actions.contains(&"enrol_second_factor".to_owned()),
        "{actions:?}"
    );
    assert!(
        actions.contains(&"reset_second_factor".to_owned()),
        "{actions:?}"
    );
    server.stop().await;
}
