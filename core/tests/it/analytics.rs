//! Analytics for a date range, built from a small agency with known dates (fixed clock)
//! and checked against figures worked out by hand.

use carepath_core::model::{Actor, CallLogInput, IntakeId, IntakeStatus, Parents, SmsInput};
use carepath_core::model::{AttachmentInfo, EmailInput};
use carepath_core::store::{AnalyticsRange, Store};
use jiff::civil::date;

use crate::support::{assess, at, intake_form, now, open};

fn intake(store: &mut Store, actor: &Actor, when: &str, name: &str, source: &str) -> IntakeId {
    store.set_now(Some(at(when)));
    let mut form = intake_form(name);
    form.how_did_you_hear = source.into();
    store.create_intake(actor, form).unwrap().id
}

#[test]
fn analytics_figures_equal_a_hand_computation() {
    let mut test = open();
    let staff = test.staff.clone();
    let store = &mut test.store;

    // A: called after 2 h; assessed after 2 days; proposal sent after 5; signed after 10.
    let a = intake(
        store,
        &staff,
        "2026-11-02T14:00:00Z",
        "Alma Arden",
        "Physician referral",
    );
    store.set_now(Some(at("2026-11-02T16:00:00Z")));
    store
        .log_call(
            &staff,
            &CallLogInput {
                parents: Parents::of_intake(&a),
                phone: "(217) 555-0101".into(),
                notes: "First call".into(),
                duration: String::new(),
                internal: false,
            },
        )
        .unwrap();
    let a_assessment = assess(store, &staff, "2026-11-04T14:00:00Z", &a, "Alma Arden");
    store.set_now(Some(at("2026-11-06T14:00:00Z")));
    let mut plan = store.care_plan_prefill(&a_assessment).unwrap().plan;
    plan.family_contact_email = "family@example.com".into();
    let a_plan = store
        .create_care_plan(&staff, Some(&a_assessment), plan)
        .unwrap();
    store.set_now(Some(at("2026-11-07T14:00:00Z")));
    store.mark_care_plan_sent(&staff, &a_plan.id).unwrap();
    store.set_now(Some(at("2026-11-08T14:00:00Z")));
    let contract = store
        .create_contract(&staff, &a_plan.id, None, "Agreement")
        .unwrap();
    store.set_now(Some(at("2026-11-09T14:00:00Z")));
    store.mark_contract_sent(&staff, &contract.id).unwrap();
    store.set_now(Some(at("2026-11-12T14:00:00Z")));
    store.sign_contract(&staff, &contract.id).unwrap();

    // B: a text after 4 h; assessed after 4 days; proposal sent after 8; no contract.
    let b = intake(
        store,
        &staff,
        "2026-11-03T14:00:00Z",
        "Bruno Bell",
        "Website",
    );
    store.set_now(Some(at("2026-11-03T18:00:00Z")));
    let sms = store
        .record_sms(
            &staff,
            &SmsInput {
                parents: Parents::of_intake(&b),
                to: "(217) 555-0102".into(),
                message: "Hello from the agency".into(),
            },
        )
        .unwrap();
    store
        .mark_communication_sent(&sms.id, serde_json::json!({}))
        .unwrap();
    let b_assessment = assess(store, &staff, "2026-11-07T14:00:00Z", &b, "Bruno Bell");
    store.set_now(Some(at("2026-11-09T14:00:00Z")));
    let mut plan = store.care_plan_prefill(&b_assessment).unwrap().plan;
    plan.family_contact_email = "bell@example.com".into();
    let b_plan = store
        .create_care_plan(&staff, Some(&b_assessment), plan)
        .unwrap();
    store.set_now(Some(at("2026-11-11T14:00:00Z")));
    store.mark_care_plan_sent(&staff, &b_plan.id).unwrap();

    // C: never contacted. D: an email that failed (the family heard nothing).
    intake(
        store,
        &staff,
        "2026-11-10T14:00:00Z",
        "Cora Cole",
        "Physician referral",
    );
    let d = intake(
        store,
        &staff,
        "2026-11-16T14:00:00Z",
        "Dale Dunn",
        "Website",
    );
    store.set_now(Some(at("2026-11-16T15:00:00Z")));
    let email = store
        .record_email(
            &staff,
            &EmailInput {
                parents: Parents::of_intake(&d),
                to: "dunn@example.com".into(),
                subject: "Hello".into(),
                body: "Hello".into(),
                attachments: Vec::<AttachmentInfo>::new(),
            },
        )
        .unwrap();
    store
        .mark_communication_failed(&email.id, "The mail server refused the email")
        .unwrap();
    // F: not interested (archived: not waiting, counted among declined reasons).
    let f = intake(
        store,
        &staff,
        "2026-11-20T14:00:00Z",
        "Fay Ford",
        "Newspaper",
    );
    let version = store.get_intake(&f).unwrap().version;
    store
        .set_intake_status(&staff, &f, version, IntakeStatus::NotInterested)
        .unwrap();
    // Outside the range: not counted anywhere.
    intake(store, &staff, "2026-10-01T14:00:00Z", "Olga Old", "Website");

    store.set_now(Some(now())); // 2026-11-22T15:00Z
    let range =
        AnalyticsRange::parse(Some("2026-11-01"), Some("2026-11-22"), date(2026, 11, 22)).unwrap();
    let report = store.analytics(range).unwrap();

    let funnel: Vec<(&str, i64, Option<f64>, i64)> = report
        .funnel
        .iter()
        .map(|s| (s.stage.as_str(), s.count, s.conversion_percent, s.drop_off))
        .collect();
    assert_eq!(
        funnel,
        vec![
            ("intake", 5, None, 0),
            ("assessment", 2, Some(40.0), 3),
            ("care_plan", 2, Some(100.0), 0),
            ("contract", 1, Some(50.0), 1),
            ("signed", 1, Some(100.0), 0),
        ]
    );
    let durations: Vec<(&str, i64, Option<f64>, Option<f64>)> = report
        .durations
        .iter()
        .map(|d| (d.step.as_str(), d.clients, d.median_days, d.p90_days))
        .collect();
    assert_eq!(
        durations,
        vec![
            ("assessment", 2, Some(3.0), Some(4.0)),
            ("proposal", 2, Some(6.5), Some(8.0)),
            ("signed", 1, Some(10.0), Some(10.0)),
        ]
    );
    let sources: Vec<(&str, i64, i64)> = report
        .sources
        .iter()
        .map(|s| (s.source.as_str(), s.leads, s.signed))
        .collect();
    assert_eq!(
        sources,
        vec![
            ("Physician referral", 2, 1),
            ("Website", 2, 0),
            ("Newspaper", 1, 0)
        ]
    );
    let weeks: Vec<(&str, i64)> = report
        .intakes_per_week
        .iter()
        .map(|w| (w.week_start.as_str(), w.count))
        .collect();
    assert_eq!(
        weeks,
        vec![
            ("2026-10-26", 0),
            ("2026-11-02", 2),
            ("2026-11-09", 1),
            ("2026-11-16", 2)
        ]
    );
    let speed = &report.speed_to_lead;
    assert_eq!(speed.contacted, 2);
    assert_eq!(speed.median_hours, Some(3.0));
    assert_eq!(speed.p90_hours, Some(4.0));
    assert_eq!(speed.waiting_count, 2);
    let waiting: Vec<(&str, f64)> = speed
        .waiting
        .iter()
        .map(|w| (w.client_name.as_str(), w.hours_waiting))
        .collect();
    assert_eq!(waiting, vec![("Cora Cole", 289.0), ("Dale Dunn", 145.0)]);
    let declined: Vec<(&str, i64)> = report
        .declined_reasons
        .iter()
        .map(|r| (r.reason.as_str(), r.count))
        .collect();
    assert_eq!(declined, vec![("Not interested", 1)]);
    assert_eq!(
        (report.from.as_str(), report.to.as_str()),
        ("2026-11-01", "2026-11-22")
    );
}

#[test]
fn analytics_ranges_default_to_ninety_days_and_refuse_nonsense() {
    let today = date(2026, 11, 22);
    let range = AnalyticsRange::parse(None, None, today).unwrap();
    assert_eq!((range.from, range.to), (date(2026, 8, 25), today));
    for (from, to, field) in [
        (Some("2026-13-01"), None, "from"),
        (Some("2026-11-10"), Some("2026-11-01"), "from"),
        (Some("2020-01-01"), Some("2026-11-01"), "from"),
        (None, Some("yesterday"), "to"),
    ] {
        match AnalyticsRange::parse(from, to, today) {
            Err(carepath_core::Error::Validation(errors)) => {
                assert!(
                    errors.fields.contains_key(field),
                    "{from:?} {to:?}: {errors:?}"
                )
            }
            other => panic!("{from:?} {to:?}: expected a validation error, got {other:?}"),
        }
    }
}
