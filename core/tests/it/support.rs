//! Shared test fixtures: a store on a temp file, actors, and valid forms.

use carepath_core::model::{
    Actor, AssessmentForm, CarePlan, Channel, IntakeForm, IntakeId, UserId,
};
use carepath_core::store::{AssessmentSave, NewUser, Store};
use jiff::Timestamp;
use tempfile::TempDir;

pub struct TestStore {
    pub store: Store,
    pub dir: TempDir,
    pub admin: Actor,
    pub staff: Actor,
}

/// A fixed "now": Sunday 22 November 2026, 15:00 UTC (10:00 in New York).
pub const NOW: &str = "2026-11-22T15:00:00Z";

pub fn now() -> Timestamp {
    NOW.parse().unwrap()
}

pub fn at(text: &str) -> Timestamp {
    text.parse().unwrap()
}

pub fn open() -> TestStore {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path().join("carepath.db")).unwrap();
    store.set_now(Some(now()));
    let system = Actor::system(Channel::Cli);
    let admin = store
        .create_user(
            &system,
            NewUser {
                email: "admin@agency.test".into(),
                full_name: "Ada Admin".into(),
                password: Some("secret-admin".into()),
                is_admin: true,
            },
        )
        .unwrap();
    let staff = store
        .create_user(
            &system,
            NewUser {
                email: "staff@agency.test".into(),
                full_name: "Sam Staff".into(),
                password: Some("secret-staff".into()),
                is_admin: false,
            },
        )
        .unwrap();
    // The agency works in New York time.
    let settings = store.settings().unwrap();
    let mut general = settings.general.clone();
    general.time_zone = "America/New_York".into();
    let admin_actor = Actor::user(admin.id, Channel::Web, true);
    store
        .update_settings(
            &admin_actor,
            0,
            carepath_core::model::SettingsTab::General(general),
        )
        .unwrap();
    TestStore {
        store,
        dir,
        admin: admin_actor,
        staff: Actor::user(staff.id, Channel::Web, false),
    }
}

impl TestStore {
    /// A second connection to the same file.
    pub fn second_connection(&self) -> Store {
        let mut store = Store::open(self.store.path()).unwrap();
        store.set_now(Some(now()));
        store
    }

    pub fn staff_id(&self) -> UserId {
        self.staff.user_id.clone().unwrap()
    }
}

/// An intake form with every enforced field filled in.
pub fn intake_form(name: &str) -> IntakeForm {
    IntakeForm {
        date: "2026-11-22".into(),
        staff_member_taking_call: "Sam Staff".into(),
        caller_name: "Susan Reed".into(),
        relationship_to_client: "Daughter".into(),
        caller_phone: "(217) 555-0101".into(),
        caller_email: "susan.reed@example.com".into(),
        client_full_name: name.into(),
        date_of_birth: "1941-03-09".into(),
        services_required: vec!["Companionship".into(), "Meal Preparation".into()],
        schedule_mon: "4".into(),
        schedule_wed: "4".into(),
        total_hours_per_week: Some(8.0),
        how_did_you_hear: "Physician referral".into(),
        ..IntakeForm::default()
    }
}

/// An assessment form that passes the completion rules.
pub fn assessment_form(name: &str) -> AssessmentForm {
    AssessmentForm {
        assessment_date: "2026-11-23".into(),
        coordinator_name: "Priya Shah".into(),
        client_name: name.into(),
        phone: "(217) 555-0101".into(),
        caller_name: "Susan Reed".into(),
        caller_email: "susan.reed@example.com".into(),
        recommended_services: vec!["Companionship".into(), "Personal Care (ADLs)".into()],
        recommended_hours: Some(12.0),
        preferred_days: vec!["Monday".into(), "Wednesday".into(), "Friday".into()],
        ..AssessmentForm::default()
    }
}

/// Saves Settings → Workflow's stage alert as an administrator.
pub fn set_stage_alert_days(test: &mut TestStore, days: u32) {
    let admin = test.admin.clone();
    let version = test.store.settings().unwrap().versions["workflow"];
    let workflow = carepath_core::model::WorkflowSettings {
        stage_alert_days: days,
        ..test.store.settings().unwrap().workflow
    };
    test.store
        .update_settings(
            &admin,
            version,
            carepath_core::model::SettingsTab::Workflow(workflow),
        )
        .unwrap();
}

/// A client with a care plan sent to the family (at the store's "now").
pub fn sent_plan(test: &mut TestStore, name: &str) -> CarePlan {
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

/// A complete assessment of `intake_id`, saved at `when`.
pub fn assess(
    store: &mut Store,
    actor: &Actor,
    when: &str,
    intake_id: &IntakeId,
    name: &str,
) -> carepath_core::model::AssessmentId {
    store.set_now(Some(at(when)));
    store
        .save_assessment(
            actor,
            AssessmentSave {
                existing: None,
                intake_id: Some(intake_id.clone()),
                form: assessment_form(name),
                complete: true,
            },
        )
        .unwrap()
        .id
}
