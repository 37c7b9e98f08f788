//! A client whose contract is signed (an Active Patient) has finished the pipeline
//! (blueprint difference 15): whatever the clock says, it is in no overdue list or count,
//! no stage alert and no urgency filter, on every face's read (dashboard, clients list,
//! profile, export). A client whose contract is only sent is the control: it is flagged.

use carepath_core::export::{ExportKind, ExportOptions, ListFilter};
use carepath_core::model::{Actor, IntakeId, SettingsTab};
use carepath_core::rules::stage::ClientUrgency;
use carepath_core::store::{AssessmentSave, ClientQuery, StageFilter, Store};

use crate::support::{assessment_form, at, intake_form, open};

const SIGNED: &str = "Avery Active";
const WAITING: &str = "Wanda Waiting";

/// An intake with a follow-up the next day, walked to a sent contract (and signed when
/// `sign`), one day per step from `start`.
fn walk(store: &mut Store, staff: &Actor, name: &str, sign: bool) -> IntakeId {
    store.set_now(Some(at("2026-11-22T15:00:00Z")));
    let mut form = intake_form(name);
    form.next_follow_up_date = "2026-11-23".into();
    form.next_follow_up_time = "10:00".into();
    let intake = store.create_intake(staff, form).unwrap();
    store.set_now(Some(at("2026-11-23T15:00:00Z")));
    let assessment = store
        .save_assessment(
            staff,
            AssessmentSave {
                existing: None,
                intake_id: Some(intake.id.clone()),
                form: assessment_form(name),
                complete: true,
            },
        )
        .unwrap();
    store.set_now(Some(at("2026-11-24T15:00:00Z")));
    let mut plan = store.care_plan_prefill(&assessment.id).unwrap().plan;
    plan.family_contact_email = "family@example.com".into();
    let plan = store
        .create_care_plan(staff, Some(&assessment.id), plan)
        .unwrap();
    store.mark_care_plan_sent(staff, &plan.id).unwrap();
    store.set_now(Some(at("2026-11-25T15:00:00Z")));
    let contract = store
        .create_contract(staff, &plan.id, None, "Agreement")
        .unwrap();
    store.mark_contract_sent(staff, &contract.id).unwrap();
    if sign {
        store.set_now(Some(at("2026-11-26T15:00:00Z")));
        store.sign_contract(staff, &contract.id).unwrap();
    }
    intake.id
}

fn names(store: &Store, query: ClientQuery) -> Vec<String> {
    let mut names: Vec<String> = store
        .clients_page(&query)
        .unwrap()
        .items
        .into_iter()
        .map(|row| row.intake.client_full_name)
        .collect();
    names.sort();
    names
}

fn urgency(urgency: ClientUrgency, stage: Option<StageFilter>) -> ClientQuery {
    ClientQuery {
        urgency: Some(urgency),
        stage,
        ..ClientQuery::default()
    }
}

/// Everything the faces read about overdue clients and stage alerts at the store's now.
fn assert_finished_everywhere(store: &Store, signed: &IntakeId, at_moment: &str) {
    let intake = store.get_intake_summary(signed).unwrap();
    assert_eq!(intake.pipeline.label, "Active Patient", "{at_moment}");
    assert!(!intake.pipeline.overdue, "{at_moment}");

    let page = store.clients_page(&ClientQuery::default()).unwrap();
    for row in &page.items {
        let finished = row.intake.client_full_name == SIGNED;
        assert_eq!(row.intake.pipeline.overdue, !finished, "{at_moment}");
        assert_eq!(
            row.urgency == ClientUrgency::Overdue,
            !finished,
            "{at_moment}"
        );
        assert_eq!(row.stage_alert, !finished, "{at_moment}");
    }
    assert_eq!(page.counts.overdue, 1, "{at_moment}");
    assert_eq!(page.counts.contract, 2, "both are at the contract stage");

    for stage in [None, Some(StageFilter::Contract)] {
        assert_eq!(
            names(store, urgency(ClientUrgency::Overdue, stage)),
            [WAITING],
            "{at_moment}"
        );
        for other in [ClientUrgency::DueSoon, ClientUrgency::OnTrack] {
            assert!(
                !names(store, urgency(other, stage)).contains(&SIGNED.to_owned()),
                "{other:?} at {at_moment}"
            );
        }
    }

    let profile = store.client_profile(signed).unwrap();
    assert!(!profile.stage_alert, "{at_moment}");
    assert_ne!(profile.urgency, ClientUrgency::Overdue, "{at_moment}");

    // Twice: the second count reads the tally the first one settled.
    for _ in 0..2 {
        let dashboard = store.dashboard().unwrap();
        let alerted: Vec<&str> = dashboard
            .stage_alerts
            .iter()
            .map(|brief| brief.client_full_name.as_str())
            .collect();
        assert_eq!(alerted, [WAITING], "{at_moment}");
        assert_eq!(dashboard.stage_alert_count, 1, "{at_moment}");
        for brief in &dashboard.recent_activity {
            assert_eq!(
                brief.pipeline.overdue,
                brief.client_full_name != SIGNED,
                "{at_moment}"
            );
        }
    }

    let mut csv = Vec::new();
    let options = ExportOptions {
        filter: ListFilter::Clients {
            stage: None,
            urgency: Some(ClientUrgency::Overdue),
            search: None,
        },
        ..ExportOptions::default()
    };
    let summary = store
        .export(ExportKind::Clients, &options, &mut csv)
        .unwrap();
    let csv = String::from_utf8(csv).unwrap();
    assert_eq!(summary.rows, 1, "{csv}");
    assert!(csv.contains(WAITING) && !csv.contains(SIGNED), "{csv}");
}

#[test]
fn a_signed_client_is_in_no_overdue_list_count_or_stage_alert_at_any_time() {
    let mut test = open();
    let staff = test.staff.clone();
    let signed = walk(&mut test.store, &staff, SIGNED, true);
    walk(&mut test.store, &staff, WAITING, false);

    // Past the follow-up, past "more than 5 days", past the 7-day stage alert, and long
    // after; the stage alert at its shortest too.
    for moment in [
        "2026-12-03T15:00:00Z",
        "2026-12-10T15:00:00Z",
        "2027-06-01T15:00:00Z",
    ] {
        test.store.set_now(Some(at(moment)));
        assert_finished_everywhere(&test.store, &signed, moment);
    }
    crate::support::set_stage_alert_days(&mut test, 1);
    assert_finished_everywhere(&test.store, &signed, "a one-day stage alert");

    // A new time zone recomputes every overdue moment; a finished client stays finished.
    let admin = test.admin.clone();
    let settings = test.store.settings().unwrap();
    let general = carepath_core::model::GeneralSettings {
        time_zone: "America/Los_Angeles".into(),
        ..settings.general
    };
    test.store
        .update_settings(
            &admin,
            settings.versions["general"],
            SettingsTab::General(general),
        )
        .unwrap();
    assert_finished_everywhere(&test.store, &signed, "after a time zone change");
}

/// A file written before migration 13 stored a signed client's overdue moment like any
/// other's; opening it recomputes that moment, and the lists and counts agree.
#[test]
fn migration_13_finishes_the_signed_clients_of_an_older_file() {
    let mut test = open();
    let staff = test.staff.clone();
    let signed = walk(&mut test.store, &staff, SIGNED, true);
    walk(&mut test.store, &staff, WAITING, false);
    let signed_rate = test.store.handoff(&signed).unwrap().hourly_rate;
    let crate::support::TestStore { store, dir, .. } = test;
    let path = store.path().to_owned();
    drop(store);
    // Back to the schema before 13: no stage alert column, its tally's triggers as they
    // were, and the overdue moment the old rule wrote (the sixth day after the
    // contract); the migrations after 13 (visits, 14; visit reminders, 15; first run,
    // 16; the second factor, 17; passkeys, 18; owners and the queue, 19; inbound email,
    // 20; the hand-off, 21; first milestones, 22; the analytics index, 23 and 24) are
    // undone too, so all of them run again.
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch(
        "DROP INDEX intakes_cohort;
         DROP TRIGGER intakes_first_assessment_insert;
         DROP TRIGGER intakes_first_assessment_delete;
         DROP TRIGGER intakes_first_assessment_update;
         DROP TRIGGER intakes_first_care_plan_insert;
         DROP TRIGGER intakes_first_care_plan_delete;
         DROP TRIGGER intakes_first_care_plan_update;
         DROP TRIGGER intakes_first_contract_insert;
         DROP TRIGGER intakes_first_contract_delete;
         DROP TRIGGER intakes_first_contract_update;
         DROP TRIGGER intakes_first_contact_insert;
         DROP TRIGGER intakes_first_contact_delete;
         DROP TRIGGER intakes_first_contact_update;
         DROP TRIGGER intakes_first_contact_lost;
         ALTER TABLE intakes DROP COLUMN first_assessment_at;
         ALTER TABLE intakes DROP COLUMN first_care_plan_at;
         ALTER TABLE intakes DROP COLUMN first_proposal_sent_at;
         ALTER TABLE intakes DROP COLUMN first_contract_at;
         ALTER TABLE intakes DROP COLUMN first_signed_at;
         ALTER TABLE intakes DROP COLUMN first_contact_at;
         DROP INDEX intakes_owner;
         DROP INDEX intakes_owner_follow_up;
         DROP INDEX intakes_owner_stage_alert;
         DROP INDEX intakes_owner_unread;
         DROP INDEX intakes_owner_proposal;
         DROP INDEX intakes_owner_contract;
         DROP INDEX intakes_owner_overdue;
         DROP TRIGGER moment_tallies_insert;
         DROP TRIGGER moment_tallies_delete;
         DROP TRIGGER moment_tallies_update;
         DROP INDEX intakes_stage_alert;
         ALTER TABLE intakes DROP COLUMN stage_alert_from;
         UPDATE intakes SET overdue_at = '2026-12-01T04:59:59.999Z';
         CREATE TRIGGER moment_tallies_insert AFTER INSERT ON intakes BEGIN SELECT 1; END;
         CREATE TRIGGER moment_tallies_delete AFTER DELETE ON intakes BEGIN SELECT 1; END;
         CREATE TRIGGER moment_tallies_update AFTER UPDATE ON intakes BEGIN SELECT 1; END;
         DROP TABLE visit_reminders;
         DROP TABLE calendar_feeds;
         DROP TABLE assessment_visits;
         DROP TABLE setup_tokens;
         DROP TABLE outbound_accounts;
         DROP TABLE passkey_registrations;
         DROP TABLE passkeys;
         DROP TABLE pending_sign_ins;
         DROP TABLE recovery_codes;
         DROP TABLE totp_factors;
         DROP INDEX sessions_id;
         ALTER TABLE sessions DROP COLUMN id;
         ALTER TABLE sessions DROP COLUMN user_agent;
         ALTER TABLE sessions DROP COLUMN address;
         DROP TABLE inbound_mailbox;
         DROP TABLE communication_attachments;
         DROP INDEX client_contacts_email;
         DROP INDEX communications_sent_email;
         DROP INDEX communications_email_message;
         DROP INDEX communications_unmatched;
         DROP TABLE queue_snoozes;
         DROP TABLE tasks;
         DROP TRIGGER owner_counts_insert;
         DROP TRIGGER owner_counts_delete;
         DROP TRIGGER owner_counts_update;
         DROP TABLE owner_counts;
         DROP TRIGGER intakes_unread_insert;
         DROP TRIGGER intakes_unread_update;
         DROP TRIGGER intakes_unread_delete;
         DROP INDEX communications_unread;
         ALTER TABLE intakes DROP COLUMN owner_id;
         ALTER TABLE intakes DROP COLUMN unread_since;
         ALTER TABLE communications DROP COLUMN read_at;
         DROP TABLE start_of_care_items;
         ALTER TABLE contracts DROP COLUMN terms;
         PRAGMA user_version = 12;",
    )
    .unwrap();
    drop(conn);

    let mut store = Store::open(&path).unwrap();
    assert!(store.check().unwrap().is_empty());
    store.set_now(Some(at("2027-06-01T15:00:00Z")));
    let page = store
        .clients_page(&urgency(ClientUrgency::Overdue, None))
        .unwrap();
    let overdue: Vec<&str> = page
        .items
        .iter()
        .map(|row| row.intake.client_full_name.as_str())
        .collect();
    assert_eq!(overdue, [WAITING]);
    assert_eq!(page.counts.overdue, 1);
    assert_eq!(store.dashboard().unwrap().stage_alert_count, 1);
    // Migration 22 found each client's first steps in its records.
    let range = carepath_core::store::AnalyticsRange::parse(
        Some("2026-11-22"),
        Some("2026-11-22"),
        jiff::civil::date(2027, 6, 1),
    )
    .unwrap();
    let funnel: Vec<i64> = store
        .analytics(range)
        .unwrap()
        .funnel
        .iter()
        .map(|step| step.count)
        .collect();
    assert_eq!(funnel, [2, 2, 2, 2, 1]);
    // Migration 21 gave the contract signed before it its terms and its client the
    // default checklist.
    let handoff = store.handoff(&signed).unwrap();
    assert_eq!(handoff.hourly_rate, signed_rate);
    assert!(!handoff.schedule.is_empty());
    assert!(!handoff.services.is_empty());
    let labels: Vec<String> = store
        .start_of_care(&signed)
        .unwrap()
        .items
        .into_iter()
        .map(|item| item.label)
        .collect();
    assert_eq!(
        labels,
        [
            "Caregiver matched",
            "Schedule set",
            "First visit",
            "First invoice"
        ]
    );
    drop(dir);
}
