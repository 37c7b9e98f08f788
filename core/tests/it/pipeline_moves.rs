//! The moves of issue 12 through core: each writes its timeline line in its own
//! transaction; the document emails (prepare, send, finish); quotes and Update Mode;
//! losing and reopening a lead; and every route a client's status or journey points at.

use carepath_core::Error;
use carepath_core::model::{
    Actor, ArchiveInput, ArchiveStatus, Assessment, CarePlan, CarePlanInput, CarePlanQuoteInput,
    CarePlanService, CarePlanStatus, CommunicationStatus, CommunicationType, ContractStatus,
    Direction, IntakeId, IntakeStatus, Parents, PricingTemplateId, Visibility, WeeklySchedule,
};
use carepath_core::outbound::{SendFailure, SentEmail};
use carepath_core::store::{
    AssessmentSave, ClientQuery, CommunicationFilter, DocumentEmailRequest, EmailedDocument,
    SentDocument, StageFilter, Store,
};

use crate::support::{TestStore, assessment_form, at, intake_form, open};

fn assessed(test: &mut TestStore, name: &str) -> (IntakeId, Assessment) {
    let staff = test.staff.clone();
    let intake = test.store.create_intake(&staff, intake_form(name)).unwrap();
    let assessment = test
        .store
        .save_assessment(
            &staff,
            AssessmentSave {
                existing: None,
                intake_id: Some(intake.id.clone()),
                form: assessment_form(name),
                complete: true,
            },
        )
        .unwrap();
    (intake.id, assessment)
}

fn plan_input(name: &str) -> CarePlanInput {
    let mut input = CarePlanInput {
        client_name: name.into(),
        family_contact_name: "Susan Reed".into(),
        family_contact_email: "susan.reed@example.com".into(),
        services: vec![CarePlanService::Companionship],
        hourly_rate: Some(30.0),
        ..CarePlanInput::default()
    };
    input.schedule.monday.hours = 4.0;
    input
}

/// The system events of a client's timeline, oldest first.
fn events(store: &Store, intake_id: &IntakeId) -> Vec<String> {
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
        .map(|c| {
            assert_eq!(
                (c.direction, c.status, c.visibility),
                (
                    Direction::Internal,
                    CommunicationStatus::Sent,
                    Visibility::Internal
                ),
                "the spec's system-event logger: internal, sent"
            );
            c.content
        })
        .collect();
    lines.reverse();
    lines
}

fn sent_ok() -> Result<SentEmail, SendFailure> {
    Ok(SentEmail {
        id: "transport-id".into(),
    })
}

#[test]
fn each_move_writes_its_timeline_line_and_a_refused_move_writes_none() {
    let mut test = open();
    let staff = test.staff.clone();
    let (intake_id, assessment) = assessed(&mut test, "Clarence Whitaker");
    assert_eq!(events(&test.store, &intake_id), ["Assessment completed"]);

    // Saving the completed assessment again is not a move.
    test.store
        .save_assessment(
            &staff,
            AssessmentSave {
                existing: Some((assessment.id.clone(), assessment.version)),
                intake_id: None,
                form: assessment.form.clone(),
                complete: true,
            },
        )
        .unwrap();
    assert_eq!(events(&test.store, &intake_id).len(), 1);

    let plan = test
        .store
        .create_care_plan(
            &staff,
            Some(&assessment.id),
            plan_input("Clarence Whitaker"),
        )
        .unwrap();
    // Approving a draft is refused, and leaves no line behind.
    assert!(test.store.approve_care_plan(&staff, &plan.id).is_err());
    test.store.mark_care_plan_sent(&staff, &plan.id).unwrap();
    test.store.approve_care_plan(&staff, &plan.id).unwrap();
    test.store.approve_care_plan(&staff, &plan.id).unwrap();
    let content = test.store.contract_preview(&plan.id).unwrap().content;
    let contract = test
        .store
        .create_contract(&staff, &plan.id, None, &content)
        .unwrap();
    assert!(test.store.sign_contract(&staff, &contract.id).is_err());
    test.store.mark_contract_sent(&staff, &contract.id).unwrap();
    test.store.sign_contract(&staff, &contract.id).unwrap();
    assert_eq!(
        events(&test.store, &intake_id),
        [
            "Assessment completed",
            "Care plan created",
            "Care plan proposal sent to the family",
            "Care plan approved by the family",
            "Contract created",
            "Contract sent for signature",
            "Contract signed: the client is now an Active Patient",
        ]
    );
    // Each line names the record it is about.
    let filter = CommunicationFilter {
        parents: Parents {
            contract_id: Some(contract.id.clone()),
            ..Parents::default()
        },
        visibility: None,
    };
    let contract_lines = test.store.communications(&filter).unwrap();
    assert_eq!(contract_lines.len(), 3);
    assert!(
        contract_lines
            .iter()
            .all(|c| c.parents.intake_id.as_ref() == Some(&intake_id))
    );

    // A generated care plan is a creation too.
    let (other, assessment) = assessed(&mut test, "Ruth Ellis");
    test.store
        .generate_care_plan(&staff, &assessment.id)
        .unwrap();
    assert_eq!(
        events(&test.store, &other),
        ["Assessment completed", "Care plan created"]
    );
}

#[test]
fn a_document_email_attaches_its_pdf_and_moves_the_document_only_when_it_went_out() {
    let mut test = open();
    let staff = test.staff.clone();
    let (intake_id, assessment) = assessed(&mut test, "Irene Adler");
    let plan = test
        .store
        .create_care_plan(&staff, Some(&assessment.id), plan_input("Irene Adler"))
        .unwrap();
    let document = EmailedDocument::CarePlan(plan.id.clone());

    let empty = test.store.prepare_document_email(
        &staff,
        document.clone(),
        DocumentEmailRequest {
            to: Some(" ".into()),
            subject: None,
            body: String::new(),
            version: None,
        },
    );
    match empty {
        Err(Error::Validation(errors)) => assert_eq!(
            errors.message,
            "Please provide recipient email and email content."
        ),
        other => panic!("expected a validation error, got {other:?}"),
    }

    let prepared = test
        .store
        .prepare_document_email(
            &staff,
            document.clone(),
            DocumentEmailRequest {
                to: Some("susan.reed@example.com".into()),
                subject: Some("  ".into()),
                body: "Here is the plan.".into(),
                version: None,
            },
        )
        .unwrap();
    assert_eq!(
        prepared.communication.subject.as_deref(),
        Some("Home Care Proposal")
    );
    assert_eq!(prepared.communication.status, CommunicationStatus::Pending);
    assert!(prepared.attachment.bytes.starts_with(b"%PDF"));
    assert_eq!(prepared.attachment.content_type, "application/pdf");
    assert_eq!(
        prepared.communication.metadata["attachments"][0]["name"],
        prepared.attachment.file_name.as_str()
    );
    assert_eq!(
        test.store.emailed_document(&prepared.communication),
        Some(document.clone())
    );

    // The transport failed: the email is failed with the reason, the plan stays a draft.
    let (communication, after) = test
        .store
        .finish_document_email(
            &staff,
            &document,
            &prepared.communication,
            Err(SendFailure::new("The mail server refused the email")),
        )
        .unwrap();
    assert_eq!(communication.status, CommunicationStatus::Failed);
    let Some(after) = after.into_care_plan() else {
        panic!("a care plan")
    };
    assert_eq!(after.status, CarePlanStatus::Draft);
    assert!(
        !events(&test.store, &intake_id)
            .contains(&"Care plan proposal sent to the family".to_owned())
    );

    // Sent on retry: the email and the plan move together.
    let retried = test
        .store
        .retry_communication(&staff, &communication.id)
        .unwrap();
    let (communication, after) = test
        .store
        .finish_document_email(&staff, &document, &retried, sent_ok())
        .unwrap();
    assert_eq!(communication.status, CommunicationStatus::Sent);
    assert_eq!(communication.metadata["email_id"], "transport-id");
    let SentDocument::CarePlan(after) = after else {
        panic!("a care plan")
    };
    assert_eq!(after.status, CarePlanStatus::Sent);
    assert!(after.sent_at.is_some());

    // The contract goes to the family email stored with it, under its default subject.
    let content = test.store.contract_preview(&plan.id).unwrap().content;
    let contract = test
        .store
        .create_contract(&staff, &plan.id, None, &content)
        .unwrap();
    let document = EmailedDocument::Contract(contract.id.clone());
    let prepared = test
        .store
        .prepare_document_email(
            &staff,
            document.clone(),
            DocumentEmailRequest {
                to: Some("someone.else@example.com".into()),
                subject: None,
                body: "Please sign.".into(),
                version: None,
            },
        )
        .unwrap();
    assert_eq!(
        prepared.communication.recipient_email.as_deref(),
        Some("susan.reed@example.com")
    );
    assert_eq!(
        prepared.communication.subject.as_deref(),
        Some("Home Care Service Agreement - Ready for Signature")
    );
    assert!(prepared.attachment.bytes.starts_with(b"%PDF"));
    let (_, after) = test
        .store
        .finish_document_email(&staff, &document, &prepared.communication, sent_ok())
        .unwrap();
    assert_eq!(
        after.into_contract().map(|c| c.status),
        Some(ContractStatus::Sent)
    );
    // A sent contract cannot be sent again: refused before anything is recorded.
    let again = test.store.prepare_document_email(
        &staff,
        document,
        DocumentEmailRequest {
            to: None,
            subject: None,
            body: "Again".into(),
            version: None,
        },
    );
    assert!(
        matches!(again, Err(Error::InvalidTransition { .. })),
        "{again:?}"
    );
}

#[test]
fn a_quote_prices_like_the_save_and_an_unknown_template_is_refused() {
    let mut test = open();
    let (staff, admin) = (test.staff.clone(), test.admin.clone());
    test.store.seed_pricing_templates(&admin).unwrap();
    let standard = test
        .store
        .pricing_templates()
        .unwrap()
        .into_iter()
        .find(|t| t.name == "Standard Companion Care")
        .unwrap();
    let mut schedule = WeeklySchedule::default();
    schedule.monday.hours = 12.0;
    schedule.saturday.hours = 8.0;

    let by_template = test
        .store
        .quote_care_plan(&CarePlanQuoteInput {
            schedule: schedule.clone(),
            pricing_template_id: Some(standard.id.clone()),
            hourly_rate: None,
            services: Vec::new(),
        })
        .unwrap();
    assert_eq!(
        (
            by_template.hourly_rate,
            by_template.weekly_cost,
            by_template.monthly_cost,
            by_template.weekend_hours,
            by_template.blended_rate,
            by_template.weekend_premium,
        ),
        (28.5, 570.0, 2468.1, 8.0, Some(29.3), 2.0)
    );
    let without = test
        .store
        .quote_care_plan(&CarePlanQuoteInput {
            schedule: schedule.clone(),
            pricing_template_id: None,
            hourly_rate: None,
            services: Vec::new(),
        })
        .unwrap();
    assert_eq!(
        (without.hourly_rate, without.blended_rate),
        (25.0, Some(25.0))
    );

    let (_, assessment) = assessed(&mut test, "Alma Reyes");
    let mut input = plan_input("Alma Reyes");
    input.schedule = schedule.clone();
    input.pricing_template_id = Some(standard.id.clone());
    input.hourly_rate = Some(28.5);
    let plan: CarePlan = test
        .store
        .create_care_plan(&staff, Some(&assessment.id), input.clone())
        .unwrap();
    assert_eq!(
        (
            plan.weekly_cost,
            plan.monthly_cost,
            plan.weekend_hours,
            plan.blended_rate
        ),
        (570.0, 2468.1, 8.0, Some(29.3))
    );

    let unknown = PricingTemplateId::from("gone");
    let quote = test.store.quote_care_plan(&CarePlanQuoteInput {
        schedule,
        pricing_template_id: Some(unknown.clone()),
        hourly_rate: None,
        services: Vec::new(),
    });
    input.pricing_template_id = Some(unknown);
    let save = test
        .store
        .create_care_plan(&staff, Some(&assessment.id), input);
    for result in [quote.map(|_| ()), save.map(|_| ())] {
        match result {
            Err(Error::Validation(errors)) => {
                assert_eq!(
                    errors.fields.get("pricing_template_id").map(String::as_str),
                    Some("This pricing template no longer exists. Choose another template.")
                )
            }
            other => panic!("expected a validation error, got {other:?}"),
        }
    }
}

#[test]
fn update_mode_starts_when_the_assessment_changes_and_ends_with_a_save() {
    let mut test = open();
    let staff = test.staff.clone();
    let (_, assessment) = assessed(&mut test, "Nora Quinn");
    let plan = test
        .store
        .create_care_plan(&staff, Some(&assessment.id), plan_input("Nora Quinn"))
        .unwrap();
    assert!(!plan.assessment_changed);

    test.store.set_now(Some(at("2026-11-22T16:00:00Z")));
    let mut form = assessment.form.clone();
    form.recommended_hours = Some(20.0);
    form.recommended_services.push("Meal Preparation".into());
    let assessment = test
        .store
        .save_assessment(
            &staff,
            AssessmentSave {
                existing: Some((assessment.id.clone(), assessment.version)),
                intake_id: None,
                form,
                complete: true,
            },
        )
        .unwrap();
    let plan = test.store.get_care_plan(&plan.id).unwrap();
    assert!(plan.assessment_changed);
    // Sending or writing its email is not a save of the plan: still changed.
    test.store.set_now(Some(at("2026-11-22T17:00:00Z")));
    test.store
        .set_marketing_email(&staff, &plan.id, "Dear family")
        .unwrap();
    let plan = test.store.get_care_plan(&plan.id).unwrap();
    assert!(plan.assessment_changed);

    // The prefill answers the assessment as it is now.
    let prefill = test.store.care_plan_prefill(&assessment.id).unwrap();
    assert!(prefill.plan.services.contains(&CarePlanService::Meals));
    let hours: f64 = prefill
        .plan
        .schedule
        .days()
        .iter()
        .map(|(_, day)| day.hours)
        .sum();
    assert_eq!(
        hours, 19.5,
        "20 hours over 3 days, each rounded to half hours"
    );
    let mut input = plan_input("Nora Quinn");
    input.services = prefill.plan.services.clone();
    input.schedule = prefill.plan.schedule.clone();
    let saved = test
        .store
        .update_care_plan(&staff, &plan.id, plan.version, input)
        .unwrap();
    assert!(!saved.assessment_changed);
}

fn archive(store: &mut Store, actor: &Actor, id: &IntakeId, status: ArchiveStatus, reason: &str) {
    store
        .archive_client(
            actor,
            id,
            &ArchiveInput {
                status,
                reason: reason.into(),
            },
        )
        .unwrap();
}

#[test]
fn an_archived_lead_leaves_the_active_lists_and_comes_back_when_reopened() {
    let mut test = open();
    let staff = test.staff.clone();
    // A follow-up due tonight and a lead long overdue, both written days ago.
    test.store.set_now(Some(at("2026-11-10T15:00:00Z")));
    let mut form = intake_form("Follow Up Tonight");
    form.next_follow_up_date = "2026-11-22".into();
    form.next_follow_up_time = "23:30".into();
    let due = test.store.create_intake(&staff, form).unwrap();
    let stale = test
        .store
        .create_intake(&staff, intake_form("Stale Lead"))
        .unwrap();
    test.store.set_now(Some(at("2026-11-22T15:00:00Z")));
    let (assessed_id, _) = assessed(&mut test, "Assessed Lead");

    let before = test.store.clients_page(&ClientQuery::default()).unwrap();
    assert_eq!((before.counts.archived, before.counts.overdue), (0, 2));
    assert_eq!(
        test.store.dashboard().unwrap().follow_ups_due_today.len(),
        1
    );

    // A reason is required and bounded; nothing is written without one.
    let refused = test.store.archive_client(
        &staff,
        &due.id,
        &ArchiveInput {
            status: ArchiveStatus::Declined,
            reason: " ".into(),
        },
    );
    assert!(matches!(refused, Err(Error::Validation(_))));
    let long = test.store.archive_client(
        &staff,
        &due.id,
        &ArchiveInput {
            status: ArchiveStatus::Declined,
            reason: "x".repeat(501),
        },
    );
    assert!(matches!(long, Err(Error::Validation(_))));

    archive(
        &mut test.store,
        &staff,
        &due.id,
        ArchiveStatus::Declined,
        "Too expensive",
    );
    archive(
        &mut test.store,
        &staff,
        &stale.id,
        ArchiveStatus::NotInterested,
        " Moved away ",
    );
    archive(
        &mut test.store,
        &staff,
        &assessed_id,
        ArchiveStatus::Declined,
        "Chose family care",
    );
    let again = test.store.archive_client(
        &staff,
        &due.id,
        &ArchiveInput {
            status: ArchiveStatus::Declined,
            reason: "again".into(),
        },
    );
    assert!(matches!(again, Err(Error::Rejected(_))));

    let after = test.store.clients_page(&ClientQuery::default()).unwrap();
    assert_eq!(
        (
            after.counts.archived,
            after.counts.overdue,
            after.counts.intake,
            after.counts.assessment
        ),
        (3, 0, 0, 0)
    );
    let dashboard = test.store.dashboard().unwrap();
    assert!(dashboard.follow_ups_due_today.is_empty());
    assert_eq!(dashboard.counts.new_intakes, 0);
    let archived = test
        .store
        .clients_page(&ClientQuery {
            stage: Some(StageFilter::Archived),
            ..ClientQuery::default()
        })
        .unwrap();
    let stale_row = archived
        .items
        .iter()
        .find(|row| row.intake.id == stale.id)
        .unwrap();
    assert_eq!(stale_row.archive_status, Some(ArchiveStatus::NotInterested));
    assert_eq!(stale_row.archive_reason.as_deref(), Some("Moved away"));
    assert!(stale_row.archived_at.is_some());
    assert_eq!(stale_row.intake.pipeline.label, "Not Interested");
    assert!(!stale_row.intake.pipeline.overdue);
    assert_eq!(
        stale_row.intake.pipeline.next_route,
        format!("/clients/{}", stale.id)
    );
    assert_eq!(
        events(&test.store, &stale.id),
        ["Client marked Not Interested: Moved away"]
    );

    // Reopening puts each back where it was.
    test.store.reopen_client(&staff, &stale.id).unwrap();
    test.store.reopen_client(&staff, &assessed_id).unwrap();
    assert!(matches!(
        test.store.reopen_client(&staff, &stale.id),
        Err(Error::Rejected(_))
    ));
    let profile = test.store.client_profile(&assessed_id).unwrap();
    assert_eq!(profile.intake.status, IntakeStatus::AssessmentCompleted);
    assert_eq!(profile.archive_status, None);
    assert_eq!(profile.archive_reason, None);
    let stale_now = test.store.client_profile(&stale.id).unwrap();
    assert_eq!(stale_now.intake.status, IntakeStatus::Pending);
    assert!(stale_now.intake.pipeline.overdue, "overdue again");
    assert_eq!(
        events(&test.store, &stale.id),
        [
            "Client marked Not Interested: Moved away",
            "Client reopened"
        ]
    );
    let counts = test
        .store
        .clients_page(&ClientQuery::default())
        .unwrap()
        .counts;
    assert_eq!(
        (counts.archived, counts.intake, counts.assessment),
        (1, 1, 1)
    );
}

/// The web app's routes a status, a journey step or a View button may open.
fn is_web_route(route: &str) -> bool {
    let (path, query) = route.split_once('?').unwrap_or((route, ""));
    let keys: Vec<&str> = query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| pair.split_once('=').map_or(pair, |(key, _)| key))
        .collect();
    let values_present = query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .all(|pair| {
            pair.split_once('=')
                .is_some_and(|(_, value)| !value.is_empty())
        });
    values_present
        && match path {
            "/intake" => keys == ["intake_id", "view"],
            "/assessments/new" => keys == ["assessment_id"] || keys == ["intake_id"],
            "/care-plans/new" => keys == ["assessment_id"] || keys == ["care_plan_id"],
            "/contracts/new" => keys == ["care_plan_id"] || keys == ["contract_id"],
            _ => path.starts_with("/clients/") && keys.is_empty() && path.len() > 9,
        }
}

#[test]
fn every_status_journey_and_view_route_opens_a_web_screen_of_the_furthest_record() {
    let mut test = open();
    let staff = test.staff.clone();
    let mut clients = Vec::new();
    let fresh = test
        .store
        .create_intake(&staff, intake_form("Fresh"))
        .unwrap();
    clients.push(fresh.id.clone());
    let draft = test
        .store
        .create_intake(&staff, intake_form("Draft"))
        .unwrap();
    test.store
        .save_assessment(
            &staff,
            AssessmentSave {
                existing: None,
                intake_id: Some(draft.id.clone()),
                form: assessment_form("Draft"),
                complete: false,
            },
        )
        .unwrap();
    clients.push(draft.id);
    let (completed, _) = assessed(&mut test, "Completed");
    clients.push(completed);
    let (planned, assessment) = assessed(&mut test, "Planned");
    let plan = test
        .store
        .create_care_plan(&staff, Some(&assessment.id), plan_input("Planned"))
        .unwrap();
    clients.push(planned.clone());
    let (contracted, assessment) = assessed(&mut test, "Contracted");
    let other_plan = test
        .store
        .create_care_plan(&staff, Some(&assessment.id), plan_input("Contracted"))
        .unwrap();
    test.store
        .mark_care_plan_sent(&staff, &other_plan.id)
        .unwrap();
    let content = test.store.contract_preview(&other_plan.id).unwrap().content;
    let contract = test
        .store
        .create_contract(&staff, &other_plan.id, None, &content)
        .unwrap();
    clients.push(contracted.clone());
    let (declined, _) = assessed(&mut test, "Declined");
    archive(
        &mut test.store,
        &staff,
        &declined,
        ArchiveStatus::Declined,
        "No",
    );
    clients.push(declined);

    for id in &clients {
        let profile = test.store.client_profile(id).unwrap();
        let mut routes = vec![
            profile.intake.pipeline.next_route.clone(),
            profile.view_route.clone(),
        ];
        routes.extend(profile.journey.iter().map(|step| step.route.clone()));
        for route in routes {
            assert!(
                is_web_route(&route),
                "{route} of {}",
                profile.intake.client_full_name
            );
        }
    }
    let route = |id: &IntakeId| test.store.client_profile(id).unwrap();
    assert_eq!(
        route(&planned).intake.pipeline.next_route,
        format!("/care-plans/new?care_plan_id={}", plan.id)
    );
    assert_eq!(
        route(&planned).view_route,
        format!("/care-plans/new?care_plan_id={}", plan.id)
    );
    assert_eq!(
        route(&contracted).intake.pipeline.next_route,
        format!("/contracts/new?contract_id={}", contract.id)
    );
    assert_eq!(
        route(&contracted).view_route,
        format!("/contracts/new?contract_id={}", contract.id)
    );
    let page = test.store.clients_page(&ClientQuery::default()).unwrap();
    for row in &page.items {
        assert_eq!(row.view_route, route(&row.intake.id).view_route);
    }
}
