//! Pricing: the default pricing templates, the template a new care plan starts from and
//! the care plan services an assessment's recommendations turn into, and the proposal a
//! completed assessment starts.

use crate::model::options::WEEKDAYS;
use crate::model::{
    Assessment, CarePlanInput, CarePlanService, DaySchedule, Premiums, PricingTemplate,
    PricingTemplateInput, WeeklySchedule,
};

/// The hourly rate of a care plan generated from an assessment (spec: 25).
pub const DEFAULT_HOURLY_RATE: f64 = 25.0;

/// Five or more services call for the complex-care template.
const COMPLEX_FROM_SERVICES: usize = 5;
/// Personal care with at most this many services calls for the personal-care template.
const PERSONAL_UP_TO_SERVICES: usize = 2;

/// The spec's three templates, seeded on a fresh database.
pub fn default_pricing_templates() -> Vec<PricingTemplateInput> {
    let template = |name: &str, base: f64, weekend, evening, overnight, is_default, notes: &str| {
        PricingTemplateInput {
            name: name.to_owned(),
            base_rate: Some(base),
            premiums: Premiums {
                weekend,
                evening,
                overnight,
                holiday_multiplier: super::costs::DEFAULT_HOLIDAY_MULTIPLIER,
            },
            is_active: true,
            is_default,
            notes: notes.to_owned(),
        }
    };
    vec![
        template(
            "Standard Companion Care",
            28.5,
            2.0,
            0.0,
            0.0,
            true,
            "companionship and light housekeeping",
        ),
        template("Personal Care Services", 32.0, 2.0, 3.0, 5.0, false, ""),
        template("Complex/Medical Care", 35.0, 2.0, 4.0, 6.0, false, ""),
    ]
}

/// Why a template was preselected, in words a coordinator reads under the rate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PreselectReason {
    FiveOrMoreServices,
    PersonalCareWithFewServices,
    AgencyDefault,
    Standard,
}

impl PreselectReason {
    pub fn text(self) -> &'static str {
        match self {
            PreselectReason::FiveOrMoreServices => "five or more services",
            PreselectReason::PersonalCareWithFewServices => {
                "personal care with at most two services"
            }
            PreselectReason::AgencyDefault => "the agency's default template",
            PreselectReason::Standard => "the standard template",
        }
    }
}

/// The template a care plan starts from when its assessment is loaded. The spec's three
/// cases, with its "Standard" case read as the agency's default template:
/// - five or more services → the active template named "Complex…";
/// - personal care with at most two services → the active template named "Personal…";
/// - otherwise → the active default template (Settings → Pricing's "Set as Default"), or,
///   when no active template is the default, the active one named "Standard…".
///
/// When the Complex or Personal case finds no active template of that name, the active
/// default is used. Inactive templates are never preselected, so the answer is `None`
/// when nothing active fits.
pub fn preselect_template<'a>(
    services: &[CarePlanService],
    templates: &'a [PricingTemplate],
) -> Option<&'a PricingTemplate> {
    preselection(services, templates).map(|(template, _)| template)
}

/// [`preselect_template`] with the reason it picked the template.
pub fn preselection<'a>(
    services: &[CarePlanService],
    templates: &'a [PricingTemplate],
) -> Option<(&'a PricingTemplate, PreselectReason)> {
    let named = |wanted: &str, reason| {
        templates
            .iter()
            .find(|template| template.is_active && template.name.contains(wanted))
            .map(|template| (template, reason))
    };
    let active_default = || {
        templates
            .iter()
            .find(|template| template.is_active && template.is_default)
            .map(|template| (template, PreselectReason::AgencyDefault))
    };
    if services.len() >= COMPLEX_FROM_SERVICES {
        named("Complex", PreselectReason::FiveOrMoreServices).or_else(active_default)
    } else if services.contains(&CarePlanService::PersonalCare)
        && services.len() <= PERSONAL_UP_TO_SERVICES
    {
        named("Personal", PreselectReason::PersonalCareWithFewServices).or_else(active_default)
    } else {
        active_default().or_else(|| named("Standard", PreselectReason::Standard))
    }
}

/// Where a care plan's hourly rate comes from, said under the rate on the care plan
/// screen. The quote charges this one rate for every hour, weekends included (spec §9:
/// weekly cost = total hours × hourly rate), so a template's weekend premium is never
/// shown as a charge; an agency that bills weekends higher raises the hourly rate.
pub fn rate_source(
    rate: f64,
    chosen: Option<&PricingTemplate>,
    suggested: Option<(&PricingTemplate, PreselectReason)>,
) -> String {
    let money = super::contract_text::format_money;
    match chosen {
        None if super::costs::round2(rate) == DEFAULT_HOURLY_RATE => {
            "The hourly rate is the default rate of a generated care plan; choose a pricing \
             template to use the agency's rates."
                .to_owned()
        }
        None => "The hourly rate was typed by staff; no pricing template is chosen.".to_owned(),
        Some(template)
            if super::costs::round2(rate) != super::costs::round2(template.base_rate) =>
        {
            format!(
                "The hourly rate was set by staff; the {} template's rate is {}/hour.",
                template.name,
                money(template.base_rate)
            )
        }
        Some(template) => {
            let why = suggested
                .filter(|(picked, _)| picked.id == template.id)
                .map(|(_, reason)| format!(", suggested for {}", reason.text()))
                .unwrap_or_default();
            format!(
                "The hourly rate is the {} template's rate{why}.",
                template.name
            )
        }
    }
}

/// The care plan key of an assessment's recommended service, if it has one.
pub fn care_plan_service_for(recommended: &str) -> Option<CarePlanService> {
    match recommended.trim() {
        "Personal Care (ADLs)" => Some(CarePlanService::PersonalCare),
        "Companionship" => Some(CarePlanService::Companionship),
        "Light Housekeeping" => Some(CarePlanService::Housekeeping),
        "Meal Preparation" => Some(CarePlanService::Meals),
        "Medication Reminders" => Some(CarePlanService::MedicationReminders),
        "Transportation/Errands" => Some(CarePlanService::Transportation),
        _ => None,
    }
}

/// The services a generated care plan starts with, in the assessment's order, each once.
pub fn care_plan_services_from_assessment(recommended: &[String]) -> Vec<CarePlanService> {
    let mut services = Vec::new();
    for service in recommended.iter().filter_map(|r| care_plan_service_for(r)) {
        if !services.contains(&service) {
            services.push(service);
        }
    }
    services
}

/// The care plan a completed assessment proposes, priced as the form shows it: its
/// services and schedule ([`proposal_from_assessment`]) with the preselected pricing
/// template and that template's rate, so a generated plan stores the figures a
/// coordinator then sees.
pub fn priced_proposal(assessment: &Assessment, templates: &[PricingTemplate]) -> CarePlanInput {
    let mut plan = proposal_from_assessment(assessment);
    if let Some(template) = preselect_template(&plan.services, templates) {
        plan.pricing_template_id = Some(template.id.clone());
        plan.hourly_rate = Some(template.base_rate);
    }
    plan
}

/// The care plan a completed assessment proposes: its services, its preferred days with
/// the recommended hours spread over them in half hours, the default rate.
pub fn proposal_from_assessment(assessment: &Assessment) -> CarePlanInput {
    let form = &assessment.form;
    let mut schedule = WeeklySchedule::default();
    let days: Vec<usize> = form
        .preferred_days
        .iter()
        .filter_map(|day| WEEKDAYS.iter().position(|d| d == day))
        .collect();
    if let (Some(hours), false) = (form.recommended_hours, days.is_empty()) {
        let per_day = ((hours / days.len() as f64) * 2.0).round() / 2.0;
        let slots = schedule.days_mut();
        for index in days {
            *slots[index] = DaySchedule {
                time: form.preferred_times.first().cloned().unwrap_or_default(),
                hours: per_day.max(0.5),
            };
        }
    }
    CarePlanInput {
        client_name: assessment.client_name.clone(),
        family_contact_name: form.caller_name.clone(),
        family_contact_email: form.caller_email.clone(),
        care_coordinator_name: assessment.coordinator_name.clone(),
        services: care_plan_services_from_assessment(&form.recommended_services),
        additional_notes: form.schedule_notes.clone(),
        schedule,
        proposed_start_date: form.recommended_start_date.clone(),
        pricing_template_id: None,
        hourly_rate: Some(DEFAULT_HOURLY_RATE),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::PricingTemplateId;
    use CarePlanService::*;

    #[test]
    fn the_three_default_templates() {
        let templates = default_pricing_templates();
        type Row<'a> = (&'a str, Option<f64>, f64, f64, f64, f64, bool, &'a str);
        let rows: Vec<Row<'_>> = templates
            .iter()
            .map(|t| {
                (
                    t.name.as_str(),
                    t.base_rate,
                    t.premiums.weekend,
                    t.premiums.evening,
                    t.premiums.overnight,
                    t.premiums.holiday_multiplier,
                    t.is_default,
                    t.notes.as_str(),
                )
            })
            .collect();
        assert_eq!(
            rows,
            [
                (
                    "Standard Companion Care",
                    Some(28.5),
                    2.0,
                    0.0,
                    0.0,
                    1.5,
                    true,
                    "companionship and light housekeeping"
                ),
                (
                    "Personal Care Services",
                    Some(32.0),
                    2.0,
                    3.0,
                    5.0,
                    1.5,
                    false,
                    ""
                ),
                (
                    "Complex/Medical Care",
                    Some(35.0),
                    2.0,
                    4.0,
                    6.0,
                    1.5,
                    false,
                    ""
                ),
            ]
        );
        assert!(templates.iter().all(|t| t.is_active));
    }

    fn stored(name: &str, active: bool, default: bool) -> PricingTemplate {
        PricingTemplate {
            id: PricingTemplateId::from(name),
            version: 1,
            name: name.to_owned(),
            base_rate: 30.0,
            premiums: Premiums::default(),
            is_active: active,
            is_default: default,
            notes: None,
            created_at: String::new(),
        }
    }

    fn defaults() -> Vec<PricingTemplate> {
        vec![
            stored("Standard Companion Care", true, true),
            stored("Personal Care Services", true, false),
            stored("Complex/Medical Care", true, false),
        ]
    }

    #[test]
    fn the_rate_says_where_it_came_from() {
        let templates = defaults();
        let personal = &templates[1];
        let suggested = preselection(&[PersonalCare], &templates);
        assert_eq!(
            suggested.map(|(_, reason)| reason),
            Some(PreselectReason::PersonalCareWithFewServices)
        );
        let cases: &[(f64, Option<&PricingTemplate>, &str)] = &[
            (
                30.0,
                Some(personal),
                "The hourly rate is the Personal Care Services template's rate, suggested for personal care with at most two services.",
            ),
            (
                30.0,
                Some(&templates[2]),
                "The hourly rate is the Complex/Medical Care template's rate.",
            ),
            (
                1234.5,
                Some(personal),
                "The hourly rate was set by staff; the Personal Care Services template's rate is $30.00/hour.",
            ),
            (
                27.0,
                None,
                "The hourly rate was typed by staff; no pricing template is chosen.",
            ),
            (
                25.0,
                None,
                "The hourly rate is the default rate of a generated care plan; choose a pricing template to use the agency's rates.",
            ),
        ];
        for (rate, chosen, expected) in cases {
            assert_eq!(rate_source(*rate, *chosen, suggested), *expected);
        }
    }

    #[test]
    fn preselection_by_services() {
        let templates = defaults();
        let cases: &[(&[CarePlanService], &str)] = &[
            (&[], "Standard Companion Care"),
            (&[Companionship], "Standard Companion Care"),
            (&[PersonalCare], "Personal Care Services"),
            (&[PersonalCare, Meals], "Personal Care Services"),
            (&[Meals, PersonalCare], "Personal Care Services"),
            (
                &[PersonalCare, Meals, Companionship],
                "Standard Companion Care",
            ),
            (
                &[Meals, Companionship, Housekeeping, Transportation],
                "Standard Companion Care",
            ),
            (
                &[Meals, Companionship, Housekeeping, Transportation, Mobility],
                "Complex/Medical Care",
            ),
            (
                &[
                    PersonalCare,
                    Meals,
                    Companionship,
                    Housekeeping,
                    Transportation,
                ],
                "Complex/Medical Care",
            ),
            (&CarePlanService::ALL, "Complex/Medical Care"),
        ];
        for (services, expected) in cases {
            let chosen = preselect_template(services, &templates).map(|t| t.name.as_str());
            assert_eq!(chosen, Some(*expected), "{services:?}");
        }
    }

    #[test]
    fn preselection_skips_inactive_and_falls_back_to_the_default() {
        let mut templates = defaults();
        templates[2].is_active = false; // Complex inactive
        let chosen = preselect_template(&CarePlanService::ALL, &templates);
        assert_eq!(
            chosen.map(|t| t.name.as_str()),
            Some("Standard Companion Care")
        );

        // Renamed templates: nothing matches, the default wins.
        let templates = vec![
            stored("Weekday rate", true, false),
            stored("House rate", true, true),
        ];
        let chosen = preselect_template(&[PersonalCare], &templates);
        assert_eq!(chosen.map(|t| t.name.as_str()), Some("House rate"));

        // An inactive template is never preselected, not even the default.
        let templates = vec![stored("House rate", false, true)];
        assert!(preselect_template(&[PersonalCare], &templates).is_none());
        assert!(preselect_template(&[Companionship], &templates).is_none());

        assert!(preselect_template(&[PersonalCare], &[]).is_none());
        let templates = vec![stored("Weekday rate", true, false)];
        assert!(preselect_template(&[PersonalCare], &templates).is_none());
    }

    #[test]
    fn the_standard_case_picks_the_agency_default() {
        // The office made "Personal Care Services" its default: a plan with a few
        // non-personal services starts from it, not from "Standard…".
        let mut templates = defaults();
        templates[0].is_default = false;
        templates[1].is_default = true;
        let chosen = preselect_template(&[Companionship, Meals], &templates);
        assert_eq!(
            chosen.map(|t| t.name.as_str()),
            Some("Personal Care Services")
        );
        // A template with no case name of its own, made default, wins the same way.
        let mut templates = defaults();
        templates[0].is_default = false;
        templates.push(stored("Weekend special", true, true));
        let chosen = preselect_template(&[], &templates);
        assert_eq!(chosen.map(|t| t.name.as_str()), Some("Weekend special"));
        // The Complex and Personal cases still pick their named template.
        let chosen = preselect_template(&CarePlanService::ALL, &templates);
        assert_eq!(
            chosen.map(|t| t.name.as_str()),
            Some("Complex/Medical Care")
        );
        let chosen = preselect_template(&[PersonalCare], &templates);
        assert_eq!(
            chosen.map(|t| t.name.as_str()),
            Some("Personal Care Services")
        );
    }

    #[test]
    fn an_inactive_default_leaves_the_standard_case_to_standard() {
        let mut templates = defaults();
        templates[0].is_default = false;
        templates[2].is_default = true;
        templates[2].is_active = false; // Complex is the default but switched off
        let chosen = preselect_template(&[Companionship], &templates);
        assert_eq!(
            chosen.map(|t| t.name.as_str()),
            Some("Standard Companion Care")
        );
        // No active default and no "Standard…": nothing is preselected.
        let templates = vec![
            stored("Complex/Medical Care", false, true),
            stored("Weekday rate", true, false),
        ];
        assert!(preselect_template(&[Companionship], &templates).is_none());
    }

    #[test]
    fn named_cases_fall_back_to_the_active_default() {
        let templates = vec![
            stored("Standard Companion Care", true, false),
            stored("Personal Care Services", false, false),
            stored("House rate", true, true),
        ];
        let chosen = preselect_template(&[PersonalCare], &templates);
        assert_eq!(chosen.map(|t| t.name.as_str()), Some("House rate"));
        let chosen = preselect_template(&CarePlanService::ALL, &templates);
        assert_eq!(chosen.map(|t| t.name.as_str()), Some("House rate"));
    }

    #[test]
    fn recommended_services_become_care_plan_services() {
        let cases: &[(&[&str], &[CarePlanService])] = &[
            (&[], &[]),
            (&["Personal Care (ADLs)"], &[PersonalCare]),
            (&["Companionship"], &[Companionship]),
            (&["Light Housekeeping"], &[Housekeeping]),
            (&["Meal Preparation"], &[Meals]),
            (&["Medication Reminders"], &[MedicationReminders]),
            (&["Transportation/Errands"], &[Transportation]),
            (
                &[
                    "Respite Care",
                    "24-Hour Care",
                    "Other",
                    "Skilled Nursing (RN)",
                ],
                &[],
            ),
            (
                &[
                    "Meal Preparation",
                    "Other",
                    "Personal Care (ADLs)",
                    "Meal Preparation",
                ],
                &[Meals, PersonalCare],
            ),
            (&["companionship"], &[]),
        ];
        for (recommended, expected) in cases {
            let recommended: Vec<String> = recommended.iter().map(|s| s.to_string()).collect();
            assert_eq!(
                care_plan_services_from_assessment(&recommended),
                *expected,
                "{recommended:?}"
            );
        }
    }
}
