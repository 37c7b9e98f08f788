//! The built-in template writer: drafts messages, notes and the marketing email from the
//! agency's message templates and the client's facts, so the AI buttons work without any
//! AI service.

use super::{ClientFacts, DraftKind, DraftRequest};
use crate::model::{MessageTemplate, MessageType, TemplateStage};

/// The active template that best fits a kind of draft: the right message type, the care
/// plan stage for the marketing email, else the general stage, else any stage.
pub(crate) fn template_for(
    kind: DraftKind,
    templates: &[MessageTemplate],
) -> Option<&MessageTemplate> {
    let message_type = match kind {
        DraftKind::Email | DraftKind::MarketingEmail => MessageType::Email,
        DraftKind::Sms => MessageType::Sms,
        DraftKind::Note => return None,
    };
    let preferred = if kind == DraftKind::MarketingEmail {
        TemplateStage::CarePlan
    } else {
        TemplateStage::General
    };
    let candidates = || {
        templates
            .iter()
            .filter(move |template| template.is_active && template.message_type == message_type)
    };
    candidates()
        .find(|template| template.stage == preferred)
        .or_else(|| candidates().find(|template| template.stage == TemplateStage::General))
        .or_else(|| candidates().next())
}

/// Replaces the placeholders a template may carry (`{client_name}`, `{{clientName}}`,
/// `[CLIENT_NAME]` and the like) with the facts.
fn fill(text: &str, facts: &ClientFacts) -> String {
    let services = facts.services.join(", ");
    let values: [(&[&str], &str); 4] = [
        (
            &["client_name", "clientName", "CLIENT_NAME"],
            &facts.client_name,
        ),
        (
            &["family_name", "familyName", "FAMILY_NAME"],
            &facts.family_name,
        ),
        (
            &["company_name", "companyName", "COMPANY_NAME"],
            &facts.company_name,
        ),
        (&["services", "SERVICES"], &services),
    ];
    let mut filled = text.to_owned();
    for (names, value) in values {
        for name in names {
            for pattern in [
                format!("{{{{{name}}}}}"),
                format!("{{{name}}}"),
                format!("[{name}]"),
            ] {
                filled = filled.replace(&pattern, value);
            }
        }
    }
    filled
}

fn greeting(facts: &ClientFacts) -> String {
    let name = facts.family_name.trim();
    if name.is_empty() {
        "Hello,".to_owned()
    } else {
        format!("Dear {name},")
    }
}

fn closing(facts: &ClientFacts) -> String {
    let mut lines = vec!["Warm regards,".to_owned()];
    if !facts.signature.trim().is_empty() {
        lines.push(facts.signature.trim().to_owned());
    } else if !facts.company_name.trim().is_empty() {
        lines.push(facts.company_name.trim().to_owned());
    }
    if !facts.contact_phone.trim().is_empty() {
        lines.push(facts.contact_phone.trim().to_owned());
    }
    lines.join("\n")
}

/// A draft written from the templates and facts alone.
pub fn write_draft(request: &DraftRequest, templates: &[MessageTemplate]) -> String {
    let facts = &request.facts;
    let prompt = request.prompt.trim();
    let client = if facts.client_name.trim().is_empty() {
        "your loved one".to_owned()
    } else {
        facts.client_name.trim().to_owned()
    };
    let guidance = template_for(request.kind, templates)
        .map(|template| fill(template.ai_prompt_template.trim(), facts))
        .filter(|text| !text.is_empty());
    match request.kind {
        DraftKind::Note => {
            let mut note = prompt.to_owned();
            if !facts.client_name.trim().is_empty() {
                note = format!("{}: {note}", facts.client_name.trim());
            }
            if !note.ends_with('.') {
                note.push('.');
            }
            note
        }
        DraftKind::Sms => {
            let text = match guidance {
                Some(guidance) if prompt.is_empty() => guidance,
                _ => format!("Hi, this is about {client}: {prompt}"),
            };
            text.chars().take(160).collect()
        }
        DraftKind::Email => {
            let middle = match guidance {
                Some(guidance) if prompt.is_empty() => guidance,
                _ => format!("I am writing about {client}. {prompt}"),
            };
            format!(
                "{}\n\n{middle}\n\nPlease let us know if you have any questions.\n\n{}",
                greeting(facts),
                closing(facts)
            )
        }
        DraftKind::MarketingEmail => {
            let mut body = vec![
                greeting(facts),
                format!(
                    "Thank you for trusting us with {client}'s care. Based on our assessment, here is the care we propose:"
                ),
            ];
            if !facts.services.is_empty() {
                body.push(
                    facts
                        .services
                        .iter()
                        .map(|service| format!("- {service}"))
                        .collect::<Vec<_>>()
                        .join("\n"),
                );
            }
            if !facts.schedule.is_empty() {
                body.push(format!("Schedule:\n{}", facts.schedule.join("\n")));
            }
            if let (Some(weekly), Some(monthly)) = (facts.weekly_cost, facts.monthly_cost) {
                body.push(format!(
                    "Weekly cost: ${weekly:.2} (about ${monthly:.2} per month)"
                ));
            }
            if let Some(guidance) = guidance {
                body.push(guidance);
            }
            if !prompt.is_empty() {
                body.push(prompt.to_owned());
            }
            body.push("Just reply YES to this email and we will take care of the rest.".to_owned());
            body.push(closing(facts));
            body.join("\n\n")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::MessageTemplateId;

    fn template(stage: TemplateStage, message_type: MessageType, prompt: &str) -> MessageTemplate {
        MessageTemplate {
            id: MessageTemplateId::new(),
            version: 1,
            name: "t".to_owned(),
            message_type,
            stage,
            subject_template: None,
            ai_prompt_template: prompt.to_owned(),
            is_active: true,
            created_at: String::new(),
        }
    }

    fn request(kind: DraftKind, prompt: &str) -> DraftRequest {
        DraftRequest {
            kind,
            prompt: prompt.to_owned(),
            facts: ClientFacts {
                client_name: "Ada Lovelace".to_owned(),
                family_name: "Byron".to_owned(),
                services: vec!["Friendly Companionship".to_owned()],
                weekly_cost: Some(250.0),
                monthly_cost: Some(1082.5),
                company_name: "Sunrise Care".to_owned(),
                ..ClientFacts::default()
            },
        }
    }

    #[test]
    fn fills_template_placeholders_with_the_facts() {
        let facts = request(DraftKind::Email, "").facts;
        assert_eq!(
            fill(
                "{client_name} / {{familyName}} / [COMPANY_NAME] / {services}",
                &facts
            ),
            "Ada Lovelace / Byron / Sunrise Care / Friendly Companionship"
        );
    }

    #[test]
    fn drafts_each_kind_with_the_client_facts() {
        let templates = [template(
            TemplateStage::General,
            MessageType::Sms,
            "Hello from [COMPANY_NAME] about {client_name}",
        )];
        let email = write_draft(
            &request(DraftKind::Email, "Confirm Tuesday's visit"),
            &templates,
        );
        assert!(email.starts_with("Dear Byron,"), "{email}");
        assert!(email.contains("Ada Lovelace") && email.contains("Confirm Tuesday's visit"));
        let sms = write_draft(&request(DraftKind::Sms, ""), &templates);
        assert_eq!(sms, "Hello from Sunrise Care about Ada Lovelace");
        let note = write_draft(&request(DraftKind::Note, "Called the daughter"), &templates);
        assert_eq!(note, "Ada Lovelace: Called the daughter.");
        let marketing = write_draft(&request(DraftKind::MarketingEmail, ""), &templates);
        assert!(marketing.contains("- Friendly Companionship") && marketing.contains("$250.00"));
        assert!(marketing.contains("reply YES"));
    }
}
