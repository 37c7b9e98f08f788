//! What a careless or hostile insider must not be able to do: read another account's
//! sign-in links, reroute email, store unbounded text, or tie the server up with slow
//! clients and runaway requests.

use std::io::{Read, Write};
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::json;

use crate::support::{
    ADMIN, STAFF, TestServer, eventually, expect_error, expect_json, intake_form,
    private_outbox_emails, readable,
};

/// Staff who ask for an administrator's magic link or recovery link, or see an
/// invitation go out, find none of those links in the outbox listing; the recipients
/// get them.
#[tokio::test]
async fn the_outbox_listing_never_shows_account_links() {
    let server = TestServer::start().await;
    let anonymous = server.anonymous();
    let staff = server.staff().await;
    let admin = server.admin().await;
    for (path, email) in [
        ("/api/auth/magic-link", ADMIN.0),
        ("/api/auth/recover", ADMIN.0),
    ] {
        let response = anonymous.post(path, json!({ "email": email })).await;
        assert_eq!(response.status(), StatusCode::ACCEPTED);
    }
    let invited = admin
        .post(
            "/api/admin/invitations",
            json!({"email": "new@agency.test"}),
        )
        .await;
    assert_eq!(invited.status(), StatusCode::NO_CONTENT);
    let sent = staff
        .post(
            "/api/communications/email",
            json!({"to": "family@home.test", "subject": "Visit", "body": "See you Tuesday."}),
        )
        .await;
    assert_eq!(sent.status(), StatusCode::OK);

    let private = eventually(5, || {
        let emails: Vec<String> = private_outbox_emails(&server)
            .iter()
            .map(|email| readable(email))
            .collect();
        (emails.len() == 3).then_some(emails)
    })
    .await
    .expect("the three account emails reached their recipients");
    for kind in ["magiclink", "recovery", "invite"] {
        assert!(
            private
                .iter()
                .any(|email| email.contains(&format!("#type={kind}&token="))),
            "{kind}"
        );
    }

    for session in [&staff, &admin] {
        let listing = session.ok("/api/outbox").await;
        let text = listing.to_string();
        assert!(text.contains("family@home.test"), "{text}");
        assert!(!text.contains("token="), "{text}");
        assert!(!text.contains(ADMIN.0), "{text}");
        assert!(!text.contains("new@agency.test"), "{text}");
    }
}

#[tokio::test]
async fn only_administrators_change_email_routing_and_the_idle_timeout() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let admin = server.admin().await;
    let settings = staff.ok("/api/settings").await;
    let workflow = settings["workflow"].clone();
    let version = settings["versions"]["workflow"].as_i64().unwrap_or(0);

    let mut longer = workflow.clone();
    longer["idle_timeout_minutes"] = json!(600);
    let (code, message, _) = expect_error(
        staff
            .put(
                "/api/settings",
                json!({"version": version, "tab": "workflow", "values": longer}),
            )
            .await,
        StatusCode::FORBIDDEN,
    )
    .await;
    assert_eq!(code, "forbidden");
    assert!(message.starts_with("Only an administrator"), "{message}");
    for (tab, values) in [
        ("email", json!({"bcc": ["spy@elsewhere.test"]})),
        ("email", json!({"default_cc": "spy@elsewhere.test"})),
        ("email", json!({"reply_to": "spy@elsewhere.test"})),
        ("sms", json!({"default_sender_number": "+15550009999"})),
    ] {
        let version = settings["versions"][tab].as_i64().unwrap_or(0);
        let response = staff
            .put(
                "/api/settings",
                json!({"version": version, "tab": tab, "values": values}),
            )
            .await;
        assert_eq!(response.status(), StatusCode::FORBIDDEN, "{tab} {values}");
    }

    // A staff member still saves the rest of the tab.
    let mut alert = workflow.clone();
    alert["stage_alert_days"] = json!(10);
    let saved = staff
        .put(
            "/api/settings",
            json!({"version": version, "tab": "workflow", "values": alert}),
        )
        .await;
    let saved = expect_json(saved, StatusCode::OK).await;
    assert_eq!(saved["workflow"]["stage_alert_days"], 10);

    // An administrator may change the timeout, within its range.
    let mut endless = alert.clone();
    endless["idle_timeout_minutes"] = json!(4_294_967_295u64);
    let (_, message, _) = expect_error(
        admin
            .put(
                "/api/settings",
                json!({"version": version + 1, "tab": "workflow", "values": endless}),
            )
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(message, "Must be between 5 and 1440.");
    let mut hour = alert.clone();
    hour["idle_timeout_minutes"] = json!(60);
    let saved = admin
        .put(
            "/api/settings",
            json!({"version": version + 1, "tab": "workflow", "values": hour}),
        )
        .await;
    assert_eq!(
        expect_json(saved, StatusCode::OK).await["workflow"]["idle_timeout_minutes"],
        60
    );
}

#[tokio::test]
async fn text_and_numbers_have_bounds_with_clear_messages() {
    let server = TestServer::start().await;
    let staff = server.staff().await;

    let huge = intake_form(&"A".repeat(500_000));
    let (code, message, body) = expect_error(
        staff.post("/api/intakes", json!({ "form": huge })).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(code, "validation");
    assert_eq!(message, "This field must be at most 200 characters.");
    assert_eq!(
        body["error"]["fields"]["clientFullName"],
        "This field must be at most 200 characters."
    );
    // The draft path is bounded too.
    let mut draft = intake_form("Ada");
    draft["additionalComments"] = json!("x".repeat(20_001));
    let (_, message, _) = expect_error(
        staff
            .post("/api/intakes/draft", json!({ "form": draft }))
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(message, "This field must be at most 20000 characters.");

    let (_, message, _) = expect_error(
        staff
            .post(
                "/api/pricing-templates",
                json!({"name": "Huge", "base_rate": 1e308}),
            )
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(message, "Must be between 0.01 and 10000.");

    let plan = json!({
        "client_name": "Ada",
        "family_contact_email": "grace@family.test",
        "services": ["companionship"],
        "schedule": {"monday": {"time": "", "hours": 4}},
        "hourly_rate": 1e308,
    });
    let (_, message, body) = expect_error(
        staff.post("/api/care-plans", json!({ "plan": plan })).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(
        message,
        "Hourly rate must be greater than 0 and at most 10000."
    );
    assert!(body["error"]["fields"]["hourly_rate"].is_string(), "{body}");

    let mut unknown_template = plan.clone();
    unknown_template["hourly_rate"] = json!(30);
    unknown_template["pricing_template_id"] = json!("0190f0e0-0000-7000-8000-000000000000");
    let (_, message, _) = expect_error(
        staff
            .post("/api/care-plans", json!({ "plan": unknown_template }))
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(
        message,
        "This pricing template no longer exists. Choose another template."
    );

    let (_, message, _) = expect_error(
        staff
            .post(
                "/api/communications/sms",
                json!({"to": "+15550002222\r\nTo: +15550003333", "message": "Hi"}),
            )
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(message, "Please enter a valid phone number");
}

/// A comment of one long word, or a long map link, prints.
#[tokio::test]
async fn the_intake_pdf_prints_long_words() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let mut form = intake_form("Ada Lovelace");
    form["additionalComments"] = json!("W".repeat(92));
    form["consultationLocation"] = json!(format!(
        "https://www.google.com/maps/place/{}",
        "Long+Street+Name".repeat(10)
    ));
    let intake = expect_json(
        staff.post("/api/intakes", json!({ "form": form })).await,
        StatusCode::OK,
    )
    .await;
    let id = intake["id"].as_str().unwrap();
    let pdf = staff.get(&format!("/api/intakes/{id}/pdf")).await;
    assert_eq!(pdf.status(), StatusCode::OK);
    assert!(pdf.bytes().await.unwrap().starts_with(b"%PDF"));
}

/// Reads what the server sends until it closes the connection (or `limit` passes):
/// the text and how long it took.
fn read_until_closed(stream: &mut std::net::TcpStream, limit: Duration) -> (String, Duration) {
    stream.set_read_timeout(Some(limit)).unwrap();
    let started = Instant::now();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    (
        String::from_utf8_lossy(&answer).into_owned(),
        started.elapsed(),
    )
}

/// One request on a fresh connection that asks to be closed after it; its answer.
fn ask(address: &str, request: &str) -> String {
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    read_until_closed(&mut stream, Duration::from_secs(5)).0
}

/// Connections that send nothing, part of an HTTP/2 preface or part of their headers
/// are cut off after the header timeout, counted from the moment they were accepted,
/// and take no slot meanwhile: the server answers everyone else at once.
// Plain blocking sockets play the clients, so the server needs threads of its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_that_send_nothing_are_cut_off_and_keep_nobody_out() {
    let server = TestServer::start_with(|config| {
        config.header_timeout = Duration::from_millis(500);
        config.max_connections = 2;
    })
    .await;
    let address = server.url.trim_start_matches("http://").to_owned();
    let mut stalled: Vec<std::net::TcpStream> = Vec::new();
    for opening in [
        &b""[..],
        b"PRI * HTTP/2.0\r\n\r\nSM",
        b"GET /api/auth/me HTTP/1.1\r\nHost: x\r\n",
    ] {
        for _ in 0..3 {
            let mut stream = std::net::TcpStream::connect(&address).unwrap();
            stream.write_all(opening).unwrap();
            stalled.push(stream);
        }
    }
    std::thread::sleep(Duration::from_millis(100));

    // Nine stalled connections, a cap of two: the others are answered all the same.
    let started = Instant::now();
    let answer = ask(
        &address,
        "GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(started.elapsed() < Duration::from_millis(400));

    // Each stalled one is closed once the header timeout has passed since it connected.
    for mut stream in stalled {
        let (_, waited) = read_until_closed(&mut stream, Duration::from_secs(5));
        assert!(waited < Duration::from_secs(3), "closed after {waited:?}");
    }
}

/// Connections that have sent a request count toward the cap: past it a request is
/// answered 503 at once and its connection closed, and a free slot serves again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn excess_connections_are_refused_until_a_slot_frees() {
    let server = TestServer::start_with(|config| config.max_connections = 2).await;
    let address = server.url.trim_start_matches("http://").to_owned();
    let health = "GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n";
    let mut held = Vec::new();
    for _ in 0..2 {
        // Kept alive after its answer, so the connection keeps its slot.
        let mut stream = std::net::TcpStream::connect(&address).unwrap();
        stream.write_all(health.as_bytes()).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        let mut first = [0u8; 12];
        stream.read_exact(&mut first).unwrap();
        assert_eq!(&first, b"HTTP/1.1 200");
        held.push(stream);
    }
    let answer = ask(&address, "GET /api/auth/me HTTP/1.1\r\nHost: x\r\n\r\n");
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(answer.contains(r#""code":"busy""#), "{answer}");

    drop(held);
    let answered = eventually(5, || {
        let answer = ask(
            &address,
            "GET /api/auth/me HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        );
        answer.starts_with("HTTP/1.1 401").then_some(())
    })
    .await;
    assert!(answered.is_some(), "the server answers again");
}

/// A body that stops arriving is answered 408 once the body timeout has passed, and
/// its connection closed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_that_never_arrives_is_answered_408() {
    let server = TestServer::start_with(|config| {
        config.body_timeout = Duration::from_millis(500);
    })
    .await;
    let address = server.url.trim_start_matches("http://").to_owned();
    let mut stream = std::net::TcpStream::connect(&address).unwrap();
    stream
        .write_all(
            b"POST /api/auth/sign-in HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
              Content-Length: 1000\r\n\r\n{\"email\":",
        )
        .unwrap();
    let (answer, waited) = read_until_closed(&mut stream, Duration::from_secs(10));
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("did not arrive in time"), "{answer}");
    assert!(waited < Duration::from_secs(3), "answered after {waited:?}");
}

/// A request whose database work runs past the deadline is answered 503 with the
/// API's error body, and the pool is free for the next one.
#[tokio::test]
async fn database_work_past_the_deadline_is_stopped() {
    let server = TestServer::start_with(|config| config.query_deadline = Duration::ZERO).await;
    let anonymous = server.anonymous();
    for _ in 0..8 {
        let (code, message, _) = expect_error(
            anonymous
                .post(
                    "/api/auth/sign-in",
                    json!({"email": STAFF.0, "password": STAFF.1}),
                )
                .await,
            StatusCode::SERVICE_UNAVAILABLE,
        )
        .await;
        assert_eq!(code, "too_slow");
        assert!(message.contains("took too long"), "{message}");
    }
}
