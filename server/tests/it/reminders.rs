//! Visit reminders from the real server's scheduler over a real database file, at a
//! fixed clock: each due reminder is sent exactly once across a restart (and a
//! `carepath remind` round beside it), none for a cancelled visit; read back from the
//! outbox's `.sms` and `.eml` files and the client's timeline.

use std::time::Duration;

use jiff::civil::Time;
use jiff::tz::TimeZone;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::support::{TestServer, eventually, expect_json, intake_form, outbox_emails, readable};

/// The text messages in the outbox.
fn texts(server: &TestServer) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(server.outbox()) else {
        return Vec::new();
    };
    let mut texts: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|entry| entry.file_name().to_string_lossy().ends_with(".sms"))
        .filter_map(|entry| std::fs::read_to_string(entry.path()).ok())
        .collect();
    texts.sort();
    texts
}

/// The reminder emails in the outbox (the calendar invitations are there too).
fn reminder_emails(server: &TestServer) -> Vec<String> {
    outbox_emails(server)
        .into_iter()
        .map(|eml| readable(&eml))
        .filter(|eml| eml.contains("Subject: Reminder: home assessment visit"))
        .collect()
}

async fn book(
    staff: &crate::support::Session,
    form: Value,
    date: &str,
    time: &str,
    me: &str,
) -> (String, Value) {
    let intake = expect_json(
        staff.post("/api/intakes", json!({ "form": form })).await,
        StatusCode::OK,
    )
    .await;
    let intake_id = intake["id"].as_str().unwrap().to_owned();
    let booked = expect_json(
        staff
            .post(
                &format!("/api/intakes/{intake_id}/visits"),
                json!({"date": date, "start_time": time, "duration_minutes": 60,
                       "place": "12 Oak St, Springfield", "assessor_id": me}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    (intake_id, booked["visit"].clone())
}

#[tokio::test]
async fn each_due_reminder_is_sent_exactly_once_across_a_restart_and_none_for_a_cancelled_visit() {
    // Booking and cancelling happen with the scheduler off, so no round runs between
    // them.
    let mut office = TestServer::start().await;
    let staff = office.staff().await;
    let me = staff.ok("/api/auth/me").await;
    let me = me["user"]["id"]
        .as_str()
        .or(me["id"].as_str())
        .unwrap()
        .to_owned();
    // Three days ahead in the agency's zone (the machine's: Settings name none).
    let zone = TimeZone::system();
    let day = jiff::Zoned::now()
        .date()
        .checked_add(jiff::Span::new().days(3))
        .unwrap();
    let date = day.to_string();

    let (texted, _) = book(&staff, intake_form("Ruth Hale"), &date, "10:00", &me).await;
    let mut no_phone = intake_form("Ivy Lane");
    no_phone["callerPhone"] = json!("");
    let (emailed, _) = book(&staff, no_phone, &date, "11:00", &me).await;
    let (called_off, visit) = book(&staff, intake_form("Otto Finch"), &date, "14:00", &me).await;
    let cancelled = staff
        .post(
            &format!("/api/visits/{}/cancel", visit["id"].as_str().unwrap()),
            json!({"version": visit["version"], "reason": "Family away"}),
        )
        .await;
    assert_eq!(cancelled.status(), StatusCode::OK);
    office.halt().await;
    assert!(texts(&office).is_empty());

    // The evening before at 17:30: half an hour after the reminders fell due.
    let evening = zone
        .to_ambiguous_timestamp(
            day.yesterday()
                .unwrap()
                .to_datetime(Time::constant(17, 30, 0, 0)),
        )
        .compatible()
        .unwrap();
    let db = office.db.clone();
    let data_dir = office.dir.path().to_owned();
    let start = |now: jiff::Timestamp| {
        let (db, data_dir) = (db.clone(), data_dir.clone());
        TestServer::start_with(move |config| {
            config.db_path = db;
            config.data_dir = data_dir;
            config.reminder_interval = Duration::from_millis(100);
            config.reminder_clock = Some(now);
        })
    };

    let first = start(evening).await;
    let sent = eventually(20, || {
        (texts(&office).len() + reminder_emails(&office).len() >= 2).then_some(())
    })
    .await;
    assert!(
        sent.is_some(),
        "the reminders were not sent: {:?}",
        texts(&office)
    );
    // Many more rounds at the same moment send nothing more.
    tokio::time::sleep(Duration::from_millis(800)).await;
    first.stop().await;

    // The server comes back an hour later, still inside the catch-up window.
    let later = evening
        .checked_add(jiff::SignedDuration::from_hours(1))
        .unwrap();
    let second = start(later).await;
    tokio::time::sleep(Duration::from_millis(1_000)).await;
    let session = second.staff().await;
    second.stop().await;
    // And a cron round beside it.
    let mut config = carepath_server::Config::new(
        ([127, 0, 0, 1], 0).into(),
        db.clone(),
        carepath_server::PublicUrl::parse("http://127.0.0.1:8080").unwrap(),
    );
    config.data_dir = data_dir.clone();
    config.reminder_clock = Some(later);
    let round =
        tokio::task::spawn_blocking(move || carepath_server::send_reminders_blocking(config))
            .await
            .unwrap()
            .unwrap();
    assert_eq!((round.sent, round.failed), (0, 0));

    let texts = texts(&office);
    assert_eq!(texts.len(), 1, "{texts:?}");
    assert!(texts[0].contains("To: (217) 555-0100"), "{}", texts[0]);
    assert!(
        texts[0].contains("the home assessment visit for Ruth Hale is on"),
        "{}",
        texts[0]
    );
    assert!(
        texts[0].contains("at 10:00 AM, at 12 Oak St, Springfield."),
        "{}",
        texts[0]
    );
    let emails = reminder_emails(&office);
    assert_eq!(emails.len(), 1, "{emails:?}");
    assert!(emails[0].contains("Dear Grace Hopper,"), "{}", emails[0]);
    assert!(
        emails[0].contains("for Ivy Lane's home assessment"),
        "{}",
        emails[0]
    );
    assert!(
        texts
            .iter()
            .chain(&emails)
            .all(|message| !message.contains("Otto Finch")),
        "the cancelled visit was reminded"
    );

    // Each family's timeline shows its reminder as sent; the cancelled one has none.
    drop(session);
    let mut store = carepath_core::store::Store::open(&db).unwrap();
    store.set_now(Some(later));
    let reminded = |intake: &str| -> Vec<(String, String)> {
        let filter = carepath_core::store::CommunicationFilter {
            parents: carepath_core::model::Parents {
                intake_id: Some(intake.into()),
                ..Default::default()
            },
            visibility: None,
        };
        store
            .communications(&filter)
            .unwrap()
            .into_iter()
            .filter(|c| c.content.starts_with("Reminder from") || c.content.starts_with("Dear "))
            .map(|c| {
                (
                    c.communication_type.as_str().to_owned(),
                    c.status.as_str().to_owned(),
                )
            })
            .collect()
    };
    assert_eq!(reminded(&texted), [("sms".to_owned(), "sent".to_owned())]);
    assert_eq!(
        reminded(&emailed),
        [("email".to_owned(), "sent".to_owned())]
    );
    assert!(reminded(&called_off).is_empty());
}
