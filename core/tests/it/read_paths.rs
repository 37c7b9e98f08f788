//! The read paths that must not grow with the agency give the same answers as a plain
//! recount: the search against a substring scan of every client, the overdue count
//! against paging through the overdue list while the clock moves, and the follow-ups due
//! today against their pages.

use carepath_core::Error;
use carepath_core::model::{IntakeStatus, IntakeSummary};
use carepath_core::rules::search::{SEARCH_TOO_LONG, fold, looks_like_phone};
use carepath_core::rules::stage::ClientUrgency;
use carepath_core::store::{ClientQuery, FOLLOW_UPS_PAGE, phone_digits};
use jiff::SignedDuration;

use crate::support::{TestStore, at, intake_form, now, open};

/// A small deterministic generator, so a failure can be replayed.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % below as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.next(items.len())]
    }
}

const FIRST: &[&str] = &[
    "Ellen",
    "Élodie",
    "ÉLODIE",
    "José",
    "Marianne",
    "Mario",
    "Maria",
    "Zoë",
    "Ngozi",
    "Øyvind",
    "Ann-Marie",
    "Llewellyn",
    "Björn",
    "Mary",
    "Tomás",
];
const LAST: &[&str] = &[
    "Zimmerman",
    "Núñez",
    "NÚÑEZ",
    "Müller",
    "MULLER",
    "Marsh",
    "O'Malley",
    "Lam",
    "Ångström",
    "Smith",
    "Dimarco",
    "Hall",
    "de la Cruz",
];
const PHONE_FORMATS: &[&str] = &[
    "(555) {a}-{b}",
    "555-{a}-{b}",
    "555.{a}.{b}",
    "+1 555 {a} {b}",
];
const DOMAINS: &[&str] = &["example.org", "MAIL.example.com", "correo.es"];

/// Makes `count` clients with generated names, phones and emails, some created in the
/// same millisecond, and deletes a few; returns every stored summary (deleted ones too,
/// flagged) for the reference scan.
fn agency(test: &mut TestStore, count: usize) -> Vec<(IntakeSummary, bool)> {
    let staff = test.staff.clone();
    let admin = test.admin.clone();
    let mut random = Lcg(15);
    let mut made = Vec::new();
    test.store
        .batch(|store| {
            for index in 0..count {
                let name = format!("{} {}", random.pick(FIRST), random.pick(LAST));
                let mut form = intake_form(&name);
                form.caller_name = format!("{} {}", random.pick(FIRST), random.pick(LAST));
                let phone = random
                    .pick(PHONE_FORMATS)
                    .replace("{a}", &format!("{:03}", 100 + random.next(900)))
                    .replace("{b}", &format!("{:04}", random.next(10_000)));
                form.caller_phone = phone;
                form.caller_email = format!(
                    "{}.{}@{}",
                    random.pick(FIRST).to_lowercase(),
                    index,
                    random.pick(DOMAINS)
                );
                // Every third client shares its millisecond with the one before.
                let step = (index - index / 3) as i64;
                store.set_now(Some(now() - SignedDuration::from_millis(50_000 - step * 7)));
                let intake = store.create_intake(&staff, form)?;
                made.push(intake.id);
            }
            Ok(())
        })
        .unwrap();
    test.store.set_now(Some(now()));
    let summaries: Vec<IntakeSummary> = made
        .iter()
        .map(|id| test.store.get_intake_summary(id).unwrap())
        .collect();
    let deleted: Vec<_> = made.iter().step_by(17).cloned().collect();
    for id in &deleted {
        test.store.delete_intake(&admin, id).unwrap();
    }
    summaries
        .into_iter()
        .map(|summary| {
            let gone = deleted.contains(&summary.id);
            (summary, gone)
        })
        .collect()
}

/// The plain scan the search must equal: the term, case-folded, inside one of the
/// fields, or a phone-like term's digits inside the phone's digits.
fn scan_matches(term: &str, fields: &[&str], phone: &str) -> bool {
    let folded = fold(term.trim());
    let digits = phone_digits(term);
    fields.iter().any(|field| fold(field).contains(&folded))
        || (looks_like_phone(term) && digits.len() >= 2 && phone_digits(phone).contains(&digits))
}

const TERMS: &[&str] = &[
    "ma",
    "MA",
    "ll",
    "an",
    "ez",
    "ño",
    "ÑO",
    "él",
    "ÉL",
    "ø",
    "zi",
    "mar",
    "mari",
    "marianne",
    "zimmerman",
    "ZIMMER",
    "élodie",
    "ÉLODIE",
    "elodie",
    "núñez",
    "muller",
    "müller",
    "o'm",
    "de la",
    "ann-m",
    "555-1",
    "555-17",
    "(555) 1",
    "555.2",
    "55",
    "5551",
    "+1 555",
    "@example",
    "mail.example",
    "CORREO",
    ".es",
    "qq",
    "xyz",
    "zzzz",
    "\"quoted\" OR",
    "a*",
    "m%",
    "_a",
];

#[test]
fn search_equals_a_substring_scan_of_every_client() {
    let mut test = open();
    let stored = agency(&mut test, 260);
    for term in TERMS {
        let mut expected: Vec<&IntakeSummary> = stored
            .iter()
            .filter(|(_, deleted)| !deleted)
            .map(|(summary, _)| summary)
            .filter(|s| {
                term.trim().chars().count() >= 2
                    && scan_matches(
                        term,
                        &[&s.client_full_name, &s.caller_phone, &s.caller_email],
                        &s.caller_phone,
                    )
            })
            .collect();
        expected
            .sort_by(|a, b| (&b.created_at, b.id.as_str()).cmp(&(&a.created_at, a.id.as_str())));
        expected.truncate(10);
        let expected: Vec<&str> = expected.iter().map(|s| s.id.as_str()).collect();
        let found = test.store.search(term).unwrap();
        let found: Vec<&str> = found.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(found, expected, "search {term:?}");
    }
}

#[test]
fn the_clients_list_search_equals_a_substring_scan() {
    let mut test = open();
    let stored = agency(&mut test, 120);
    for term in TERMS {
        let mut expected: Vec<&str> = stored
            .iter()
            .filter(|(_, deleted)| !deleted)
            .map(|(summary, _)| summary)
            .filter(|s| {
                term.trim().chars().count() >= 2
                    && scan_matches(
                        term,
                        &[&s.client_full_name, &s.caller_name, &s.caller_phone],
                        &s.caller_phone,
                    )
            })
            .map(|s| s.id.as_str())
            .collect();
        expected.sort();
        let page = test
            .store
            .clients_page(&ClientQuery {
                search: Some(term.to_string()),
                limit: Some(200),
                ..ClientQuery::default()
            })
            .unwrap();
        let mut found: Vec<&str> = page.items.iter().map(|r| r.intake.id.as_str()).collect();
        found.sort();
        assert_eq!(found, expected, "clients search {term:?}");
    }
}

#[test]
fn two_characters_match_anywhere_in_a_value() {
    let mut test = open();
    let staff = test.staff.clone();
    for name in ["Ellen Park", "Rosa Zimmerman", "Ma Lin"] {
        test.store.create_intake(&staff, intake_form(name)).unwrap();
    }
    let names = |term: &str| -> Vec<String> {
        let mut names: Vec<String> = test
            .store
            .search(term)
            .unwrap()
            .into_iter()
            .map(|s| s.client_full_name)
            .collect();
        names.sort();
        names
    };
    assert_eq!(names("ll"), vec!["Ellen Park"]);
    assert_eq!(names("ma"), vec!["Ma Lin", "Rosa Zimmerman"]);
    assert_eq!(names("IN"), vec!["Ma Lin"]);
}

#[test]
fn a_search_term_over_100_characters_is_refused_with_a_message() {
    let test = open();
    let long = "a".repeat(101);
    match test.store.search(&long) {
        Err(Error::Rejected(message)) => assert_eq!(message, SEARCH_TOO_LONG),
        other => panic!("expected a refusal, got {other:?}"),
    }
    let listed = test.store.clients_page(&ClientQuery {
        search: Some(long),
        ..ClientQuery::default()
    });
    assert!(matches!(listed, Err(Error::Rejected(_))));
    assert!(test.store.search(&"a".repeat(100)).unwrap().is_empty());
}

/// Counts the overdue clients by paging through the overdue list.
fn recount_overdue(test: &TestStore) -> i64 {
    let mut cursor = None;
    let mut total = 0;
    loop {
        let page = test
            .store
            .clients_page(&ClientQuery {
                urgency: Some(ClientUrgency::Overdue),
                cursor,
                limit: Some(200),
                ..ClientQuery::default()
            })
            .unwrap();
        total += page.items.len() as i64;
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => return total,
        }
    }
}

/// The clients the list flags as past the stage alert, counted row by row.
fn recount_stage_alerts(test: &TestStore) -> i64 {
    let mut cursor = None;
    let mut total = 0;
    loop {
        let page = test
            .store
            .clients_page(&ClientQuery {
                cursor,
                limit: Some(200),
                ..ClientQuery::default()
            })
            .unwrap();
        total += page.items.iter().filter(|row| row.stage_alert).count() as i64;
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => return total,
        }
    }
}

#[test]
fn the_overdue_count_equals_a_recount_as_the_clock_moves() {
    let mut test = open();
    let staff = test.staff.clone();
    let admin = test.admin.clone();
    let mut ids = Vec::new();
    test.store
        .batch(|store| {
            // Clients created over ten days, every 40 minutes, some with a follow-up.
            for index in 0..360_i64 {
                store.set_now(Some(
                    at("2026-11-12T00:00:00Z") + SignedDuration::from_mins(40 * index),
                ));
                let mut form = intake_form(&format!("Client {index:03}"));
                if index % 4 == 0 {
                    form.next_follow_up_date = "2026-11-23".into();
                    form.next_follow_up_time = format!("{:02}:15", index % 24);
                }
                ids.push(store.create_intake(&staff, form)?.id);
            }
            Ok(())
        })
        .unwrap();
    // The overdue count and the dashboard's stage alert count, each beside its recount.
    let count = |test: &mut TestStore, moment: &str| {
        test.store.set_now(Some(at(moment)));
        let counted = test.store.clients_page(&ClientQuery::default()).unwrap();
        let alerts = test.store.dashboard().unwrap().stage_alert_count;
        assert_eq!(
            alerts,
            recount_stage_alerts(test),
            "stage alerts at {moment}"
        );
        (counted.counts.overdue, recount_overdue(test))
    };
    // Forward across day and overdue boundaries, then back, then forward again.
    let moments = [
        "2026-11-20T00:00:00Z",
        "2026-11-22T15:00:00Z",
        "2026-11-22T15:00:00.001Z",
        "2026-11-23T04:59:59Z",
        "2026-11-23T05:00:00Z",
        "2026-11-23T18:30:00Z",
        "2026-11-21T09:00:00Z",
        "2026-11-14T00:00:00Z",
        "2026-11-26T00:00:00Z",
        "2026-12-20T00:00:00Z",
    ];
    let mut seen = std::collections::BTreeSet::new();
    for moment in moments {
        let (counted, recounted) = count(&mut test, moment);
        assert_eq!(counted, recounted, "at {moment}");
        seen.insert(counted);
    }
    assert!(seen.len() >= 5, "the clock crossed boundaries: {seen:?}");
    // A shorter, then a longer stage alert moves its cutoff by days at once.
    for days in [2, 30, 7] {
        crate::support::set_stage_alert_days(&mut test, days);
        for moment in ["2026-11-20T00:00:00Z", "2026-11-23T05:00:00Z"] {
            let (counted, recounted) = count(&mut test, moment);
            assert_eq!(counted, recounted, "at {moment}, {days} days");
        }
    }
    // Changes after settling: archive, delete, restore.
    test.store.set_now(Some(at("2026-11-24T00:00:00Z")));
    let first = test.store.get_intake(&ids[0]).unwrap();
    test.store
        .set_intake_status(&staff, &ids[0], first.version, IntakeStatus::Declined)
        .unwrap();
    test.store.delete_intake(&admin, &ids[1]).unwrap();
    let (counted, recounted) = count(&mut test, "2026-11-24T00:00:00Z");
    assert_eq!(counted, recounted);
    test.store.restore_intake(&admin, &ids[1]).unwrap();
    for moment in [
        "2026-11-24T00:00:00Z",
        "2026-11-13T00:00:00Z",
        "2027-01-01T00:00:00Z",
    ] {
        let (counted, recounted) = count(&mut test, moment);
        assert_eq!(counted, recounted, "at {moment}");
    }
}

#[test]
fn follow_ups_due_today_give_the_true_count_and_page_the_rest() {
    let mut test = open();
    let staff = test.staff.clone();
    let due = FOLLOW_UPS_PAGE as usize * 2 + 3;
    test.store.set_now(Some(at("2026-11-20T15:00:00Z")));
    test.store
        .batch(|store| {
            for index in 0..due {
                let mut form = intake_form(&format!("Due {index:02}"));
                form.next_follow_up_date = "2026-11-22".into();
                // Spread over the agency's day, minutes included, ties too.
                form.next_follow_up_time = format!("{:02}:{:02}", index % 24, (index * 7) % 60);
                store.create_intake(&staff, form)?;
            }
            for (index, (date, time)) in [("2026-11-21", "23:59"), ("2026-11-23", "00:00")]
                .iter()
                .enumerate()
            {
                let mut form = intake_form(&format!("Not today {index}"));
                form.next_follow_up_date = (*date).into();
                form.next_follow_up_time = (*time).into();
                store.create_intake(&staff, form)?;
            }
            Ok(())
        })
        .unwrap();
    test.store.set_now(Some(now()));
    let dashboard = test.store.dashboard().unwrap();
    assert_eq!(dashboard.follow_ups_due_today_count, due as i64);
    assert_eq!(
        dashboard.follow_ups_due_today.len(),
        FOLLOW_UPS_PAGE as usize
    );
    let mut names: Vec<String> = dashboard
        .follow_ups_due_today
        .iter()
        .map(|s| s.client_full_name.clone())
        .collect();
    let mut cursor = dashboard.follow_ups_next_cursor;
    let mut previous_last = dashboard.follow_ups_due_today.last().cloned();
    while let Some(next) = cursor {
        let page = test.store.follow_ups_due_today(Some(&next)).unwrap();
        let first = page.items.first().expect("a cursor leads to more");
        let last = previous_last.expect("a page before");
        assert!(
            (first.next_follow_up_date.as_deref(), first.id.as_str())
                > (last.next_follow_up_date.as_deref(), last.id.as_str()),
            "pages are in order"
        );
        names.extend(page.items.iter().map(|s| s.client_full_name.clone()));
        previous_last = page.items.last().cloned();
        cursor = page.next_cursor;
    }
    names.sort();
    let mut expected: Vec<String> = (0..due).map(|index| format!("Due {index:02}")).collect();
    expected.sort();
    assert_eq!(names, expected);
    assert!(matches!(
        test.store.follow_ups_due_today(Some("zz")),
        Err(Error::Rejected(_))
    ));
    // The count stays true as follow-ups move and clients are deleted.
    let moved = test.store.search("Due 00").unwrap().remove(0);
    test.store
        .delete_intake(&test.admin.clone(), &moved.id)
        .unwrap();
    assert_eq!(
        test.store.dashboard().unwrap().follow_ups_due_today_count,
        due as i64 - 1
    );
}

#[test]
fn the_record_cards_leave_out_archived_clients_and_take_them_back_on_reopening() {
    use carepath_core::model::ArchiveInput;
    use carepath_core::model::status::ArchiveStatus;
    use carepath_core::store::AssessmentSave;

    let mut test = open();
    let staff = test.staff.clone();
    let mut intakes = Vec::new();
    for index in 0..3 {
        let intake = test
            .store
            .create_intake(&staff, intake_form(&format!("Client {index}")))
            .unwrap();
        test.store
            .save_assessment(
                &staff,
                AssessmentSave {
                    existing: None,
                    intake_id: Some(intake.id.clone()),
                    form: crate::support::assessment_form(&format!("Client {index}")),
                    complete: false,
                },
            )
            .unwrap();
        intakes.push(intake.id);
    }
    let pending = |test: &TestStore| test.store.dashboard().unwrap().counts.pending_assessments;
    assert_eq!(pending(&test), 3);
    test.store
        .archive_client(
            &staff,
            &intakes[0],
            &ArchiveInput {
                status: ArchiveStatus::Declined,
                reason: "Chose another agency".into(),
            },
        )
        .unwrap();
    assert_eq!(
        pending(&test),
        2,
        "an archived client's draft is not pending work"
    );
    test.store.reopen_client(&staff, &intakes[0]).unwrap();
    assert_eq!(pending(&test), 3);
}
