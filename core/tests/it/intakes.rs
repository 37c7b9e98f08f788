//! Intakes: submit, draft, update, conflicts, search.

use carepath_core::Error;
use carepath_core::model::{IntakeForm, IntakeStatus, Stage};

use crate::support::{intake_form, open};

#[test]
fn a_submitted_intake_is_pending_at_the_intake_stage_with_an_audit_row() {
    let mut test = open();
    let staff = test.staff.clone();
    let before = test.store.latest_audit_seq().unwrap();
    let intake = test
        .store
        .create_intake(&staff, intake_form("Rose Campbell"))
        .unwrap();
    assert_eq!(intake.status, IntakeStatus::Pending);
    assert_eq!(intake.position.stage, Stage::Intake);
    assert_eq!(intake.pipeline.label, "New Client");
    assert_eq!(intake.pipeline.next_action, "Schedule Assessment");
    assert_eq!(
        intake.pipeline.next_route,
        format!("/assessments/new?intake_id={}", intake.id)
    );
    assert_eq!(intake.age, Some(85));
    let audit = test.store.audit_since(before, 10).unwrap();
    assert_eq!(audit.len(), 1);
    assert_eq!(audit[0].entity, "intake");
    assert_eq!(audit[0].action, "create");
    assert_eq!(audit[0].channel, "web");
}

#[test]
fn missing_enforced_fields_are_all_reported_and_nothing_is_written() {
    let mut test = open();
    let staff = test.staff.clone();
    let before = test.store.latest_audit_seq().unwrap();
    let form = IntakeForm {
        caller_phone: "555".into(),
        ..IntakeForm::default()
    };
    match test.store.create_intake(&staff, form) {
        Err(Error::Validation(errors)) => {
            assert_eq!(
                errors.message,
                "Missing Required Fields: Please fill in 3 required field(s) highlighted in red."
            );
            for field in ["staffMemberTakingCall", "callerName", "clientFullName"] {
                assert_eq!(
                    errors.fields.get(field).map(String::as_str),
                    Some("This field is required"),
                    "{field}"
                );
            }
        }
        other => panic!("expected validation errors, got {other:?}"),
    }
    assert_eq!(test.store.latest_audit_seq().unwrap(), before);
    assert!(test.store.dashboard().unwrap().recent_activity.is_empty());
}

#[test]
fn client_is_caller_copies_the_caller_and_exempts_the_client_name() {
    let mut test = open();
    let staff = test.staff.clone();
    let form = IntakeForm {
        client_is_caller: true,
        client_full_name: String::new(),
        ..intake_form("")
    };
    let intake = test.store.create_intake(&staff, form).unwrap();
    assert_eq!(intake.client_full_name, "Susan Reed");
    assert_eq!(intake.form.relationship_to_client, "Self");
    assert_eq!(intake.form.client_phone, "(217) 555-0101");
}

#[test]
fn a_draft_needs_nothing_and_gets_a_placeholder_name() {
    let mut test = open();
    let staff = test.staff.clone();
    let draft = test
        .store
        .save_intake_draft(&staff, None, IntakeForm::default())
        .unwrap();
    assert_eq!(draft.client_full_name, "Draft - Unnamed Client");
    assert!(draft.is_draft);
    // Submitting it later makes it a real intake.
    let submitted = test
        .store
        .update_intake(
            &staff,
            &draft.id,
            draft.version,
            intake_form("Walter Hughes"),
        )
        .unwrap();
    assert!(!submitted.is_draft);
    assert_eq!(submitted.client_full_name, "Walter Hughes");
}

#[test]
fn a_stale_version_is_a_conflict_carrying_the_current_record() {
    let mut test = open();
    let staff = test.staff.clone();
    let intake = test
        .store
        .create_intake(&staff, intake_form("Helen Foster"))
        .unwrap();
    let mut first = intake.form.clone();
    first.follow_up_notes = "first edit".into();
    let updated = test
        .store
        .update_intake(&staff, &intake.id, intake.version, first)
        .unwrap();
    assert_eq!(updated.version, intake.version + 1);
    let mut second = intake.form.clone();
    second.follow_up_notes = "second edit from an old copy".into();
    match test
        .store
        .update_intake(&staff, &intake.id, intake.version, second)
    {
        Err(Error::Conflict { current, .. }) => {
            assert_eq!(current["follow_up_notes"], "first edit");
            assert_eq!(current["version"], updated.version);
        }
        other => panic!("expected a conflict, got {other:?}"),
    }
    let stored = test.store.get_intake(&intake.id).unwrap();
    assert_eq!(stored.follow_up_notes.as_deref(), Some("first edit"));
}

#[test]
fn updating_a_missing_intake_is_not_found() {
    let mut test = open();
    let staff = test.staff.clone();
    let missing = carepath_core::model::IntakeId::new();
    assert!(matches!(
        test.store
            .update_intake(&staff, &missing, 1, intake_form("Nobody")),
        Err(Error::NotFound { .. })
    ));
}

#[test]
fn search_matches_names_phones_and_emails_from_two_characters() {
    let mut test = open();
    let staff = test.staff.clone();
    test.store
        .create_intake(&staff, intake_form("Dorothy Nakamura"))
        .unwrap();
    let mut other = intake_form("Ernest Lambert");
    other.caller_email = "lambert.family@example.org".into();
    other.caller_phone = "312-555-7788".into();
    test.store.create_intake(&staff, other).unwrap();

    let names = |term: &str| -> Vec<String> {
        test.store
            .search(term)
            .unwrap()
            .into_iter()
            .map(|s| s.client_full_name)
            .collect()
    };
    assert_eq!(names("naka"), vec!["Dorothy Nakamura"]);
    assert_eq!(names("NAKAMURA"), vec!["Dorothy Nakamura"]);
    assert_eq!(names("Do"), vec!["Dorothy Nakamura"]); // 2 characters: anywhere
    assert_eq!(names("family@exam"), vec!["Ernest Lambert"]);
    assert_eq!(names("5557788"), vec!["Ernest Lambert"]); // digits match a formatted phone
    assert_eq!(names("555-7788"), vec!["Ernest Lambert"]);
    assert!(names("D").is_empty()); // fewer than 2 characters finds nothing
    assert!(names("zzz").is_empty());
    assert!(names("\"quoted\" OR").is_empty()); // search syntax is never interpreted
}

#[test]
fn search_returns_at_most_ten_newest_first() {
    let mut test = open();
    let staff = test.staff.clone();
    for index in 0..12 {
        test.store.set_now(Some(
            crate::support::now() - jiff::SignedDuration::from_mins(60 - index),
        ));
        test.store
            .create_intake(&staff, intake_form(&format!("Smith {index:02}")))
            .unwrap();
    }
    let found = test.store.search("Smith").unwrap();
    assert_eq!(found.len(), 10);
    assert_eq!(found[0].client_full_name, "Smith 11");
}

#[test]
fn a_follow_up_in_the_past_makes_the_intake_overdue() {
    let mut test = open();
    let staff = test.staff.clone();
    let mut form = intake_form("Frank Ibarra");
    form.next_follow_up_date = "2026-11-22".into();
    form.next_follow_up_time = "11:00".into(); // 16:00 UTC, one hour after "now"
    let intake = test.store.create_intake(&staff, form).unwrap();
    assert!(!intake.pipeline.overdue);
    let overdue_list = |store: &carepath_core::store::Store| {
        store
            .clients_page(&carepath_core::store::ClientQuery {
                urgency: Some(carepath_core::rules::stage::ClientUrgency::Overdue),
                ..Default::default()
            })
            .unwrap()
            .items
            .len()
    };
    assert_eq!(overdue_list(&test.store), 0);
    test.store
        .set_now(Some(crate::support::at("2026-11-22T16:00:01Z")));
    let later = test.store.get_intake(&intake.id).unwrap();
    assert!(later.pipeline.overdue);
    // The list's overdue filter reads the stored position, written with the intake.
    assert_eq!(overdue_list(&test.store), 1);
    assert_eq!(later.pipeline.label, "Follow-up Overdue");
    // The printed intake draws the warning the label leaves out.
    let agency = test.store.settings().unwrap().general;
    let printed = carepath_core::pdf::intake_document(&later, &agency);
    let status =
        carepath_core::pdf::Block::Field("Status".to_owned(), "⚠️ Follow-up Overdue".to_owned());
    assert!(printed.blocks.contains(&status), "{:?}", printed.blocks);
    let printed = carepath_core::pdf::intake_document(&intake, &agency);
    let status = carepath_core::pdf::Block::Field("Status".to_owned(), "New Client".to_owned());
    assert!(printed.blocks.contains(&status), "{:?}", printed.blocks);
    assert_eq!(
        later.pipeline.next_route,
        format!("/intake?intake_id={}&view=true", intake.id)
    );
}

#[test]
fn auto_assignment_gives_new_intakes_in_turn_to_active_users() {
    let mut test = crate::support::open();
    let (staff, admin) = (test.staff.clone(), test.admin.clone());
    fn name(test: &crate::support::TestStore, id: &carepath_core::model::IntakeId) -> String {
        test.store
            .get_intake(id)
            .unwrap()
            .assigned_coordinator
            .unwrap_or_default()
    }
    // Off by default: nobody is assigned.
    let off = test
        .store
        .create_intake(&staff, crate::support::intake_form("Before Setting"))
        .unwrap();
    assert_eq!(name(&test, &off.id), "");
    let workflow = carepath_core::model::WorkflowSettings {
        auto_assign_intakes: true,
        ..Default::default()
    };
    let version = test.store.settings().unwrap().versions["workflow"];
    test.store
        .update_settings(
            &admin,
            version,
            carepath_core::model::SettingsTab::Workflow(workflow),
        )
        .unwrap();
    let mut given = Vec::new();
    for index in 0..3 {
        test.store.set_now(Some(
            crate::support::now() + jiff::SignedDuration::from_mins(index),
        ));
        let intake = test
            .store
            .create_intake(
                &staff,
                crate::support::intake_form(&format!("Turn {index}")),
            )
            .unwrap();
        given.push(name(&test, &intake.id));
    }
    assert_eq!(given, vec!["Ada Admin", "Sam Staff", "Ada Admin"]);
    // A coordinator named on the form is kept.
    let mut form = crate::support::intake_form("Named");
    form.assigned_coordinator = "Priya Shah".into();
    let named = test.store.create_intake(&staff, form).unwrap();
    assert_eq!(name(&test, &named.id), "Priya Shah");
}

#[test]
fn the_awaiting_count_counts_every_waiting_intake_beyond_the_listed_ones() {
    let mut test = open();
    let staff = test.staff.clone();
    let listed = carepath_core::store::AWAITING_LISTED;
    for index in 0..=listed {
        test.store.set_now(Some(
            crate::support::now() - jiff::SignedDuration::from_mins(1_000 - index),
        ));
        test.store
            .create_intake(&staff, intake_form(&format!("Waiting {index:03}")))
            .unwrap();
    }
    let awaiting = test.store.intakes_awaiting_assessment().unwrap();
    assert_eq!(awaiting.total, listed + 1);
    assert_eq!(awaiting.items.len() as i64, listed);
    assert_eq!(
        awaiting.items[0].client_full_name, "Waiting 000",
        "oldest first"
    );
}
