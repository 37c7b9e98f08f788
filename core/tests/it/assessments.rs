//! Assessments: the save rules, moving the intake, drafts, delete and restore.

use carepath_core::Error;
use carepath_core::model::{AssessmentForm, AssessmentStatus, IntakeStatus, Stage};
use carepath_core::store::{AssessmentQuery, AssessmentSave};

use crate::support::{assessment_form, intake_form, open};

#[test]
fn completing_an_assessment_moves_the_intake() {
    let mut test = open();
    let staff = test.staff.clone();
    let intake = test
        .store
        .create_intake(&staff, intake_form("Ruth Patel"))
        .unwrap();
    let prefill = test.store.assessment_prefill(&intake.id).unwrap();
    assert_eq!(prefill.client_name, "Ruth Patel");
    assert_eq!(
        prefill.recommended_services,
        vec!["Companionship", "Meal Preparation"]
    );
    assert_eq!(prefill.preferred_days, vec!["Monday", "Wednesday"]);

    let saved = test
        .store
        .save_assessment(
            &staff,
            AssessmentSave {
                existing: None,
                intake_id: Some(intake.id.clone()),
                form: assessment_form("Ruth Patel"),
                complete: true,
            },
        )
        .unwrap();
    assert_eq!(saved.status, AssessmentStatus::Completed);
    let intake = test.store.get_intake(&intake.id).unwrap();
    assert_eq!(intake.status, IntakeStatus::AssessmentCompleted);
    assert_eq!(
        intake.assessment_scheduled_date.as_deref(),
        Some("2026-11-23")
    );
    assert_eq!(intake.position.stage, Stage::Assessment);
    assert_eq!(intake.pipeline.label, "Assessment Complete");
    assert_eq!(
        intake.pipeline.next_route,
        format!("/care-plans/new?assessment_id={}", saved.id)
    );
}

#[test]
fn the_save_rules_report_in_the_spec_order() {
    let mut test = open();
    let staff = test.staff.clone();
    let save = |form: AssessmentForm| AssessmentSave {
        existing: None,
        intake_id: None,
        form,
        complete: true,
    };
    let cases: Vec<(AssessmentForm, &str)> = vec![
        (
            AssessmentForm {
                phone: String::new(),
                ..assessment_form("X")
            },
            "Client name and phone number are required for messaging purposes.",
        ),
        (
            AssessmentForm {
                coordinator_name: String::new(),
                ..assessment_form("X")
            },
            "Coordinator name is required.",
        ),
        (
            AssessmentForm {
                recommended_services: vec![],
                ..assessment_form("X")
            },
            "At least one recommended service must be selected.",
        ),
        (
            AssessmentForm {
                recommended_hours: Some(0.0),
                ..assessment_form("X")
            },
            "Recommended hours per week is required and must be greater than 0.",
        ),
        (
            AssessmentForm {
                recommended_hours: None,
                ..assessment_form("X")
            },
            "Recommended hours per week is required and must be greater than 0.",
        ),
        (
            AssessmentForm {
                preferred_days: vec![],
                ..assessment_form("X")
            },
            "At least one preferred day must be selected for the schedule.",
        ),
        (
            AssessmentForm::default(),
            "Client name and phone number are required for messaging purposes.",
        ),
    ];
    for (form, expected) in cases {
        match test.store.save_assessment(&staff, save(form)) {
            Err(Error::Validation(errors)) => assert_eq!(errors.message, expected),
            other => panic!("expected {expected:?}, got {other:?}"),
        }
    }
    assert_eq!(
        test.store
            .assessments_page(&AssessmentQuery::default())
            .unwrap()
            .stats
            .total,
        0
    );
}

#[test]
fn a_draft_needs_nothing_and_can_be_completed_later() {
    let mut test = open();
    let staff = test.staff.clone();
    let draft = test
        .store
        .save_assessment(
            &staff,
            AssessmentSave {
                existing: None,
                intake_id: None,
                form: AssessmentForm::default(),
                complete: false,
            },
        )
        .unwrap();
    assert_eq!(draft.client_name, "Draft Assessment");
    assert_eq!(draft.status, AssessmentStatus::Draft);
    let done = test
        .store
        .save_assessment(
            &staff,
            AssessmentSave {
                existing: Some((draft.id.clone(), draft.version)),
                intake_id: None,
                form: assessment_form("Edna Young"),
                complete: true,
            },
        )
        .unwrap();
    assert_eq!(done.status, AssessmentStatus::Completed);
    // A completed assessment cannot go back to draft.
    assert!(matches!(
        test.store.save_assessment(
            &staff,
            AssessmentSave {
                existing: Some((done.id.clone(), done.version)),
                intake_id: None,
                form: assessment_form("Edna Young"),
                complete: false,
            }
        ),
        Err(Error::InvalidTransition { .. })
    ));
}

#[test]
fn only_an_admin_deletes_and_restores() {
    let mut test = open();
    let (staff, admin) = (test.staff.clone(), test.admin.clone());
    let intake = test
        .store
        .create_intake(&staff, intake_form("Louis Chen"))
        .unwrap();
    let saved = test
        .store
        .save_assessment(
            &staff,
            AssessmentSave {
                existing: None,
                intake_id: Some(intake.id.clone()),
                form: assessment_form("Louis Chen"),
                complete: true,
            },
        )
        .unwrap();
    assert!(matches!(
        test.store.delete_assessment(&staff, &saved.id),
        Err(Error::Forbidden(_))
    ));
    test.store.delete_assessment(&admin, &saved.id).unwrap();
    let page = test
        .store
        .assessments_page(&AssessmentQuery::default())
        .unwrap();
    assert!(page.page.items.is_empty());
    assert_eq!(
        test.store.get_intake(&intake.id).unwrap().position.stage,
        Stage::Intake
    );
    test.store.restore_assessment(&admin, &saved.id).unwrap();
    assert_eq!(
        test.store.get_intake(&intake.id).unwrap().position.stage,
        Stage::Assessment
    );
}

#[test]
fn generating_a_care_plan_uses_rate_25_and_needs_a_completed_assessment() {
    let mut test = open();
    let staff = test.staff.clone();
    let draft = test
        .store
        .save_assessment(
            &staff,
            AssessmentSave {
                existing: None,
                intake_id: None,
                form: assessment_form("Irene Quinn"),
                complete: false,
            },
        )
        .unwrap();
    assert!(matches!(
        test.store.generate_care_plan(&staff, &draft.id),
        Err(Error::Rejected(_))
    ));
    let done = test
        .store
        .save_assessment(
            &staff,
            AssessmentSave {
                existing: Some((draft.id.clone(), draft.version)),
                intake_id: None,
                form: assessment_form("Irene Quinn"),
                complete: true,
            },
        )
        .unwrap();
    let plan = test.store.generate_care_plan(&staff, &done.id).unwrap();
    assert_eq!(plan.hourly_rate, 25.0);
    assert_eq!(plan.status, carepath_core::model::CarePlanStatus::Draft);
    assert_eq!(plan.total_weekly_hours, 12.0);
    assert_eq!(plan.weekly_cost, 300.0);
    assert_eq!(plan.monthly_cost, 1299.0);
    // Each service also comes with the name the proposal gives it.
    assert_eq!(plan.service_labels.len(), plan.services.len());
    for (service, label) in plan.services.iter().zip(&plan.service_labels) {
        assert_eq!(service.label(), label);
    }
    assert!(!plan.service_labels.is_empty());
    let page = test
        .store
        .assessments_page(&AssessmentQuery::default())
        .unwrap();
    assert_eq!(page.stats.care_plans_generated, 1);
    assert_eq!(page.page.items[0].care_plan_id.as_ref(), Some(&plan.id));
}
