//! The hand-off to care: signing gives the client the checklist Settings list at that
//! moment, ticking an item keeps who and when and writes the timeline, and the hand-off
//! (record, CSV and JSON) carries the schedule, hours, services and rate that were
//! signed, whatever the care plan says afterwards.

use carepath_core::Error;
use carepath_core::export::handoff::{HANDOFF_COLUMNS, HandoffFormat};
use carepath_core::model::{
    Activity, Actor, CarePlanInput, CarePlanService, CommunicationType, ContactInput, ContactType,
    ContractId, DaySchedule, IntakeId, PaperSignatureInput, Parents, SettingsTab,
    StartOfCareItemInput, WeeklySchedule, WorkflowSettings,
};
use carepath_core::store::{AssessmentSave, CommunicationFilter, Store};

use crate::support::{TestStore, assessment_form, at, intake_form, open};

fn day(time: &str, hours: f64) -> DaySchedule {
    DaySchedule {
        time: time.into(),
        hours,
    }
}

/// Monday 9-1 and Thursday 2-5:30 at $32.50 an hour, with companionship and meals.
fn signed_schedule() -> WeeklySchedule {
    WeeklySchedule {
        monday: day("9:00 AM - 1:00 PM", 4.0),
        thursday: day("2:00 PM - 5:30 PM", 3.5),
        ..WeeklySchedule::default()
    }
}

/// An intake walked to a sent contract; `plan` is the care plan input it was made from.
fn to_sent_contract(
    store: &mut Store,
    staff: &Actor,
    name: &str,
) -> (IntakeId, ContractId, CarePlanInput) {
    store.set_now(Some(at("2026-11-22T15:00:00Z")));
    let mut intake = intake_form(name);
    intake.client_address = "12 Elm Street".into();
    intake.city = "Springfield".into();
    intake.state = "IL".into();
    intake.zip_code = "62701".into();
    intake.client_phone = "(217) 555-0199".into();
    intake.general_care_needs = "Help after a hip operation".into();
    let intake = store.create_intake(staff, intake).unwrap();
    store
        .add_contact(
            staff,
            &intake.id,
            ContactInput {
                contact_type: ContactType::Emergency,
                full_name: "Tom Reed".into(),
                relationship: "Son".into(),
                phone: "(217) 555-0142".into(),
                ..ContactInput::default()
            },
        )
        .unwrap();
    let mut form = assessment_form(name);
    form.caregiver_gender_preference = "Female".into();
    form.special_requests = "A cat lives in the home; non-smoking caregiver please".into();
    form.fall_risk = "Moderate".into();
    form.adls.bathing = Activity {
        level: "Minimal Assist".into(),
        notes: "Shower chair".into(),
    };
    form.adls.eating = Activity {
        level: "Independent".into(),
        notes: String::new(),
    };
    store.set_now(Some(at("2026-11-23T15:00:00Z")));
    let assessment = store
        .save_assessment(
            staff,
            AssessmentSave {
                existing: None,
                intake_id: Some(intake.id.clone()),
                form,
                complete: true,
            },
        )
        .unwrap();
    store.set_now(Some(at("2026-11-24T15:00:00Z")));
    let mut plan = store.care_plan_prefill(&assessment.id).unwrap().plan;
    plan.family_contact_email = "family@example.com".into();
    plan.schedule = signed_schedule();
    plan.hourly_rate = Some(32.5);
    plan.pricing_template_id = None;
    plan.services = vec![CarePlanService::Companionship, CarePlanService::Meals];
    plan.proposed_start_date = "2026-12-01".into();
    let stored = store
        .create_care_plan(staff, Some(&assessment.id), plan.clone())
        .unwrap();
    store.mark_care_plan_sent(staff, &stored.id).unwrap();
    store.set_now(Some(at("2026-11-25T15:00:00Z")));
    let contract = store
        .create_contract(staff, &stored.id, None, "Agreement")
        .unwrap();
    store.mark_contract_sent(staff, &contract.id).unwrap();
    (intake.id, contract.id, plan)
}

fn set_checklist(test: &mut TestStore, items: &[&str]) -> Result<(), Error> {
    let staff = test.staff.clone();
    let settings = test.store.settings().unwrap();
    let workflow = WorkflowSettings {
        start_of_care_checklist: items.iter().map(|item| (*item).to_owned()).collect(),
        ..settings.workflow
    };
    test.store
        .update_settings(
            &staff,
            settings.versions["workflow"],
            SettingsTab::Workflow(workflow),
        )
        .map(|_| ())
}

fn labels(store: &Store, intake: &IntakeId) -> Vec<String> {
    store
        .start_of_care(intake)
        .unwrap()
        .items
        .into_iter()
        .map(|item| item.label)
        .collect()
}

fn timeline(store: &Store, intake: &IntakeId) -> Vec<String> {
    let filter = CommunicationFilter {
        parents: Parents {
            intake_id: Some(intake.clone()),
            ..Parents::default()
        },
        visibility: None,
    };
    store
        .communications(&filter)
        .unwrap()
        .into_iter()
        .filter(|line| line.communication_type == CommunicationType::SystemEvent)
        .map(|line| line.content)
        .collect()
}

#[test]
fn signing_gives_the_client_the_checklist_settings_list_at_that_moment() {
    let mut test = open();
    let staff = test.staff.clone();
    assert_eq!(
        test.store
            .settings()
            .unwrap()
            .workflow
            .start_of_care_checklist,
        [
            "Caregiver matched",
            "Schedule set",
            "First visit",
            "First invoice"
        ]
    );
    let (intake, contract, _) = to_sent_contract(&mut test.store, &staff, "Avery Active");

    // Not signed yet: no checklist and no hand-off, with a message that says why.
    for error in [
        test.store.start_of_care(&intake).unwrap_err(),
        test.store.handoff(&intake).unwrap_err(),
    ] {
        assert!(matches!(error, Error::NotFound { .. }), "{error:?}");
        assert_eq!(
            error.to_string(),
            "signed contract for this client not found"
        );
    }
    assert!(matches!(
        test.store.handoff(&IntakeId::from("no-such-client")),
        Err(Error::NotFound {
            entity: "client",
            ..
        })
    ));

    set_checklist(&mut test, &[" Caregiver matched ", "Keys collected"]).unwrap();
    test.store.set_now(Some(at("2026-11-26T15:00:00Z")));
    test.store.sign_contract(&staff, &contract).unwrap();
    assert_eq!(
        labels(&test.store, &intake),
        ["Caregiver matched", "Keys collected"]
    );

    // Settings changed later leave the signed client's checklist as it was copied.
    set_checklist(&mut test, &["Something else"]).unwrap();
    assert_eq!(
        labels(&test.store, &intake),
        ["Caregiver matched", "Keys collected"]
    );

    // A paper signature gives the checklist too.
    let (paper, paper_contract, _) = to_sent_contract(&mut test.store, &staff, "Paula Paper");
    test.store.set_now(Some(at("2026-11-26T16:00:00Z")));
    test.store
        .sign_contract_on_paper(
            &staff,
            &paper_contract,
            &PaperSignatureInput {
                signed_on: "2026-11-26".into(),
                signer_name: "Susan Reed".into(),
                relationship: "Daughter".into(),
            },
        )
        .unwrap();
    assert_eq!(labels(&test.store, &paper), ["Something else"]);
}

#[test]
fn the_checklist_in_settings_is_bounded_with_clear_messages() {
    let mut test = open();
    let too_many: Vec<String> = (0..21).map(|n| format!("Step {n}")).collect();
    let too_many: Vec<&str> = too_many.iter().map(String::as_str).collect();
    for (items, message) in [
        (
            too_many,
            "The start-of-care checklist can hold at most 20 items.",
        ),
        (
            vec!["First visit", " "],
            "Please enter a name for this checklist item.",
        ),
        (
            vec!["First visit", "first visit"],
            "This item is already on the checklist.",
        ),
    ] {
        let error = set_checklist(&mut test, &items).unwrap_err();
        assert_eq!(error.to_string(), message);
    }
    // Nothing was half saved.
    assert_eq!(
        test.store
            .settings()
            .unwrap()
            .workflow
            .start_of_care_checklist
            .len(),
        4
    );
}

#[test]
fn ticking_an_item_keeps_who_and_when_and_writes_the_timeline() {
    let mut test = open();
    let staff = test.staff.clone();
    let (intake, contract, _) = to_sent_contract(&mut test.store, &staff, "Avery Active");
    test.store.set_now(Some(at("2026-11-26T15:00:00Z")));
    test.store.sign_contract(&staff, &contract).unwrap();
    let checklist = test.store.start_of_care(&intake).unwrap();
    assert_eq!(checklist.done_count, 0);
    let first = checklist.items[0].clone();
    assert!(!first.done && first.done_at.is_none() && first.done_by.is_none());

    test.store.set_now(Some(at("2026-11-27T10:30:00Z")));
    let ticked = test
        .store
        .set_start_of_care_item(
            &staff,
            &intake,
            &first.id,
            &StartOfCareItemInput {
                done: true,
                version: first.version,
            },
        )
        .unwrap();
    assert_eq!(ticked.done_count, 1);
    let item = &ticked.items[0];
    assert!(item.done);
    assert_eq!(item.done_by.as_deref(), Some("Sam Staff"));
    assert_eq!(item.done_at.as_deref(), Some("2026-11-27T10:30:00.000Z"));
    assert!(
        timeline(&test.store, &intake)
            .contains(&"Start of care: Caregiver matched done".to_owned())
    );

    // A stale version is a conflict carrying the checklist as stored; nothing changes.
    let stale = test.store.set_start_of_care_item(
        &staff,
        &intake,
        &first.id,
        &StartOfCareItemInput {
            done: false,
            version: first.version,
        },
    );
    assert!(matches!(stale, Err(Error::Conflict { .. })), "{stale:?}");
    assert!(test.store.start_of_care(&intake).unwrap().items[0].done);

    let unticked = test
        .store
        .set_start_of_care_item(
            &staff,
            &intake,
            &first.id,
            &StartOfCareItemInput {
                done: false,
                version: item.version,
            },
        )
        .unwrap();
    assert!(!unticked.items[0].done);
    assert_eq!(unticked.items[0].done_by, None);
    assert!(
        timeline(&test.store, &intake)
            .contains(&"Start of care: Caregiver matched marked not done".to_owned())
    );

    // Another client's item is not this client's.
    let (other, other_contract, _) = to_sent_contract(&mut test.store, &staff, "Olive Other");
    test.store.sign_contract(&staff, &other_contract).unwrap();
    let error = test
        .store
        .set_start_of_care_item(
            &staff,
            &other,
            &first.id,
            &StartOfCareItemInput {
                done: true,
                version: 1,
            },
        )
        .unwrap_err();
    assert_eq!(error.to_string(), "start-of-care checklist item not found");
}

fn csv_rows(bytes: &[u8]) -> (Vec<String>, Vec<Vec<String>>) {
    let mut reader = csv::Reader::from_reader(bytes);
    let header = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    let rows = reader
        .records()
        .map(|record| record.unwrap().iter().map(str::to_owned).collect())
        .collect();
    (header, rows)
}

fn cell<'a>(header: &[String], row: &'a [String], column: &str) -> &'a str {
    let index = header.iter().position(|name| name == column).unwrap();
    &row[index]
}

#[test]
fn the_handoff_carries_what_was_signed_after_the_care_plan_changes() {
    let mut test = open();
    let staff = test.staff.clone();
    let (intake, contract, mut plan) = to_sent_contract(&mut test.store, &staff, "Avery Active");
    test.store.set_now(Some(at("2026-11-26T15:00:00Z")));
    test.store.sign_contract(&staff, &contract).unwrap();

    // The care plan is edited after signing: a new rate, days and services.
    let plan_id = test
        .store
        .get_contract(&contract)
        .unwrap()
        .care_plan_proposal_id;
    let stored = test.store.get_care_plan(&plan_id).unwrap();
    plan.hourly_rate = Some(50.0);
    plan.schedule = WeeklySchedule {
        friday: day("8:00 AM - 4:00 PM", 8.0),
        ..WeeklySchedule::default()
    };
    plan.services = vec![CarePlanService::Housekeeping];
    let edited = test
        .store
        .update_care_plan(&staff, &plan_id, stored.version, plan)
        .unwrap();
    assert_eq!(edited.hourly_rate, 50.0);

    let handoff = test.store.handoff(&intake).unwrap();
    assert_eq!(handoff.hourly_rate, 32.5);
    assert_eq!(handoff.total_weekly_hours, 7.5);
    assert_eq!(handoff.weekly_cost, 243.75);
    let days: Vec<(&str, &str, f64)> = handoff
        .schedule
        .iter()
        .map(|day| (day.day.as_str(), day.time.as_str(), day.hours))
        .collect();
    assert_eq!(
        days,
        [
            ("Monday", "9:00 AM - 1:00 PM", 4.0),
            ("Thursday", "2:00 PM - 5:30 PM", 3.5)
        ]
    );
    assert_eq!(
        handoff.services,
        [
            "Nutritious Meals & Eating Support",
            "Friendly Companionship"
        ]
    );
    assert_eq!(handoff.start_date.as_deref(), Some("2026-12-01"));
    assert_eq!(handoff.client.full_name, "Avery Active");
    assert_eq!(handoff.address.street, "12 Elm Street");
    assert_eq!(handoff.address.zip_code, "62701");
    let people: Vec<(&str, &str)> = handoff
        .contacts
        .iter()
        .map(|contact| (contact.kind.as_str(), contact.full_name.as_str()))
        .collect();
    assert_eq!(
        people,
        [("Caller", "Susan Reed"), ("Emergency Contact", "Tom Reed")]
    );
    assert_eq!(handoff.preferences.caregiver_gender, "Female");
    assert!(handoff.preferences.special_requests.contains("cat"));
    let needs: Vec<&str> = handoff
        .care_needs
        .activities
        .iter()
        .map(|activity| activity.activity.as_str())
        .collect();
    assert_eq!(needs, ["Bathing"], "Independent is no need");
    assert_eq!(handoff.care_needs.fall_risk, "Moderate");

    // The export for signings since that day: the same signed values in CSV and JSON.
    let clock = test.store.clock().unwrap();
    let since = carepath_core::export::parse_since("2026-11-26", &clock).unwrap();
    let mut csv = Vec::new();
    let rows = test
        .store
        .export_handoff(Some(since), HandoffFormat::Csv, &mut csv)
        .unwrap();
    assert_eq!(rows, 1);
    let (header, rows) = csv_rows(&csv);
    assert_eq!(header, HANDOFF_COLUMNS);
    let row = &rows[0];
    assert_eq!(cell(&header, row, "Client ID"), intake.as_str());
    assert_eq!(cell(&header, row, "Hourly Rate"), "32.50");
    assert_eq!(cell(&header, row, "Weekly Cost"), "243.75");
    assert_eq!(cell(&header, row, "Monday Time"), "9:00 AM - 1:00 PM");
    assert_eq!(cell(&header, row, "Monday Hours"), "4");
    assert_eq!(cell(&header, row, "Thursday Hours"), "3.5");
    assert_eq!(cell(&header, row, "Friday Hours"), "0");
    assert_eq!(cell(&header, row, "Total Weekly Hours"), "7.5");
    assert_eq!(
        cell(&header, row, "Services"),
        "Nutritious Meals & Eating Support; Friendly Companionship"
    );
    assert_eq!(cell(&header, row, "Primary Contact Name"), "Susan Reed");
    assert_eq!(
        cell(&header, row, "Other Contacts"),
        "Tom Reed (Emergency Contact, Son) (217) 555-0142"
    );
    assert_eq!(
        cell(&header, row, "Care Needs"),
        "Bathing: Minimal Assist (Shower chair)"
    );
    assert_eq!(cell(&header, row, "Caregiver Gender Preference"), "Female");

    let mut json = Vec::new();
    test.store
        .export_handoff(Some(since), HandoffFormat::Json, &mut json)
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert_eq!(json[0]["hourly_rate"], 32.5);
    assert_eq!(json[0]["schedule"][1]["day"], "Thursday");
    assert_eq!(json[0]["schedule"][1]["hours"], 3.5);

    // One client's own CSV is the same row.
    let mut one = Vec::new();
    test.store
        .write_handoff(&intake, HandoffFormat::Csv, &mut one)
        .unwrap();
    assert_eq!(one, csv);

    // Signed before the day asked for: not in the export, which is then a header alone.
    let later = carepath_core::export::parse_since("2026-11-27", &clock).unwrap();
    let mut empty = Vec::new();
    let rows = test
        .store
        .export_handoff(Some(later), HandoffFormat::Csv, &mut empty)
        .unwrap();
    assert_eq!(rows, 0);
    assert_eq!(csv_rows(&empty).1.len(), 0);
    let mut empty = Vec::new();
    test.store
        .export_handoff(Some(later), HandoffFormat::Json, &mut empty)
        .unwrap();
    assert_eq!(
        serde_json::from_slice::<serde_json::Value>(&empty).unwrap(),
        serde_json::json!([])
    );
}

/// docs/handoff.md describes every CSV column, in the export's order.
#[test]
fn every_csv_column_is_documented_in_order() {
    let docs = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/handoff.md"),
    )
    .unwrap();
    let mut from = 0;
    for column in HANDOFF_COLUMNS {
        let day = column.split(' ').next().unwrap_or_default();
        // Tuesday to Sunday share one row of the table.
        if [
            "Tuesday",
            "Wednesday",
            "Thursday",
            "Friday",
            "Saturday",
            "Sunday",
        ]
        .contains(&day)
        {
            continue;
        }
        let at = docs[from..]
            .find(&format!("| {column} |"))
            .unwrap_or_else(|| panic!("{column} is not documented after the one before it"));
        from += at;
    }
    assert!(docs.contains("| 20–31 | Tuesday Time … Sunday Hours |"));
}
