//! Assessment visits through the store: booking moves the client to "Assessment
//! Scheduled", every move writes its timeline line and audit row in one transaction, a
//! stale version is a conflict, and the day and week lists page by start time.

use carepath_core::Error;
use carepath_core::model::{CommunicationType, IntakeId, Parents, VisitInput, VisitStatus};
use carepath_core::store::{CommunicationFilter, Store, VisitQuery};

use crate::support::{TestStore, intake_form, open};

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

fn timeline(store: &Store, intake_id: &IntakeId) -> Vec<String> {
    let filter = CommunicationFilter {
        parents: Parents {
            intake_id: Some(intake_id.clone()),
            ..Parents::default()
        },
        visibility: None,
    };
    let mut lines: Vec<String> = store
        .communications(&filter)
        .unwrap()
        .into_iter()
        .filter(|c| c.communication_type == CommunicationType::SystemEvent)
        .map(|c| c.content)
        .collect();
    lines.reverse();
    lines
}

fn status(store: &Store, id: &IntakeId) -> (String, String, String) {
    let pipeline = store.client_profile(id).unwrap().intake.pipeline;
    (
        pipeline.label.into_owned(),
        pipeline.description.into_owned(),
        pipeline.next_action.into_owned(),
    )
}

#[test]
fn a_visit_moves_the_client_to_assessment_scheduled_and_back() {
    let mut test = open();
    let staff = test.staff.clone();
    let intake = test
        .store
        .create_intake(&staff, intake_form("Ruth Hale"))
        .unwrap();
    assert_eq!(status(&test.store, &intake.id).0, "New Client");

    // Tomorrow (Monday 23 November) at 10:00 New York time.
    let answer = test
        .store
        .schedule_visit(&staff, &intake.id, &booking(&test, "2026-11-23", "10:00"))
        .unwrap();
    let visit = answer.visit;
    assert!(answer.warnings.is_empty(), "{:?}", answer.warnings);
    assert!(
        visit.starts_at.starts_with("2026-11-23T15:00:00"),
        "{}",
        visit.starts_at
    );
    assert_eq!(
        (
            visit.local_date.as_str(),
            visit.local_start_time.as_str(),
            visit.local_end_time.as_str()
        ),
        ("2026-11-23", "10:00", "11:00")
    );
    assert_eq!(
        (visit.status, visit.sequence, visit.version),
        (VisitStatus::Scheduled, 0, 1)
    );
    assert_eq!(visit.client_name, "Ruth Hale");
    assert_eq!(visit.assessor_name, "Sam Staff");
    assert_eq!(
        status(&test.store, &intake.id),
        (
            "Assessment Scheduled".into(),
            "In 1 day".into(),
            "View Assessment Details".into()
        )
    );

    // Moved to Wednesday with a stale version elsewhere: a conflict carrying the visit.
    let moved = test
        .store
        .reschedule_visit(
            &staff,
            &visit.id,
            visit.version,
            &booking(&test, "2026-11-25", "14:30"),
        )
        .unwrap()
        .visit;
    assert_eq!((moved.version, moved.sequence), (2, 1));
    assert_eq!(status(&test.store, &intake.id).1, "In 3 days");
    let stale = test.store.reschedule_visit(
        &staff,
        &visit.id,
        visit.version,
        &booking(&test, "2026-11-26", "09:00"),
    );
    assert!(matches!(stale, Err(Error::Conflict { .. })), "{stale:?}");
    let stale = test.store.cancel_visit(&staff, &visit.id, 1, "Family away");
    assert!(matches!(stale, Err(Error::Conflict { .. })), "{stale:?}");

    // A reason is required; then the visit is called off and the client goes back.
    assert!(matches!(
        test.store
            .cancel_visit(&staff, &visit.id, moved.version, " "),
        Err(Error::Validation(_))
    ));
    let cancelled = test
        .store
        .cancel_visit(&staff, &visit.id, moved.version, "Family away")
        .unwrap();
    assert_eq!(cancelled.status, VisitStatus::Cancelled);
    assert_eq!(cancelled.cancel_reason.as_deref(), Some("Family away"));
    assert_eq!(cancelled.sequence, 2);
    assert_eq!(status(&test.store, &intake.id).0, "New Client");
    assert!(matches!(
        test.store
            .mark_visit_done(&staff, &visit.id, cancelled.version),
        Err(Error::Rejected(_))
    ));

    assert_eq!(
        timeline(&test.store, &intake.id),
        [
            "Assessment visit scheduled for Monday, November 23, 2026 at 10:00 AM with Sam Staff",
            "Assessment visit moved to Wednesday, November 25, 2026 at 2:30 PM with Sam Staff",
            "Assessment visit of Wednesday, November 25, 2026 at 2:30 PM cancelled: Family away",
        ]
    );
    let audit: Vec<(String, String)> = test
        .store
        .audit_since(0, 1000)
        .unwrap()
        .into_iter()
        .filter(|entry| entry.entity == "assessment_visit")
        .map(|entry| (entry.action, entry.entity_id))
        .collect();
    let id = visit.id.to_string();
    assert_eq!(
        audit,
        [
            ("schedule".to_owned(), id.clone()),
            ("reschedule".to_owned(), id.clone()),
            ("cancel".to_owned(), id)
        ]
    );
}

#[test]
fn past_times_are_refused_and_nothing_is_written() {
    let mut test = open();
    let staff = test.staff.clone();
    let intake = test
        .store
        .create_intake(&staff, intake_form("Ruth Hale"))
        .unwrap();
    let before = timeline(&test.store, &intake.id).len();
    let refused =
        test.store
            .schedule_visit(&staff, &intake.id, &booking(&test, "2026-11-22", "09:00"));
    assert!(matches!(refused, Err(Error::Validation(_))), "{refused:?}");
    let mut unknown = booking(&test, "2026-11-23", "10:00");
    unknown.assessor_id = "nobody".into();
    assert!(matches!(
        test.store.schedule_visit(&staff, &intake.id, &unknown),
        Err(Error::Validation(_))
    ));
    assert!(matches!(
        test.store.schedule_visit(
            &staff,
            &IntakeId::from("missing"),
            &booking(&test, "2026-11-23", "10:00")
        ),
        Err(Error::NotFound { .. })
    ));
    assert_eq!(timeline(&test.store, &intake.id).len(), before);
    assert!(test.store.intake_visits(&intake.id).unwrap().is_empty());
}

#[test]
fn double_bookings_and_odd_hours_are_warnings_and_lists_page_by_day() {
    let mut test = open();
    let staff = test.staff.clone();
    let ruth = test
        .store
        .create_intake(&staff, intake_form("Ruth Hale"))
        .unwrap();
    let omar = test
        .store
        .create_intake(&staff, intake_form("Omar Fisk"))
        .unwrap();
    test.store
        .schedule_visit(&staff, &ruth.id, &booking(&test, "2026-11-23", "10:00"))
        .unwrap();
    let second = test
        .store
        .schedule_visit(&staff, &omar.id, &booking(&test, "2026-11-23", "10:30"))
        .unwrap();
    assert_eq!(
        second.warnings,
        [
            "Sam Staff already has a visit with Ruth Hale on Monday, November 23, 2026 \
          from 10:00 AM to 11:00 AM."
        ]
    );
    let late = test
        .store
        .schedule_visit(&staff, &omar.id, &booking(&test, "2026-11-24", "18:00"))
        .unwrap();
    assert_eq!(
        late.warnings,
        ["This visit is outside the agency's business hours (9:00 AM - 5:00 PM)."]
    );

    // Monday only, two per page.
    let monday = VisitQuery {
        from: Some("2026-11-23".into()),
        to: Some("2026-11-23".into()),
        limit: Some(1),
        ..VisitQuery::default()
    };
    let first = test.store.visits(&monday).unwrap();
    assert_eq!(first.items.len(), 1);
    assert_eq!(first.items[0].client_name, "Ruth Hale");
    let next = test
        .store
        .visits(&VisitQuery {
            cursor: first.next_cursor.clone(),
            ..monday.clone()
        })
        .unwrap();
    assert_eq!(next.items[0].client_name, "Omar Fisk");
    assert_eq!(next.next_cursor, None);
    // The week, one assessor: all three; another assessor: none.
    let week = VisitQuery {
        from: Some("2026-11-23".into()),
        to: Some("2026-11-29".into()),
        assessor_id: Some(test.staff_id().to_string()),
        ..VisitQuery::default()
    };
    assert_eq!(test.store.visits(&week).unwrap().items.len(), 3);
    let nobody = VisitQuery {
        assessor_id: Some("someone-else".into()),
        ..week
    };
    assert!(test.store.visits(&nobody).unwrap().items.is_empty());
    assert_eq!(test.store.intake_visits(&omar.id).unwrap().len(), 2);
    assert!(matches!(
        test.store.visits(&VisitQuery {
            from: Some("yesterday".into()),
            ..VisitQuery::default()
        }),
        Err(Error::Validation(_))
    ));
}

/// The attachment of an invitation email, as text.
fn calendar_of(email: &carepath_core::outbound::EmailMessage) -> String {
    assert_eq!(email.attachments.len(), 1);
    String::from_utf8(email.attachments[0].bytes.clone()).unwrap()
}

#[test]
fn invitations_are_calendars_that_survive_hostile_text() {
    use icalendar::{Component, EventLike};

    let mut test = open();
    let staff = test.staff.clone();
    let hostile = format!(
        "Line one\nLine two, with; semicolons\\ and \"quotes\" and ünïcødé 老虎 {}",
        "x".repeat(10_000)
    );
    let intake = test
        .store
        .create_intake(&staff, intake_form("Ruth, \"Ruthie\"; Hale"))
        .unwrap();
    let mut input = booking(&test, "2026-11-23", "10:00");
    input.place = "Apt 4, 12 Oak St;\nSpringfield: back door".into();
    input.notes = hostile.clone();
    let visit = test
        .store
        .schedule_visit(&staff, &intake.id, &input)
        .unwrap()
        .visit;

    let emails = test
        .store
        .visit_invitations(&visit.id, "office@agency.test")
        .unwrap();
    let recipients: Vec<&str> = emails.iter().map(|e| e.to[0].as_str()).collect();
    assert_eq!(recipients, ["susan.reed@example.com", "staff@agency.test"]);
    let email = &emails[0];
    assert!(
        email.subject.starts_with("Home assessment visit: Ruth"),
        "{}",
        email.subject
    );
    assert_eq!(
        email.attachments[0].content_type,
        "text/calendar; charset=utf-8; method=REQUEST"
    );
    let text = calendar_of(email);
    for line in text.split("\r\n") {
        assert!(
            !line.contains('\n') && !line.contains('\r'),
            "a bare line break: {line:?}"
        );
        assert!(
            line.len() <= 76,
            "an unfolded line of {} octets",
            line.len()
        );
    }
    assert!(text.contains("METHOD:REQUEST\r\n"), "{text}");
    assert!(
        text.contains("BEGIN:VTIMEZONE\r\nTZID:America/New_York\r\n"),
        "{text}"
    );
    assert!(
        text.contains("DTSTART;TZID=America/New_York:20261123T100000\r\n"),
        "{text}"
    );
    assert!(text.contains("TZOFFSETTO:-0500\r\n"), "{text}");

    if let Ok(dir) = std::env::var("CAREPATH_ICS_OUT") {
        std::fs::write(std::path::Path::new(&dir).join("request.ics"), &text).unwrap();
    }
    let parsed: icalendar::Calendar = text.parse().expect("a calendar a parser reads");
    let event = parsed.events().next().expect("one event");
    assert_eq!(
        event.get_uid(),
        Some(format!("{}@carepath", visit.id).as_str())
    );
    assert_eq!(event.property_value("SEQUENCE"), Some("0"));
    assert_eq!(
        event.get_location(),
        Some("Apt 4, 12 Oak St;\nSpringfield: back door")
    );
    let description = event.get_description().unwrap();
    assert!(description.ends_with(&hostile), "the notes survive whole");
    assert_eq!(
        event.get_summary(),
        Some("Home assessment visit: Ruth, \"Ruthie\"; Hale")
    );

    // Moved: the same UID with a higher SEQUENCE. Cancelled: METHOD:CANCEL, higher again.
    let moved = test
        .store
        .reschedule_visit(
            &staff,
            &visit.id,
            visit.version,
            &booking(&test, "2027-07-01", "10:00"),
        )
        .unwrap()
        .visit;
    let text = calendar_of(
        &test
            .store
            .visit_invitations(&moved.id, "office@agency.test")
            .unwrap()[1],
    );
    let parsed: icalendar::Calendar = text.parse().unwrap();
    let event = parsed.events().next().unwrap();
    assert_eq!(
        event.get_uid(),
        Some(format!("{}@carepath", visit.id).as_str())
    );
    assert_eq!(event.property_value("SEQUENCE"), Some("1"));
    assert!(
        text.contains("DTSTART;TZID=America/New_York:20270701T100000\r\n"),
        "{text}"
    );
    assert!(
        text.contains("BEGIN:DAYLIGHT\r\n"),
        "summer time is described: {text}"
    );
    let cancelled = test
        .store
        .cancel_visit(&staff, &visit.id, moved.version, "Family away")
        .unwrap();
    let emails = test
        .store
        .visit_invitations(&cancelled.id, "office@agency.test")
        .unwrap();
    assert!(emails[0].subject.starts_with("Cancelled: "));
    let text = calendar_of(&emails[0]);
    assert!(
        text.contains("METHOD:CANCEL\r\n") && text.contains("STATUS:CANCELLED\r\n"),
        "{text}"
    );
    let parsed: icalendar::Calendar = text.parse().unwrap();
    assert_eq!(
        parsed.events().next().unwrap().property_value("SEQUENCE"),
        Some("2")
    );
    assert_eq!(
        emails[0].attachments[0].content_type,
        "text/calendar; charset=utf-8; method=CANCEL"
    );

    // Written out, with the request above, for a calendar library in another language.
    if let Ok(dir) = std::env::var("CAREPATH_ICS_OUT") {
        std::fs::write(std::path::Path::new(&dir).join("cancel.ics"), &text).unwrap();
    }
}

#[test]
fn a_private_calendar_feed_lists_the_assessors_visits_until_revoked() {
    use icalendar::Component;

    let mut test = open();
    let staff = test.staff.clone();
    let admin = test.admin.clone();
    let intake = test
        .store
        .create_intake(&staff, intake_form("Ruth Hale"))
        .unwrap();
    let kept = test
        .store
        .schedule_visit(&staff, &intake.id, &booking(&test, "2026-11-23", "10:00"))
        .unwrap()
        .visit;
    let dropped = test
        .store
        .schedule_visit(&staff, &intake.id, &booking(&test, "2027-07-01", "09:00"))
        .unwrap()
        .visit;
    test.store
        .cancel_visit(&staff, &dropped.id, dropped.version, "Moved away")
        .unwrap();
    // Someone else's visit is not in this feed.
    let mut other = booking(&test, "2026-11-24", "10:00");
    other.assessor_id = admin.user_id.clone().unwrap();
    test.store
        .schedule_visit(&staff, &intake.id, &other)
        .unwrap();

    let first = test.store.create_calendar_feed(&staff).unwrap();
    let token = test.store.create_calendar_feed(&staff).unwrap();
    assert_ne!(first, token);
    assert!(
        matches!(
            test.store.calendar_feed(&first),
            Err(Error::LinkUnavailable)
        ),
        "a new address replaces the old one"
    );
    let text = test.store.calendar_feed(&token).unwrap();
    assert!(text.contains("METHOD:PUBLISH\r\n"), "{text}");
    let parsed: icalendar::Calendar = text.parse().expect("a calendar a parser reads");
    let events: Vec<(String, String)> = parsed
        .events()
        .map(|event| {
            (
                event.get_uid().unwrap_or_default().to_owned(),
                event
                    .property_value("STATUS")
                    .unwrap_or_default()
                    .to_owned(),
            )
        })
        .collect();
    assert_eq!(
        events,
        [
            (format!("{}@carepath", kept.id), "CONFIRMED".to_owned()),
            (format!("{}@carepath", dropped.id), "CANCELLED".to_owned()),
        ]
    );
    assert!(
        test.store
            .calendar_feed_created_at(&test.staff_id())
            .unwrap()
            .is_some()
    );
    // The audit log names the feed, never its token.
    let audit = test.store.audit_since(0, 1000).unwrap();
    assert!(
        audit
            .iter()
            .any(|entry| entry.entity == "calendar_feed" && entry.action == "create")
    );
    assert!(audit.iter().all(|entry| !entry.entity_id.contains(&token)));

    test.store.revoke_calendar_feed(&staff).unwrap();
    assert!(matches!(
        test.store.calendar_feed(&token),
        Err(Error::LinkUnavailable)
    ));
    assert!(
        test.store
            .calendar_feed_created_at(&test.staff_id())
            .unwrap()
            .is_none()
    );
}
