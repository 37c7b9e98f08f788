//! A contract signed through its link: `carepath print contract` prints the signed PDF
//! (pdftotext finds the signer and the document hash on the certificate page), and
//! `carepath contract verify` accepts that file and refuses it with one byte changed.

use std::process::Command;

use carepath_core::model::{LinkDocument, RequestOrigin, SignatureInput, SignatureMethod};

use crate::common::{carepath, ok, pinned_store, staff, stderr, stdout};

#[test]
fn the_signed_pdf_prints_shows_its_evidence_and_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("agency.db");
    let (contract_id, sha) = {
        let mut store = pinned_store(&db);
        let actor = staff();
        let intake = store
            .create_intake(
                &actor,
                carepath_core::model::IntakeForm {
                    date: "2025-03-10".to_owned(),
                    staff_member_taking_call: "Dana Cole".to_owned(),
                    caller_name: "Ruth Ames".to_owned(),
                    relationship_to_client: "Wife".to_owned(),
                    caller_phone: "(555) 010-3000".to_owned(),
                    caller_email: "ruth@example.com".to_owned(),
                    date_of_birth: "1940-02-01".to_owned(),
                    services_required: vec!["Companionship".to_owned()],
                    total_hours_per_week: Some(8.0),
                    client_full_name: "Walter Ames".to_owned(),
                    ..Default::default()
                },
            )
            .expect("intake")
            .id;
        let mut form = store.assessment_prefill(&intake).expect("prefill");
        form.coordinator_name = "Priya Shah".to_owned();
        form.recommended_services = vec!["Companionship".to_owned()];
        form.recommended_hours = Some(8.0);
        form.preferred_days = vec!["Tuesday".to_owned(), "Thursday".to_owned()];
        form.assessor_name = "Priya Shah".to_owned();
        let assessment = store
            .save_assessment(
                &actor,
                carepath_core::store::AssessmentSave {
                    existing: None,
                    intake_id: Some(intake),
                    form,
                    complete: true,
                },
            )
            .expect("assessment")
            .id;
        let plan = store.generate_care_plan(&actor, &assessment).expect("plan");
        store.mark_care_plan_sent(&actor, &plan.id).expect("sent");
        let content = store.contract_preview(&plan.id).expect("preview").content;
        let contract = store
            .create_contract(&actor, &plan.id, None, &content)
            .expect("contract");
        let link = store
            .create_signing_link(
                &actor,
                &LinkDocument::Contract(contract.id.clone()),
                "ruth@example.com",
            )
            .expect("link");
        store
            .mark_contract_sent(&actor, &contract.id)
            .expect("sent");
        let page = store.open_contract_link(&link.token).expect("page");
        store
            .sign_by_link(
                &link.token,
                &SignatureInput {
                    signer_name: "Ruth Ames".to_owned(),
                    relationship: "Wife".to_owned(),
                    consent: true,
                    method: SignatureMethod::Typed,
                    typed_signature: "Ruth Ames".to_owned(),
                    drawn_signature: Vec::new(),
                    document_sha256: page.document_sha256.clone(),
                },
                &RequestOrigin {
                    ip_address: "198.51.100.4".to_owned(),
                    user_agent: "Test Browser".to_owned(),
                },
            )
            .expect("signed");
        (contract.id, page.document_sha256)
    };

    let pdf = dir.path().join("signed.pdf");
    ok(carepath(
        &db,
        &[
            "print",
            "contract",
            contract_id.as_str(),
            "-o",
            pdf.to_str().unwrap(),
        ],
    ));
    let text = Command::new("pdftotext")
        .arg(&pdf)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils) is installed");
    let text = String::from_utf8_lossy(&text.stdout).into_owned();
    let pages: Vec<&str> = text
        .split('\u{c}')
        .filter(|p| !p.trim().is_empty())
        .collect();
    let certificate = pages.last().expect("pages");
    assert!(
        certificate.contains("Signature Certificate"),
        "{certificate}"
    );
    assert!(certificate.contains("Ruth Ames"), "{certificate}");
    assert!(certificate.contains(&sha), "{certificate}");
    assert!(certificate.contains("198.51.100.4"), "{certificate}");
    assert!(certificate.contains("Link opened at"), "{certificate}");
    // Where the link was emailed is part of the evidence.
    assert!(certificate.contains("Link sent to"), "{certificate}");
    assert!(certificate.contains("ruth@example.com"), "{certificate}");
    assert!(text.contains("Signed electronically by Ruth Ames (Wife)"));

    let verified = ok(carepath(
        &db,
        &["contract", "verify", pdf.to_str().unwrap()],
    ));
    assert!(verified.contains("is the signed contract"), "{verified}");
    assert!(verified.contains("Walter Ames"), "{verified}");

    let mut bytes = std::fs::read(&pdf).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] = bytes[middle].wrapping_add(1);
    let changed = dir.path().join("changed.pdf");
    std::fs::write(&changed, bytes).unwrap();
    let refused = carepath(&db, &["contract", "verify", changed.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(1), "{}", stdout(&refused));
    assert!(
        stderr(&refused).contains("is NOT the signed contract"),
        "{}",
        stderr(&refused)
    );
}
