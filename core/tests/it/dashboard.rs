//! The dashboard: counts, follow-ups due today in the agency's zone, recent activity.

use crate::support::{at, intake_form, open};

#[test]
fn follow_ups_due_today_use_the_agency_day() {
    let mut test = open();
    let staff = test.staff.clone();
    // Agency in New York; "now" is 10:00 on 22 November there.
    let cases = [
        ("Due this morning", "2026-11-22", "08:00", true),
        ("Due tonight", "2026-11-22", "23:30", true), // 04:30 UTC on the 23rd
        ("Due tomorrow", "2026-11-23", "00:00", false),
        ("Due yesterday", "2026-11-21", "23:59", false),
        ("Date without time", "2026-11-22", "", false), // stored only with both
    ];
    for (name, date, time, _) in cases {
        let mut form = intake_form(name);
        form.next_follow_up_date = date.into();
        form.next_follow_up_time = time.into();
        // Past follow-up dates are refused on submit, so write them as of the day before.
        test.store.set_now(Some(at("2026-11-20T15:00:00Z")));
        test.store.create_intake(&staff, form).unwrap();
    }
    test.store.set_now(Some(at("2026-11-22T15:00:00Z")));
    let dashboard = test.store.dashboard().unwrap();
    let mut due: Vec<&str> = dashboard
        .follow_ups_due_today
        .iter()
        .map(|s| s.client_full_name.as_str())
        .collect();
    due.sort();
    assert_eq!(due, vec!["Due this morning", "Due tonight"]);
    assert_eq!(dashboard.counts.new_intakes, 5);
    assert_eq!(dashboard.recent_activity.len(), 5);
    let overdue: Vec<&str> = dashboard
        .recent_activity
        .iter()
        .filter(|s| s.pipeline.overdue)
        .map(|s| s.client_full_name.as_str())
        .collect();
    assert!(overdue.contains(&"Due this morning"));
    assert!(overdue.contains(&"Due yesterday"));
    assert!(!overdue.contains(&"Due tonight"));
}

#[test]
fn recent_activity_is_the_ten_newest() {
    let mut test = open();
    let staff = test.staff.clone();
    for index in 0..12 {
        test.store.set_now(Some(
            at("2026-11-22T12:00:00Z") + jiff::SignedDuration::from_mins(index),
        ));
        test.store
            .create_intake(&staff, intake_form(&format!("Recent {index:02}")))
            .unwrap();
    }
    let recent = test.store.dashboard().unwrap().recent_activity;
    assert_eq!(recent.len(), 10);
    assert_eq!(recent[0].client_full_name, "Recent 11");
    assert_eq!(recent[9].client_full_name, "Recent 02");
}

#[test]
fn the_stage_alert_flags_exactly_the_clients_past_the_setting() {
    let mut test = open();
    let staff = test.staff.clone();
    crate::support::set_stage_alert_days(&mut test, 5);
    // Now is 2026-11-22T15:00Z: five days before is 2026-11-17T15:00Z.
    for (name, created) in [
        ("Six days in intake", "2026-11-16T15:00:00Z"),
        ("Just over five days", "2026-11-17T14:59:00Z"),
        ("Exactly five days", "2026-11-17T15:00:00Z"),
        ("Yesterday", "2026-11-21T15:00:00Z"),
    ] {
        test.store.set_now(Some(at(created)));
        test.store.create_intake(&staff, intake_form(name)).unwrap();
    }
    test.store.set_now(Some(at("2026-11-22T15:00:00Z")));
    let dashboard = test.store.dashboard().unwrap();
    assert_eq!(dashboard.stage_alert_days, 5);
    assert_eq!(dashboard.stage_alert_count, 2);
    let flagged: Vec<&str> = dashboard
        .stage_alerts
        .iter()
        .map(|s| s.client_full_name.as_str())
        .collect();
    assert_eq!(flagged, vec!["Six days in intake", "Just over five days"]);

    let page = test
        .store
        .clients_page(&carepath_core::store::ClientQuery::default())
        .unwrap();
    let mut on_list: Vec<(&str, bool)> = page
        .items
        .iter()
        .map(|row| (row.intake.client_full_name.as_str(), row.stage_alert))
        .collect();
    on_list.sort();
    assert_eq!(
        on_list,
        vec![
            ("Exactly five days", false),
            ("Just over five days", true),
            ("Six days in intake", true),
            ("Yesterday", false),
        ]
    );
}
