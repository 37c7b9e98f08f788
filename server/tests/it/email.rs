//! Email over SMTP to a real SMTP server on loopback (Python's aiosmtpd, which
//! scripts/setup installs): reply-to and copies from Settings, blind copies in the
//! envelope only, failures recorded with their reason and sent again on retry.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use reqwest::StatusCode;
use serde_json::json;

use crate::support::{Session, TestServer, eventually, expect_json};

struct SmtpServer {
    child: Child,
    maildir: tempfile::TempDir,
}

impl Drop for SmtpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A loopback port that turns every connection away (accepts and closes it) until
/// dropped: a mail server that is down, while the port stays ours. A port left free
/// instead was taken meanwhile by another test's server now and then, and the retry's
/// email went there.
struct DownServer {
    port: u16,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl DownServer {
    fn start() -> Self {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let stopped = stop.clone();
        let thread = std::thread::spawn(move || {
            while !stopped.load(std::sync::atomic::Ordering::Relaxed) {
                match listener.accept() {
                    Ok((connection, _)) => drop(connection),
                    Err(_) => std::thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        Self {
            port,
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for DownServer {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

async fn start_smtp(port: u16) -> SmtpServer {
    let maildir = tempfile::tempdir().unwrap();
    let child = Command::new("python3")
        .args([
            "-m",
            "aiosmtpd",
            "-n",
            "-l",
            &format!("127.0.0.1:{port}"),
            "-c",
            "aiosmtpd.handlers.Mailbox",
        ])
        .arg(maildir.path().join("mail"))
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("python3 -m aiosmtpd (run scripts/setup to install aiosmtpd)");
    let ready = eventually(10, || {
        std::net::TcpStream::connect(("127.0.0.1", port)).ok()
    })
    .await;
    assert!(
        ready.is_some(),
        "aiosmtpd did not start (is it installed? scripts/setup installs it)"
    );
    SmtpServer { child, maildir }
}

fn delivered(maildir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(maildir.join("mail").join("new")) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|entry| std::fs::read_to_string(entry.path()).ok())
        .collect()
}

async fn set_email_settings(staff: &Session) {
    let settings = staff.ok("/api/settings").await;
    let version = settings["versions"]["email"].as_i64().unwrap_or(0);
    let values = json!({
        "default_from": "office@agency.test",
        "reply_to": "replies@agency.test",
        "signature": "",
        "default_cc": "coordinator@agency.test",
        "bcc": ["records@agency.test", "owner@agency.test"],
    });
    let saved = staff
        .put(
            "/api/settings",
            json!({"version": version, "tab": "email", "values": values}),
        )
        .await;
    assert_eq!(saved.status(), StatusCode::OK);
}

#[tokio::test]
async fn email_reaches_the_smtp_server_with_reply_to_and_blind_copies_from_settings() {
    let port = free_port();
    let smtp = start_smtp(port).await;
    let server =
        TestServer::start_with(|config| config.smtp_url = Some(format!("smtp://127.0.0.1:{port}")))
            .await;
    let staff = server.staff().await;
    set_email_settings(&server.admin().await).await;

    let sent = staff.post("/api/communications/email", json!({"to": "family@home.test", "subject": "Visit on Tuesday", "body": "See you at 9."})).await;
    let sent = expect_json(sent, StatusCode::OK).await;
    assert_eq!(sent["status"], "sent", "{sent}");
    let email_id = sent["metadata"]["email_id"].as_str().unwrap().to_owned();

    let message = eventually(5, || delivered(smtp.maildir.path()).into_iter().next())
        .await
        .expect("the message arrived");
    let head = message.split("\n\n").next().unwrap_or_default().to_owned();
    assert!(head.contains("Reply-To: replies@agency.test"), "{head}");
    assert!(head.contains("From: office@agency.test"), "{head}");
    assert!(head.contains("Cc: coordinator@agency.test"), "{head}");
    assert!(head.contains("Subject: Visit on Tuesday"), "{head}");
    assert!(
        head.contains(&email_id),
        "the Message-ID carries the email_id: {head}"
    );
    // Blind copies travel in the envelope (aiosmtpd records it as X-RcptTo), never in a header.
    let recipients = head
        .lines()
        .find(|line| line.starts_with("X-RcptTo:"))
        .unwrap_or_default();
    for address in [
        "family@home.test",
        "coordinator@agency.test",
        "records@agency.test",
        "owner@agency.test",
    ] {
        assert!(recipients.contains(address), "{address} in {recipients}");
    }
    assert!(
        !head
            .lines()
            .any(|line| line.to_ascii_lowercase().starts_with("bcc:")),
        "{head}"
    );
    assert!(!head.contains("records@agency.test\n") || recipients.contains("records@agency.test"));
    assert!(message.contains("See you at 9."));
    assert!(
        server.outbox().read_dir().is_err(),
        "nothing goes to the outbox when SMTP is set up"
    );
}

#[tokio::test]
async fn a_failed_send_is_marked_failed_with_its_reason_and_retry_sends_it() {
    // The mail server is down: the send fails.
    let down = DownServer::start();
    let port = down.port;
    let server =
        TestServer::start_with(|config| config.smtp_url = Some(format!("smtp://127.0.0.1:{port}")))
            .await;
    let staff = server.staff().await;
    let failed = staff
        .post(
            "/api/communications/email",
            json!({"to": "family@home.test", "subject": "Hello", "body": "Body"}),
        )
        .await;
    let failed = expect_json(failed, StatusCode::OK).await;
    assert_eq!(failed["status"], "failed");
    assert!(
        !failed["failure_reason"]
            .as_str()
            .unwrap_or_default()
            .is_empty()
    );
    let hub = staff.ok("/api/communications/hub?status=failed").await;
    assert_eq!(hub["items"].as_array().unwrap().len(), 1);

    drop(down);
    let smtp = start_smtp(port).await;
    let id = failed["id"].as_str().unwrap();
    let retried = expect_json(
        staff
            .post(&format!("/api/communications/{id}/retry"), json!({}))
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(retried["status"], "sent", "{retried}");
    assert_eq!(retried["failure_reason"], serde_json::Value::Null);
    let arrived = eventually(5, || {
        (!delivered(smtp.maildir.path()).is_empty()).then_some(())
    })
    .await;
    assert!(arrived.is_some());
    tokio::time::sleep(Duration::from_millis(10)).await;
}

#[tokio::test]
async fn the_outbox_keeps_emails_when_no_mail_server_is_set_up() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    set_email_settings(&server.admin().await).await;
    let sent = staff
        .post(
            "/api/communications/email",
            json!({"to": "family@home.test", "subject": "Hi", "body": "Hello there"}),
        )
        .await;
    assert_eq!(expect_json(sent, StatusCode::OK).await["status"], "sent");
    let outbox = staff.ok("/api/outbox").await;
    let entry = &outbox["items"][0];
    assert_eq!(
        (
            entry["kind"].as_str(),
            entry["to"].as_str(),
            entry["subject"].as_str()
        ),
        (Some("email"), Some("family@home.test"), Some("Hi"))
    );
    let files = crate::support::outbox_emails(&server);
    assert!(files[0].contains("Reply-To: replies@agency.test"));
}

/// A sign-in link goes to its account's address alone: never to the Settings' copies
/// or blind copies, whoever set them.
#[tokio::test]
async fn sign_in_links_never_reach_the_settings_copies() {
    let port = free_port();
    let smtp = start_smtp(port).await;
    let server =
        TestServer::start_with(|config| config.smtp_url = Some(format!("smtp://127.0.0.1:{port}")))
            .await;
    set_email_settings(&server.admin().await).await;
    let response = server
        .anonymous()
        .post(
            "/api/auth/magic-link",
            json!({"email": crate::support::STAFF.0}),
        )
        .await;
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    let message = eventually(5, || delivered(smtp.maildir.path()).into_iter().next())
        .await
        .expect("the sign-in link arrived");
    let head = message.split("\n\n").next().unwrap_or_default().to_owned();
    let recipients = head
        .lines()
        .find(|line| line.starts_with("X-RcptTo:"))
        .unwrap_or_default();
    assert!(recipients.contains(crate::support::STAFF.0), "{recipients}");
    for copy in [
        "coordinator@agency.test",
        "records@agency.test",
        "owner@agency.test",
    ] {
        assert!(!recipients.contains(copy), "{copy} in {recipients}");
    }
    assert!(!head.lines().any(|line| line.starts_with("Cc:")), "{head}");
    assert!(crate::support::readable(&message).contains("type=magiclink&token="));
}

/// Retry of a proposal email whose send failed sends a fresh, working link: the first
/// link's token was never delivered, so the email sent again carries a new one, and the
/// kept copy still shows only the placeholder.
#[tokio::test]
async fn retrying_a_failed_proposal_email_sends_a_fresh_working_link() {
    use carepath_core::rules::signing::LINK_PLACEHOLDER;
    // The mail server is down: the send fails.
    let down = DownServer::start();
    let port = down.port;
    let server =
        TestServer::start_with(|config| config.smtp_url = Some(format!("smtp://127.0.0.1:{port}")))
            .await;
    let staff = server.staff().await;
    let plan = crate::signing::plan_ready(&server, "Rita Ames");
    let sent = expect_json(
        staff
            .post(
                &format!("/api/care-plans/{plan}/send"),
                json!({ "to": "ruth@family.test", "body": "Dear Ruth, here is our proposal.\n\nWarm regards,\nSam Staff", "version": staff.version(&format!("/api/care-plans/{plan}")).await }),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(sent["communication"]["status"], "failed", "{sent}");
    let id = sent["communication"]["id"].as_str().unwrap().to_owned();

    drop(down);
    let smtp = start_smtp(port).await;
    let retried = expect_json(
        staff
            .post(&format!("/api/communications/{id}/retry"), json!({}))
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(retried["status"], "sent", "{retried}");
    let message = eventually(5, || delivered(smtp.maildir.path()).into_iter().next())
        .await
        .expect("the proposal arrived");
    let text = crate::support::readable(&message);
    assert!(
        !text.contains(LINK_PLACEHOLDER),
        "the family gets the link itself"
    );
    let at = text.find("/approve/").expect("a link to approve") + "/approve/".len();
    let token: String = text[at..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect();
    assert_eq!(token.len(), 43, "{token}");
    let letter = server
        .anonymous()
        .get(&format!("/api/public/approve/{token}"))
        .await;
    assert_eq!(letter.status(), StatusCode::OK);
    // The timeline's copy never shows the token.
    let content = retried["content"].as_str().unwrap_or_default();
    assert!(content.contains(LINK_PLACEHOLDER), "{content}");
    assert!(!content.contains(&token));
    // The renewed paragraph stands where the old one did: the letter still opens with
    // what staff wrote and ends with who wrote it.
    assert!(
        content.starts_with("Dear Ruth, here is our proposal."),
        "{content}"
    );
    assert_eq!(
        content
            .matches("You may always ask us for a paper copy instead.")
            .count(),
        1,
        "{content}"
    );
    assert!(
        content.trim_end().ends_with("Warm regards,\nSam Staff"),
        "{content}"
    );
    assert!(
        content.find(LINK_PLACEHOLDER) < content.find("Warm regards,"),
        "{content}"
    );
    let plan = staff.ok(&format!("/api/care-plans/{plan}")).await;
    assert_eq!(plan["status"], "sent", "{plan}");
}

/// A visit's calendar invitations are emails in the client's timeline; one whose send
/// failed is sent again with its calendar, by staff's Retry or by the reminders'
/// scheduler on its own.
#[tokio::test]
async fn failed_visit_invitations_are_in_the_timeline_and_sent_again_with_their_calendar() {
    let down = DownServer::start();
    let port = down.port;
    let server =
        TestServer::start_with(|config| config.smtp_url = Some(format!("smtp://127.0.0.1:{port}")))
            .await;
    let staff = server.staff().await;
    let me = staff.ok("/api/auth/me").await;
    let me = me["user"]["id"]
        .as_str()
        .or(me["id"].as_str())
        .unwrap()
        .to_owned();
    let intake = expect_json(
        staff
            .post(
                "/api/intakes",
                json!({"form": crate::support::intake_form("Ruth Hale")}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    let intake_id = intake["id"].as_str().unwrap().to_owned();
    let day = jiff::Zoned::now()
        .date()
        .checked_add(jiff::Span::new().days(3))
        .unwrap();
    let booked = expect_json(
        staff
            .post(
                &format!("/api/intakes/{intake_id}/visits"),
                json!({"date": day.to_string(), "start_time": "10:00", "duration_minutes": 60,
                       "place": "12 Oak St", "assessor_id": me}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(booked["warnings"].as_array().unwrap().len(), 2, "{booked}");

    let invitations = |timeline: &serde_json::Value| -> Vec<(String, String, String)> {
        let mut found: Vec<(String, String, String)> = timeline["items"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["communication_type"] == "email")
            .map(|c| {
                (
                    c["recipient_email"].as_str().unwrap_or_default().to_owned(),
                    c["status"].as_str().unwrap_or_default().to_owned(),
                    c["subject"].as_str().unwrap_or_default().to_owned(),
                )
            })
            .collect();
        found.sort();
        found
    };
    let timeline = staff
        .ok(&format!("/api/communications?intake_id={intake_id}"))
        .await;
    let listed = invitations(&timeline);
    assert_eq!(listed.len(), 2, "{timeline}");
    assert_eq!(listed[0].0, "grace@family.test");
    assert_eq!(listed[1].0, "staff@agency.test");
    assert!(listed.iter().all(|(_, status, subject)| status == "failed"
        && subject.starts_with("Home assessment visit: Ruth Hale on")));
    let family_id = timeline["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["recipient_email"] == "grace@family.test")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();

    // Staff's Retry sends the family's again, with the calendar attached.
    drop(down);
    let smtp = start_smtp(port).await;
    let retried = expect_json(
        staff
            .post(&format!("/api/communications/{family_id}/retry"), json!({}))
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(retried["status"], "sent", "{retried}");
    let arrived = eventually(5, || {
        let mail = delivered(smtp.maildir.path());
        (mail.len() == 1).then_some(mail)
    })
    .await
    .expect("the retried invitation arrived");
    assert!(
        arrived[0].contains("To: grace@family.test"),
        "{}",
        arrived[0]
    );
    assert!(arrived[0].contains("text/calendar"), "{}", arrived[0]);
    assert!(arrived[0].contains("BEGIN:VCALENDAR"), "{}", arrived[0]);

    // The scheduler sends the assessor's on its own once a few minutes have passed.
    let mut config = carepath_server::Config::new(
        ([127, 0, 0, 1], 0).into(),
        server.db.clone(),
        carepath_server::PublicUrl::parse("http://127.0.0.1:8080").unwrap(),
    );
    config.smtp_url = Some(format!("smtp://127.0.0.1:{port}"));
    config.reminder_clock = Some(jiff::Timestamp::now() + jiff::SignedDuration::from_mins(10));
    let round =
        tokio::task::spawn_blocking(move || carepath_server::send_reminders_blocking(config))
            .await
            .unwrap()
            .unwrap();
    assert_eq!((round.sent, round.failed), (1, 0));
    let arrived = eventually(5, || {
        let mail = delivered(smtp.maildir.path());
        (mail.len() == 2).then_some(mail)
    })
    .await
    .expect("the assessor's invitation arrived");
    assert!(
        arrived
            .iter()
            .any(|mail| mail.contains("To: staff@agency.test") && mail.contains("BEGIN:VCALENDAR"))
    );
    let timeline = staff
        .ok(&format!("/api/communications?intake_id={intake_id}"))
        .await;
    assert!(
        invitations(&timeline)
            .iter()
            .all(|(_, status, _)| status == "sent"),
        "{timeline}"
    );
}
