//! Shared helpers: running the binary, a small agency built through core with a pinned
//! clock, and comparison with the expected files in fixtures/.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use carepath_core::model::{
    Actor, AssessmentId, CarePlanId, Channel, ContactInput, ContactType, ContractId,
    GeneralSettings, IntakeForm, IntakeId, NoteInput, Parents, SettingsTab,
};
use carepath_core::store::{AssessmentSave, Store};

/// The moment every sample record is made at.
pub const PINNED_NOW: &str = "2025-03-10T15:00:00Z";

pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_carepath")
}

/// Runs `carepath --db DB ARGS…` with nothing on standard input.
pub fn carepath(db: &Path, args: &[&str]) -> Output {
    carepath_in(db, args, None)
}

/// Runs the binary in a folder (for default file names).
pub fn carepath_in(db: &Path, args: &[&str], dir: Option<&Path>) -> Output {
    let mut command = Command::new(bin());
    command
        .arg("--db")
        .arg(db)
        .args(args)
        .env_remove("CAREPATH_DB")
        .stdin(Stdio::null());
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    command.output().expect("the carepath binary runs")
}

/// Runs the binary with `input` on standard input.
pub fn carepath_with_input(db: &Path, args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(bin())
        .arg("--db")
        .arg(db)
        .args(args)
        .env_remove("CAREPATH_DB")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the carepath binary runs");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input.as_bytes())
        .expect("input is written");
    child.wait_with_output().expect("the carepath binary ends")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Asserts a successful run and returns its standard output.
#[track_caller]
pub fn ok(output: Output) -> String {
    assert!(
        output.status.success(),
        "exit {:?}\nstdout: {}\nstderr: {}",
        output.status.code(),
        stdout(&output),
        stderr(&output)
    );
    stdout(&output)
}

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures")
}

/// Compares with an expected file in fixtures/; `UPDATE_EXPECT=1` rewrites it instead.
#[track_caller]
pub fn check_expected(name: &str, actual: &str) {
    let path = fixtures().join(name);
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("fixtures folder");
        std::fs::write(&path, actual).expect("expected file written");
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (run with UPDATE_EXPECT=1)", path.display()));
    assert_eq!(actual, expected, "differs from {}", path.display());
}

/// Replaces every UUID with `<id1>`, `<id2>`… in order of first appearance, so output
/// with generated ids compares with a committed file.
pub fn normalize_ids(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut seen: Vec<String> = Vec::new();
    let mut out = String::with_capacity(text.len());
    let mut index = 0;
    while index < bytes.len() {
        if index + 36 <= bytes.len() && is_uuid(&bytes[index..index + 36]) {
            let id = &text[index..index + 36];
            let n = match seen.iter().position(|s| s == id) {
                Some(n) => n + 1,
                None => {
                    seen.push(id.to_owned());
                    seen.len()
                }
            };
            out.push_str(&format!("<id{n}>"));
            index += 36;
        } else {
            let ch = text[index..].chars().next().expect("a char");
            out.push(ch);
            index += ch.len_utf8();
        }
    }
    out
}

fn is_uuid(bytes: &[u8]) -> bool {
    bytes.iter().enumerate().all(|(i, b)| match i {
        8 | 13 | 18 | 23 => *b == b'-',
        _ => b.is_ascii_hexdigit(),
    })
}

pub fn staff() -> Actor {
    Actor::system(Channel::Cli)
}

/// Opens a store whose clock is pinned at [`PINNED_NOW`], in UTC.
pub fn pinned_store(db: &Path) -> Store {
    let mut store = Store::open(db).expect("store opens");
    store.set_now(Some(PINNED_NOW.parse().expect("a moment")));
    store
}

/// The ids of the sample agency's records.
#[allow(dead_code)] // each test module reads the records it needs
pub struct Sample {
    pub rose: IntakeId,
    pub walter: IntakeId,
    pub assessment: AssessmentId,
    pub care_plan: CarePlanId,
    pub contract: ContractId,
}

/// Two clients built through core: Rose's intake is full of awkward cells (commas,
/// quotes, line breaks, lists, a formula); Walter goes all the way to a signed contract.
pub fn sample_agency(db: &Path) -> Sample {
    let mut store = pinned_store(db);
    let actor = staff();
    store
        .update_settings(
            &actor,
            0,
            SettingsTab::General(GeneralSettings {
                company_name: "Sunrise Home Care".to_owned(),
                contact_phone: "(555) 010-2000".to_owned(),
                postal_address: "12 Elm Street, Springfield, IL 62701".to_owned(),
                fax: "(555) 010-2001".to_owned(),
                time_zone: "UTC".to_owned(),
                ..GeneralSettings::default()
            }),
        )
        .expect("settings saved");
    let rose = store
        .create_intake(
            &actor,
            IntakeForm {
                date: "2025-03-10".to_owned(),
                staff_member_taking_call: "=cmd|' /C calc'!A0".to_owned(),
                caller_name: "Mark \"Junior\" Lee".to_owned(),
                relationship_to_client: "Son".to_owned(),
                caller_phone: "+1 555 0100".to_owned(),
                caller_email: "mark@example.com".to_owned(),
                how_did_you_hear: "Hospital, discharge planner".to_owned(),
                client_full_name: "Lee, Rose".to_owned(),
                date_of_birth: "1938-07-04".to_owned(),
                client_address: "4 Oak Lane\nApt 2".to_owned(),
                city: "Springfield".to_owned(),
                state: "IL".to_owned(),
                zip_code: "62701".to_owned(),
                living_situation: vec!["Home / Lives Alone".to_owned()],
                general_care_needs: "Needs help after a fall; uses a walker.".to_owned(),
                services_required: vec![
                    "Personal Care (ADLs)".to_owned(),
                    "Companionship".to_owned(),
                    "Meal Preparation".to_owned(),
                ],
                primary_diagnosis: "Hip fracture".to_owned(),
                schedule_mon: "9-1".to_owned(),
                schedule_wed: "9-1".to_owned(),
                total_hours_per_week: Some(12.5),
                source_of_payment: vec!["Private Pay".to_owned(), "LTC Insurance".to_owned()],
                insurance_company: "Acme LTC".to_owned(),
                reason_not_scheduled: "Family travelling".to_owned(),
                additional_comments: "Prefers mornings".to_owned(),
                follow_up_notes: "Call back\nafter 5pm".to_owned(),
                assigned_coordinator: "Priya Shah".to_owned(),
                referral_source_type: "Hospital".to_owned(),
                priority_level: "High".to_owned(),
                ..IntakeForm::default()
            },
        )
        .expect("Rose's intake")
        .id;
    store
        .add_contact(
            &actor,
            &rose,
            ContactInput {
                contact_type: ContactType::Emergency,
                full_name: "Ann Lee".to_owned(),
                relationship: "Daughter".to_owned(),
                phone: "555-0101".to_owned(),
                notes: "Keys \"under the mat\", call first".to_owned(),
                ..ContactInput::default()
            },
        )
        .expect("contact");
    store
        .add_note(
            &actor,
            &NoteInput {
                parents: Parents {
                    intake_id: Some(rose.clone()),
                    ..Parents::default()
                },
                subject: "First call".to_owned(),
                content: "Son said \"yes\", call Monday\n@home after 3".to_owned(),
                ..NoteInput::default()
            },
        )
        .expect("note");

    let walter = store
        .create_intake(
            &actor,
            IntakeForm {
                date: "2025-03-10".to_owned(),
                staff_member_taking_call: "Dana Cole".to_owned(),
                caller_name: "Ruth Ames".to_owned(),
                relationship_to_client: "Wife".to_owned(),
                caller_phone: "(555) 010-3000".to_owned(),
                caller_email: "ruth@example.com".to_owned(),
                client_full_name: "Walter Ames".to_owned(),
                date_of_birth: "1940-02-01".to_owned(),
                services_required: vec!["Companionship".to_owned()],
                schedule_tue: "10-2".to_owned(),
                schedule_thu: "10-2".to_owned(),
                total_hours_per_week: Some(8.0),
                ..IntakeForm::default()
            },
        )
        .expect("Walter's intake")
        .id;
    let mut form = store.assessment_prefill(&walter).expect("prefill");
    form.coordinator_name = "Priya Shah".to_owned();
    form.recommended_services = vec!["Companionship".to_owned(), "Light Housekeeping".to_owned()];
    form.recommended_hours = Some(8.0);
    form.preferred_days = vec!["Tuesday".to_owned(), "Thursday".to_owned()];
    form.assessor_name = "Priya Shah".to_owned();
    let assessment = store
        .save_assessment(
            &actor,
            AssessmentSave {
                existing: None,
                intake_id: Some(walter.clone()),
                form,
                complete: true,
            },
        )
        .expect("assessment")
        .id;
    let plan = store
        .generate_care_plan(&actor, &assessment)
        .expect("care plan");
    store.mark_care_plan_sent(&actor, &plan.id).expect("sent");
    store.approve_care_plan(&actor, &plan.id).expect("approved");
    let content = store.contract_preview(&plan.id).expect("preview").content;
    let contract = store
        .create_contract(&actor, &plan.id, None, &content)
        .expect("contract");
    store
        .mark_contract_sent(&actor, &contract.id)
        .expect("sent");
    store.sign_contract(&actor, &contract.id).expect("signed");
    Sample {
        rose,
        walter,
        assessment,
        care_plan: plan.id,
        contract: contract.id,
    }
}
