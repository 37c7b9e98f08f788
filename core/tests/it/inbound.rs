//! Replies that come back, in the store: each emailed reply kept once and placed by the
//! email it answers, else by the sender, else in the Unmatched list an administrator
//! assigns from; read and unread; the reply mailbox's secret sealed; and a family's
//! plain yes (emailed or texted) that offers staff the approval, which only their click
//! gives.

use carepath_core::Error;
use carepath_core::inbound::parse_email;
use carepath_core::model::{
    CarePlan, CarePlanStatus, EmailInput, ImapAuth, Parents, Reply, ReplyMailboxForm,
};
use carepath_core::outbound::SentEmail;
use carepath_core::rules::acceptance::{ACCEPTANCE_GONE, ACCEPTANCE_PROMPT};
use carepath_core::secrets::SecretKeySource;
use carepath_core::store::{AssessmentSave, CommunicationFilter};

use crate::support::{TestStore, assessment_form, at, intake_form, open};

/// A client with a sent care plan (sent at the fixed "now").
fn sent_plan(test: &mut TestStore, name: &str) -> CarePlan {
    let (staff, admin) = (test.staff.clone(), test.admin.clone());
    test.store.seed_pricing_templates(&admin).unwrap();
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
    let mut plan = test.store.care_plan_prefill(&assessment.id).unwrap().plan;
    plan.family_contact_email = "family@example.com".into();
    let plan = test
        .store
        .create_care_plan(&staff, Some(&assessment.id), plan)
        .unwrap();
    test.store.mark_care_plan_sent(&staff, &plan.id).unwrap()
}

fn email(from: &str, id: &str, answers: Option<&str>, body: &str) -> String {
    let thread = answers
        .map(|answers| format!("In-Reply-To: <{answers}>\r\n"))
        .unwrap_or_default();
    format!(
        "From: {from}\r\nTo: office@agency.test\r\nSubject: Re: Home Care Proposal\r\n\
         Message-ID: <{id}>\r\n{thread}\r\n{body}\r\n"
    )
}

#[test]
fn an_emailed_reply_is_kept_once_on_the_client_it_answers_and_unread() {
    let mut test = open();
    let staff = test.staff.clone();
    let plan = sent_plan(&mut test, "Edith Park");
    let intake = plan.intake_id.clone().unwrap();
    // The proposal email as Carepath sent it: its Message-ID was <0190-sent@carepath>.
    let sent = test
        .store
        .record_email(
            &staff,
            &EmailInput {
                parents: Parents {
                    care_plan_id: Some(plan.id.clone()),
                    ..Parents::default()
                },
                to: "family@example.com".into(),
                subject: "Home Care Proposal".into(),
                body: "Here is our proposal.".into(),
                attachments: Vec::new(),
            },
        )
        .unwrap();
    test.store
        .finish_email_send(
            &sent.id,
            Ok(SentEmail {
                id: "0190-sent".into(),
            }),
        )
        .unwrap();

    let raw = email(
        "Other Address <other@elsewhere.test>",
        "r1@elsewhere.test",
        Some("0190-sent@carepath"),
        "Yes please",
    );
    let reply = parse_email(raw.as_bytes()).unwrap();
    let kept = test.store.keep_inbound_email(&reply, Some(7)).unwrap();
    assert!(kept.first);
    let communication = kept.communication;
    assert_eq!(communication.parents.intake_id.as_ref(), Some(&intake));
    assert_eq!(communication.parents.care_plan_id.as_ref(), Some(&plan.id));
    assert_eq!(communication.metadata["matchedBy"], "thread");
    assert_eq!(communication.read_at, None);
    assert_eq!(
        communication.recipient_email.as_deref(),
        Some("other@elsewhere.test")
    );
    let again = test.store.keep_inbound_email(&reply, Some(8)).unwrap();
    assert!(!again.first);
    assert_eq!(again.communication.id, communication.id);
    let replies = |test: &TestStore| {
        test.store
            .communications(&CommunicationFilter {
                parents: Parents {
                    intake_id: Some(intake.clone()),
                    ..Parents::default()
                },
                visibility: None,
            })
            .unwrap()
            .into_iter()
            .filter(|c| c.direction == carepath_core::model::Direction::Inbound)
            .count()
    };
    assert_eq!(replies(&test), 1);

    // The caller's own address finds the client without a thread.
    let by_sender =
        parse_email(email("SUSAN.REED@example.com", "r2@example.com", None, "A note").as_bytes())
            .unwrap();
    let kept = test.store.keep_inbound_email(&by_sender, None).unwrap();
    assert_eq!(kept.communication.parents.intake_id.as_ref(), Some(&intake));
    assert_eq!(kept.communication.metadata["matchedBy"], "sender");

    let read = test.store.mark_reply_read(&communication.id).unwrap();
    assert!(read.read_at.is_some());
    let Err(Error::Rejected(_)) = test.store.mark_reply_read(&sent.id) else {
        panic!("only replies are read or unread");
    };
}

#[test]
fn a_strangers_reply_waits_unmatched_until_an_administrator_assigns_it() {
    let mut test = open();
    let (staff, admin) = (test.staff.clone(), test.admin.clone());
    let plan = sent_plan(&mut test, "Edith Park");
    let intake = plan.intake_id.clone().unwrap();
    let stranger = parse_email(
        email(
            "cousin@unknown.test",
            "c1@unknown.test",
            Some("nothing@carepath"),
            "Hello?",
        )
        .as_bytes(),
    )
    .unwrap();
    let kept = test.store.keep_inbound_email(&stranger, None).unwrap();
    assert_eq!(kept.communication.parents.intake_id, None);
    let unmatched = test.store.unmatched_replies(None, None).unwrap();
    assert_eq!(unmatched.items.len(), 1);
    let id = unmatched.items[0].id.clone();
    let Err(Error::Forbidden(_)) = test.store.assign_reply(&staff, &id, &intake) else {
        panic!("only administrators assign");
    };
    let assigned = test.store.assign_reply(&admin, &id, &intake).unwrap();
    assert_eq!(assigned.parents.intake_id.as_ref(), Some(&intake));
    assert_eq!(assigned.read_at, None);
    assert!(
        test.store
            .unmatched_replies(None, None)
            .unwrap()
            .items
            .is_empty()
    );
    let Err(Error::Rejected(_)) = test.store.assign_reply(&admin, &id, &intake) else {
        panic!("an assigned reply is not assigned again");
    };
}

#[test]
fn a_texted_yes_offers_the_approval_and_only_a_staff_click_gives_it() {
    let mut test = open();
    let staff = test.staff.clone();
    let plan = sent_plan(&mut test, "Edith Park");
    let intake = plan.intake_id.clone().unwrap();
    assert_eq!(test.store.pending_acceptance(&intake).unwrap(), None);
    let text = |test: &mut TestStore, moment: &str, body: &str, sid: &str| {
        test.store.set_now(Some(at(moment)));
        test.store
            .record_reply(&Reply {
                from: "+1 217 555 0101".into(),
                body: body.into(),
                provider_id: sid.into(),
            })
            .unwrap()
            .0
    };
    let first = text(&mut test, "2026-11-22T16:00:00Z", "Sí, por favor", "SM1");
    let pending = test.store.pending_acceptance(&intake).unwrap().unwrap();
    assert_eq!(pending.communication_id, first.id);
    assert_eq!(pending.care_plan_id, plan.id);
    assert_eq!(pending.text, "Sí, por favor");
    assert_eq!(pending.prompt, ACCEPTANCE_PROMPT);
    // Offered, not approved.
    assert_eq!(
        test.store.get_care_plan(&plan.id).unwrap().status,
        CarePlanStatus::Sent
    );

    // A later question takes the offer back; a later yes offers it again.
    text(
        &mut test,
        "2026-11-22T16:05:00Z",
        "Wait, can we change Tuesday?",
        "SM2",
    );
    assert_eq!(test.store.pending_acceptance(&intake).unwrap(), None);
    let yes = text(&mut test, "2026-11-22T16:10:00Z", "Yes", "SM3");
    let Err(Error::Rejected(message)) = test.store.approve_proposal_from_reply(&staff, &first.id)
    else {
        panic!("an older yes no longer offers the approval");
    };
    assert_eq!(message, ACCEPTANCE_GONE);

    let approved = test
        .store
        .approve_proposal_from_reply(&staff, &yes.id)
        .unwrap();
    assert_eq!(approved.status, CarePlanStatus::Approved);
    let timeline = test
        .store
        .communications(&CommunicationFilter {
            parents: Parents {
                intake_id: Some(intake.clone()),
                ..Parents::default()
            },
            visibility: None,
        })
        .unwrap();
    let evidence = timeline
        .iter()
        .find(|c| c.metadata["evidenceCommunicationId"] == yes.id.as_str())
        .expect("the approval's evidence");
    assert_eq!(
        evidence.content,
        "Proposal approved by Sam Staff on the family's text message reply: “Yes”"
    );
    assert!(
        timeline
            .iter()
            .any(|c| c.content == "Care plan approved by the family")
    );
    assert!(
        test.store
            .get_communication(&yes.id)
            .unwrap()
            .read_at
            .is_some()
    );
    assert_eq!(test.store.pending_acceptance(&intake).unwrap(), None);
    let Err(Error::Rejected(_)) = test.store.approve_proposal_from_reply(&staff, &yes.id) else {
        panic!("approved once");
    };
}

#[test]
fn the_reply_mailbox_secret_is_sealed_and_only_administrators_save_it() {
    let mut test = open();
    let (staff, admin) = (test.staff.clone(), test.admin.clone());
    let keys = SecretKeySource::for_database(test.store.path(), None);
    let form = ReplyMailboxForm {
        version: 0,
        enabled: true,
        host: "imap.agency.test".into(),
        port: 993,
        username: "office@agency.test".into(),
        auth: ImapAuth::Oauth2,
        folder: String::new(),
        secret: Some("token-that-must-not-leak".into()),
    };
    let Err(Error::Forbidden(_)) = test.store.save_reply_mailbox(&staff, &keys, &form) else {
        panic!("only administrators save the mailbox");
    };
    let saved = test.store.save_reply_mailbox(&admin, &keys, &form).unwrap();
    assert!(saved.secret_set && saved.enabled);
    assert_eq!(saved.folder, "INBOX");
    let login = test.store.imap_login(&keys).unwrap().unwrap();
    assert_eq!(login.secret, "token-that-must-not-leak");
    assert_eq!(login.auth, ImapAuth::Oauth2);
    assert!(!format!("{login:?}").contains("token-that"));
    let file = std::fs::read(test.store.path()).unwrap();
    let wal = std::fs::read(test.store.path().with_extension("db-wal")).unwrap_or_default();
    for bytes in [file, wal] {
        assert!(
            !bytes
                .windows(b"token-that-must-not-leak".len())
                .any(|w| w == b"token-that-must-not-leak")
        );
    }
    // A stale form is a conflict; an empty host refused with its message.
    let Err(Error::Conflict { .. }) = test.store.save_reply_mailbox(&admin, &keys, &form) else {
        panic!("stale version");
    };
    let Err(Error::Validation(errors)) = test.store.save_reply_mailbox(
        &admin,
        &keys,
        &ReplyMailboxForm {
            version: saved.version,
            host: String::new(),
            ..form
        },
    ) else {
        panic!("an empty host is refused");
    };
    assert_eq!(
        errors.message,
        carepath_core::rules::setup::MAILBOX_HOST_REQUIRED
    );
}
