//! The hand-off to care: what the scheduling system receives about a signed client,
//! assembled from the contract's signed terms, the intake, the contacts and the
//! assessment; and the timeline's line for a ticked checklist item.

use crate::model::{
    AssessmentForm, AssessmentId, Contact, Contract, ContractTerms, Handoff, HandoffActivity,
    HandoffAddress, HandoffCareNeeds, HandoffClient, HandoffContact, HandoffDay,
    HandoffPreferences, IntakeForm, IntakeId,
};

/// The entity a hand-off or checklist read names when the client has none: "Signed
/// contract for this client not found".
pub const NO_SIGNED_CONTRACT: &str = "signed contract for this client";

/// The entity a checklist item that is not the client's is reported as.
pub const NO_CHECKLIST_ITEM: &str = "start-of-care checklist item";

/// What the timeline shows when a checklist item is ticked or unticked.
pub fn checklist_entry(label: &str, done: bool) -> String {
    if done {
        format!("Start of care: {label} done")
    } else {
        format!("Start of care: {label} marked not done")
    }
}

/// Whether an assessor's rating means the client needs help with the activity.
pub fn needs_help(level: &str) -> bool {
    let level = level.trim();
    !level.is_empty() && !level.eq_ignore_ascii_case("Independent")
}

/// Everything a hand-off is made of, as stored.
pub struct HandoffSources<'a> {
    pub client_id: &'a IntakeId,
    pub contract: &'a Contract,
    pub terms: &'a ContractTerms,
    pub intake: &'a IntakeForm,
    pub contacts: &'a [Contact],
    pub assessment: Option<(&'a AssessmentId, &'a AssessmentForm)>,
}

fn first_filled(values: &[&str]) -> String {
    values
        .iter()
        .map(|value| value.trim())
        .find(|value| !value.is_empty())
        .unwrap_or_default()
        .to_owned()
}

/// The hand-off record: the schedule, hours, services and money are the contract's as
/// signed; the rest is what the office knows of the client now.
pub fn assemble(sources: &HandoffSources<'_>) -> Handoff {
    let HandoffSources {
        client_id,
        contract,
        terms,
        intake,
        contacts,
        assessment,
    } = sources;
    let empty = AssessmentForm::default();
    let form = assessment.map_or(&empty, |(_, form)| form);
    let client = HandoffClient {
        full_name: first_filled(&[&contract.client_name, &intake.client_full_name]),
        date_of_birth: first_filled(&[&intake.date_of_birth, &form.date_of_birth]),
        phone: first_filled(&[&intake.client_phone, &form.phone]),
        email: intake.client_email.trim().to_owned(),
    };
    let address = HandoffAddress {
        street: first_filled(&[&intake.client_address, &form.address]),
        city: intake.city.trim().to_owned(),
        state: intake.state.trim().to_owned(),
        zip_code: intake.zip_code.trim().to_owned(),
    };
    let any_primary = contacts.iter().any(|contact| contact.is_primary);
    let mut people = Vec::new();
    if !intake.client_is_caller && !intake.caller_name.trim().is_empty() {
        people.push(HandoffContact {
            kind: "Caller".to_owned(),
            full_name: intake.caller_name.trim().to_owned(),
            relationship: intake.relationship_to_client.trim().to_owned(),
            phone: intake.caller_phone.trim().to_owned(),
            email: intake.caller_email.trim().to_owned(),
            is_primary: !any_primary,
        });
    }
    people.extend(contacts.iter().map(|contact| HandoffContact {
        kind: contact.contact_type.label().to_owned(),
        full_name: contact.full_name.clone(),
        relationship: contact.relationship.clone().unwrap_or_default(),
        phone: contact.phone.clone().unwrap_or_default(),
        email: contact.email.clone().unwrap_or_default(),
        is_primary: contact.is_primary,
    }));
    let schedule = terms
        .schedule
        .days()
        .into_iter()
        .filter(|(_, day)| day.hours > 0.0)
        .map(|(name, day)| HandoffDay {
            day: name.to_owned(),
            time: day.time.trim().to_owned(),
            hours: day.hours,
        })
        .collect();
    let activities = form
        .adls
        .entries()
        .into_iter()
        .chain(form.iadls.entries())
        .filter(|(_, activity)| needs_help(&activity.level))
        .map(|(name, activity)| HandoffActivity {
            activity: name.to_owned(),
            level: activity.level.trim().to_owned(),
            notes: activity.notes.trim().to_owned(),
        })
        .collect();
    let mut equipment = form.equipment_used.clone();
    if !form.equipment_other.trim().is_empty() {
        equipment.push(form.equipment_other.trim().to_owned());
    }
    Handoff {
        client_id: (*client_id).clone(),
        contract_id: contract.id.clone(),
        signed_at: contract.signed_at.clone().unwrap_or_default(),
        client,
        address,
        contacts: people,
        start_date: terms.proposed_start_date.clone(),
        schedule,
        total_weekly_hours: terms.total_weekly_hours,
        hourly_rate: contract.pricing_details.hourly_rate,
        weekly_cost: contract.pricing_details.weekly_cost,
        monthly_cost: contract.pricing_details.monthly_cost,
        service_keys: terms.services.clone(),
        services: terms
            .services
            .iter()
            .map(|service| service.label().to_owned())
            .collect(),
        care_needs: HandoffCareNeeds {
            assessment_id: assessment.map(|(id, _)| (*id).clone()),
            general_care_needs: intake.general_care_needs.trim().to_owned(),
            activities,
            equipment,
            fall_risk: form.fall_risk.trim().to_owned(),
            alertness: form.alertness.trim().to_owned(),
            memory: form.memory_status.trim().to_owned(),
            communication: form.communication_ability.clone(),
            home_safety: form.home_safety_observations.trim().to_owned(),
            safety_concerns: form.safety_concerns.trim().to_owned(),
        },
        preferences: HandoffPreferences {
            caregiver_gender: form.caregiver_gender_preference.trim().to_owned(),
            preferred_days: form.preferred_days.clone(),
            preferred_times: form.preferred_times.clone(),
            schedule_notes: form.schedule_notes.trim().to_owned(),
            special_requests: form.special_requests.trim().to_owned(),
            social_preferences: form.social_preferences.trim().to_owned(),
            hobbies: form.hobbies.trim().to_owned(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_ratings_above_independent_are_needs() {
        for (level, expected) in [
            ("", false),
            ("  ", false),
            ("Independent", false),
            ("Supervision", true),
            ("Minimal Assist", true),
            ("Total Assist", true),
        ] {
            assert_eq!(needs_help(level), expected, "{level:?}");
        }
    }

    #[test]
    fn a_ticked_item_reads_as_done_and_an_unticked_one_as_not() {
        assert_eq!(
            checklist_entry("First visit", true),
            "Start of care: First visit done"
        );
        assert_eq!(
            checklist_entry("First visit", false),
            "Start of care: First visit marked not done"
        );
    }
}
