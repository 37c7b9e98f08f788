//! The contract's words: the default template sections, the built-in agreement, the
//! [PLACEHOLDER] filling, the rendered contract and template versions.

use jiff::civil::Date;

use super::costs::total_weekly_hours;
/// The one money and date formatters, named here too for the placeholders' callers.
pub use super::format::{format_long_date, format_money};
use crate::error::Error;
use crate::model::{CarePlanService, ContractSection, WeeklySchedule};

pub const REQUIRED_SECTION: &str = "This is a required section and cannot be removed.";
pub const AGREEMENT_HEADING: &str = "HOME CARE SERVICE AGREEMENT";
/// The built-in payment terms (spec §9).
pub const PAYMENT_TERMS: &str = "Payment is due within 7 days of the invoice date. Balances unpaid after that date incur a late fee of 5% per month.";

/// The four sections a new contract template starts with.
pub fn default_contract_sections() -> Vec<ContractSection> {
    let section = |id: &str, title: &str, content: &str, order, required| ContractSection {
        id: id.to_owned(),
        title: title.to_owned(),
        content: content.to_owned(),
        order,
        required,
    };
    vec![
        section(
            "services",
            "Services Provided",
            "The Agency agrees to provide [CLIENT_NAME] with the following non-medical home care services:\n\n[SERVICES]\n\nServices will be provided on the following schedule:\n\n[SCHEDULE]\n\nThe Agency's caregivers do not provide skilled nursing or medical care. Changes to the services or the schedule will be agreed in writing by both parties.",
            1,
            true,
        ),
        section(
            "payment",
            "Payment Terms",
            "Services are billed at [HOURLY_RATE] per hour, an estimated [WEEKLY_COST] per week (approximately [MONTHLY_COST] per month). [PAYMENT_TERMS]\n\nThe Client agrees to a minimum of [MINIMUM_HOURS] hours of service per week, as set out in the schedule above. Services on recognised holidays are billed at 1.5 times the hourly rate.",
            2,
            true,
        ),
        section(
            "cancellation",
            "Cancellation Policy",
            "The Client will give at least 24 hours' notice to cancel or reschedule a visit. A visit cancelled with less than 24 hours' notice will be charged at 50% of its scheduled cost. Either party may end this Agreement with written notice.",
            3,
            false,
        ),
        section(
            "liability",
            "Liability and Insurance",
            "The Agency maintains general liability insurance, workers' compensation and a fidelity bond for all caregivers, who are employees of the Agency. The Agency is not liable for loss or damage except where caused by the negligence of its caregivers. The Client agrees to tell the Agency promptly of any incident, injury or concern.",
            4,
            true,
        ),
    ]
}

/// The agreement used when the template has no sections.
pub fn builtin_agreement_text() -> &'static str {
    "HOME CARE SERVICE AGREEMENT

This Home Care Service Agreement is made on [DATE] between [AGENCY_NAME] (the Agency) and [CLIENT_NAME] (the Client).

1. Services Provided

The Agency will provide the Client with the following non-medical home care services:

[SERVICES]

Services will be provided on the following schedule:

[SCHEDULE]

2. Fees and Payment

Services are billed at [HOURLY_RATE] per hour. Based on the schedule above, the estimated cost is [WEEKLY_COST] per week, approximately [MONTHLY_COST] per month. Payment is due within 7 days of the invoice date. Balances unpaid after that date incur a late fee of 5% per month.

3. Cancellation

The Client will give at least 24 hours' notice to cancel or reschedule a visit. A visit cancelled with less than 24 hours' notice will be charged at 50% of its scheduled cost.

4. Caregivers

Caregivers are employees of the Agency, screened and trained for non-medical home care. They do not provide skilled nursing or medical care.

5. Liability and Insurance

The Agency maintains general liability insurance and workers' compensation for its caregivers. The Client agrees to tell the Agency promptly of any incident, injury or concern.

6. Term and Termination

This Agreement begins on the date above and continues until either party ends it with written notice.

Client or Responsible Party: ______________________  Date: __________

Agency Representative: ______________________  Date: __________"
}

/// What a contract says about its client, copied from the care plan.
#[derive(Debug, Clone, PartialEq)]
pub struct ContractFacts {
    /// The agency's name from Settings, so the agreement names both parties.
    pub agency_name: String,
    pub client_name: String,
    pub hourly_rate: f64,
    pub weekly_cost: f64,
    pub monthly_cost: f64,
    pub services: Vec<CarePlanService>,
    pub schedule: WeeklySchedule,
    pub date: Date,
}

/// Hours without a trailing ".0": 4 → "4", 2.5 → "2.5".
fn format_hours(hours: f64) -> String {
    let hours = super::costs::round2(hours);
    if hours.fract() == 0.0 {
        format!("{hours:.0}")
    } else {
        format!("{hours}")
    }
}

fn services_list(services: &[CarePlanService]) -> String {
    services
        .iter()
        .map(|service| format!("• {}", service.label()))
        .collect::<Vec<_>>()
        .join("\n")
}

fn schedule_lines(schedule: &WeeklySchedule) -> String {
    schedule
        .days()
        .iter()
        .filter(|(_, day)| day.hours.is_finite() && day.hours > 0.0)
        .map(|(name, day)| {
            let hours = format_hours(day.hours);
            let unit = if hours == "1" { "hour" } else { "hours" };
            let time = day.time.trim();
            if time.is_empty() {
                format!("{name}: {hours} {unit}")
            } else {
                format!("{name}: {time} ({hours} {unit})")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn placeholder_value(name: &str, facts: &ContractFacts) -> Option<String> {
    Some(match name {
        "CLIENT_NAME" => facts.client_name.clone(),
        "AGENCY_NAME" => {
            let name = facts.agency_name.trim();
            if name.is_empty() { "the Agency" } else { name }.to_owned()
        }
        "HOURLY_RATE" => format_money(facts.hourly_rate),
        "WEEKLY_COST" => format_money(facts.weekly_cost),
        "MONTHLY_COST" => format_money(facts.monthly_cost),
        "SERVICES" => services_list(&facts.services),
        "SCHEDULE" => schedule_lines(&facts.schedule),
        "DATE" => format_long_date(facts.date),
        "PAYMENT_TERMS" => PAYMENT_TERMS.to_owned(),
        "MINIMUM_HOURS" => format_hours(total_weekly_hours(&facts.schedule)),
        _ => return None,
    })
}

/// Replaces every known [PLACEHOLDER] in one pass, so a client name that happens to
/// contain "[DATE]" is not filled in again. Unknown placeholders stay as written.
pub fn fill_placeholders(text: &str, facts: &ContractFacts) -> String {
    let mut filled = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        filled.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let name_end = after.find(|c: char| !(c.is_ascii_uppercase() || c == '_'));
        match name_end {
            Some(end) if after[end..].starts_with(']') => {
                let name = &after[..end];
                match placeholder_value(name, facts) {
                    Some(value) => filled.push_str(&value),
                    None => {
                        filled.push('[');
                        filled.push_str(name);
                        filled.push(']');
                    }
                }
                rest = &after[end + 1..];
            }
            _ => {
                filled.push('[');
                rest = after;
            }
        }
    }
    filled.push_str(rest);
    filled
}

/// The contract text: a heading, then the sections numbered in their order, each
/// "N. Title" and its content, with the placeholders filled. Without sections, the
/// built-in agreement.
pub fn render_contract(sections: &[ContractSection], facts: &ContractFacts) -> String {
    if sections.is_empty() {
        return fill_placeholders(builtin_agreement_text(), facts);
    }
    let mut ordered: Vec<&ContractSection> = sections.iter().collect();
    ordered.sort_by_key(|section| section.order);
    let mut text = format!(
        "{AGREEMENT_HEADING}\n\nThis Home Care Service Agreement is made on [DATE] between [AGENCY_NAME] (the Agency) and [CLIENT_NAME] (the Client)."
    );
    for (index, section) in ordered.iter().enumerate() {
        text.push_str(&format!(
            "\n\n{}. {}\n\n{}",
            index + 1,
            section.title.trim(),
            section.content.trim()
        ));
    }
    fill_placeholders(&text, facts)
}

/// The next template version, 0.1 up in exact decimals: 1.0 → 1.1, 1.9 → 2.0,
/// 1.25 → 1.35. An unreadable version counts as 1.0.
pub fn next_template_version(current: &str) -> String {
    let current = current.trim();
    let (whole, fraction) = current.split_once('.').unwrap_or((current, "0"));
    let digits_ok = |text: &str| !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    let (whole, fraction) = if digits_ok(whole) && digits_ok(fraction) && fraction.len() <= 6 {
        (whole, fraction)
    } else {
        ("1", "0")
    };
    let scale = fraction.len() as u32;
    let (Ok(whole), Ok(fraction_value)) = (whole.parse::<u64>(), fraction.parse::<u64>()) else {
        return "1.1".to_owned();
    };
    let unit = 10u64.pow(scale);
    let value = whole
        .saturating_mul(unit)
        .saturating_add(fraction_value)
        .saturating_add(unit / 10);
    format!(
        "{}.{:0width$}",
        value / unit,
        value % unit,
        width = scale as usize
    )
}

/// Removes a section and numbers the rest 1, 2, 3 … in their order. Required sections
/// stay.
pub fn remove_section(
    sections: &[ContractSection],
    id: &str,
) -> Result<Vec<ContractSection>, Error> {
    let Some(section) = sections.iter().find(|section| section.id == id) else {
        return Err(Error::not_found("contract section", id));
    };
    if section.required {
        return Err(Error::Rejected(REQUIRED_SECTION.to_owned()));
    }
    let mut remaining: Vec<ContractSection> = sections
        .iter()
        .filter(|section| section.id != id)
        .cloned()
        .collect();
    remaining.sort_by_key(|section| section.order);
    for (index, section) in remaining.iter_mut().enumerate() {
        section.order = u32::try_from(index + 1).unwrap_or(u32::MAX);
    }
    Ok(remaining)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::DaySchedule;

    fn facts() -> ContractFacts {
        let day = |time: &str, hours| DaySchedule {
            time: time.into(),
            hours,
        };
        let schedule = WeeklySchedule {
            monday: day("9am-1pm", 4.0),
            wednesday: day("", 2.5),
            saturday: day("10am-11am", 1.0),
            ..WeeklySchedule::default()
        };
        ContractFacts {
            agency_name: "Sunrise Home Care".into(),
            client_name: "Rose Lee".into(),
            hourly_rate: 32.0,
            weekly_cost: 1234.5,
            monthly_cost: 5345.39,
            services: vec![
                CarePlanService::PersonalCare,
                CarePlanService::Companionship,
            ],
            schedule,
            date: Date::constant(2026, 11, 22),
        }
    }

    #[test]
    fn placeholders() {
        let facts = facts();
        let cases = [
            ("[CLIENT_NAME]", "Rose Lee"),
            ("[AGENCY_NAME]", "Sunrise Home Care"),
            ("[HOURLY_RATE]", "$32.00"),
            ("[WEEKLY_COST]", "$1,234.50"),
            ("[MONTHLY_COST]", "$5,345.39"),
            (
                "[SERVICES]",
                "• Help with Daily Personal Care\n• Friendly Companionship",
            ),
            (
                "[SCHEDULE]",
                "Monday: 9am-1pm (4 hours)\nWednesday: 2.5 hours\nSaturday: 10am-11am (1 hour)",
            ),
            ("[DATE]", "November 22, 2026"),
            ("[PAYMENT_TERMS]", PAYMENT_TERMS),
            ("[MINIMUM_HOURS]", "7.5"),
            (
                "Dear [CLIENT_NAME], on [DATE].",
                "Dear Rose Lee, on November 22, 2026.",
            ),
            ("[UNKNOWN] stays", "[UNKNOWN] stays"),
            ("[client_name] stays", "[client_name] stays"),
            ("[ CLIENT_NAME ]", "[ CLIENT_NAME ]"),
            ("unclosed [CLIENT_NAME", "unclosed [CLIENT_NAME"),
            ("[[CLIENT_NAME]]", "[Rose Lee]"),
            ("[]", "[]"),
            ("no placeholders", "no placeholders"),
            ("", ""),
            ("[CLIENT_NAME][CLIENT_NAME]", "Rose LeeRose Lee"),
            ("ünïcode [DATE] ✓", "ünïcode November 22, 2026 ✓"),
        ];
        for (text, expected) in cases {
            assert_eq!(fill_placeholders(text, &facts), expected, "{text:?}");
        }
        // Filled values are not filled again.
        let tricky = ContractFacts {
            client_name: "[DATE]".into(),
            ..facts
        };
        assert_eq!(fill_placeholders("[CLIENT_NAME]", &tricky), "[DATE]");
    }

    #[test]
    fn empty_schedule_and_services() {
        let facts = ContractFacts {
            services: Vec::new(),
            schedule: WeeklySchedule::default(),
            date: Date::constant(2027, 1, 5),
            ..facts()
        };
        assert_eq!(
            fill_placeholders("[SERVICES]|[SCHEDULE]|[MINIMUM_HOURS]", &facts),
            "||0"
        );
        assert_eq!(fill_placeholders("[DATE]", &facts), "January 5, 2027");
    }

    #[test]
    fn default_sections() {
        let sections = default_contract_sections();
        let summary: Vec<(&str, u32, bool)> = sections
            .iter()
            .map(|s| (s.title.as_str(), s.order, s.required))
            .collect();
        assert_eq!(
            summary,
            [
                ("Services Provided", 1, true),
                ("Payment Terms", 2, true),
                ("Cancellation Policy", 3, false),
                ("Liability and Insurance", 4, true),
            ]
        );
        let payment = &sections[1].content;
        for placeholder in ["[HOURLY_RATE]", "[PAYMENT_TERMS]", "[MINIMUM_HOURS]"] {
            assert!(payment.contains(placeholder), "{placeholder}");
        }
        let cancellation = &sections[2].content;
        assert!(cancellation.contains("24 hours"));
        assert!(cancellation.contains("50%"));
        // Every placeholder the defaults use is one fill_placeholders knows.
        let rendered = render_contract(&sections, &facts());
        assert!(!rendered.contains('['), "{rendered}");
    }

    #[test]
    fn builtin_agreement() {
        let text = builtin_agreement_text();
        for term in ["within 7 days", "5% per month", "24 hours", "50%"] {
            assert!(text.contains(term), "{term}");
        }
        for placeholder in [
            "[CLIENT_NAME]",
            "[HOURLY_RATE]",
            "[WEEKLY_COST]",
            "[MONTHLY_COST]",
            "[SERVICES]",
            "[SCHEDULE]",
            "[DATE]",
            "[AGENCY_NAME]",
        ] {
            assert!(text.contains(placeholder), "{placeholder}");
        }
        let rendered = render_contract(&[], &facts());
        assert!(rendered.starts_with(AGREEMENT_HEADING));
        assert!(rendered.contains(
            "made on November 22, 2026 between Sunrise Home Care (the Agency) and Rose Lee"
        ));
        assert!(rendered.contains("billed at $32.00 per hour"));
        assert!(!rendered.contains('['));
    }

    fn section(id: &str, order: u32, required: bool) -> ContractSection {
        ContractSection {
            id: id.into(),
            title: format!("Title {id}"),
            content: format!("Content {id} for [CLIENT_NAME]"),
            order,
            required,
        }
    }

    #[test]
    fn rendering_numbers_sections_by_order() {
        let sections = [
            section("b", 5, false),
            section("a", 2, true),
            section("c", 9, false),
        ];
        let rendered = render_contract(&sections, &facts());
        assert_eq!(
            rendered,
            "HOME CARE SERVICE AGREEMENT\n\nThis Home Care Service Agreement is made on November 22, 2026 between Sunrise Home Care (the Agency) and Rose Lee (the Client).\n\n1. Title a\n\nContent a for Rose Lee\n\n2. Title b\n\nContent b for Rose Lee\n\n3. Title c\n\nContent c for Rose Lee"
        );
    }

    #[test]
    fn template_versions() {
        let cases = [
            ("1.0", "1.1"),
            ("1.1", "1.2"),
            ("1.8", "1.9"),
            ("1.9", "2.0"),
            ("9.9", "10.0"),
            ("2", "2.1"),
            (" 1.3 ", "1.4"),
            ("1.25", "1.35"),
            ("1.95", "2.05"),
            ("1.10", "1.20"),
            ("", "1.1"),
            ("v1.2", "1.1"),
            ("1.", "1.1"),
            ("-1.0", "1.1"),
        ];
        for (current, expected) in cases {
            assert_eq!(next_template_version(current), expected, "{current:?}");
        }
        // Thirty saves in a row stay exact (0.1 added as a float would drift).
        let mut version = "1.0".to_owned();
        for _ in 0..30 {
            version = next_template_version(&version);
        }
        assert_eq!(version, "4.0");
    }

    #[test]
    fn removing_sections() {
        let sections = vec![
            section("a", 1, true),
            section("b", 2, false),
            section("c", 3, false),
            section("d", 4, true),
        ];
        let remaining = remove_section(&sections, "b").unwrap();
        let summary: Vec<(&str, u32)> =
            remaining.iter().map(|s| (s.id.as_str(), s.order)).collect();
        assert_eq!(summary, [("a", 1), ("c", 2), ("d", 3)]);

        match remove_section(&sections, "a") {
            Err(Error::Rejected(message)) => {
                assert_eq!(message, "This is a required section and cannot be removed.")
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            remove_section(&sections, "zz"),
            Err(Error::NotFound { .. })
        ));
        // Orders with gaps come back as 1..n in their order.
        let gappy = vec![
            section("x", 10, false),
            section("y", 3, false),
            section("z", 7, false),
        ];
        let remaining = remove_section(&gappy, "z").unwrap();
        let summary: Vec<(&str, u32)> =
            remaining.iter().map(|s| (s.id.as_str(), s.order)).collect();
        assert_eq!(summary, [("y", 1), ("x", 2)]);
    }
}
