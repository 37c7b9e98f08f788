//! SMS over a Twilio-style API and AI drafting over an OpenAI-compatible endpoint, both
//! against local stubs answering 200, 429, 402 or never.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode as AxumStatus};
use axum::routing::post;
use carepath_server::{AiConfig, SmsConfig};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::support::{TestServer, expect_error, expect_json, intake_form};

/// What the stub saw: (path, authorization header, body).
type Seen = Arc<Mutex<Vec<(String, String, String)>>>;

async fn answer(mode: &str) -> Option<(AxumStatus, Value)> {
    match mode {
        "limited" => Some((
            AxumStatus::TOO_MANY_REQUESTS,
            json!({"message": "Too many requests"}),
        )),
        "payment" => Some((
            AxumStatus::PAYMENT_REQUIRED,
            json!({"message": "Out of credits"}),
        )),
        "hang" => {
            tokio::time::sleep(Duration::from_secs(30)).await;
            None
        }
        _ => None,
    }
}

async fn sms(
    State(seen): State<Seen>,
    Path((mode, sid)): Path<(String, String)>,
    headers: HeaderMap,
    body: String,
) -> (AxumStatus, axum::Json<Value>) {
    let auth = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    seen.lock()
        .unwrap()
        .push((format!("{mode}/{sid}"), auth, body));
    match answer(&mode).await {
        Some((status, body)) => (status, axum::Json(body)),
        None => (
            AxumStatus::CREATED,
            axum::Json(json!({"sid": "SM0123456789", "status": "queued"})),
        ),
    }
}

async fn chat(
    State(seen): State<Seen>,
    Path(mode): Path<String>,
    headers: HeaderMap,
    body: String,
) -> (AxumStatus, axum::Json<Value>) {
    let auth = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    seen.lock().unwrap().push((mode.clone(), auth, body));
    match answer(&mode).await {
        Some((status, body)) => (status, axum::Json(body)),
        None => (
            AxumStatus::OK,
            axum::Json(
                json!({"choices": [{"message": {"role": "assistant", "content": "Hello from the model."}}]}),
            ),
        ),
    }
}

/// Starts the stub; answers its base URL and what it saw.
async fn stub() -> (String, Seen) {
    let seen: Seen = Arc::default();
    let app = Router::new()
        .route("/{mode}/2010-04-01/Accounts/{sid}/Messages.json", post(sms))
        .route("/{mode}/v1/chat/completions", post(chat))
        .with_state(seen.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, seen)
}

fn sms_config(base: &str, mode: &str) -> SmsConfig {
    SmsConfig {
        base_url: format!("{base}/{mode}"),
        account_sid: "AC123".into(),
        auth_token: "secret-token".into(),
        from: "+15550001111".into(),
    }
}

fn ai_config(base: &str, mode: &str) -> AiConfig {
    AiConfig {
        base_url: format!("{base}/{mode}"),
        api_key: Some("sk-test".into()),
        model: "local-model".into(),
    }
}

#[tokio::test]
async fn sms_is_posted_as_a_form_with_basic_auth_and_keeps_the_message_sid() {
    let (base, seen) = stub().await;
    let server = TestServer::start_with(|config| config.sms = Some(sms_config(&base, "ok"))).await;
    let staff = server.staff().await;
    let (_, message, _) = expect_error(
        staff
            .post("/api/communications/sms", json!({"to": "", "message": ""}))
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(message, "Please fill in all fields");

    let sent = expect_json(
        staff
            .post(
                "/api/communications/sms",
                json!({"to": "+15550002222", "message": "See you soon"}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(sent["status"], "sent", "{sent}");
    assert_eq!(sent["metadata"]["messageSid"], "SM0123456789");
    let seen = seen.lock().unwrap().clone();
    let (path, auth, body) = &seen[0];
    assert_eq!(path, "ok/AC123");
    assert!(auth.starts_with("Basic "), "{auth}");
    assert!(
        body.contains("To=%2B15550002222")
            && body.contains("From=%2B15550001111")
            && body.contains("Body=See+you+soon"),
        "{body}"
    );
}

#[tokio::test]
async fn sms_provider_refusals_and_silence_mark_the_message_failed() {
    for mode in ["limited", "payment", "hang"] {
        let (base, _) = stub().await;
        let server = TestServer::start_with(|config| {
            config.sms = Some(sms_config(&base, mode));
            config.outbound_timeout = Duration::from_millis(800);
        })
        .await;
        let staff = server.staff().await;
        let failed = expect_json(
            staff
                .post(
                    "/api/communications/sms",
                    json!({"to": "+15550002222", "message": "Hi"}),
                )
                .await,
            StatusCode::OK,
        )
        .await;
        assert_eq!(failed["status"], "failed", "{mode}: {failed}");
        let reason = failed["failure_reason"].as_str().unwrap_or_default();
        match mode {
            "hang" => assert!(reason.contains("did not answer in time"), "{reason}"),
            _ => assert!(reason.contains("refused"), "{reason}"),
        }
    }
}

#[tokio::test]
async fn sms_goes_to_the_outbox_without_a_provider() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let sent = expect_json(
        staff
            .post(
                "/api/communications/sms",
                json!({"to": "+15550002222", "message": "Hi"}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(sent["status"], "sent");
    let outbox = staff.ok("/api/outbox").await;
    assert_eq!(outbox["items"][0]["kind"], "sms");
    assert_eq!(outbox["items"][0]["to"], "+15550002222");
}

#[tokio::test]
async fn ai_drafts_come_from_the_chat_endpoint_with_only_the_needed_facts() {
    let (base, seen) = stub().await;
    let server = TestServer::start_with(|config| config.ai = Some(ai_config(&base, "ok"))).await;
    let staff = server.staff().await;
    let intake = expect_json(
        staff
            .post("/api/intakes", json!({"form": intake_form("Ada Lovelace")}))
            .await,
        StatusCode::OK,
    )
    .await;
    let draft = staff.post("/api/ai/draft", json!({"message_type": "sms", "user_input": "Remind about Tuesday", "intake_id": intake["id"]})).await;
    let draft = expect_json(draft, StatusCode::OK).await;
    assert_eq!(draft["generated_text"], "Hello from the model.");
    let seen = seen.lock().unwrap().clone();
    let (_, auth, body) = &seen[0];
    assert_eq!(auth, "Bearer sk-test");
    let body: Value = serde_json::from_str(body).unwrap();
    assert_eq!(body["model"], "local-model");
    let prompt = body["messages"][1]["content"].as_str().unwrap();
    assert!(
        prompt.contains("Ada Lovelace") && prompt.contains("Remind about Tuesday"),
        "{prompt}"
    );
    assert!(
        !prompt.contains("555-0100"),
        "the caller's phone is not needed: {prompt}"
    );
}

#[tokio::test]
async fn ai_rate_limits_payment_and_timeouts_get_the_spec_messages() {
    for (mode, kind, status, expected) in [
        (
            "limited",
            "email",
            StatusCode::TOO_MANY_REQUESTS,
            "Rate limit exceeded. Please try again later.",
        ),
        (
            "payment",
            "note",
            StatusCode::PAYMENT_REQUIRED,
            "Payment required. Please add credits to continue.",
        ),
        (
            "hang",
            "note",
            StatusCode::BAD_GATEWAY,
            "Failed to generate note",
        ),
        (
            "hang",
            "email",
            StatusCode::BAD_GATEWAY,
            "Failed to generate message",
        ),
    ] {
        let (base, _) = stub().await;
        let server = TestServer::start_with(|config| {
            config.ai = Some(ai_config(&base, mode));
            config.outbound_timeout = Duration::from_millis(800);
        })
        .await;
        let staff = server.staff().await;
        let response = staff.post("/api/ai/draft", json!({"message_type": kind, "user_input": "Write something", "client_name": "Ada"})).await;
        let (_, message, _) = expect_error(response, status).await;
        assert_eq!(message, expected, "{mode} {kind}");
    }
}

#[tokio::test]
async fn the_marketing_email_rate_limit_has_its_own_message() {
    let (base, _) = stub().await;
    let server =
        TestServer::start_with(|config| config.ai = Some(ai_config(&base, "limited"))).await;
    let staff = server.staff().await;
    let plan = json!({"client_name": "Ada", "family_contact_email": "g@family.test", "services": ["meals"], "schedule": {"monday": {"time": "", "hours": 2}}, "hourly_rate": 30});
    let plan = expect_json(
        staff.post("/api/care-plans", json!({"plan": plan})).await,
        StatusCode::OK,
    )
    .await;
    let id = plan["id"].as_str().unwrap();
    let response = staff
        .post(&format!("/api/care-plans/{id}/marketing-email"), json!({}))
        .await;
    assert!(response.headers().contains_key("retry-after"));
    let (_, message, _) = expect_error(response, StatusCode::TOO_MANY_REQUESTS).await;
    assert_eq!(
        message,
        "AI rate limit exceeded. Please try again in a moment."
    );
}
