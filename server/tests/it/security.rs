//! Every route's access rule, walked from the OpenAPI document so a new route cannot be
//! forgotten; the Origin check; content type, body size and body shape refusals; headers.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::support::{TestServer, expect_error, intake_form};

/// The only API routes open without a session.
const PUBLIC: &[&str] = &[
    "/api/auth/sign-in",
    "/api/auth/sign-up",
    "/api/auth/magic-link",
    "/api/auth/recover",
    "/api/auth/verify",
    "/api/auth/reset-password",
];

/// Every (method, path, operation) of the document, ids filled in.
fn operations() -> Vec<(Method, String, Value)> {
    let doc = serde_json::to_value(carepath_server::openapi()).unwrap();
    let mut found = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let Ok(method) = method.to_uppercase().parse::<Method>() else {
                continue;
            };
            if !operation.is_object()
                || !matches!(
                    method,
                    Method::GET | Method::POST | Method::PUT | Method::DELETE
                )
            {
                continue;
            }
            let concrete = path.replace("{id}", "01a20000-0000-7000-8000-000000000000");
            found.push((method, concrete, operation.clone()));
        }
    }
    found
}

#[test]
fn the_document_marks_exactly_the_sign_in_routes_public() {
    let doc = serde_json::to_value(carepath_server::openapi()).unwrap();
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
    let mut expected: Vec<String> = PUBLIC.iter().map(|path| path.to_string()).collect();
    expected.sort();
    assert_eq!(public, expected);
}

#[tokio::test]
async fn every_protected_route_answers_401_without_a_session() {
    let server = TestServer::start().await;
    let anonymous = server.anonymous();
    let operations = operations();
    assert!(
        operations.len() > 70,
        "the document lists every route ({})",
        operations.len()
    );
    for (method, path, _) in operations {
        if PUBLIC.contains(&path.as_str()) {
            continue;
        }
        let response = anonymous
            .request(method.clone(), &path)
            .json(&json!({}))
            .send()
            .await
            .unwrap();
        let (code, _, body) = expect_error(response, StatusCode::UNAUTHORIZED).await;
        assert_eq!(code, "unauthenticated", "{method} {path}: {body}");
    }
}

#[tokio::test]
async fn staff_get_403_on_every_admin_route() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let mut admin_routes = 0;
    for (method, path, operation) in operations() {
        // CSV downloads refuse only `include_deleted` to staff (tested with the exports).
        // An outbox message is open to staff; its 403 is for messages marked private.
        let partly_admin = path.ends_with("/export.csv") || path == "/api/outbox/{file}";
        if PUBLIC.contains(&path.as_str())
            || partly_admin
            || operation["responses"].get("403").is_none()
        {
            continue;
        }
        admin_routes += 1;
        let response = staff
            .request(method.clone(), &path)
            .json(&json!({}))
            .send()
            .await
            .unwrap();
        let (code, _, body) = expect_error(response, StatusCode::FORBIDDEN).await;
        assert_eq!(code, "forbidden", "{method} {path}: {body}");
    }
    // Deletes and restores of four records, user management, invitations.
    assert!(admin_routes >= 13, "{admin_routes} admin routes");
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
    assert!(page.text().await.unwrap().to_lowercase().contains("<html"));
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
