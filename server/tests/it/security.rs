//! Every route's access rule, walked from the OpenAPI document so a new route cannot be
//! forgotten; the Origin check; content type, body size and body shape refusals; headers.

use base64::Engine as _;
use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::support::{TestServer, expect_error, intake_form};
use crate::walk::{self, RealIds};

/// The only API routes open without a session: the sign-in routes and the health check.
/// Kept here by hand so that opening a route to strangers is a decision a test names.
const PUBLIC: &[&str] = &[
    "/api/auth/sign-in",
    "/api/auth/sign-up",
    "/api/auth/magic-link",
    "/api/auth/recover",
    "/api/auth/verify",
    "/api/auth/reset-password",
    // The code step of a sign-in: its pending sign-in's cookie is the authorization
    // (tests/it/second_factor.rs).
    "/api/auth/second-factor",
    // The same step with a passkey (tests/it/passkeys.rs).
    "/api/auth/second-factor/passkey/options",
    "/api/auth/second-factor/passkey",
    "/api/public/approve/{token}",
    "/api/public/approve/{token}/questions",
    "/api/public/sign/{token}",
    "/api/public/sign/{token}/pdf",
    "/api/public/approve/{token}/outcome",
    "/api/public/sign/{token}/outcome",
    "/api/public/sign/{token}/signed.pdf",
    // The agency's logo: printed on every letter the family gets, so no secret.
    "/api/public/logo",
    "/api/health",
    // A member of staff's calendar feed: its secret address is the authorization
    // (tests/it/visits.rs).
    "/api/public/calendar/{token}",
    // Authorized by the SMS provider's signature instead (tests/it/notifications.rs).
    "/api/sms/replies",
    // The first run: the setup link's secret, and only while nobody has an account
    // (tests/it/first_run.rs).
    "/api/setup",
];

#[test]
fn the_document_marks_exactly_the_sign_in_routes_and_the_health_check_public() {
    let doc = walk::document();
    assert_eq!(doc["security"], json!([{"session": []}]));
    let mut public = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for operation in item.as_object().unwrap().values() {
            if operation["security"] == json!([{}]) {
                public.push(path.clone());
            }
        }
    }
    public.sort();
    // A family link page answers GET and POST at one path.
    public.dedup();
    let mut expected: Vec<String> = PUBLIC.iter().map(|path| path.to_string()).collect();
    expected.sort();
    assert_eq!(public, expected);
}

#[test]
fn the_document_marks_the_routes_whose_handlers_need_an_administrator() {
    let doc = walk::document();
    let marked =
        |method: &str, path: &str| doc["paths"][path][method]["x-admin-only"] == json!(true);
    for (method, path) in [
        ("delete", "/api/intakes/{id}"),
        ("post", "/api/intakes/{id}/restore"),
        ("delete", "/api/contracts/{id}"),
        ("get", "/api/admin/users"),
        ("post", "/api/admin/invitations"),
    ] {
        assert!(marked(method, path), "{method} {path} is admin-only");
    }
    for (method, path) in [
        ("get", "/api/intakes/{id}"),
        ("put", "/api/intakes/{id}"),
        ("get", "/api/users"),
        ("get", "/api/health"),
    ] {
        assert!(!marked(method, path), "{method} {path} is open to staff");
    }
}

#[tokio::test]
async fn every_route_denies_strangers_and_staff_by_default_and_never_fails() {
    let server = walk::unthrottled_server().await;
    let mut admin = server.admin().await;
    let mut staff = server.staff().await;
    let anonymous = server.anonymous();
    let ids = RealIds::make(&admin).await;
    let operations = walk::operations(&ids);
    assert!(
        operations.len() > 90,
        "the document lists every route ({})",
        operations.len()
    );
    let (mut admin_only, mut public) = (0, 0);
    let mut violations = Vec::new();
    for operation in &operations {
        let name = operation.name();
        let stranger = walk::call(&anonymous, operation).await;
        if operation.is_public() {
            // Its own refusals of an empty body, never a failure of ours.
            public += 1;
            if stranger.status.is_server_error()
                || stranger.status.is_client_error() && !stranger.is_error_body()
            {
                violations.push(format!("anonymous {name}: {}", stranger.describe()));
            }
        } else if stranger.status != StatusCode::UNAUTHORIZED
            || !stranger.body.contains("\"unauthenticated\"")
        {
            violations.push(format!(
                "anonymous {name}: {} (expected 401)",
                stranger.describe()
            ));
        }
        if operation.is_public() {
            continue;
        }

        let as_staff = walk::call(&staff, operation).await;
        if operation.is_admin_only() {
            admin_only += 1;
            if as_staff.status != StatusCode::FORBIDDEN || !as_staff.body.contains("\"forbidden\"")
            {
                violations.push(format!(
                    "staff {name}: {} (expected 403)",
                    as_staff.describe()
                ));
            }
        } else if matches!(
            as_staff.status,
            StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN
        ) || as_staff.status.is_server_error()
        {
            violations.push(format!(
                "staff {name}: {} (open to staff)",
                as_staff.describe()
            ));
        }

        let as_admin = walk::call(&admin, operation).await;
        if matches!(
            as_admin.status,
            StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN
        ) || as_admin.status.is_server_error()
        {
            violations.push(format!(
                "admin {name}: {} (open to admins)",
                as_admin.describe()
            ));
        }
        for answer in [&as_staff, &as_admin] {
            if answer.status.is_client_error() && !answer.is_error_body() {
                violations.push(format!(
                    "{name}: refusal without an error body: {}",
                    answer.describe()
                ));
            }
        }
        if operation.signs_out() {
            admin = server.admin().await;
            staff = server.staff().await;
        }
    }
    assert!(
        violations.is_empty(),
        "{} violations:\n{}",
        violations.len(),
        violations.join("\n")
    );
    // Some public paths answer two methods (a family's page and its form).
    assert!(
        public >= PUBLIC.len(),
        "every public route was walked ({public})"
    );
    // Deletes and restores of four records, user management, invitations.
    assert!(admin_only >= 13, "{admin_only} admin-only routes");
}

#[tokio::test]
async fn a_mutating_request_from_another_origin_is_refused() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let response = staff
        .request(Method::POST, "/api/intakes/draft")
        .header("origin", "http://evil.test")
        .json(&json!({"form": {}}))
        .send()
        .await
        .unwrap();
    expect_error(response, StatusCode::FORBIDDEN).await;
    let ours = staff
        .request(Method::POST, "/api/intakes/draft")
        .header("origin", &server.url)
        .json(&json!({"form": {}}))
        .send()
        .await
        .unwrap();
    assert_eq!(ours.status(), StatusCode::OK);
    // Reads are not state-changing: Origin does not matter.
    let read = staff
        .request(Method::GET, "/api/dashboard")
        .header("origin", "http://evil.test")
        .send()
        .await
        .unwrap();
    assert_eq!(read.status(), StatusCode::OK);
}

#[tokio::test]
async fn bodies_must_be_json_of_the_right_shape_and_size() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let text = staff
        .request(Method::POST, "/api/intakes")
        .header("content-type", "text/plain")
        .body("{}")
        .send()
        .await
        .unwrap();
    let (code, _, _) = expect_error(text, StatusCode::UNSUPPORTED_MEDIA_TYPE).await;
    assert_eq!(code, "unsupported_media_type");

    let malformed = staff
        .request(Method::POST, "/api/intakes")
        .header("content-type", "application/json")
        .body("{\"form\": ")
        .send()
        .await
        .unwrap();
    let (code, _, _) = expect_error(malformed, StatusCode::BAD_REQUEST).await;
    assert_eq!(code, "bad_request");

    let wrong_type = staff
        .post("/api/intakes", json!({"form": {"callerName": 5}}))
        .await;
    expect_error(wrong_type, StatusCode::BAD_REQUEST).await;

    for refused in [
        json!({"form": intake_form("Ada"), "id": "x"}),
        json!({"form": intake_form("Ada"), "status": "pending"}),
        json!({"form": intake_form("Ada"), "created_at": "2026-01-01T00:00:00Z"}),
        json!({"form": intake_form("Ada"), "version": 3}),
    ] {
        let (code, message, _) = expect_error(
            staff.post("/api/intakes", refused.clone()).await,
            StatusCode::BAD_REQUEST,
        )
        .await;
        assert_eq!(code, "bad_request", "{refused}");
        assert!(message.contains("unknown field"), "{message}");
    }
    let unknown_form_field = staff
        .post(
            "/api/intakes",
            json!({"form": {"clientFullName": "A", "favouriteColour": "red"}}),
        )
        .await;
    expect_error(unknown_form_field, StatusCode::BAD_REQUEST).await;
    let unknown_in_flattened = staff
        .post(
            "/api/communications/email",
            json!({"to": "a@b.test", "subject": "s", "body": "b", "status": "sent"}),
        )
        .await;
    expect_error(unknown_in_flattened, StatusCode::BAD_REQUEST).await;

    let big = "x".repeat(carepath_server::BODY_LIMIT + 10);
    let too_large = staff
        .post(
            "/api/intakes/draft",
            json!({"form": {"additionalComments": big}}),
        )
        .await;
    let (code, _, _) = expect_error(too_large, StatusCode::PAYLOAD_TOO_LARGE).await;
    assert_eq!(code, "payload_too_large");
}

#[tokio::test]
async fn bad_ids_cursors_and_filters_are_client_errors() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    expect_error(
        staff.get("/api/intakes/not-an-id").await,
        StatusCode::NOT_FOUND,
    )
    .await;
    expect_error(
        staff.get("/api/intakes?cursor=zz").await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    expect_error(
        staff.get("/api/clients?stage=nowhere").await,
        StatusCode::BAD_REQUEST,
    )
    .await;
    expect_error(
        staff.get("/api/intakes?limit=-1").await,
        StatusCode::BAD_REQUEST,
    )
    .await;
    expect_error(
        staff.get("/api/assessments/prefill").await,
        StatusCode::BAD_REQUEST,
    )
    .await;
    let (code, _, _) =
        expect_error(staff.get("/api/no-such-route").await, StatusCode::NOT_FOUND).await;
    assert_eq!(code, "not_found");
    let patch = staff
        .request(Method::PATCH, "/api/dashboard")
        .send()
        .await
        .unwrap();
    let (code, _, _) = expect_error(patch, StatusCode::METHOD_NOT_ALLOWED).await;
    assert_eq!(code, "method_not_allowed");
}

#[tokio::test]
async fn answers_carry_security_headers_and_api_answers_are_not_cached() {
    let server = TestServer::start().await;
    let anonymous = server.anonymous();
    let api = anonymous.get("/api/auth/me").await;
    let headers = api.headers();
    assert_eq!(headers["content-security-policy"], "default-src 'self'");
    assert_eq!(headers["x-content-type-options"], "nosniff");
    assert_eq!(headers["referrer-policy"], "same-origin");
    assert_eq!(headers["x-frame-options"], "DENY");
    assert_eq!(headers["cache-control"], "no-store");

    // The web UI's own routes fall back to its index page.
    let page = anonymous
        .get("/clients/01a20000-0000-7000-8000-000000000000")
        .await;
    assert_eq!(page.status(), StatusCode::OK);
    assert!(
        page.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    assert_eq!(page.headers()["x-frame-options"], "DENY");
    // The page's policy allows the app's scripts and the one script written into the
    // page, by its hash, and only the styles that carry the page's own fresh nonce.
    let policy = page.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    let (script_hash, nonce) = policy
        .strip_prefix("default-src 'self'; script-src 'self' 'sha256-")
        .and_then(|rest| rest.strip_suffix("'; worker-src 'self'; manifest-src 'self'"))
        .and_then(|rest| rest.split_once("'; style-src 'self' 'nonce-"))
        .unwrap_or_else(|| panic!("unexpected policy {policy}"));
    assert!(nonce.len() >= 22, "a short nonce: {nonce}");
    let body = page.text().await.unwrap();
    let inline: Vec<&str> = body
        .split("<script>")
        .skip(1)
        .filter_map(|rest| rest.split_once("</script>").map(|(code, _)| code))
        .collect();
    assert_eq!(inline.len(), 1, "one script written into the page");
    let digest = ring::digest::digest(&ring::digest::SHA256, inline[0].as_bytes());
    assert_eq!(
        script_hash,
        base64::engine::general_purpose::STANDARD.encode(digest),
        "the policy names the page's own script"
    );
    assert!(body.to_lowercase().contains("<html"));
    assert!(!body.contains("CAREPATH_CSP_NONCE"));
    if body.contains("csp-nonce") {
        assert!(body.contains(nonce), "the page names another nonce");
    }
    let again = anonymous.get("/").await;
    assert_ne!(
        again.headers()["content-security-policy"].to_str().unwrap(),
        policy,
        "every page gets a new nonce"
    );
    // The build's pages are never sent as stored, with the nonce's placeholder.
    for path in ["/index.html", "/family.html", "/approve/AbC_d-9"] {
        let direct = anonymous.get(path).await;
        assert!(
            direct.headers()["content-security-policy"]
                .to_str()
                .unwrap()
                .contains("'nonce-"),
            "{path}"
        );
        let body = direct.text().await.unwrap();
        assert!(!body.contains("CAREPATH_CSP_NONCE"), "{path}");
    }
}

#[tokio::test]
async fn graceful_shutdown_stops_the_server_with_an_event_stream_open() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let mut events = staff.get("/api/events").await;
    assert_eq!(events.status(), StatusCode::OK);
    server.stop().await;
    // The stream ends instead of holding the shutdown open.
    while let Ok(Some(_)) = events.chunk().await {}
}

/// An export whose search the list would refuse is refused the same way (422) before
/// the download starts, instead of answering 200 and breaking off the file.
#[tokio::test]
async fn an_export_with_an_overlong_search_is_refused_before_it_starts() {
    use carepath_core::rules::search::SEARCH_TOO_LONG;
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let long = "a".repeat(101);
    for path in ["/api/clients", "/api/assessments"] {
        let (_, message, _) = expect_error(
            staff.get(&format!("{path}/export.csv?q={long}")).await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert_eq!(message, SEARCH_TOO_LONG, "{path}");
    }
    let fine = staff
        .get(&format!("/api/clients/export.csv?q={}", "a".repeat(100)))
        .await;
    assert_eq!(fine.status(), StatusCode::OK);
    assert!(fine.text().await.is_ok());
}

/// A body past the limit, sent whole by a client that reads the answer only after
/// writing it (as browsers and most HTTP libraries do), gets the 413: the server reads and
/// drops the rest instead of closing on unread bytes, which the client would see as a
/// reset connection and no message.
#[tokio::test]
async fn an_oversized_body_sent_whole_gets_its_answer() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = TestServer::start().await;
    let address = server.url.trim_start_matches("http://").to_owned();
    let body = vec![b' '; 6 * 1024 * 1024];
    let mut stream = tokio::net::TcpStream::connect(&address).await.unwrap();
    let head = format!(
        "POST /api/auth/sign-in HTTP/1.1\r\nHost: {address}\r\nOrigin: {}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        server.url,
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream
        .write_all(&body)
        .await
        .expect("the whole body is accepted");
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("payload_too_large"), "{answer}");
}
