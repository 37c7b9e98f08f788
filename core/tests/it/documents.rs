//! Every document the agency prints, as the family and the office get it: rendered for a
//! realistic client, then read back with poppler (pdftotext for the words, pdftoppm for
//! the pages). Each page carries real content (no page with only the agency's name),
//! the letterhead names the agency, its address and phone, money has thousands
//! separators, moments are in words in the agency's zone, and the contract sent for
//! signature says nothing of a draft.

use std::path::Path;
use std::process::Command;

use carepath_core::model::{
    CarePlan, DaySchedule, GeneralSettings, RequestOrigin, SettingsTab, SignatureInput,
    SignatureMethod, WeeklySchedule,
};
use carepath_core::pdf::PrintKind;
use carepath_core::rules::format::format_money;
use carepath_core::store::{AssessmentSave, DocumentEmailRequest, EmailedDocument};

use crate::support::{TestStore, assessment_form, intake_form, open};

const AGENCY: &str = "Sunrise Home Care";
const PHONE: &str = "(555) 010-2000";
const CLIENT: &str = "Clarence Whitaker";

fn poppler_present() -> bool {
    Command::new("pdftoppm").arg("-v").output().is_ok()
        && Command::new("pdftotext").arg("-v").output().is_ok()
}

/// The agency's details and a logo with a transparent edge.
fn agency(test: &mut TestStore) {
    let admin = test.admin.clone();
    let settings = test.store.settings().unwrap();
    test.store
        .update_settings(
            &admin,
            settings.versions["general"],
            SettingsTab::General(GeneralSettings {
                company_name: AGENCY.into(),
                contact_phone: PHONE.into(),
                contact_email: "office@sunrise.test".into(),
                fax: "(555) 010-2001".into(),
                postal_address: "12 Elm Street\nSpringfield, IL 62701".into(),
                ..settings.general
            }),
        )
        .unwrap();
    let logo = image::RgbaImage::from_fn(240, 80, |x, y| {
        if x < 8 || y < 8 {
            image::Rgba([0, 0, 0, 0])
        } else {
            image::Rgba([20, 90, 170, 255])
        }
    });
    let mut png = Vec::new();
    image::DynamicImage::ImageRgba8(logo)
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    let settings = test.store.set_logo(&admin, &png).unwrap();
    assert_eq!(settings.logo.unwrap().width, 240);
}

/// A client through intake, assessment and a care plan of 48 hours a week.
fn client(test: &mut TestStore) -> (String, String, CarePlan) {
    let (staff, admin) = (test.staff.clone(), test.admin.clone());
    test.store.seed_pricing_templates(&admin).unwrap();
    let intake = test
        .store
        .create_intake(&staff, intake_form(CLIENT))
        .unwrap();
    let assessment = test
        .store
        .save_assessment(
            &staff,
            AssessmentSave {
                existing: None,
                intake_id: Some(intake.id.clone()),
                form: assessment_form(CLIENT),
                complete: true,
            },
        )
        .unwrap();
    let mut plan = test.store.care_plan_prefill(&assessment.id).unwrap().plan;
    let day = |time: &str, hours| DaySchedule {
        time: time.into(),
        hours,
    };
    plan.schedule = WeeklySchedule {
        monday: day("8am-4pm", 8.0),
        tuesday: day("8am-4pm", 8.0),
        wednesday: day("8am-4pm", 8.0),
        thursday: day("8am-4pm", 8.0),
        friday: day("8am-4pm", 8.0),
        saturday: day("9am-5pm", 8.0),
        ..WeeklySchedule::default()
    };
    plan.pricing_template_id = None;
    plan.hourly_rate = Some(41.13);
    plan.family_contact_name = "Jane Whitaker".into();
    plan.family_contact_email = "family@example.com".into();
    plan.proposed_start_date = "2026-12-01".into();
    let plan = test
        .store
        .create_care_plan(&staff, Some(&assessment.id), plan)
        .unwrap();
    let plan = test.store.mark_care_plan_sent(&staff, &plan.id).unwrap();
    (intake.id.to_string(), assessment.id.to_string(), plan)
}

fn run(command: &mut Command) -> String {
    let output = command.output().expect("poppler runs");
    assert!(output.status.success(), "{command:?} failed");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn page_count(path: &Path) -> usize {
    run(Command::new("pdfinfo").arg(path))
        .lines()
        .find_map(|line| line.strip_prefix("Pages:"))
        .and_then(|pages| pages.trim().parse().ok())
        .expect("a page count")
}

/// What a page says besides its running header and footer (the agency's name, address,
/// phone and the page number).
fn page_body(path: &Path, page: usize) -> String {
    let text = run(Command::new("pdftotext")
        .args(["-f", &page.to_string(), "-l", &page.to_string(), "-layout"])
        .arg(path)
        .arg("-"));
    text.lines()
        .filter(|line| {
            !(line.contains(" · Page ")
                || line.contains("12 Elm Street")
                || line.contains("Phone (555) 010-2000"))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Dark pixels between each page's header and footer, from a 30 dpi rendering.
fn inked_pixels_per_page(path: &Path, dir: &Path, name: &str) -> Vec<usize> {
    let prefix = dir.join(name);
    run(Command::new("pdftoppm")
        .args(["-r", "30", "-png"])
        .arg(path)
        .arg(&prefix));
    let mut pages: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|file| {
            file.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(&format!("{name}-"))
        })
        .collect();
    pages.sort();
    pages
        .iter()
        .map(|file| {
            let page = image::open(file).unwrap().to_luma8();
            let (top, bottom) = (page.height() * 9 / 100, page.height() * 90 / 100);
            page.enumerate_pixels()
                .filter(|(_, y, pixel)| *y > top && *y < bottom && pixel.0[0] < 160)
                .count()
        })
        .collect()
}

/// Whether the text holds an ISO date ("2026-11-22").
fn has_iso_date(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.windows(10).any(|w| {
        w.iter().enumerate().all(|(i, b)| match i {
            4 | 7 => *b == b'-',
            _ => b.is_ascii_digit(),
        })
    })
}

#[test]
fn every_document_prints_with_the_letterhead_real_pages_and_plain_figures() {
    if !poppler_present() {
        eprintln!("SKIPPED: pdftoppm/pdftotext (poppler-utils) are not installed");
        return;
    }
    let mut test = open();
    agency(&mut test);
    let (intake_id, assessment_id, plan) = client(&mut test);
    let staff = test.staff.clone();
    let weekly = format_money(plan.weekly_cost);
    let monthly = format_money(plan.monthly_cost);
    assert_eq!(weekly, "$1,974.24", "$41.13 an hour for 48 hours");
    assert!(monthly.contains(','), "{monthly}");

    // The contract, emailed for signature the way the send dialog does it.
    let preview = test.store.contract_preview(&plan.id).unwrap();
    let contract = test
        .store
        .create_contract(
            &staff,
            &plan.id,
            Some(preview.care_plan_version),
            &preview.content,
        )
        .unwrap();
    let (link, prepared) = test
        .store
        .prepare_document_email_with_link(
            &staff,
            EmailedDocument::Contract(contract.id.clone()),
            DocumentEmailRequest {
                to: None,
                subject: None,
                body: "Here is the agreement for your father.".into(),
                version: Some(contract.version),
            },
        )
        .unwrap();
    test.store.mark_contract_sent(&staff, &contract.id).unwrap();
    let sha = test
        .store
        .open_contract_link(&link.token)
        .unwrap()
        .document_sha256;
    let signed = test
        .store
        .sign_by_link(
            &link.token,
            &SignatureInput {
                signer_name: "Jane Whitaker".into(),
                relationship: "Daughter".into(),
                consent: true,
                method: SignatureMethod::Drawn,
                typed_signature: String::new(),
                drawn_signature: vec![vec![[0.05, 0.7], [0.3, 0.2], [0.6, 0.8], [0.9, 0.3]]],
                document_sha256: sha,
            },
            &RequestOrigin {
                ip_address: "203.0.113.7".into(),
                user_agent: "Mozilla/5.0 (test)".into(),
            },
        )
        .unwrap();

    let print = |kind: PrintKind, id: &str| {
        let mut bytes = Vec::new();
        test.store.print(kind, id, &mut bytes).unwrap();
        bytes
    };
    let documents: Vec<(&str, Vec<u8>, Vec<&str>)> = vec![
        (
            "intake",
            print(PrintKind::Intake, &intake_id),
            vec!["Client Intake Form", "November 22, 2026", "March 9, 1941"],
        ),
        (
            "assessment",
            print(PrintKind::Assessment, &assessment_id),
            vec!["Non-Medical Assessment Form", "November 23, 2026"],
        ),
        (
            "care-plan",
            print(PrintKind::CarePlan, plan.id.as_str()),
            vec![
                "Dear Jane Whitaker,",
                "Friendly Companionship",
                &weekly,
                &monthly,
                "December 1, 2026",
            ],
        ),
        (
            "contract-sent",
            prepared.attachment.bytes.clone(),
            vec![
                "Home Care Service Agreement",
                "1. Services Provided",
                "between Sunrise Home Care (the Agency) and Clarence Whitaker",
                &weekly,
                &monthly,
                "Monday: 8am-4pm (8 hours)",
            ],
        ),
        (
            "contract-signed",
            signed.signed_pdf.clone(),
            vec![
                "Signature Certificate",
                "Jane Whitaker",
                // 15:00 UTC is 10:00 in New York.
                "November 22, 2026 at 10:00 AM EST",
                &weekly,
            ],
        ),
    ];
    let temp = tempfile::tempdir().unwrap();
    let dir = match std::env::var_os("CAREPATH_KEEP_PDFS") {
        // To look at the pages: CAREPATH_KEEP_PDFS=folder keeps the PDFs and PNGs there.
        Some(keep) => {
            std::fs::create_dir_all(&keep).unwrap();
            tempfile::tempdir_in(keep).unwrap().keep()
        }
        None => temp.path().to_owned(),
    };
    for (name, bytes, expected) in &documents {
        let path = dir.join(format!("{name}.pdf"));
        std::fs::write(&path, bytes).unwrap();
        // Words as read, whatever line a phrase wrapped onto.
        let text = run(Command::new("pdftotext").arg(&path).arg("-"))
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        for want in [AGENCY, PHONE, "12 Elm Street", CLIENT]
            .iter()
            .chain(expected.iter())
        {
            assert!(text.contains(want), "{name} lacks {want:?}:\n{text}");
        }
        assert!(!has_iso_date(&text), "{name} prints an ISO date:\n{text}");
        // A figure without its thousands separator ("$1974.48").
        assert!(
            !text.contains(&weekly.replace(',', "")),
            "{name} prints money without separators:\n{text}"
        );
        let pages = page_count(&path);
        for page in 1..=pages {
            let body = page_body(&path, page);
            let words = body.split_whitespace().count();
            assert!(
                words >= 8,
                "{name} page {page} of {pages} is all but blank:\n{body}"
            );
        }
        let inked = inked_pixels_per_page(&path, &dir, name);
        assert_eq!(inked.len(), pages, "{name}: one image per page");
        for (page, ink) in inked.iter().enumerate() {
            assert!(
                *ink > 40,
                "{name} page {} looks blank ({ink} dark pixels)",
                page + 1
            );
        }
    }
    // The family's copies say nothing of the office's workflow.
    for (name, bytes, _) in &documents[3..] {
        let path = dir.join(format!("{name}.pdf"));
        std::fs::write(&path, bytes).unwrap();
        let text = run(Command::new("pdftotext").arg(&path).arg("-"));
        assert!(!text.contains("Status"), "{name}:\n{text}");
        assert!(!text.to_lowercase().contains("draft"), "{name}:\n{text}");
    }
    // The signed contract ends on its certificate, which starts a page of its own.
    let signed_path = dir.join("contract-signed.pdf");
    let pages = page_count(&signed_path);
    assert!(page_body(&signed_path, pages).contains("Signature Certificate"));
    assert!(!page_body(&signed_path, pages - 1).contains("Signature Certificate"));
}

/// The packet an assessor takes to a visit: the client, the address with its map link,
/// the intake's care needs, contacts, the agency's contact block and every section of the
/// assessment form as a worksheet, pre-filled from the intake. Hostile text (10,000
/// characters of care needs and notes, with and without newlines, a word as wide as a
/// page) prints on pages that all carry content.
#[test]
fn the_visit_packet_prints_the_visit_the_intake_and_the_worksheet() {
    use carepath_core::model::{ContactInput, ContactType, VisitInput};

    if !poppler_present() {
        eprintln!("SKIPPED: pdftoppm/pdftotext (poppler-utils) are not installed");
        return;
    }
    let mut test = open();
    agency(&mut test);
    let staff = test.staff.clone();
    let place = "48 Birch Lane, Apt 3, Springfield, IL 62704";
    let hostile = format!(
        "{}\n{}\n{}",
        "Needs help with stairs and bathing. ".repeat(120),
        "W".repeat(3_000),
        "line\n".repeat(800)
    );
    assert!(hostile.chars().count() > 10_000);
    let clients = [
        (CLIENT, "Needs help with bathing and meals.".to_owned()),
        ("Opal Ferreira", hostile.clone()),
    ];
    let temp = tempfile::tempdir().unwrap();
    let dir = match std::env::var_os("CAREPATH_KEEP_PDFS") {
        Some(keep) => {
            std::fs::create_dir_all(&keep).unwrap();
            tempfile::tempdir_in(keep).unwrap().keep()
        }
        None => temp.path().to_owned(),
    };
    for (index, (client, care_needs)) in clients.iter().enumerate() {
        let mut form = intake_form(client);
        form.client_address = "48 Birch Lane, Apt 3".into();
        form.city = "Springfield".into();
        form.state = "IL".into();
        form.zip_code = "62704".into();
        form.general_care_needs = care_needs.clone();
        let intake = test.store.create_intake(&staff, form).unwrap();
        test.store
            .add_contact(
                &staff,
                &intake.id,
                ContactInput {
                    contact_type: ContactType::Emergency,
                    full_name: "Mark Whitaker".into(),
                    relationship: "Son".into(),
                    phone: "(217) 555-0199".into(),
                    notes: if index == 0 {
                        "Has a key".into()
                    } else {
                        hostile.clone()
                    },
                    ..ContactInput::default()
                },
            )
            .unwrap();
        let visit = test
            .store
            .schedule_visit(
                &staff,
                &intake.id,
                &VisitInput {
                    date: "2026-11-24".into(),
                    start_time: "10:00".into(),
                    duration_minutes: 90,
                    place: place.into(),
                    assessor_id: test.staff_id(),
                    notes: if index == 0 {
                        "Ring twice; the dog is friendly.".into()
                    } else {
                        hostile.clone()
                    },
                },
            )
            .unwrap()
            .visit;
        let mut bytes = Vec::new();
        test.store
            .print(PrintKind::Packet, visit.id.as_str(), &mut bytes)
            .unwrap_or_else(|error| panic!("{client}: {error}"));
        let path = dir.join(format!("packet-{index}.pdf"));
        std::fs::write(&path, &bytes).unwrap();
        let pages = page_count(&path);
        for page in 1..=pages {
            let body = page_body(&path, page);
            assert!(
                body.split_whitespace().count() >= 8,
                "{client}'s packet page {page} of {pages} is all but blank:\n{body}"
            );
        }
        let inked = inked_pixels_per_page(&path, &dir, &format!("packet-{index}"));
        assert_eq!(inked.len(), pages);
        assert!(inked.iter().all(|ink| *ink > 40), "{client}: {inked:?}");
        if index > 0 {
            continue;
        }
        let text = run(Command::new("pdftotext").arg(&path).arg("-"))
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        for want in [
            CLIENT,
            place,
            "Assessment Visit Packet",
            "Tuesday, November 24, 2026",
            "10:00 AM – 11:30 AM EST",
            "1 hour 30 minutes",
            "Sam Staff",
            "Ring twice; the dog is friendly.",
            "Needs help with bathing and meals.",
            "Companionship; Meal Preparation",
            "Susan Reed",
            "Mark Whitaker",
            "Has a key",
            "Agency Contact",
            AGENCY,
            "office@sunrise.test",
            "Assessment Worksheet",
            // Every section of the assessment form.
            "Assessment Information",
            "Living Situation & Environment",
            "Activities of Daily Living (ADLs)",
            "Instrumental Activities (IADLs)",
            "Equipment",
            "Cognitive",
            "Family Support",
            "Safety",
            "Goals",
            "Recommended Services & Schedule",
            "Completed By",
            // Pre-filled from the intake, and lines where it had nothing.
            "Date of Birth: March 9, 1941",
            "Preferred Days: Monday; Wednesday",
            "Home Type: ________________________",
        ] {
            assert!(text.contains(want), "the packet lacks {want:?}:\n{text}");
        }
        // The map link is the address, URL-encoded, on OpenStreetMap's search.
        let url = "https://www.openstreetmap.org/search?query=48+Birch+Lane%2C+Apt+3%2C+Springfield%2C+IL+62704";
        assert!(
            text.replace(' ', "").contains(url),
            "the packet lacks the map link:\n{text}"
        );
        let raw = String::from_utf8_lossy(&bytes);
        assert!(raw.contains(url), "the map link is not clickable");
        // The worksheet starts a page of its own, after the visit's pages.
        assert!(!page_body(&path, 1).contains("Assessment Worksheet"));
    }
}
