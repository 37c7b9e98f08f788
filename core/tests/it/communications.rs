//! Communications: each kind, statuses, retry, the hub, visibility.

use carepath_core::Error;
use carepath_core::model::{
    AttachmentInfo, CallLogInput, CommunicationStatus, CommunicationType, EmailInput, NoteInput,
    Parents, SmsInput, Visibility,
};
use carepath_core::store::{CommunicationFilter, HubQuery};

use crate::support::{intake_form, open};

#[test]
fn every_kind_lands_on_the_client_timeline_newest_first() {
    let mut test = open();
    let staff = test.staff.clone();
    let intake = test
        .store
        .create_intake(&staff, intake_form("Vincent Iverson"))
        .unwrap();
    let parents = Parents {
        intake_id: Some(intake.id.clone()),
        ..Parents::default()
    };

    let email = test
        .store
        .record_email(
            &staff,
            &EmailInput {
                parents: parents.clone(),
                to: "a@b.test".into(),
                subject: "Hello".into(),
                body: "Body".into(),
                attachments: vec![],
            },
        )
        .unwrap();
    assert_eq!(email.status, CommunicationStatus::Pending);
    let email = test
        .store
        .mark_communication_sent(&email.id, serde_json::json!({"email_id": "m-1"}))
        .unwrap();
    assert_eq!(email.status, CommunicationStatus::Sent);
    assert!(email.sent_at.is_some());
    assert_eq!(email.metadata["email_id"], "m-1");

    let sms = test
        .store
        .record_sms(
            &staff,
            &SmsInput {
                parents: parents.clone(),
                to: "555-0101".into(),
                message: "Hi".into(),
            },
        )
        .unwrap();
    let failed = test
        .store
        .mark_communication_failed(&sms.id, "provider said no")
        .unwrap();
    assert_eq!(failed.failure_reason.as_deref(), Some("provider said no"));
    let retried = test.store.retry_communication(&staff, &sms.id).unwrap();
    assert_eq!(retried.status, CommunicationStatus::Pending);
    assert_eq!(retried.failure_reason, None);

    let note = test
        .store
        .add_note(
            &staff,
            &NoteInput {
                parents: parents.clone(),
                content: "Internal detail".into(),
                tagged_user_ids: vec![test.staff_id()],
                ..NoteInput::default()
            },
        )
        .unwrap();
    assert_eq!(note.visibility, Visibility::Internal);
    assert_eq!(note.status, CommunicationStatus::Sent);
    assert_eq!(note.tagged_user_names, vec!["Sam Staff"]);

    let call = test
        .store
        .log_call(
            &staff,
            &CallLogInput {
                parents: parents.clone(),
                phone: "555".into(),
                notes: "Talked".into(),
                duration: "5 min".into(),
                internal: false,
            },
        )
        .unwrap();
    assert_eq!(call.visibility, Visibility::Client);
    assert_eq!(call.metadata["duration"], "5 min");
    assert_eq!(call.sender_name.as_deref(), Some("Sam Staff"));

    let timeline = test
        .store
        .communications(&CommunicationFilter {
            parents: parents.clone(),
            visibility: None,
        })
        .unwrap();
    assert_eq!(timeline.len(), 4);
    // A client's own timeline reads the name once; every row still carries it.
    assert!(
        timeline
            .iter()
            .all(|c| c.client_name.as_deref() == Some("Vincent Iverson")),
        "{timeline:?}"
    );
    let internal = test
        .store
        .communications(&CommunicationFilter {
            parents: parents.clone(),
            visibility: Some(Visibility::Internal),
        })
        .unwrap();
    assert_eq!(internal.len(), 1);
    assert_eq!(
        test.store.latest_communications(&intake.id).unwrap().len(),
        4
    );
    assert!(
        test.store
            .get_intake(&intake.id)
            .unwrap()
            .last_contact_date
            .is_some()
    );

    let hub = test
        .store
        .communications_hub(&HubQuery {
            communication_type: Some(CommunicationType::Note),
            ..HubQuery::default()
        })
        .unwrap();
    assert_eq!(hub.items.len(), 1);
    assert_eq!(hub.items[0].client_name.as_deref(), Some("Vincent Iverson"));
}

#[test]
fn bad_sends_are_refused_with_the_spec_messages_and_nothing_written() {
    let mut test = open();
    let staff = test.staff.clone();
    let before = test.store.latest_audit_seq().unwrap();
    let message = |result: Result<_, Error>| match result {
        Err(Error::Validation(errors)) => errors.message,
        other => panic!("expected validation, got {other:?}"),
    };
    assert_eq!(
        message(test.store.record_email(
            &staff,
            &EmailInput {
                to: "a@b.test".into(),
                ..EmailInput::default()
            }
        )),
        "Please fill in all fields"
    );
    assert_eq!(
        message(test.store.record_email(
            &staff,
            &EmailInput {
                to: "a@b.test".into(),
                subject: "s".into(),
                body: "b".into(),
                attachments: vec![AttachmentInfo {
                    name: "scan.pdf".into(),
                    size: 11 * 1024 * 1024
                }],
                ..EmailInput::default()
            }
        )),
        "scan.pdf is too large. Max size is 10MB."
    );
    assert_eq!(
        message(test.store.record_sms(&staff, &SmsInput::default())),
        "Please fill in all fields"
    );
    assert_eq!(
        message(test.store.add_note(&staff, &NoteInput::default())),
        "Please enter a note"
    );
    assert_eq!(
        message(test.store.log_call(
            &staff,
            &CallLogInput {
                phone: "555".into(),
                ..CallLogInput::default()
            }
        )),
        "Please fill in phone number and notes"
    );
    assert_eq!(test.store.latest_audit_seq().unwrap(), before);
}

#[test]
fn a_sent_message_cannot_be_marked_failed_or_retried() {
    let mut test = open();
    let staff = test.staff.clone();
    let sms = test
        .store
        .record_sms(
            &staff,
            &SmsInput {
                to: "555-0100".into(),
                message: "Hi".into(),
                ..SmsInput::default()
            },
        )
        .unwrap();
    test.store
        .mark_communication_sent(&sms.id, serde_json::json!({}))
        .unwrap();
    assert!(matches!(
        test.store.mark_communication_failed(&sms.id, "late"),
        Err(Error::InvalidTransition { .. })
    ));
    assert!(matches!(
        test.store.retry_communication(&staff, &sms.id),
        Err(Error::InvalidTransition { .. })
    ));
}

#[test]
fn a_family_reply_finds_the_client_by_caller_phone_and_is_kept_once() {
    let mut test = open();
    let staff = test.staff.clone();
    let intake = test
        .store
        .create_intake(&staff, intake_form("Vincent Iverson"))
        .unwrap();
    // The provider writes "+1 217 555 0101"; the intake form has "(217) 555-0101".
    let reply = carepath_core::model::Reply {
        from: "+12175550101".into(),
        body: "  Tuesday is fine  ".into(),
        provider_id: "SM100".into(),
    };
    let (kept, first) = test.store.record_reply(&reply).unwrap();
    assert!(first);
    assert_eq!(kept.parents.intake_id.as_ref(), Some(&intake.id));
    assert_eq!(kept.direction, carepath_core::model::Direction::Inbound);
    assert_eq!(kept.content, "Tuesday is fine");
    let (again, first) = test.store.record_reply(&reply).unwrap();
    assert!(!first);
    assert_eq!(again.id, kept.id);

    let stranger = carepath_core::model::Reply {
        from: "+15559990000".into(),
        body: String::new(),
        provider_id: "SM101".into(),
    };
    let (kept, _) = test.store.record_reply(&stranger).unwrap();
    assert_eq!(kept.parents.intake_id, None);
    assert_eq!(kept.content, "(no text)");

    for (from, id) in [
        ("not a number", "SM102"),
        ("+12175550101", "SM 103"),
        ("+12175550101", ""),
    ] {
        let forged = carepath_core::model::Reply {
            from: from.into(),
            body: "Hi".into(),
            provider_id: id.into(),
        };
        assert!(
            matches!(test.store.record_reply(&forged), Err(Error::Validation(_))),
            "{from} / {id}"
        );
    }
}

#[test]
fn draft_facts_come_from_the_intake_and_the_agencys_settings() {
    let mut test = open();
    let staff = test.staff.clone();
    let intake = test
        .store
        .create_intake(&staff, intake_form("Vincent Iverson"))
        .unwrap();
    let facts = test
        .store
        .draft_facts(None, Some(&intake.id), "typed")
        .unwrap();
    assert_eq!(facts.client_name, "Vincent Iverson");
    assert_eq!(facts.family_name, "Susan Reed");
    assert_eq!(facts.services, ["Companionship", "Meal Preparation"]);
    let company = test.store.settings().unwrap().general.company_name;
    assert!(!company.is_empty());
    assert_eq!(facts.company_name, company);
    let typed = test.store.draft_facts(None, None, " Ruth Hall ").unwrap();
    assert_eq!(typed.client_name, "Ruth Hall");
    assert_eq!(typed.family_name, "");
}

#[test]
fn a_timeline_reads_its_index_in_order_without_sorting() {
    let test = open();
    let id = "00000000-0000-0000-0000-000000000000";
    let filters = [
        Parents {
            intake_id: Some(id.into()),
            ..Parents::default()
        },
        Parents {
            assessment_id: Some(id.into()),
            ..Parents::default()
        },
        Parents {
            care_plan_id: Some(id.into()),
            ..Parents::default()
        },
        Parents {
            contract_id: Some(id.into()),
            ..Parents::default()
        },
    ];
    for parents in filters {
        let filter = CommunicationFilter {
            parents,
            visibility: None,
        };
        let plan = test
            .store
            .explain_communications(&filter)
            .unwrap()
            .join("\n");
        assert!(
            plan.contains("USING INDEX") || plan.contains("USING COVERING INDEX"),
            "{plan}"
        );
        assert!(
            !plan.contains("TEMP B-TREE"),
            "a timeline must not sort: {plan}"
        );
    }
}
