//! The built-in template writer: drafts messages, notes and the marketing email from the
//! agency's message templates and the client's facts, so the AI buttons work without any
//! AI service.

use super::{ClientFacts, DraftKind, DraftRequest};
use crate::error::{Error, ValidationErrors};
use crate::model::{MessageTemplate, MessageTemplateId, MessageType, Stage, TemplateStage};
use crate::rules::validation::TEMPLATE_NOT_OFFERED;

fn message_type_of(kind: DraftKind) -> Option<MessageType> {
    match kind {
        DraftKind::Email | DraftKind::MarketingEmail => Some(MessageType::Email),
        DraftKind::Sms => Some(MessageType::Sms),
        DraftKind::Note => None,
    }
}

fn template_stage(stage: Stage) -> TemplateStage {
    match stage {
        Stage::Intake => TemplateStage::Intake,
        Stage::Assessment => TemplateStage::Assessment,
        Stage::CarePlan => TemplateStage::CarePlan,
        Stage::Contract => TemplateStage::Contract,
    }
}

/// The templates a send dialog offers for a client: the active templates of the
/// dialog's message type made for the client's pipeline stage, then the active general
/// ones (they fit every stage). No client (a dialog without one): the general ones.
/// Inactive templates are never offered.
pub fn offered_templates(
    kind: DraftKind,
    stage: Option<Stage>,
    templates: &[MessageTemplate],
) -> Vec<MessageTemplate> {
    let Some(message_type) = message_type_of(kind) else {
        return Vec::new();
    };
    let wanted = stage.map(template_stage);
    let fitting = |stage: TemplateStage| {
        templates.iter().filter(move |template| {
            template.is_active && template.message_type == message_type && template.stage == stage
        })
    };
    let mut offered: Vec<MessageTemplate> = match wanted {
        Some(stage) => fitting(stage).cloned().collect(),
        None => Vec::new(),
    };
    offered.extend(fitting(TemplateStage::General).cloned());
    offered
}

/// The template staff chose for a draft, when it is one the dialog offers for this
/// client; any other (inactive, another stage or message type, unknown) is refused.
pub fn chosen_template(
    kind: DraftKind,
    stage: Option<Stage>,
    id: &MessageTemplateId,
    templates: &[MessageTemplate],
) -> Result<MessageTemplate, Error> {
    offered_templates(kind, stage, templates)
        .into_iter()
        .find(|template| &template.id == id)
        .ok_or_else(|| {
            Error::Validation(ValidationErrors::single(
                "template_id",
                TEMPLATE_NOT_OFFERED,
            ))
        })
}

/// The subject of an email drafted from a chosen template with a subject template,
/// filled with the client's facts.
pub fn draft_subject(request: &DraftRequest) -> Option<String> {
    let template = request.template.as_ref()?;
    let subject = fill(template.subject_template.as_deref()?.trim(), &request.facts);
    (request.kind == DraftKind::Email && !subject.is_empty()).then_some(subject)
}

/// The template a draft follows: the one staff chose, else the active template that best
/// fits its kind: the right message type, the care plan stage for the marketing email,
/// else the general stage, else any stage.
pub(crate) fn template_for<'a>(
    request: &'a DraftRequest,
    templates: &'a [MessageTemplate],
) -> Option<&'a MessageTemplate> {
    if let Some(template) = &request.template {
        return Some(template);
    }
    let kind = request.kind;
    let message_type = message_type_of(kind)?;
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
    let guidance = template_for(request, templates)
        .map(|template| fill(template.ai_prompt_template.trim(), facts))
        .filter(|text| !text.is_empty());
    // A template staff chose leads the draft, and what they typed follows it.
    let chosen = request.template.is_some();
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
                Some(guidance) if chosen => format!("{guidance} {prompt}"),
                _ => format!("Hi, this is about {client}: {prompt}"),
            };
            text.chars().take(160).collect()
        }
        DraftKind::Email => {
            let middle = match guidance {
                Some(guidance) if prompt.is_empty() => guidance,
                Some(guidance) if chosen => format!("{guidance}\n\n{prompt}"),
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
                    "Weekly cost: {} (about {} per month)",
                    crate::rules::format::format_money(weekly),
                    crate::rules::format::format_money(monthly)
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
            template: None,
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

    #[test]
    fn a_dialog_offers_the_active_templates_of_the_clients_stage_then_general_ones() {
        let mut templates = vec![
            template(
                TemplateStage::Assessment,
                MessageType::Sms,
                "assessment sms",
            ),
            template(TemplateStage::Intake, MessageType::Sms, "intake sms"),
            template(TemplateStage::Intake, MessageType::Email, "intake email"),
            template(TemplateStage::General, MessageType::Sms, "general sms"),
            template(TemplateStage::Intake, MessageType::Sms, "switched off"),
        ];
        templates[4].is_active = false;
        let prompts = |kind, stage| {
            offered_templates(kind, stage, &templates)
                .into_iter()
                .map(|t| t.ai_prompt_template)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            prompts(DraftKind::Sms, Some(Stage::Intake)),
            ["intake sms", "general sms"]
        );
        assert_eq!(
            prompts(DraftKind::Sms, Some(Stage::Assessment)),
            ["assessment sms", "general sms"]
        );
        assert_eq!(
            prompts(DraftKind::Email, Some(Stage::Intake)),
            ["intake email"]
        );
        assert_eq!(prompts(DraftKind::Sms, None), ["general sms"]);
        assert!(prompts(DraftKind::Note, Some(Stage::Intake)).is_empty());

        // Choosing: an offered one is taken; inactive or another stage's is refused.
        let chosen = chosen_template(
            DraftKind::Sms,
            Some(Stage::Intake),
            &templates[1].id,
            &templates,
        );
        assert_eq!(chosen.unwrap().ai_prompt_template, "intake sms");
        for refused in [&templates[4].id, &templates[0].id, &templates[2].id] {
            let Err(Error::Validation(errors)) =
                chosen_template(DraftKind::Sms, Some(Stage::Intake), refused, &templates)
            else {
                panic!("expected a validation error");
            };
            assert_eq!(errors.message, TEMPLATE_NOT_OFFERED);
        }
    }

    #[test]
    fn a_chosen_template_leads_the_draft_and_fills_its_subject() {
        let mut chosen = template(
            TemplateStage::Intake,
            MessageType::Email,
            "Welcome {client_name} to [COMPANY_NAME].",
        );
        chosen.subject_template = Some("Welcome, {{familyName}}".to_owned());
        let other = template(TemplateStage::General, MessageType::Email, "General words");
        let templates = [other, chosen.clone()];
        let mut request = request(DraftKind::Email, "");
        request.template = Some(chosen);
        let email = write_draft(&request, &templates);
        assert!(
            email.contains("Welcome Ada Lovelace to Sunrise Care."),
            "{email}"
        );
        assert!(!email.contains("General words"), "{email}");
        assert_eq!(draft_subject(&request).as_deref(), Some("Welcome, Byron"));
        request.prompt = "Mention Tuesday".to_owned();
        let email = write_draft(&request, &templates);
        assert!(
            email.contains("Welcome Ada Lovelace to Sunrise Care.\n\nMention Tuesday"),
            "{email}"
        );
        // Without a chosen template there is no subject to suggest.
        request.template = None;
        assert_eq!(draft_subject(&request), None);
    }
}
