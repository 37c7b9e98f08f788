//! Care plans and contracts: costs, statuses, the contract text, conflicts.

use carepath_core::Error;
use carepath_core::model::{CarePlanStatus, ContractStatus, Stage};
use carepath_core::store::{AssessmentSave, ContractQuery};

use crate::support::{assessment_form, intake_form, open};

#[test]
fn the_whole_pipeline_from_intake_to_active_patient() {
    let mut test = open();
    let (staff, admin) = (test.staff.clone(), test.admin.clone());
    test.store.seed_pricing_templates(&admin).unwrap();
    let intake = test
        .store
        .create_intake(&staff, intake_form("Clarence Whitaker"))
        .unwrap();
    let assessment = test
        .store
        .save_assessment(
            &staff,
            AssessmentSave {
                existing: None,
                intake_id: Some(intake.id.clone()),
                form: assessment_form("Clarence Whitaker"),
                complete: true,
            },
        )
        .unwrap();

    let prefill = test.store.care_plan_prefill(&assessment.id).unwrap();
    let suggested = test
        .store
        .get_pricing_template(prefill.suggested_pricing_template_id.as_ref().unwrap())
        .unwrap();
    assert!(
        suggested.name.contains("Personal"),
        "personal care with two services: {}",
        suggested.name
    );

    let mut plan_input = prefill.plan.clone();
    plan_input.family_contact_email = "family@example.com".into();
    let plan = test
        .store
        .create_care_plan(&staff, Some(&assessment.id), plan_input.clone())
        .unwrap();
    assert_eq!(plan.status, CarePlanStatus::Draft);
    assert_eq!(
        test.store.get_intake(&intake.id).unwrap().pipeline.label,
        "Care Plan Ready"
    );

    // A contract needs a sent or approved plan.
    match test.store.create_contract(&staff, &plan.id, None, "text") {
        Err(Error::Rejected(message)) => assert_eq!(
            message,
            "Care plan must be sent or approved before generating a contract."
        ),
        other => panic!("expected a rejection, got {other:?}"),
    }
    test.store.mark_care_plan_sent(&staff, &plan.id).unwrap();
    assert_eq!(
        test.store.get_intake(&intake.id).unwrap().pipeline.label,
        "Care Plan Sent"
    );
    let approved = test.store.approve_care_plan(&staff, &plan.id).unwrap();
    assert!(approved.approved_at.is_some());
    let status = test.store.get_intake(&intake.id).unwrap().pipeline;
    assert_eq!(status.label, "Care Plan Approved");
    assert_eq!(
        status.next_route,
        format!("/contracts/new?care_plan_id={}", plan.id)
    );

    let preview = test.store.contract_preview(&plan.id).unwrap().content;
    assert!(preview.contains("Clarence Whitaker"));
    assert!(!preview.contains("[CLIENT_NAME]"));
    assert!(!preview.contains("[HOURLY_RATE]"));
    let contract = test
        .store
        .create_contract(&staff, &plan.id, None, &preview)
        .unwrap();
    assert_eq!(contract.status, ContractStatus::Draft);
    assert_eq!(contract.pricing_details.hourly_rate, plan.hourly_rate);
    let intake_now = test.store.get_intake(&intake.id).unwrap();
    assert_eq!(intake_now.position.stage, Stage::Contract);
    assert_eq!(intake_now.pipeline.label, "Contract Sent");

    // Signing needs sending first.
    assert!(matches!(
        test.store.sign_contract(&staff, &contract.id),
        Err(Error::InvalidTransition { .. })
    ));
    let edited = test
        .store
        .update_contract(&staff, &contract.id, contract.version, "Edited text")
        .unwrap();
    assert!(matches!(
        test.store
            .update_contract(&staff, &contract.id, contract.version, "stale"),
        Err(Error::Conflict { .. })
    ));
    test.store.mark_contract_sent(&staff, &edited.id).unwrap();
    match test
        .store
        .update_contract(&staff, &contract.id, edited.version + 1, "late edit")
    {
        Err(Error::Rejected(message)) => {
            assert_eq!(message, "Major changes require creating a new care plan")
        }
        other => panic!("expected a rejection, got {other:?}"),
    }
    let signed = test.store.sign_contract(&staff, &contract.id).unwrap();
    assert!(signed.signed_at.is_some());
    let status = test.store.get_intake(&intake.id).unwrap().pipeline;
    assert_eq!(status.label, "Active Patient");
    assert_eq!(status.next_action, "View Contract");

    let list = test
        .store
        .contracts_list(&ContractQuery::default())
        .unwrap();
    assert_eq!(list.items.len(), 1);
    assert_eq!(list.stats.signed_this_month, 1);
    assert_eq!(list.stats.sent_this_week, 1);
    assert_eq!(list.stats.awaiting_signatures, 0);
}

#[test]
fn care_plan_rules_and_costs() {
    let mut test = open();
    let staff = test.staff.clone();
    let assessment = test
        .store
        .save_assessment(
            &staff,
            AssessmentSave {
                existing: None,
                intake_id: None,
                form: assessment_form("Lillian Foster"),
                complete: true,
            },
        )
        .unwrap();
    let mut input = test.store.care_plan_prefill(&assessment.id).unwrap().plan;
    input.family_contact_email = String::new();
    match test
        .store
        .create_care_plan(&staff, Some(&assessment.id), input.clone())
    {
        Err(Error::Validation(errors)) => assert_eq!(
            errors.message,
            "Client name and family email are required for sending the care plan."
        ),
        other => panic!("expected validation, got {other:?}"),
    }
    input.family_contact_email = "f@example.com".into();
    input.hourly_rate = Some(32.0);
    input.schedule.saturday.hours = 4.0;
    input.pricing_template_id = None;
    let plan = test
        .store
        .create_care_plan(&staff, Some(&assessment.id), input)
        .unwrap();
    assert_eq!(plan.total_weekly_hours, 16.0);
    assert_eq!(plan.weekly_cost, 512.0);
    assert_eq!(plan.monthly_cost, 2216.96);
}

#[test]
fn contract_template_versions_and_required_sections() {
    let mut test = open();
    let admin = test.admin.clone();
    let current = test.store.current_contract_template().unwrap();
    assert_eq!(current.template_version, "1.0");
    assert_eq!(current.sections.len(), 4);
    let saved = test
        .store
        .save_contract_template(
            &admin,
            0,
            carepath_core::model::ContractTemplateInput {
                name: "Agreement".into(),
                sections: current.sections.clone(),
            },
        )
        .unwrap();
    let without_required: Vec<_> = saved
        .sections
        .iter()
        .filter(|s| !s.required)
        .cloned()
        .collect();
    match test.store.save_contract_template(
        &admin,
        saved.version,
        carepath_core::model::ContractTemplateInput {
            name: "Agreement".into(),
            sections: without_required,
        },
    ) {
        Err(Error::Rejected(message)) => {
            assert_eq!(message, "This is a required section and cannot be removed.")
        }
        other => panic!("expected a rejection, got {other:?}"),
    }
    let next = test
        .store
        .create_contract_template_version(
            &admin,
            carepath_core::model::ContractTemplateInput {
                name: "Agreement".into(),
                sections: saved.sections.clone(),
            },
        )
        .unwrap();
    assert_eq!(next.template_version, "1.1");
    assert_eq!(test.store.contract_template_versions().unwrap().len(), 2);
    test.store
        .use_contract_template_version(&admin, &saved.id)
        .unwrap();
    assert_eq!(
        test.store
            .current_contract_template()
            .unwrap()
            .template_version,
        "1.0"
    );
}

/// The contract template keeps a bounded number of versions: Create New Version past
/// it is refused with a message saying what to do instead.
#[test]
fn the_contract_template_keeps_a_bounded_number_of_versions() {
    use carepath_core::model::ContractTemplateInput;
    use carepath_core::rules::validation::{
        MAX_CONTRACT_TEMPLATE_VERSIONS, TOO_MANY_TEMPLATE_VERSIONS,
    };
    let mut test = open();
    let admin = test.admin.clone();
    let current = test.store.current_contract_template().unwrap();
    let input = ContractTemplateInput {
        name: current.name.clone(),
        sections: current.sections.clone(),
    };
    for _ in 0..MAX_CONTRACT_TEMPLATE_VERSIONS {
        test.store
            .create_contract_template_version(&admin, input.clone())
            .unwrap();
    }
    match test.store.create_contract_template_version(&admin, input) {
        Err(Error::Rejected(message)) => assert_eq!(message, TOO_MANY_TEMPLATE_VERSIONS),
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert_eq!(
        test.store.contract_template_versions().unwrap().len(),
        MAX_CONTRACT_TEMPLATE_VERSIONS
    );
}
