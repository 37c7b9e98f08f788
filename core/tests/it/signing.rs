//! The family's links: approving the proposal and signing the contract through them,
//! every bad link refused alike with nothing changed, the evidence, the signed PDF and
//! its verification, paper signatures, and the link lifetime setting.

use carepath_core::Error;
use carepath_core::model::{
    ApprovalInput, CarePlanStatus, CommunicationType, Contract, ContractStatus, LinkDocument,
    LinkState, PaperSignatureInput, QuestionInput, RequestOrigin, SettingsTab, SignatureInput,
    SignatureMethod,
};
use carepath_core::pdf::PrintKind;
use carepath_core::rules::signing::{LINK_UNAVAILABLE, new_link_token};
use carepath_core::store::CommunicationFilter;
use jiff::SignedDuration;

use crate::support::{TestStore, now, open, sent_plan};

fn origin() -> RequestOrigin {
    RequestOrigin {
        ip_address: "203.0.113.7".into(),
        user_agent: "Mozilla/5.0 (test)".into(),
    }
}

/// A client with a contract sent for signature, and the contract's link token.
fn sent_contract(test: &mut TestStore, name: &str) -> (Contract, String) {
    let staff = test.staff.clone();
    let plan = sent_plan(test, name);
    let text = test.store.contract_preview(&plan.id).unwrap().content;
    let contract = test
        .store
        .create_contract(&staff, &plan.id, None, &text)
        .unwrap();
    let link = test
        .store
        .create_signing_link(
            &staff,
            &LinkDocument::Contract(contract.id.clone()),
            "family@example.com",
        )
        .unwrap();
    let contract = test.store.mark_contract_sent(&staff, &contract.id).unwrap();
    (contract, link.token)
}

fn drawn(sha: &str) -> SignatureInput {
    SignatureInput {
        signer_name: "Jane Whitaker".into(),
        relationship: "Daughter".into(),
        consent: true,
        method: SignatureMethod::Drawn,
        typed_signature: String::new(),
        drawn_signature: vec![
            vec![[0.05, 0.7], [0.2, 0.2], [0.35, 0.8], [0.5, 0.3]],
            vec![[0.55, 0.6], [0.95, 0.5]],
        ],
        document_sha256: sha.into(),
    }
}

fn assert_unavailable<T: std::fmt::Debug>(result: Result<T, Error>, what: &str) {
    match result {
        Err(error @ Error::LinkUnavailable) => assert_eq!(error.to_string(), LINK_UNAVAILABLE),
        other => panic!("{what}: expected the link refusal, got {other:?}"),
    }
}

#[test]
fn the_family_approves_the_proposal_through_its_link() {
    let mut test = open();
    let plan = sent_plan(&mut test, "Clarence Whitaker");
    let link = test
        .store
        .create_signing_link(
            &test.staff.clone(),
            &LinkDocument::CarePlan(plan.id.clone()),
            "family@example.com",
        )
        .unwrap();
    assert_eq!(link.token.len(), 43);
    assert_eq!(link.link.state, LinkState::Sent);

    let letter = test.store.open_proposal_link(&link.token).unwrap();
    assert_eq!(letter.client_name, "Clarence Whitaker");
    assert_eq!(letter.weekly_cost, plan.weekly_cost);
    assert_eq!(letter.monthly_cost, plan.monthly_cost);
    assert_eq!(letter.services.len(), plan.services.len());
    assert!(!letter.schedule.is_empty());

    // A question leaves the link usable and lands in the timeline.
    test.store
        .question_by_link(
            &link.token,
            &QuestionInput {
                name: "Jane".into(),
                message: "Can visits start at 8?".into(),
            },
        )
        .unwrap();
    // A name is required; the refusal changes nothing.
    assert!(matches!(
        test.store
            .approve_by_link(&link.token, &ApprovalInput { name: " ".into() }, &origin()),
        Err(Error::Validation(_))
    ));
    test.store
        .approve_by_link(
            &link.token,
            &ApprovalInput {
                name: "Jane Whitaker".into(),
            },
            &origin(),
        )
        .unwrap();
    let approved = test.store.get_care_plan(&plan.id).unwrap();
    assert_eq!(approved.status, CarePlanStatus::Approved);
    assert!(approved.approved_at.is_some());
    let intake_id = plan.intake_id.clone().unwrap();
    assert_eq!(
        test.store.get_intake(&intake_id).unwrap().pipeline.label,
        "Care Plan Approved"
    );
    let timeline = test
        .store
        .communications(&CommunicationFilter {
            parents: carepath_core::model::Parents {
                intake_id: Some(intake_id),
                ..Default::default()
            },
            visibility: None,
        })
        .unwrap();
    let events: Vec<&str> = timeline
        .iter()
        .filter(|c| c.communication_type == CommunicationType::SystemEvent)
        .map(|c| c.content.as_str())
        .collect();
    assert!(
        events
            .iter()
            .any(|e| e.contains("approved by Jane Whitaker")),
        "{events:?}"
    );
    assert!(
        events.iter().any(|e| e.contains("Can visits start at 8?")),
        "{events:?}"
    );
    // Single use: the page and the approval are gone.
    assert_unavailable(test.store.open_proposal_link(&link.token), "used, open");
    assert_unavailable(
        test.store
            .approve_by_link(&link.token, &ApprovalInput { name: "X".into() }, &origin()),
        "used, approve",
    );
}

#[test]
fn a_proposal_changed_after_sending_invalidates_its_link() {
    let mut test = open();
    let plan = sent_plan(&mut test, "Rose Lee");
    let staff = test.staff.clone();
    let link = test
        .store
        .create_signing_link(
            &staff,
            &LinkDocument::CarePlan(plan.id.clone()),
            "family@example.com",
        )
        .unwrap();
    let mut input = test
        .store
        .care_plan_prefill(&plan.assessment_id.clone().unwrap())
        .unwrap()
        .plan;
    input.family_contact_email = "family@example.com".into();
    input.hourly_rate = Some(plan.hourly_rate + 5.0);
    test.store
        .update_care_plan(&staff, &plan.id, plan.version, input)
        .unwrap();
    assert_unavailable(test.store.open_proposal_link(&link.token), "changed");
    assert_eq!(
        test.store.get_care_plan(&plan.id).unwrap().status,
        CarePlanStatus::Sent
    );
}

#[test]
fn the_family_signs_the_contract_and_the_signed_pdf_verifies() {
    let mut test = open();
    let (contract, token) = sent_contract(&mut test, "Clarence Whitaker");
    let page = test.store.open_contract_link(&token).unwrap();
    assert_eq!(page.contract_content, contract.contract_content);
    assert_eq!(page.document_sha256.len(), 64);
    assert!(page.consent_text.contains("paper copy"));

    // The signature must name the document the page showed.
    assert!(matches!(
        test.store
            .sign_by_link(&token, &drawn(&"0".repeat(64)), &origin()),
        Err(Error::Rejected(_))
    ));
    let signed = test
        .store
        .sign_by_link(&token, &drawn(&page.document_sha256), &origin())
        .unwrap();
    assert_eq!(signed.contract.status, ContractStatus::Signed);
    assert!(signed.contract.signed_at.is_some());
    assert_eq!(signed.family_email, "family@example.com");
    assert_eq!(
        signed.coordinator_email.as_deref(),
        Some("staff@agency.test")
    );
    let intake_id = contract.intake_id.clone().unwrap();
    assert_eq!(
        test.store.get_intake(&intake_id).unwrap().pipeline.label,
        "Active Patient"
    );
    // Signed through the link, the client has the start-of-care checklist too.
    assert_eq!(test.store.start_of_care(&intake_id).unwrap().items.len(), 4);

    let status = test.store.contract_signing_status(&contract.id).unwrap();
    assert_eq!(status.links[0].state, LinkState::Used);
    assert!(status.links[0].opened_at.is_some());
    let evidence = status.signature.unwrap();
    assert_eq!(evidence.signer_name, "Jane Whitaker");
    assert_eq!(evidence.relationship, "Daughter");
    assert_eq!(evidence.method, SignatureMethod::Drawn);
    assert_eq!(evidence.ip_address, "203.0.113.7");
    assert_eq!(evidence.user_agent, "Mozilla/5.0 (test)");
    assert_eq!(evidence.document_sha256, page.document_sha256);
    assert!(evidence.consent_text.contains("electronically"));
    assert!(status.signed_pdf_available);

    // The stored PDF is what printing the contract gives, and it verifies.
    let pdf = test
        .store
        .signed_contract_pdf(&contract.id)
        .unwrap()
        .unwrap();
    assert_eq!(pdf, signed.signed_pdf);
    assert!(pdf.starts_with(b"%PDF"));
    let mut printed = Vec::new();
    test.store
        .print(PrintKind::Contract, contract.id.as_str(), &mut printed)
        .unwrap();
    assert_eq!(printed, pdf);
    let verified = test.store.verify_signed_pdf(&pdf).unwrap();
    assert!(verified.matches, "{}", verified.message);
    assert_eq!(verified.contract_id.as_ref(), Some(&contract.id));
    assert_eq!(verified.signer_name.as_deref(), Some("Jane Whitaker"));
    let mut changed = pdf.clone();
    let middle = changed.len() / 2;
    changed[middle] ^= 1;
    assert!(!test.store.verify_signed_pdf(&changed).unwrap().matches);

    // Used: the same link cannot sign again, or even show the contract.
    assert_unavailable(test.store.open_contract_link(&token), "used, open");
    assert_unavailable(
        test.store
            .sign_by_link(&token, &drawn(&page.document_sha256), &origin()),
        "used, sign",
    );
}

#[test]
fn every_bad_link_is_refused_alike_and_changes_nothing() {
    let mut test = open();
    let staff = test.staff.clone();
    let (contract, token) = sent_contract(&mut test, "Clarence Whitaker");
    let (other, other_token) = sent_contract(&mut test, "Rose Lee");
    let sha = test
        .store
        .open_contract_link(&token)
        .unwrap()
        .document_sha256;

    // Revoked: Resend made a new link.
    let resent = test
        .store
        .create_signing_link(
            &staff,
            &LinkDocument::Contract(contract.id.clone()),
            "family@example.com",
        )
        .unwrap();
    let mut altered = resent.token.clone();
    let last = altered.pop().unwrap();
    altered.push(if last == 'A' { 'B' } else { 'A' });
    // A proposal approval token used on the signing page.
    let plan = sent_plan(&mut test, "Ann Moss");
    let approval = test
        .store
        .create_signing_link(
            &staff,
            &LinkDocument::CarePlan(plan.id.clone()),
            "family@example.com",
        )
        .unwrap();

    let before = test.store.get_contract(&contract.id).unwrap();
    let bad = [
        ("revoked", token.clone()),
        ("altered", altered),
        ("unknown", new_link_token()),
        ("malformed", "not-a-token".to_owned()),
        ("empty", String::new()),
        ("wrong purpose", approval.token.clone()),
    ];
    for (what, bad_token) in &bad {
        assert_unavailable(test.store.open_contract_link(bad_token), what);
        assert_unavailable(
            test.store.sign_by_link(bad_token, &drawn(&sha), &origin()),
            what,
        );
        let mut pdf = Vec::new();
        assert_unavailable(test.store.contract_link_pdf(bad_token, &mut pdf), what);
    }
    // The signing token is no approval token either.
    assert_unavailable(
        test.store.open_proposal_link(&resent.token),
        "wrong purpose",
    );
    assert_eq!(test.store.get_contract(&contract.id).unwrap(), before);
    assert_eq!(
        test.store.get_care_plan(&plan.id).unwrap().status,
        CarePlanStatus::Sent
    );

    // One contract's link signs that contract only.
    let other_sha = test
        .store
        .open_contract_link(&other_token)
        .unwrap()
        .document_sha256;
    test.store
        .sign_by_link(&other_token, &drawn(&other_sha), &origin())
        .unwrap();
    assert_eq!(
        test.store.get_contract(&contract.id).unwrap().status,
        ContractStatus::Sent
    );
    assert_eq!(
        test.store.get_contract(&other.id).unwrap().status,
        ContractStatus::Signed
    );

    // Expired: 14 days by default.
    test.store.set_now(Some(
        now()
            .checked_add(SignedDuration::from_hours(24 * 14))
            .unwrap(),
    ));
    assert_unavailable(test.store.open_contract_link(&resent.token), "expired");
    let status = test.store.contract_signing_status(&contract.id).unwrap();
    let states: Vec<LinkState> = status.links.iter().map(|l| l.state).collect();
    assert_eq!(states, vec![LinkState::Expired, LinkState::Revoked]);
    let after = test.store.get_contract(&contract.id).unwrap();
    assert_eq!(
        (after.version, after.status, after.signed_at),
        (before.version, before.status, before.signed_at)
    );
}

#[test]
fn a_contract_changed_after_sending_invalidates_its_link() {
    let mut test = open();
    let (contract, token) = sent_contract(&mut test, "Clarence Whitaker");
    // A change made behind the screens (another tool on the same file).
    let raw = rusqlite::Connection::open(test.store.path()).unwrap();
    raw.execute(
        "UPDATE contracts SET contract_content = contract_content || ' Extra clause.' WHERE id = ?1",
        [contract.id.as_str()],
    )
    .unwrap();
    assert_unavailable(test.store.open_contract_link(&token), "changed");
    let status = test.store.contract_signing_status(&contract.id).unwrap();
    assert_eq!(status.links[0].state, LinkState::Outdated);
}

#[test]
fn paper_signatures_record_the_date_and_signer_and_revoke_the_link() {
    let mut test = open();
    let staff = test.staff.clone();
    let (contract, token) = sent_contract(&mut test, "Clarence Whitaker");
    let input = |signed_on: &str, signer: &str| PaperSignatureInput {
        signed_on: signed_on.into(),
        signer_name: signer.into(),
        relationship: "Son".into(),
    };
    assert!(matches!(
        test.store
            .sign_contract_on_paper(&staff, &contract.id, &input("2026-12-01", "Tom")),
        Err(Error::Validation(_))
    ));
    assert!(matches!(
        test.store
            .sign_contract_on_paper(&staff, &contract.id, &input("2026-11-20", "")),
        Err(Error::Validation(_))
    ));
    let signed = test
        .store
        .sign_contract_on_paper(&staff, &contract.id, &input("2026-11-20", "Tom Whitaker"))
        .unwrap();
    assert_eq!(signed.status, ContractStatus::Signed);
    assert!(signed.signed_at.unwrap().starts_with("2026-11-20"));
    assert_unavailable(test.store.open_contract_link(&token), "paper-signed");
    let status = test.store.contract_signing_status(&contract.id).unwrap();
    assert_eq!(status.links[0].state, LinkState::Revoked);
    let evidence = status.signature.unwrap();
    assert_eq!(evidence.method, SignatureMethod::Paper);
    assert_eq!(evidence.signer_name, "Tom Whitaker");
    assert!(!status.signed_pdf_available);
}

#[test]
fn only_administrators_change_how_long_links_last() {
    let mut test = open();
    let (staff, admin) = (test.staff.clone(), test.admin.clone());
    let settings = test.store.settings().unwrap();
    assert_eq!(settings.workflow.signing_link_days, 14);
    let mut workflow = settings.workflow.clone();
    workflow.signing_link_days = 3;
    let version = settings.versions["workflow"];
    assert!(matches!(
        test.store
            .update_settings(&staff, version, SettingsTab::Workflow(workflow.clone())),
        Err(Error::Forbidden(_))
    ));
    workflow.signing_link_days = 0;
    assert!(matches!(
        test.store
            .update_settings(&admin, version, SettingsTab::Workflow(workflow.clone())),
        Err(Error::Validation(_))
    ));
    workflow.signing_link_days = 3;
    test.store
        .update_settings(&admin, version, SettingsTab::Workflow(workflow))
        .unwrap();
    let plan = sent_plan(&mut test, "Rose Lee");
    let link = test
        .store
        .create_signing_link(
            &staff,
            &LinkDocument::CarePlan(plan.id.clone()),
            "family@example.com",
        )
        .unwrap();
    assert!(link.link.expires_at.starts_with("2026-11-25T15:00:00"));
    test.store.set_now(Some(
        now()
            .checked_add(SignedDuration::from_hours(24 * 3))
            .unwrap(),
    ));
    assert_unavailable(test.store.open_proposal_link(&link.token), "expired");
}

/// Deleting a contract ends its signing link: restoring the contract does not bring the
/// link back to life.
#[test]
fn a_deleted_contracts_link_stays_dead_after_a_restore() {
    let mut test = open();
    let admin = test.admin.clone();
    let (contract, token) = sent_contract(&mut test, "Nora Whitaker");
    test.store.open_contract_link(&token).unwrap();
    test.store.delete_contract(&admin, &contract.id).unwrap();
    assert_unavailable(test.store.open_contract_link(&token), "deleted");
    test.store.restore_contract(&admin, &contract.id).unwrap();
    assert_unavailable(test.store.open_contract_link(&token), "restored");
}

/// A typed signature of the longest length the page accepts, without a space, signs and
/// prints.
#[test]
fn the_longest_typed_signature_signs_and_prints() {
    let mut test = open();
    let (contract, token) = sent_contract(&mut test, "Walt Whitaker");
    let sha = test
        .store
        .open_contract_link(&token)
        .unwrap()
        .document_sha256;
    let mut input = drawn(&sha);
    input.method = SignatureMethod::Typed;
    input.typed_signature = "W".repeat(carepath_core::rules::signing::MAX_NAME);
    input.drawn_signature = Vec::new();
    test.store.sign_by_link(&token, &input, &origin()).unwrap();
    let pdf = test.store.signed_contract_pdf(&contract.id).unwrap();
    assert!(pdf.is_some_and(|pdf| pdf.starts_with(b"%PDF")));
}
