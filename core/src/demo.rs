//! A realistic demo agency built through the same operations staff use: staff, clients in
//! every pipeline stage with history, follow-ups due today and overdue, contacts,
//! communications of every kind, templates. Deterministic for a given seed.

use jiff::{SignedDuration, Timestamp};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};

use crate::error::Result;
use crate::model::options;
use crate::model::{
    Actor, AssessmentForm, CallLogInput, Channel, ContactInput, ContactType, EmailInput,
    IntakeForm, IntakeStatus, MessageTemplateInput, MessageType, NoteInput, Parents, SmsInput,
    TemplateStage, User,
};
use crate::store::{AssessmentSave, NewUser, Store};

/// The demo admin's sign-in, printed by `carepath demo`.
pub const DEMO_ADMIN_EMAIL: &str = "admin@carepath.test";
pub const DEMO_PASSWORD: &str = "carepath-demo";
/// A staff member without admin rights, for trying what staff see.
pub const DEMO_STAFF_EMAIL: &str = "coordinator@carepath.test";

#[derive(Debug, Clone)]
pub struct DemoOptions {
    pub clients: usize,
    pub seed: u64,
}

impl Default for DemoOptions {
    fn default() -> Self {
        Self {
            clients: 60,
            seed: 7,
        }
    }
}

#[derive(Debug, Clone)]
pub struct DemoReport {
    pub admin_email: String,
    pub staff_email: String,
    pub password: String,
    pub clients: usize,
    pub users: usize,
}

const FIRST_NAMES: &[&str] = &[
    "Margaret", "Harold", "Dorothy", "Walter", "Evelyn", "Frank", "Ruth", "George", "Helen",
    "Arthur", "Betty", "Raymond", "Shirley", "Eugene", "Gloria", "Ernest", "Joan", "Louis",
    "Mildred", "Howard", "Lillian", "Carl", "Irene", "Stanley", "Alice", "Leonard", "Rose",
    "Ralph", "Marie", "Albert", "Frances", "Clarence", "Edna", "Ray", "Jean", "Vincent",
];
const LAST_NAMES: &[&str] = &[
    "Anderson",
    "Brooks",
    "Campbell",
    "Delgado",
    "Ellison",
    "Fischer",
    "Garcia",
    "Hughes",
    "Ibarra",
    "Jensen",
    "Kowalski",
    "Lambert",
    "Morrison",
    "Nakamura",
    "O'Brien",
    "Patel",
    "Quinn",
    "Ramirez",
    "Sullivan",
    "Thompson",
    "Underwood",
    "Vasquez",
    "Whitaker",
    "Young",
    "Zimmerman",
    "Bennett",
    "Chen",
    "Donovan",
    "Foster",
    "Gallagher",
    "Holloway",
    "Iverson",
];
const CALLER_FIRST: &[&str] = &[
    "Susan", "Michael", "Linda", "David", "Karen", "James", "Patricia", "Robert", "Lisa", "Thomas",
    "Nancy", "Daniel", "Julie", "Mark", "Laura", "Kevin",
];
const RELATIONSHIPS: &[&str] = &[
    "Daughter", "Son", "Spouse", "Niece", "Nephew", "Friend", "Neighbor",
];
const SOURCES: &[&str] = &[
    "Hospital discharge planner",
    "Physician referral",
    "Google search",
    "Friend or family",
    "Senior center",
    "Facebook",
    "Returning client",
];
const DIAGNOSES: &[&str] = &[
    "Mild dementia",
    "Parkinson's disease",
    "Recovery after hip replacement",
    "COPD",
    "Congestive heart failure",
    "Post-stroke weakness",
    "Diabetes with neuropathy",
    "General frailty",
];
const CITIES: &[(&str, &str, &str)] = &[
    ("Springfield", "IL", "62704"),
    ("Naperville", "IL", "60540"),
    ("Evanston", "IL", "60201"),
    ("Oak Park", "IL", "60302"),
    ("Joliet", "IL", "60435"),
];
const STREETS: &[&str] = &[
    "Maple Ave",
    "Oak St",
    "Elm Dr",
    "Cedar Ln",
    "Lakeview Rd",
    "Park Blvd",
];

/// Builds the demo agency. Existing data is kept; run it on a new file for a clean demo.
pub fn build(store: &mut Store, options: &DemoOptions) -> Result<DemoReport> {
    let system = Actor::system(Channel::Cli);
    let mut rng = StdRng::seed_from_u64(options.seed);
    let real_now = store.now();

    let users = create_staff(store, &system)?;
    let admin = Actor::user(users[0].id.clone(), Channel::Cli, true);
    store.seed_pricing_templates(&admin)?;
    if store.message_templates()?.is_empty() {
        for template in message_templates() {
            store.create_message_template(&admin, template)?;
        }
    }
    let template = store.current_contract_template()?;
    if template.version == 0 {
        store.save_contract_template(
            &admin,
            0,
            crate::model::ContractTemplateInput {
                name: template.name,
                sections: template.sections,
            },
        )?;
    }

    // One bulk load: the list and search indexes are built once from the finished tables.
    store.bulk_load(options.clients, |store| {
        for index in 0..options.clients {
            let staff = &users[1 + index % (users.len() - 1)];
            let actor = Actor::user(staff.id.clone(), Channel::Cli, false);
            demo_client(
                store,
                &actor,
                &admin,
                &mut rng,
                index,
                options.clients,
                real_now,
            )?;
        }
        Ok(())
    })?;
    store.set_now(None);
    Ok(DemoReport {
        admin_email: DEMO_ADMIN_EMAIL.to_owned(),
        staff_email: DEMO_STAFF_EMAIL.to_owned(),
        password: DEMO_PASSWORD.to_owned(),
        clients: options.clients,
        users: users.len(),
    })
}

fn create_staff(store: &mut Store, system: &Actor) -> Result<Vec<User>> {
    let people = [
        (DEMO_ADMIN_EMAIL, "Alex Morgan", true),
        (DEMO_STAFF_EMAIL, "Jordan Lee", false),
        ("priya.shah@carepath.test", "Priya Shah", false),
        ("marcus.bell@carepath.test", "Marcus Bell", false),
        ("elena.ruiz@carepath.test", "Elena Ruiz", false),
    ];
    let mut users = Vec::new();
    for (email, name, is_admin) in people {
        let user = match store.user_by_email(email) {
            Ok(user) => user,
            Err(_) => store.create_user(
                system,
                NewUser {
                    email: email.to_owned(),
                    full_name: name.to_owned(),
                    password: Some(DEMO_PASSWORD.to_owned()),
                    is_admin,
                },
            )?,
        };
        users.push(user);
    }
    Ok(users)
}

/// The message templates the demo agency starts with: an email and a text message for
/// every stage. Their prompts guide an outside AI service; the built-in writer writes
/// each stage's letter itself.
pub(crate) fn message_templates() -> Vec<MessageTemplateInput> {
    let template =
        |name: &str, message_type, stage, subject: &str, prompt: &str| MessageTemplateInput {
            name: name.to_owned(),
            message_type,
            stage,
            subject_template: subject.to_owned(),
            ai_prompt_template: prompt.to_owned(),
            is_active: true,
        };
    vec![
        template(
            "Check-in",
            MessageType::Email,
            TemplateStage::General,
            "Checking in about {client_name}",
            "Check in warmly with the family about {client_name}'s care and invite questions.",
        ),
        template(
            "Check-in text",
            MessageType::Sms,
            TemplateStage::General,
            "",
            "Send a short, friendly check-in about {client_name} with our phone number.",
        ),
        template(
            "Intake follow-up",
            MessageType::Email,
            TemplateStage::Intake,
            "Following up on your call about care for {client_name}",
            "Thank the family for calling about {client_name}, summarise the care they asked about and offer times for a free in-home assessment.",
        ),
        template(
            "Intake follow-up text",
            MessageType::Sms,
            TemplateStage::Intake,
            "",
            "Thank the family for calling about {client_name} and ask when suits them for a free in-home assessment.",
        ),
        template(
            "Assessment reminder email",
            MessageType::Email,
            TemplateStage::Assessment,
            "Your in-home assessment for {client_name}",
            "Remind the family of the in-home assessment for {client_name}, say what we will talk about and how to change the time.",
        ),
        template(
            "Assessment reminder",
            MessageType::Sms,
            TemplateStage::Assessment,
            "",
            "Remind the family of the in-home assessment for {client_name} and give our phone number.",
        ),
        template(
            "Care plan proposal",
            MessageType::Email,
            TemplateStage::CarePlan,
            "Home Care Proposal",
            "Present the care plan for {client_name}: services, weekly schedule and cost, warmly, and ask them to approve it with the personal link below the email.",
        ),
        template(
            "Care plan proposal text",
            MessageType::Sms,
            TemplateStage::CarePlan,
            "",
            "Tell the family the care plan proposal for {client_name} is in their email.",
        ),
        template(
            "Contract ready",
            MessageType::Email,
            TemplateStage::Contract,
            "Home Care Service Agreement - Ready for Signature",
            "Tell the family the service agreement for {client_name} is ready to sign and what happens next.",
        ),
        template(
            "Contract ready text",
            MessageType::Sms,
            TemplateStage::Contract,
            "",
            "Tell the family the service agreement for {client_name} is ready to sign from the link in their email.",
        ),
    ]
}

fn pick<'a>(rng: &mut StdRng, items: &'a [&'a str]) -> &'a str {
    items.choose(rng).copied().unwrap_or_default()
}

fn phone(rng: &mut StdRng) -> String {
    format!("(217) 555-{:04}", rng.random_range(0..10_000))
}

/// One client, walked as far down the pipeline as its share of the demo says.
fn demo_client(
    store: &mut Store,
    staff: &Actor,
    admin: &Actor,
    rng: &mut StdRng,
    index: usize,
    total: usize,
    real_now: Timestamp,
) -> Result<()> {
    // Stage mix: half still at intake, then fewer at each later stage.
    let roll: f64 = rng.random();
    let furthest = match roll {
        r if r < 0.45 => 0,
        r if r < 0.65 => 1,
        r if r < 0.80 => 2,
        _ => 3,
    };
    // Later stages started longer ago; recent clients sit at intake.
    let age_days: i64 = match furthest {
        0 => rng.random_range(0..10),
        1 => rng.random_range(5..40),
        2 => rng.random_range(15..80),
        _ => rng.random_range(30..180),
    };
    let minutes = rng.random_range(8 * 60..18 * 60);
    let created = real_now
        .checked_sub(SignedDuration::from_hours(24 * age_days))
        .and_then(|t| t.checked_sub(SignedDuration::from_mins(rng.random_range(0..600))))
        .unwrap_or(real_now);
    let at = |days: i64| -> Timestamp {
        let moment = created
            .checked_add(SignedDuration::from_hours(24 * days))
            .and_then(|t| t.checked_add(SignedDuration::from_mins(minutes % 90)))
            .unwrap_or(created);
        moment.min(real_now)
    };

    store.set_now(Some(created));
    let clock = store.clock()?;
    let first = pick(rng, FIRST_NAMES);
    let last = pick(rng, LAST_NAMES);
    let client_name = format!("{first} {last}");
    let caller_first = pick(rng, CALLER_FIRST);
    let relationship = pick(rng, RELATIONSHIPS);
    let caller_last = if relationship == "Friend" || relationship == "Neighbor" {
        pick(rng, LAST_NAMES)
    } else {
        last
    };
    let caller_name = format!("{caller_first} {caller_last}");
    let caller_email = format!(
        "{}.{}{}@example.com",
        caller_first.to_lowercase(),
        caller_last.to_lowercase().replace('\'', ""),
        index
    );
    let caller_phone = phone(rng);
    let (city, state, zip) = *CITIES.choose(rng).unwrap_or(&CITIES[0]);
    let birth_year = rng.random_range(1930..1958);
    let today = clock.today();
    let services: Vec<String> = options::SERVICES_REQUIRED
        .iter()
        .filter(|_| rng.random_bool(0.35))
        .map(|s| (*s).to_owned())
        .collect();
    let services = if services.is_empty() {
        vec!["Companionship".to_owned(), "Light Housekeeping".to_owned()]
    } else {
        services
    };
    let hours = [0, 2, 3, 4, 4, 6, 8];
    let mut day_hours = [0u32; 7];
    for slot in day_hours.iter_mut() {
        *slot = *hours.choose(rng).unwrap_or(&0);
    }
    if day_hours.iter().all(|h| *h == 0) {
        day_hours[0] = 4;
        day_hours[2] = 4;
    }
    let schedule = |h: u32| {
        if h == 0 {
            String::new()
        } else {
            format!("{h} hours")
        }
    };
    let start = today
        .checked_add(jiff::Span::new().days(rng.random_range(3..21)))
        .unwrap_or(today);

    // A few clients owe a follow-up today or are overdue for one.
    let follow_up = index % 29 == 3 || index % 23 == 5;
    let (follow_up_date, follow_up_time, follow_up_notes) = if follow_up && furthest < 3 {
        let real_today =
            crate::rules::clock::AgencyClock::new(real_now, clock.tz().clone()).today();
        // An overdue follow-up was set in the past, but never before the intake existed.
        let date = if index % 29 == 3 {
            real_today
        } else {
            real_today
                .checked_sub(jiff::Span::new().days(rng.random_range(1..5)))
                .unwrap_or(real_today)
                .max(today)
        };
        (
            date.to_string(),
            format!("{:02}:30", rng.random_range(9..17)),
            "Call the family to confirm the assessment time.".to_owned(),
        )
    } else {
        (String::new(), String::new(), String::new())
    };

    let form = IntakeForm {
        date: today.to_string(),
        staff_member_taking_call: "Jordan Lee".to_owned(),
        caller_name: caller_name.clone(),
        relationship_to_client: relationship.to_owned(),
        caller_phone: caller_phone.clone(),
        caller_email: caller_email.clone(),
        how_did_you_hear: pick(rng, SOURCES).to_owned(),
        client_full_name: client_name.clone(),
        date_of_birth: format!(
            "{birth_year}-{:02}-{:02}",
            rng.random_range(1..13),
            rng.random_range(1..29)
        ),
        client_address: format!("{} {}", rng.random_range(100..9999), pick(rng, STREETS)),
        city: city.to_owned(),
        state: state.to_owned(),
        zip_code: zip.to_owned(),
        client_phone: phone(rng),
        living_situation: vec![pick(rng, &options::LIVING_SITUATION[..3]).to_owned()],
        general_care_needs: "Needs help with bathing, meals and getting to appointments."
            .to_owned(),
        services_required: services.clone(),
        primary_diagnosis: pick(rng, DIAGNOSES).to_owned(),
        primary_reason_care_needed: "Family cannot be there during the day.".to_owned(),
        schedule_mon: schedule(day_hours[0]),
        schedule_tue: schedule(day_hours[1]),
        schedule_wed: schedule(day_hours[2]),
        schedule_thu: schedule(day_hours[3]),
        schedule_fri: schedule(day_hours[4]),
        schedule_sat: schedule(day_hours[5]),
        schedule_sun: schedule(day_hours[6]),
        anticipated_start_date: start.to_string(),
        total_hours_per_week: Some(f64::from(day_hours.iter().sum::<u32>())),
        source_of_payment: vec![pick(rng, options::SOURCE_OF_PAYMENT).to_owned()],
        next_follow_up_date: follow_up_date,
        next_follow_up_time: follow_up_time,
        follow_up_notes,
        assigned_coordinator: "Priya Shah".to_owned(),
        priority_level: pick(rng, options::PRIORITY_LEVELS).to_owned(),
        ..IntakeForm::default()
    };
    let intake = store.create_intake(staff, form)?;
    let parents = Parents::of_intake(&intake.id);

    // Contacts and communications for a share of clients (all of a small demo).
    let talkative = total <= 2_000 || index.is_multiple_of(20);
    if talkative {
        store.add_contact(
            staff,
            &intake.id,
            ContactInput {
                contact_type: ContactType::Primary,
                full_name: caller_name.clone(),
                relationship: relationship.to_owned(),
                phone: caller_phone.clone(),
                email: caller_email.clone(),
                is_primary: true,
                ..ContactInput::default()
            },
        )?;
        if rng.random_bool(0.5) {
            store.add_contact(
                staff,
                &intake.id,
                ContactInput {
                    contact_type: ContactType::Emergency,
                    full_name: format!("{} {last}", pick(rng, CALLER_FIRST)),
                    relationship: "Son".to_owned(),
                    phone: phone(rng),
                    ..ContactInput::default()
                },
            )?;
        }
        store.set_now(Some(at(0)));
        store.log_call(
            staff,
            &CallLogInput {
                parents: parents.clone(),
                phone: caller_phone.clone(),
                notes: format!("Initial inquiry from {caller_name} about care for {client_name}."),
                duration: format!("{} min", rng.random_range(5..25)),
                internal: false,
            },
        )?;
        store.add_note(
            staff,
            &NoteInput {
                parents: parents.clone(),
                content: "Family prefers calls after 5pm.".to_owned(),
                ..NoteInput::default()
            },
        )?;
        let email = store.record_email(staff, &EmailInput {
            parents: parents.clone(),
            to: caller_email.clone(),
            subject: format!("Following up on your call about care for {client_name}"),
            body: format!("Dear {caller_name},\n\nThank you for calling us about {client_name}. We would be glad to visit for a free assessment.\n\nWarm regards,\nJordan Lee"),
            attachments: Vec::new(),
        })?;
        if index.is_multiple_of(17) {
            store.mark_communication_failed(
                &email.id,
                "The mail server refused the recipient address.",
            )?;
        } else {
            store.mark_communication_sent(
                &email.id,
                serde_json::json!({ "email_id": format!("demo-{index}") }),
            )?;
        }
        let sms = store.record_sms(staff, &SmsInput {
            parents: parents.clone(),
            to: caller_phone.clone(),
            message: format!("Hi {caller_first}, this is Jordan from the care agency. Is Thursday at 10am good for the assessment?"),
        })?;
        store.mark_communication_sent(
            &sms.id,
            serde_json::json!({ "messageSid": format!("SMdemo{index}") }),
        )?;
    }

    if index % 33 == 7 {
        store.set_now(Some(at(1)));
        store.set_intake_status(staff, &intake.id, intake.version, IntakeStatus::Declined)?;
        return Ok(());
    }
    if furthest == 0 {
        return Ok(());
    }

    // Assessment, a few days after the call.
    let assessed = at(rng.random_range(1..5));
    store.set_now(Some(assessed));
    let mut assessment = store.assessment_prefill(&intake.id)?;
    assessment.coordinator_name = "Priya Shah".to_owned();
    assessment.time_in = "10:00".to_owned();
    assessment.time_out = "11:30".to_owned();
    assessment.fall_risk = pick(rng, options::FALL_RISK).to_owned();
    assessment.adls.bathing.level = pick(rng, options::ACTIVITY_LEVELS).to_owned();
    assessment.adls.mobility.level = pick(rng, options::ACTIVITY_LEVELS).to_owned();
    if assessment.recommended_services.is_empty() {
        assessment.recommended_services = vec!["Companionship".to_owned()];
    }
    if assessment.preferred_days.is_empty() {
        assessment.preferred_days = vec!["Monday".to_owned(), "Wednesday".to_owned()];
    }
    if assessment.recommended_hours.unwrap_or(0.0) <= 0.0 {
        assessment.recommended_hours = Some(8.0);
    }
    assessment.preferred_times = vec![options::PREFERRED_TIMES[0].to_owned()];
    let complete = furthest > 1 || rng.random_bool(0.6);
    let saved = store.save_assessment(
        staff,
        AssessmentSave {
            existing: None,
            intake_id: Some(intake.id.clone()),
            form: AssessmentForm { ..assessment },
            complete,
        },
    )?;
    if furthest == 1 {
        return Ok(());
    }

    // Care plan from the assessment; most are sent, some approved.
    store.set_now(Some(at(rng.random_range(5..10))));
    let plan = store.generate_care_plan(staff, &saved.id)?;
    if furthest == 2 && rng.random_bool(0.3) {
        return Ok(());
    }
    store.set_now(Some(at(rng.random_range(10..14))));
    store.mark_care_plan_sent(staff, &plan.id)?;
    if furthest == 2 && rng.random_bool(0.5) {
        return Ok(());
    }
    store.set_now(Some(at(rng.random_range(14..18))));
    store.approve_care_plan(staff, &plan.id)?;
    if furthest == 2 {
        return Ok(());
    }

    // Contract: drafted, sent, and for most, signed.
    store.set_now(Some(at(rng.random_range(18..22))));
    let content = store.contract_preview(&plan.id)?.content;
    let contract = store.create_contract(staff, &plan.id, None, &content)?;
    if rng.random_bool(0.15) {
        return Ok(());
    }
    store.set_now(Some(at(rng.random_range(22..25))));
    store.mark_contract_sent(staff, &contract.id)?;
    if rng.random_bool(0.35) {
        return Ok(());
    }
    store.set_now(Some(at(rng.random_range(25..29))));
    store.sign_contract(admin, &contract.id)?;
    Ok(())
}
