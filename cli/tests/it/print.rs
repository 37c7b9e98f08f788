//! `carepath print`: every document opens with pdftotext, says what it should and has
//! the spec's page count.

use std::path::Path;
use std::process::Command;

use crate::common::{carepath, ok, sample_agency, stderr};

fn pdf_text(path: &Path) -> String {
    let output = Command::new("pdftotext")
        .args(["-layout"])
        .arg(path)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils) is installed");
    assert!(
        output.status.success(),
        "pdftotext failed on {}",
        path.display()
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn pdf_pages(path: &Path) -> usize {
    let output = Command::new("pdfinfo")
        .arg(path)
        .output()
        .expect("pdfinfo runs");
    let info = String::from_utf8_lossy(&output.stdout).into_owned();
    let pages = info
        .lines()
        .find_map(|line| line.strip_prefix("Pages:"))
        .expect("a page count");
    assert!(info.contains("612 x 792 pts"), "US letter: {info}");
    pages.trim().parse().unwrap()
}

#[test]
fn every_document_prints_with_its_texts_and_pages() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("agency.db");
    let sample = sample_agency(&db);
    let cases = [
        (
            "intake",
            sample.rose.as_str().to_owned(),
            Some(5),
            vec![
                "Client Intake Form",
                "Lee, Rose",
                "Mark \"Junior\" Lee",
                "[x] Personal Care (ADLs)",
                "[ ] Respite Care",
                "Hip fracture",
                "Acme LTC",
                "Family travelling",
                "For Office Use Only",
                "Priya Shah",
            ],
        ),
        (
            "assessment",
            sample.assessment.as_str().to_owned(),
            None,
            vec![
                "Non-Medical Assessment Form",
                "Walter Ames",
                "Sunrise Home Care",
                "12 Elm Street, Springfield",
                "Phone (555) 010-2000",
                "Fax (555) 010-2001",
                "Assessor signature",
                "Bathing",
            ],
        ),
        (
            "care-plan",
            sample.care_plan.as_str().to_owned(),
            None,
            vec![
                "Dear Ruth Ames,",
                "Friendly Companionship",
                "Just Reply YES to This Email",
                "(555) 010-2000",
                "Weekly cost: $200.00",
                "12 Elm Street, Springfield, IL 62701",
                "Proposed Start Date",
            ],
        ),
        (
            "contract",
            sample.contract.as_str().to_owned(),
            None,
            vec![
                "Home Care Service Agreement",
                "Walter Ames",
                "Signed: ",
                "Hourly Rate: $25.00",
            ],
        ),
    ];
    for (kind, id, pages, texts) in cases {
        let file = dir.path().join(format!("{kind}.pdf"));
        ok(carepath(
            &db,
            &["print", kind, &id, "-o", file.to_str().unwrap()],
        ));
        let text = pdf_text(&file);
        for expected in texts {
            assert!(
                text.contains(expected),
                "{kind} lacks {expected:?}:\n{text}"
            );
        }
        let n = pdf_pages(&file);
        if let Some(pages) = pages {
            assert_eq!(n, pages, "{kind} pages");
        }
        // Only the glyphs a document prints are embedded, not whole fonts (~1.5 MB).
        let bytes = std::fs::metadata(&file).unwrap().len();
        assert!(bytes <= 150_000, "{kind} is {bytes} bytes");
    }
    let intake = pdf_text(&dir.path().join("intake.pdf"));
    let pages: Vec<&str> = intake.split('\u{c}').collect();
    assert!(pages[0].contains("Caller Information") && pages[0].contains("Client Information"));
    assert!(pages[1].contains("Living Situation") && pages[1].contains("Services Required"));
    assert!(pages[2].contains("Medical Information") && pages[2].contains("Source of Payment"));
    assert!(pages[3].contains("If Assessment Was Not Scheduled"));
    assert!(pages[4].contains("For Office Use Only"));
}

#[test]
fn a_stage_prints_one_file_per_client_and_unknown_ids_fail() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("agency.db");
    sample_agency(&db);
    let out = dir.path().join("intakes");
    let report = ok(carepath(
        &db,
        &[
            "print",
            "intake",
            "--all-stage",
            "intake",
            "-o",
            out.to_str().unwrap(),
        ],
    ));
    assert!(report.contains("Printed 1 intake PDF(s)"), "{report}");
    let files: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(files.len(), 1);
    assert!(files[0].to_string_lossy().starts_with("lee-rose-intake-"));
    let contracts = dir.path().join("contracts");
    ok(carepath(
        &db,
        &[
            "print",
            "contract",
            "--all-stage",
            "contract",
            "-o",
            contracts.to_str().unwrap(),
        ],
    ));
    assert_eq!(std::fs::read_dir(&contracts).unwrap().count(), 1);

    let missing = carepath(
        &db,
        &[
            "print",
            "intake",
            "nope",
            "-o",
            dir.path().join("x.pdf").to_str().unwrap(),
        ],
    );
    assert_eq!(missing.status.code(), Some(1));
    assert!(stderr(&missing).contains("intake not found"));
    assert!(!dir.path().join("x.pdf").exists());
}

/// `carepath print packet VISIT_ID`: the assessor's packet for one visit, with the
/// visit, the client's intake and contacts and the worksheet; a packet cannot be printed
/// for a whole stage and an unknown visit fails without writing a file.
#[test]
fn a_visit_packet_prints_for_one_visit() {
    use carepath_core::model::VisitInput;
    use carepath_core::store::NewUser;

    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("agency.db");
    let sample = sample_agency(&db);
    let visit = {
        let mut store = crate::common::pinned_store(&db);
        let assessor = store
            .create_user(
                &crate::common::staff(),
                NewUser {
                    email: "priya@agency.test".to_owned(),
                    full_name: "Priya Shah".to_owned(),
                    password: Some("secret-priya".to_owned()),
                    is_admin: false,
                },
            )
            .expect("assessor");
        store
            .schedule_visit(
                &crate::common::staff(),
                &sample.rose,
                &VisitInput {
                    date: "2025-03-12".to_owned(),
                    start_time: "14:30".to_owned(),
                    duration_minutes: 60,
                    place: "4 Oak Lane, Apt 2, Springfield, IL 62701".to_owned(),
                    assessor_id: assessor.id,
                    notes: "Side door".to_owned(),
                },
            )
            .expect("visit")
            .visit
            .id
    };
    let file = dir.path().join("packet.pdf");
    let report = ok(carepath(
        &db,
        &[
            "print",
            "packet",
            visit.as_str(),
            "-o",
            file.to_str().unwrap(),
        ],
    ));
    assert!(report.contains("Printed packet"), "{report}");
    let text = pdf_text(&file);
    for expected in [
        "Assessment Visit Packet",
        "Lee, Rose",
        "Wednesday, March 12, 2025",
        "2:30 PM – 3:30 PM UTC",
        "Priya Shah",
        "Side door",
        "4 Oak Lane, Apt 2, Springfield, IL 62701",
        "openstreetmap.org/search?query=4+Oak+Lane",
        "Needs help after a fall; uses a walker.",
        "Ann Lee",
        "Sunrise Home Care",
        "Assessment Worksheet",
        "Living Situation & Environment",
        "Activities of Daily Living (ADLs)",
    ] {
        assert!(
            text.contains(expected),
            "the packet lacks {expected:?}:\n{text}"
        );
    }
    assert!(pdf_pages(&file) >= 2);

    let whole_stage = carepath(
        &db,
        &[
            "print",
            "packet",
            "--all-stage",
            "intake",
            "-o",
            dir.path().join("packets").to_str().unwrap(),
        ],
    );
    assert_eq!(whole_stage.status.code(), Some(1));
    assert!(
        stderr(&whole_stage).contains("one visit"),
        "{}",
        stderr(&whole_stage)
    );

    let missing = dir.path().join("missing.pdf");
    let unknown = carepath(
        &db,
        &["print", "packet", "nope", "-o", missing.to_str().unwrap()],
    );
    assert_eq!(unknown.status.code(), Some(1));
    assert!(
        stderr(&unknown).contains("visit not found"),
        "{}",
        stderr(&unknown)
    );
    assert!(!missing.exists());
}
