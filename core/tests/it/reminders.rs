//! Visit reminders through the store at a fixed clock: the family's reminder falls due
//! the day before at Settings' time in the agency's zone (across a clock change too),
//! is claimed once whichever connection asks, catches up within its window and is
//! skipped after it, leaves cancelled visits alone and is armed again for a visit moved
//! to another time; the assessor's summary of the day lists their visits.

use carepath_core::model::{
    CommunicationStatus, CommunicationType, IntakeId, Parents, VisitInput, VisitStatus,
};
use carepath_core::store::{
    ClaimedReminder, CommunicationFilter, ReminderKind, ReminderMessage, Store,
};

use crate::support::{TestStore, at, intake_form, open};

fn booking(test: &TestStore, date: &str, time: &str) -> VisitInput {
    VisitInput {
        date: date.into(),
        start_time: time.into(),
        duration_minutes: 60,
        place: "12 Oak St, Springfield".into(),
        assessor_id: test.staff_id(),
        notes: "Ring twice".into(),
    }
}

/// A client with a visit booked at a local date and time; answers the intake and visit.
fn booked(test: &mut TestStore, name: &str, date: &str, time: &str) -> (IntakeId, String) {
    let staff = test.staff.clone();
    let intake = test.store.create_intake(&staff, intake_form(name)).unwrap();
    let visit = test
        .store
        .schedule_visit(&staff, &intake.id, &booking(test, date, time))
        .unwrap()
        .visit;
    (intake.id, visit.id.as_str().to_owned())
}

fn claim(store: &mut Store, now: &str) -> Vec<ClaimedReminder> {
    store.set_now(Some(at(now)));
    store.claim_due_reminders("office@agency.test").unwrap()
}

fn family(claimed: &[ClaimedReminder]) -> Vec<&ReminderMessage> {
    claimed
        .iter()
        .filter(|c| c.kind == ReminderKind::Family)
        .map(|c| &c.message)
        .collect()
}

fn texts_to(claimed: &[ClaimedReminder]) -> Vec<String> {
    family(claimed)
        .into_iter()
        .map(|message| match message {
            ReminderMessage::Sms { to, body } => format!("sms {to}: {body}"),
            ReminderMessage::Email(email) => {
                format!("email {}: {}", email.to.join(","), email.subject)
            }
        })
        .collect()
}

fn timeline(
    store: &Store,
    intake_id: &IntakeId,
) -> Vec<(CommunicationType, CommunicationStatus, String)> {
    let filter = CommunicationFilter {
        parents: Parents {
            intake_id: Some(intake_id.clone()),
            ..Parents::default()
        },
        visibility: None,
    };
    store
        .communications(&filter)
        .unwrap()
        .into_iter()
        .map(|c| (c.communication_type, c.status, c.content))
        .collect()
}

#[test]
fn the_family_is_reminded_the_day_before_at_the_set_time_and_only_once() {
    let mut test = open();
    // Tuesday 24 November, 10:00 New York (15:00 UTC): due Monday 17:00 (22:00 UTC).
    let (intake, _) = booked(&mut test, "Ruth Hale", "2026-11-24", "10:00");

    assert!(claim(&mut test.store, "2026-11-23T21:59:59Z").is_empty());
    let claimed = claim(&mut test.store, "2026-11-23T22:00:00Z");
    assert_eq!(
        texts_to(&claimed),
        [
            "sms (217) 555-0101: Reminder from Carepath Home Care: the home assessment visit for \
          Ruth Hale is on Tuesday, November 24, 2026 at 10:00 AM, at 12 Oak St, Springfield. \
          To change it, please contact us."
        ]
    );
    // Recorded in the client's timeline before it is sent.
    let pending: Vec<_> = timeline(&test.store, &intake)
        .into_iter()
        .filter(|(kind, _, _)| *kind == CommunicationType::Sms)
        .collect();
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0].1, CommunicationStatus::Pending);

    // Claimed is claimed: neither this connection nor another takes it again, even
    // before the send reports back.
    assert!(claim(&mut test.store, "2026-11-23T22:01:00Z").is_empty());
    let mut other = test.second_connection();
    assert!(claim(&mut other, "2026-11-23T22:02:00Z").is_empty());

    test.store
        .finish_reminder(&claimed[0].id, Ok("SM123".into()))
        .unwrap();
    assert!(claim(&mut test.store, "2026-11-23T23:00:00Z").is_empty());
    let sent: Vec<_> = timeline(&test.store, &intake)
        .into_iter()
        .filter(|(kind, _, _)| *kind == CommunicationType::Sms)
        .collect();
    assert_eq!(sent[0].1, CommunicationStatus::Sent);
    let records = test.store.visit_reminders().unwrap();
    assert_eq!(records.len(), 1);
    assert_eq!(
        (records[0].status.as_str(), records[0].attempts),
        ("sent", 1)
    );
}

#[test]
fn a_family_without_a_phone_is_emailed() {
    let mut test = open();
    let staff = test.staff.clone();
    let mut form = intake_form("Ivy Lane");
    form.caller_phone = String::new();
    let intake = test.store.create_intake(&staff, form).unwrap();
    test.store
        .schedule_visit(&staff, &intake.id, &booking(&test, "2026-11-24", "10:00"))
        .unwrap();
    let claimed = claim(&mut test.store, "2026-11-23T22:30:00Z");
    let [ReminderMessage::Email(email)] = family(&claimed)[..] else {
        panic!("{claimed:?}");
    };
    assert_eq!(email.to, ["susan.reed@example.com"]);
    assert_eq!(
        email.subject,
        "Reminder: home assessment visit on Tuesday, November 24, 2026 at 10:00 AM"
    );
    assert!(email.body.starts_with("Dear Susan Reed,"), "{}", email.body);
    assert!(email.cc.is_empty() && email.bcc.is_empty());
}

#[test]
fn cancelled_visits_get_none_and_a_moved_visit_is_reminded_for_its_new_time() {
    let mut test = open();
    let staff = test.staff.clone();
    let (_, kept) = booked(&mut test, "Ruth Hale", "2026-11-24", "10:00");
    let (_, called_off) = booked(&mut test, "Otto Finch", "2026-11-24", "14:00");
    let version = test
        .store
        .visit(&called_off.as_str().into())
        .unwrap()
        .version;
    test.store
        .cancel_visit(&staff, &called_off.as_str().into(), version, "Family away")
        .unwrap();

    let claimed = claim(&mut test.store, "2026-11-23T22:00:00Z");
    assert_eq!(texts_to(&claimed).len(), 1, "{claimed:?}");
    assert!(texts_to(&claimed)[0].contains("Ruth Hale"));
    test.store
        .finish_reminder(&claimed[0].id, Ok("SM1".into()))
        .unwrap();

    // Moved to Wednesday: reminded again on Tuesday evening, for the new time.
    test.store.set_now(Some(at("2026-11-24T12:00:00Z")));
    let visit = test.store.visit(&kept.as_str().into()).unwrap();
    test.store
        .reschedule_visit(
            &staff,
            &visit.id,
            visit.version,
            &booking(&test, "2026-11-25", "11:00"),
        )
        .unwrap();
    assert!(family(&claim(&mut test.store, "2026-11-24T21:59:00Z")).is_empty());
    let claimed = claim(&mut test.store, "2026-11-24T22:00:00Z");
    assert_eq!(texts_to(&claimed).len(), 1, "{claimed:?}");
    assert!(
        texts_to(&claimed)[0].contains("Wednesday, November 25, 2026 at 11:00 AM"),
        "{claimed:?}"
    );
    assert_eq!(
        test.store
            .visit(&called_off.as_str().into())
            .unwrap()
            .status,
        VisitStatus::Cancelled
    );
}

#[test]
fn a_missed_moment_is_caught_up_within_the_window_and_skipped_after_it() {
    let mut test = open();
    // Due Monday 23 at 22:00 UTC and Tuesday 24 at 22:00 UTC.
    let (late, _) = booked(&mut test, "Ruth Hale", "2026-11-24", "10:00");
    let (_, _) = booked(&mut test, "Otto Finch", "2026-11-25", "10:00");

    // Six hours after the first one's moment: too late, recorded as skipped.
    let claimed = claim(&mut test.store, "2026-11-24T04:00:00Z");
    assert!(family(&claimed).is_empty(), "{claimed:?}");
    let records = test.store.visit_reminders().unwrap();
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].status, "skipped");
    assert!(
        timeline(&test.store, &late)
            .iter()
            .any(|(_, _, line)| line.starts_with("No reminder of the assessment visit on Tuesday"))
    );
    // It stays skipped: the server coming back later sends nothing for it.
    assert!(family(&claim(&mut test.store, "2026-11-24T05:00:00Z")).is_empty());

    // A minute inside the window: the second one still goes out.
    let claimed = claim(&mut test.store, "2026-11-25T03:59:00Z");
    assert_eq!(texts_to(&claimed).len(), 1, "{claimed:?}");
    assert!(texts_to(&claimed)[0].contains("Otto Finch"));
}

#[test]
fn a_failed_reminder_is_tried_again_a_bounded_number_of_times() {
    let mut test = open();
    let (intake, _) = booked(&mut test, "Ruth Hale", "2026-11-24", "10:00");
    for (attempt, now) in [
        "2026-11-23T22:00:00Z",
        "2026-11-23T22:01:00Z",
        "2026-11-23T22:02:00Z",
    ]
    .into_iter()
    .enumerate()
    {
        let claimed = claim(&mut test.store, now);
        assert_eq!(claimed.len(), 1, "attempt {}", attempt + 1);
        test.store
            .finish_reminder(
                &claimed[0].id,
                Err("The SMS provider could not be reached.".into()),
            )
            .unwrap();
    }
    assert!(claim(&mut test.store, "2026-11-23T22:03:00Z").is_empty());
    let records = test.store.visit_reminders().unwrap();
    assert_eq!(
        (records[0].status.as_str(), records[0].attempts),
        ("failed", 3)
    );
    // One message in the timeline, failed with the reason staff can act on.
    let texts: Vec<_> = timeline(&test.store, &intake)
        .into_iter()
        .filter(|(kind, _, _)| *kind == CommunicationType::Sms)
        .collect();
    assert_eq!(texts.len(), 1);
    assert_eq!(texts[0].1, CommunicationStatus::Failed);
}

#[test]
fn the_reminder_keeps_its_local_time_across_the_spring_clock_change() {
    let mut test = open();
    test.store.set_now(Some(at("2027-03-10T15:00:00Z")));
    // Clocks go forward in New York on Sunday 14 March 2027. A Monday 15 March visit is
    // reminded on Sunday at 17:00 EDT = 21:00 UTC (22:00 UTC the week before).
    let (_, _) = booked(&mut test, "Ruth Hale", "2027-03-15", "10:00");
    assert!(claim(&mut test.store, "2027-03-14T20:59:59Z").is_empty());
    assert_eq!(
        texts_to(&claim(&mut test.store, "2027-03-14T21:00:00Z")).len(),
        1
    );
}

#[test]
fn the_reminder_keeps_its_local_time_across_the_autumn_clock_change() {
    let mut test = open();
    test.store.set_now(Some(at("2027-11-03T15:00:00Z")));
    // Clocks go back on Sunday 7 November 2027: 17:00 EST that day is 22:00 UTC.
    let (_, _) = booked(&mut test, "Ruth Hale", "2027-11-08", "10:00");
    assert!(claim(&mut test.store, "2027-11-07T21:59:59Z").is_empty());
    assert_eq!(
        texts_to(&claim(&mut test.store, "2027-11-07T22:00:00Z")).len(),
        1
    );
}

#[test]
fn the_reminder_time_comes_from_settings() {
    let mut test = open();
    let admin = test.admin.clone();
    let settings = test.store.settings().unwrap();
    let mut notifications = settings.notifications.clone();
    notifications.visit_reminder_time = "9:30".into();
    let refused = test.store.update_settings(
        &admin,
        settings.versions["notifications"],
        carepath_core::model::SettingsTab::Notifications(notifications.clone()),
    );
    assert!(refused.is_err(), "9:30 is not HH:MM");
    notifications.visit_reminder_time = "09:30".into();
    test.store
        .update_settings(
            &admin,
            settings.versions["notifications"],
            carepath_core::model::SettingsTab::Notifications(notifications),
        )
        .unwrap();
    let (_, _) = booked(&mut test, "Ruth Hale", "2026-11-24", "10:00");
    // 09:30 New York on Monday = 14:30 UTC.
    assert!(claim(&mut test.store, "2026-11-23T14:29:00Z").is_empty());
    assert_eq!(
        texts_to(&claim(&mut test.store, "2026-11-23T14:30:00Z")).len(),
        1
    );
}

#[test]
fn each_assessor_gets_a_morning_summary_of_the_days_visits() {
    let mut test = open();
    let (first, _) = booked(&mut test, "Ruth Hale", "2026-11-24", "10:00");
    let (_, _) = booked(&mut test, "Otto Finch", "2026-11-24", "14:00");
    // 07:00 New York on Tuesday = 12:00 UTC; the family reminders were due the evening
    // before and are long missed by now.
    assert!(
        claim(&mut test.store, "2026-11-24T11:59:00Z")
            .iter()
            .all(|c| c.kind == ReminderKind::Family)
    );
    let claimed: Vec<_> = claim(&mut test.store, "2026-11-24T12:00:00Z")
        .into_iter()
        .filter(|c| c.kind == ReminderKind::AssessorSummary)
        .collect();
    let [
        ClaimedReminder {
            id,
            message: ReminderMessage::Email(email),
            ..
        },
    ] = &claimed[..]
    else {
        panic!("{claimed:?}");
    };
    assert_eq!(email.to, ["staff@agency.test"]);
    assert_eq!(
        email.subject,
        "Your assessment visits on Tuesday, November 24, 2026: 2 visits"
    );
    let ruth = email
        .body
        .find("10:00 AM - 11:00 AM  Ruth Hale")
        .expect(&email.body);
    let otto = email
        .body
        .find("2:00 PM - 3:00 PM  Otto Finch")
        .expect(&email.body);
    assert!(ruth < otto);
    assert!(email.body.contains("Notes: Ring twice"));
    test.store.finish_reminder(id, Ok("mail-1".into())).unwrap();
    assert!(claim(&mut test.store, "2026-11-24T12:30:00Z").is_empty());
    assert!(
        timeline(&test.store, &first)
            .iter()
            .any(|(_, _, line)| line.contains("Sam Staff's summary of the day's visits"))
    );
}

#[test]
fn a_visit_booked_for_later_today_is_skipped_without_a_timeline_line() {
    let mut test = open();
    test.store.set_now(Some(at("2026-11-24T14:00:00Z")));
    // Booked at 9:00 for 15:00 the same day: its reminder's moment was yesterday.
    let (intake, _) = booked(&mut test, "Ruth Hale", "2026-11-24", "15:00");
    assert!(family(&claim(&mut test.store, "2026-11-24T14:01:00Z")).is_empty());
    let records: Vec<_> = test
        .store
        .visit_reminders()
        .unwrap()
        .into_iter()
        .filter(|record| record.kind == "family")
        .collect();
    assert_eq!(records.len(), 1);
    assert_eq!(
        (
            records[0].status.as_str(),
            records[0].failure_reason.as_deref()
        ),
        (
            "skipped",
            Some("The visit was booked or moved after its reminder was due")
        )
    );
    assert!(
        timeline(&test.store, &intake)
            .iter()
            .all(|(_, _, line)| !line.starts_with("No reminder"))
    );
}
