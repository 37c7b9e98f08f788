//! Settings → Notifications end to end: a family's text reply through the SMS provider's
//! signed webhook lands in the client's timeline and alerts the coordinator, an update on
//! an overdue client texts the coordinator's mobile, and each switch turns its part off.
//! Outgoing texts go to a local stub of the provider; emails to the outbox.

use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode as AxumStatus;
use axum::routing::post;
use base64::Engine as _;
use carepath_core::rules::validation::{REPLIES_NEED_SMS_ACCOUNT, REPLY_NOT_SIGNED};
use carepath_server::SmsConfig;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::support::{
    Session, TestServer, expect_error, expect_json, intake_form, outbox_emails, readable,
};

const TOKEN: &str = "reply-token";

/// The bodies of the texts the provider stub was asked to send.
type Texts = Arc<Mutex<Vec<String>>>;

async fn provider() -> (String, Texts) {
    async fn send(State(texts): State<Texts>, body: String) -> (AxumStatus, axum::Json<Value>) {
        texts.lock().unwrap().push(body);
        (
            AxumStatus::CREATED,
            axum::Json(json!({"sid": "SMout", "status": "queued"})),
        )
    }
    let texts = Texts::default();
    let app = Router::new()
        .route("/2010-04-01/Accounts/{sid}/Messages.json", post(send))
        .with_state(texts.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, texts)
}

async fn start() -> (TestServer, Texts) {
    let (base, texts) = provider().await;
    let server = TestServer::start_with(|config| {
        config.sms = Some(SmsConfig {
            base_url: base,
            account_sid: "AC1".into(),
            auth_token: TOKEN.into(),
            from: "+15550001111".into(),
        });
    })
    .await;
    (server, texts)
}

/// Posts a reply the way the provider does: a form, signed with the account's token
/// over the webhook's public address and the sorted parameters.
pub(crate) async fn reply(
    server: &TestServer,
    from: &str,
    body: &str,
    sid: &str,
    token: &str,
) -> reqwest::Response {
    let url = format!("{}/api/sms/replies", server.url);
    let params = [
        ("AccountSid", "AC1"),
        ("Body", body),
        ("From", from),
        ("MessageSid", sid),
        ("To", "+15550001111"),
    ];
    let mut signed = url.clone();
    for (name, value) in params {
        signed.push_str(name);
        signed.push_str(value);
    }
    let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA1_FOR_LEGACY_USE_ONLY, token.as_bytes());
    let signature = base64::engine::general_purpose::STANDARD
        .encode(ring::hmac::sign(&key, signed.as_bytes()).as_ref());
    crate::support::client()
        .post(url)
        .header("X-Twilio-Signature", signature)
        .form(&params)
        .send()
        .await
        .expect("POST")
}

/// A reply as anyone could post it: without the provider's signature.
async fn unsigned(server: &TestServer) -> reqwest::Response {
    crate::support::client()
        .post(format!("{}/api/sms/replies", server.url))
        .form(&[
            ("From", "+12175550100"),
            ("Body", "Hi"),
            ("MessageSid", "SM1"),
        ])
        .send()
        .await
        .expect("POST")
}

/// An intake for Rose Quinn, called in from (217) 555-0100, assigned to Ada Admin and
/// overdue since its follow-up at midnight today.
async fn overdue_client(staff: &Session) -> String {
    let mut form = intake_form("Rose Quinn");
    form["assignedCoordinator"] = json!("Ada Admin");
    form["nextFollowUpDate"] = json!(jiff::Zoned::now().date().to_string());
    form["nextFollowUpTime"] = json!("00:00");
    let intake = expect_json(
        staff.post("/api/intakes", json!({ "form": form })).await,
        StatusCode::OK,
    )
    .await;
    intake["id"].as_str().unwrap().to_owned()
}

async fn timeline(session: &Session, intake_id: &str) -> Vec<Value> {
    session
        .ok(&format!("/api/communications?intake_id={intake_id}"))
        .await["items"]
        .as_array()
        .unwrap()
        .clone()
}

fn emails_with(server: &TestServer, subject: &str) -> Vec<String> {
    outbox_emails(server)
        .into_iter()
        .map(|email| readable(&email))
        .filter(|email| email.contains(subject))
        .collect()
}

async fn set_own_phone(admin: &Session, phone: &str) -> Value {
    let me = admin.ok("/api/auth/me").await;
    let id = me["user"]["id"]
        .as_str()
        .or(me["id"].as_str())
        .unwrap()
        .to_owned();
    let users = admin.ok("/api/admin/users").await;
    let version = users["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|user| user["id"] == id.as_str())
        .unwrap()["version"]
        .clone();
    expect_json(
        admin
            .put(
                &format!("/api/admin/users/{id}/phone"),
                json!({"phone": phone, "version": version}),
            )
            .await,
        StatusCode::OK,
    )
    .await
}

#[tokio::test]
async fn a_family_reply_is_kept_once_in_the_clients_timeline_and_alerts_the_coordinator() {
    let (server, texts) = start().await;
    let staff = server.staff().await;
    let admin = server.admin().await;
    let intake_id = overdue_client(&staff).await;
    set_own_phone(&admin, "(217) 555-0199").await;

    // Unsigned, or signed with another token: refused, and nothing is kept.
    let forged = reply(&server, "+12175550100", "Forged", "SM1", "guessed").await;
    let (_, message, _) = expect_error(forged, StatusCode::FORBIDDEN).await;
    assert_eq!(message, REPLY_NOT_SIGNED);
    expect_error(unsigned(&server).await, StatusCode::FORBIDDEN).await;
    assert!(
        timeline(&staff, &intake_id)
            .await
            .iter()
            .all(|c| c["direction"] != "inbound")
    );

    let answered = reply(&server, "+12175550100", "Yes, Tuesday works", "SM1", TOKEN).await;
    assert_eq!(answered.status(), StatusCode::OK);
    assert!(answered.text().await.unwrap().contains("<Response>"));
    // The provider retries until it hears back: the same message is kept once.
    let retried = reply(&server, "+12175550100", "Yes, Tuesday works", "SM1", TOKEN).await;
    assert_eq!(retried.status(), StatusCode::OK);
    let replies: Vec<Value> = timeline(&staff, &intake_id)
        .await
        .into_iter()
        .filter(|c| c["direction"] == "inbound")
        .collect();
    assert_eq!(replies.len(), 1, "{replies:?}");
    assert_eq!(replies[0]["content"], "Yes, Tuesday works");
    assert_eq!(replies[0]["communication_type"], "sms");
    assert_eq!(replies[0]["recipient_phone"], "+12175550100");

    // One alert to the coordinator, naming the client, never the reply's words.
    let alerts = emails_with(&server, "Reply from Rose Quinn's family");
    assert_eq!(alerts.len(), 1, "{alerts:?}");
    assert!(alerts[0].contains("admin@agency.test"), "{}", alerts[0]);
    assert!(!alerts[0].contains("Tuesday works"), "{}", alerts[0]);
    assert!(emails_with(&server, "New communication for").is_empty());
    // The client is overdue: the coordinator's mobile gets a text too, once.
    let sent = texts.lock().unwrap().clone();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert!(sent[0].contains("To=%28217%29+555-0199"), "{}", sent[0]);
    assert!(
        sent[0].contains("Rose+Quinn%27s+family+replied+by+text+%28overdue%29"),
        "{}",
        sent[0]
    );

    // Someone else's note on the overdue client: the email and the text.
    expect_json(
        staff
            .post(
                "/api/communications/notes",
                json!({"intake_id": intake_id, "content": "Called the daughter back"}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(
        emails_with(&server, "New communication for Rose Quinn").len(),
        1
    );
    let sent = texts.lock().unwrap().clone();
    assert_eq!(sent.len(), 2, "{sent:?}");
    assert!(
        sent[1].contains("Sam+Staff+logged+a+note+for+Rose+Quinn"),
        "{}",
        sent[1]
    );
    // The coordinator's own note tells nobody.
    expect_json(
        admin
            .post(
                "/api/communications/notes",
                json!({"intake_id": intake_id, "content": "Booked Tuesday"}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(texts.lock().unwrap().len(), 2);
    assert_eq!(
        emails_with(&server, "New communication for Rose Quinn").len(),
        1
    );
}

#[tokio::test]
async fn a_reply_from_an_unknown_number_is_kept_and_alerts_the_administrators() {
    let (server, _) = start().await;
    let admin = server.admin().await;
    let answered = reply(&server, "+15557778888", "Who is this?", "SM9", TOKEN).await;
    assert_eq!(answered.status(), StatusCode::OK);
    let hub = admin.ok("/api/communications/hub?q=Who%20is%20this").await;
    let kept = &hub["items"][0];
    assert_eq!(kept["content"], "Who is this?", "{hub}");
    assert_eq!(kept["direction"], "inbound");
    assert!(kept["intake_id"].is_null());
    let alerts = emails_with(&server, "Text message from +15557778888");
    assert_eq!(alerts.len(), 1, "{alerts:?}");
    assert!(alerts[0].contains("admin@agency.test"), "{}", alerts[0]);
}

#[tokio::test]
async fn the_switches_stop_reply_alerts_and_urgent_texts() {
    let (server, texts) = start().await;
    let staff = server.staff().await;
    let admin = server.admin().await;
    let intake_id = overdue_client(&staff).await;
    set_own_phone(&admin, "(217) 555-0199").await;
    let settings = admin.ok("/api/settings").await;
    let version = settings["versions"]["notifications"].as_i64().unwrap_or(0);
    expect_json(
        admin
            .put(
                "/api/settings",
                json!({"version": version, "tab": "notifications", "values": {
                    "email_on_new_communication": false,
                    "sms_on_urgent_updates": false,
                    "inbound_reply_alerts": false,
                }}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    let answered = reply(&server, "+12175550100", "Thanks", "SM2", TOKEN).await;
    assert_eq!(answered.status(), StatusCode::OK);
    expect_json(
        staff
            .post(
                "/api/communications/notes",
                json!({"intake_id": intake_id, "content": "Left a message"}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    // The reply is still kept; nobody is alerted.
    assert!(
        timeline(&staff, &intake_id)
            .await
            .iter()
            .any(|c| c["content"] == "Thanks")
    );
    assert!(outbox_emails(&server).is_empty());
    assert!(texts.lock().unwrap().is_empty());
}

#[tokio::test]
async fn a_coordinators_mobile_is_set_by_an_administrator_and_checked() {
    let (server, _) = start().await;
    let staff = server.staff().await;
    let admin = server.admin().await;
    let users = admin.ok("/api/admin/users").await;
    let sam = users["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|user| user["email"] == "staff@agency.test")
        .unwrap()
        .clone();
    let path = format!("/api/admin/users/{}/phone", sam["id"].as_str().unwrap());
    let body = json!({"phone": "(217) 555-0142", "version": sam["version"]});
    expect_error(staff.put(&path, body.clone()).await, StatusCode::FORBIDDEN).await;
    let (_, message, _) = expect_error(
        admin
            .put(
                &path,
                json!({"phone": "call me", "version": sam["version"]}),
            )
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(message, "Please enter a valid phone number");
    let saved = expect_json(admin.put(&path, body.clone()).await, StatusCode::OK).await;
    assert_eq!(saved["phone"], "(217) 555-0142");
    // A second save from the same stale page is a conflict, not a lost update.
    expect_error(admin.put(&path, body).await, StatusCode::CONFLICT).await;
}

#[tokio::test]
async fn replies_need_an_sms_provider_account() {
    let server = TestServer::start().await;
    let (_, message, _) = expect_error(unsigned(&server).await, StatusCode::NOT_FOUND).await;
    assert_eq!(message, REPLIES_NEED_SMS_ACCOUNT);
}

/// An SMS account without its auth token cannot check signatures: every report is
/// refused, one signed with the empty key included, and nothing reaches the timeline.
/// Reports without a signature or larger than any text are refused before parsing.
#[tokio::test]
async fn replies_are_refused_without_a_token_and_cheap_checks_come_first() {
    use carepath_core::rules::validation::{REPLIES_NEED_SMS_TOKEN, REPLY_TOO_LARGE};
    let (base, _texts) = provider().await;
    let server = TestServer::start_with(|config| {
        config.sms = Some(SmsConfig {
            base_url: base,
            account_sid: "AC1".into(),
            auth_token: String::new(),
            from: "+15550001111".into(),
        });
    })
    .await;
    let staff = server.staff().await;
    let intake_id = overdue_client(&staff).await;
    let before = timeline(&staff, &intake_id).await.len();
    let (code, message, _) = expect_error(
        reply(&server, "+12175550100", "Forged", "SMforged", "").await,
        StatusCode::FORBIDDEN,
    )
    .await;
    assert_eq!(code, "forbidden");
    assert_eq!(message, REPLIES_NEED_SMS_TOKEN);
    assert_eq!(timeline(&staff, &intake_id).await.len(), before);

    let (server, _texts) = start().await;
    // No signature: refused whatever the body, even one that is no form at all.
    let response = crate::support::client()
        .post(format!("{}/api/sms/replies", server.url))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("%%%not a form")
        .send()
        .await
        .unwrap();
    let (_, message, _) = expect_error(response, StatusCode::FORBIDDEN).await;
    assert_eq!(message, REPLY_NOT_SIGNED);
    // A signature-shaped header over a body larger than any text: 413 before parsing.
    let response = crate::support::client()
        .post(format!("{}/api/sms/replies", server.url))
        .header("X-Twilio-Signature", "A".repeat(27) + "=")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(format!("Body={}", "x".repeat(100_000)))
        .send()
        .await
        .unwrap();
    let (_, message, _) = expect_error(response, StatusCode::PAYLOAD_TOO_LARGE).await;
    assert_eq!(message, REPLY_TOO_LARGE);
}
