//! Pricing templates, message templates, the contract template, and the checks before a
//! contract is saved or sent.

use super::{MAX_HOLIDAY_MULTIPLIER, MAX_MONEY, add_text_bound_errors, check_range};
use crate::error::{Error, ValidationErrors};
use crate::model::{ContractTemplateInput, MessageTemplateInput, PricingTemplateInput};

pub const PRICING_TEMPLATE_INCOMPLETE: &str = "Please fill in template name and base rate";
pub const INVALID_PREMIUM: &str = "Premiums must be 0 or more";
pub const INVALID_HOLIDAY_MULTIPLIER: &str = "Holiday multiplier must be at least 1";
pub const MESSAGE_TEMPLATE_INCOMPLETE: &str = "Please fill in required fields";
pub const SECTION_INCOMPLETE: &str = "Section title and content are required";
pub const CONTRACT_TEMPLATE_NEEDS_NAME: &str = "Template name is required";
pub const CONTRACT_TEMPLATE_NEEDS_SECTION: &str = "A contract template needs at least one section";
/// The list placeholders a template may use in all: each fills in a list (every service,
/// every day of the schedule), so a template of nothing else would be many times longer
/// as a contract than as a template.
pub const MAX_LIST_PLACEHOLDERS: usize = 10;
pub const TOO_MANY_LIST_PLACEHOLDERS: &str =
    "A contract template can use [SERVICES] and [SCHEDULE] at most 10 times in all.";
/// The sections' text in all, so the contract made from it stays within a contract's
/// length.
pub const TEMPLATE_TOO_LONG: &str =
    "The contract template is too long: its sections can hold at most 100,000 characters in all.";
pub const MAX_TEMPLATE_TEXT: usize = 100_000;
/// Versions of the contract template kept: Create New Version past it is refused.
pub const MAX_CONTRACT_TEMPLATE_VERSIONS: usize = 200;
pub const TOO_MANY_TEMPLATE_VERSIONS: &str = "The contract template has 200 versions already. \
Please edit the current version with Save Changes instead.";
/// Contract save or send without a care plan or a preview.
pub const CONTRACT_NEEDS_PREVIEW: &str =
    "Please select a care plan and generate a contract preview";
/// Contract from a care plan that is still a draft (or archived).
pub const CONTRACT_NEEDS_SENT_CARE_PLAN: &str =
    "Care plan must be sent or approved before generating a contract.";

/// The name and a base rate above 0; premiums not negative; a holiday multiplier of at
/// least 1 (a holiday is never cheaper). The form's 0.50 rate step is an input aid,
/// not a rule: a negotiated 28.75 is a valid rate.
pub fn validate_pricing_template(input: &PricingTemplateInput) -> Result<(), Error> {
    let mut errors = ValidationErrors::new();
    if input.name.trim().is_empty() {
        errors.add("name", PRICING_TEMPLATE_INCOMPLETE);
    }
    if !input
        .base_rate
        .is_some_and(|rate| rate.is_finite() && rate > 0.0)
    {
        errors.add("base_rate", PRICING_TEMPLATE_INCOMPLETE);
    }
    let premiums = &input.premiums;
    for (field, value) in [
        ("premiums.weekend", premiums.weekend),
        ("premiums.evening", premiums.evening),
        ("premiums.overnight", premiums.overnight),
    ] {
        if !(value.is_finite() && value >= 0.0) {
            errors.add(field, INVALID_PREMIUM);
        }
    }
    let multiplier = premiums.holiday_multiplier;
    if !(multiplier.is_finite() && multiplier >= 1.0) {
        errors.add("premiums.holiday_multiplier", INVALID_HOLIDAY_MULTIPLIER);
    }
    // Upper bounds only once the lower ones hold, so each field shows one message.
    if errors.is_empty() {
        if let Some(rate) = input.base_rate {
            check_range(&mut errors, "base_rate", rate, 0.01, MAX_MONEY);
        }
        for (field, value) in [
            ("premiums.weekend", premiums.weekend),
            ("premiums.evening", premiums.evening),
            ("premiums.overnight", premiums.overnight),
        ] {
            check_range(&mut errors, field, value, 0.0, MAX_MONEY);
        }
        check_range(
            &mut errors,
            "premiums.holiday_multiplier",
            multiplier,
            1.0,
            MAX_HOLIDAY_MULTIPLIER,
        );
    }
    add_text_bound_errors(input, &mut errors);
    errors.into_result()
}

/// The name and the AI prompt template.
pub fn validate_message_template(input: &MessageTemplateInput) -> Result<(), Error> {
    let mut errors = ValidationErrors::new();
    if input.name.trim().is_empty() {
        errors.add("name", MESSAGE_TEMPLATE_INCOMPLETE);
    }
    if input.ai_prompt_template.trim().is_empty() {
        errors.add("ai_prompt_template", MESSAGE_TEMPLATE_INCOMPLETE);
    }
    add_text_bound_errors(input, &mut errors);
    errors.into_result()
}

/// A name, at least one section, and a title and content in every section (keyed
/// `sections.0`, `sections.1` … in the order given).
pub fn validate_contract_template(input: &ContractTemplateInput) -> Result<(), Error> {
    let mut errors = ValidationErrors::new();
    if input.name.trim().is_empty() {
        errors.add("name", CONTRACT_TEMPLATE_NEEDS_NAME);
    }
    if input.sections.is_empty() {
        errors.add("sections", CONTRACT_TEMPLATE_NEEDS_SECTION);
    }
    for (index, section) in input.sections.iter().enumerate() {
        if section.title.trim().is_empty() || section.content.trim().is_empty() {
            errors.add(&format!("sections.{index}"), SECTION_INCOMPLETE);
        }
    }
    let text: usize = input
        .sections
        .iter()
        .map(|section| section.title.chars().count() + section.content.chars().count())
        .sum();
    if text > MAX_TEMPLATE_TEXT {
        errors.add("sections", TEMPLATE_TOO_LONG);
    }
    let lists: usize = input
        .sections
        .iter()
        .map(|section| {
            section.content.matches("[SERVICES]").count()
                + section.content.matches("[SCHEDULE]").count()
                + section.title.matches("[SERVICES]").count()
                + section.title.matches("[SCHEDULE]").count()
        })
        .sum();
    if lists > MAX_LIST_PLACEHOLDERS {
        errors.add("sections", TOO_MANY_LIST_PLACEHOLDERS);
    }
    add_text_bound_errors(input, &mut errors);
    errors.into_result()
}

/// Add Section: a title and content.
pub fn validate_new_section(title: &str, content: &str) -> Result<(), Error> {
    let mut errors = ValidationErrors::new();
    if title.trim().is_empty() {
        errors.add("title", SECTION_INCOMPLETE);
    }
    if content.trim().is_empty() {
        errors.add("content", SECTION_INCOMPLETE);
    }
    errors.into_result()
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{messages, pairs};
    use super::*;
    use crate::model::{ContractSection, MessageType, Premiums, TemplateStage};

    fn pricing(name: &str, base: Option<f64>, premiums: [f64; 4]) -> PricingTemplateInput {
        PricingTemplateInput {
            name: name.into(),
            base_rate: base,
            premiums: Premiums {
                weekend: premiums[0],
                evening: premiums[1],
                overnight: premiums[2],
                holiday_multiplier: premiums[3],
            },
            ..PricingTemplateInput::default()
        }
    }

    #[test]
    fn pricing_templates() {
        let ok = [2.0, 3.0, 5.0, 1.5];
        let cases = [
            (pricing("Standard", Some(28.5), ok), vec![]),
            (pricing("Odd", Some(28.73), [0.0, 0.0, 0.0, 1.0]), vec![]),
            (
                pricing("", None, ok),
                vec![
                    ("name", PRICING_TEMPLATE_INCOMPLETE),
                    ("base_rate", PRICING_TEMPLATE_INCOMPLETE),
                ],
            ),
            (
                pricing(" ", Some(28.5), ok),
                vec![("name", PRICING_TEMPLATE_INCOMPLETE)],
            ),
            (
                pricing("A", Some(0.0), ok),
                vec![("base_rate", PRICING_TEMPLATE_INCOMPLETE)],
            ),
            (
                pricing("A", Some(-1.0), ok),
                vec![("base_rate", PRICING_TEMPLATE_INCOMPLETE)],
            ),
            (
                pricing("A", Some(f64::NAN), ok),
                vec![("base_rate", PRICING_TEMPLATE_INCOMPLETE)],
            ),
            (
                pricing("A", Some(30.0), [-1.0, -0.5, f64::NAN, 1.5]),
                vec![
                    ("premiums.weekend", INVALID_PREMIUM),
                    ("premiums.evening", INVALID_PREMIUM),
                    ("premiums.overnight", INVALID_PREMIUM),
                ],
            ),
            (
                pricing("A", Some(30.0), [0.0, 0.0, 0.0, 0.9]),
                vec![("premiums.holiday_multiplier", INVALID_HOLIDAY_MULTIPLIER)],
            ),
            (
                pricing("A", Some(30.0), [0.0, 0.0, 0.0, f64::INFINITY]),
                vec![("premiums.holiday_multiplier", INVALID_HOLIDAY_MULTIPLIER)],
            ),
        ];
        for (input, expected) in cases {
            let (headline, actual) = messages(validate_pricing_template(&input));
            assert_eq!(actual, pairs(&expected), "{input:?}");
            assert_eq!(headline, expected.first().map(|(_, m)| *m).unwrap_or(""));
        }
    }

    #[test]
    fn message_templates() {
        let template = |name: &str, prompt: &str| MessageTemplateInput {
            name: name.into(),
            message_type: MessageType::Sms,
            stage: TemplateStage::Intake,
            ai_prompt_template: prompt.into(),
            ..MessageTemplateInput::default()
        };
        let cases = [
            (template("Welcome", "Write a welcome"), vec![]),
            (
                template("", "Write"),
                vec![("name", MESSAGE_TEMPLATE_INCOMPLETE)],
            ),
            (
                template("Welcome", " "),
                vec![("ai_prompt_template", MESSAGE_TEMPLATE_INCOMPLETE)],
            ),
            (
                template("", ""),
                vec![
                    ("name", MESSAGE_TEMPLATE_INCOMPLETE),
                    ("ai_prompt_template", MESSAGE_TEMPLATE_INCOMPLETE),
                ],
            ),
        ];
        for (input, expected) in cases {
            let (headline, actual) = messages(validate_message_template(&input));
            assert_eq!(actual, pairs(&expected), "{input:?}");
            assert_eq!(headline, expected.first().map(|(_, m)| *m).unwrap_or(""));
        }
    }

    fn section(title: &str, content: &str) -> ContractSection {
        ContractSection {
            id: title.to_lowercase(),
            title: title.into(),
            content: content.into(),
            order: 1,
            required: false,
        }
    }

    #[test]
    fn contract_templates() {
        let template = |name: &str, sections: Vec<ContractSection>| ContractTemplateInput {
            name: name.into(),
            sections,
        };
        let cases = [
            (
                template("Agreement", vec![section("Services", "We provide")]),
                vec![],
            ),
            (
                template(" ", vec![section("Services", "We provide")]),
                vec![("name", CONTRACT_TEMPLATE_NEEDS_NAME)],
            ),
            (
                template("Agreement", vec![]),
                vec![("sections", CONTRACT_TEMPLATE_NEEDS_SECTION)],
            ),
            (
                template(
                    "Agreement",
                    vec![
                        section("Services", "We provide"),
                        section("", "Text"),
                        section("Fees", " "),
                    ],
                ),
                vec![
                    ("sections.1", SECTION_INCOMPLETE),
                    ("sections.2", SECTION_INCOMPLETE),
                ],
            ),
            // A template of list placeholders would be many times longer as a contract.
            (
                template(
                    "Agreement",
                    vec![section("Schedule", &"[SCHEDULE]".repeat(11))],
                ),
                vec![("sections", TOO_MANY_LIST_PLACEHOLDERS)],
            ),
            (
                template(
                    "Agreement",
                    vec![section("Schedule", &"[SCHEDULE] [SERVICES] ".repeat(5))],
                ),
                vec![],
            ),
            (
                template(
                    "Agreement",
                    (0..6)
                        .map(|n| section(&format!("Part {n}"), &"x".repeat(19_000)))
                        .collect(),
                ),
                vec![("sections", TEMPLATE_TOO_LONG)],
            ),
        ];
        for (input, expected) in cases {
            let (headline, actual) = messages(validate_contract_template(&input));
            assert_eq!(actual, pairs(&expected), "{input:?}");
            assert_eq!(headline, expected.first().map(|(_, m)| *m).unwrap_or(""));
        }
        let cases = [
            ("Fees", "Text", vec![]),
            ("", "Text", vec![("title", SECTION_INCOMPLETE)]),
            ("Fees", "", vec![("content", SECTION_INCOMPLETE)]),
        ];
        for (title, content, expected) in cases {
            let (_, actual) = messages(validate_new_section(title, content));
            assert_eq!(actual, pairs(&expected));
        }
    }
}
