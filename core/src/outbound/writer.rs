//! The built-in writer: drafts messages, notes and the proposal email from the client's
//! facts (and the stage of the message template staff chose), so the AI buttons work
//! without any AI service. It composes every sentence itself: a template's AI prompt is
//! guidance for an AI service, and never reaches a family.

use super::{ClientFacts, DraftKind, DraftRequest};
use crate::error::{Error, ValidationErrors};
use crate::model::{
    MessageTemplate, MessageTemplateId, MessageType, PricingDetails, Stage, TemplateStage,
};
use crate::rules::contract_text::format_money;
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
/// filled with the client's facts. A subject naming a placeholder the facts cannot fill
/// (unknown, or its fact is missing) is not suggested: the dialog keeps its own.
pub fn draft_subject(request: &DraftRequest) -> Option<String> {
    let template = request.template.as_ref()?;
    let subject = fill(template.subject_template.as_deref()?.trim(), &request.facts)?;
    (request.kind == DraftKind::Email && !subject.is_empty()).then_some(subject)
}

/// The template a draft follows: the one staff chose, else the active template that best
/// fits its kind: the right message type, the care plan stage for the marketing email,
/// else the general stage, else any stage. An outside AI service reads its prompt; the
/// built-in writer only its stage.
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

/// A placeholder's name as written in any of the usual styles (`client_name`,
/// `clientName`, `CLIENT_NAME`, `Client Name`), reduced to one form.
fn placeholder_key(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The fact a placeholder names, when there is one and it is known.
fn placeholder_value(key: &str, facts: &ClientFacts) -> Option<String> {
    let value = match key {
        "client" | "clientname" | "clientfullname" => facts.client_name.trim().to_owned(),
        "family" | "familyname" | "familycontact" | "familycontactname" | "callername"
        | "contactname" => facts.family_name.trim().to_owned(),
        "company" | "companyname" | "agency" | "agencyname" => facts.company_name.trim().to_owned(),
        "coordinator" | "coordinatorname" | "carecoordinator" | "carecoordinatorname" => {
            facts.coordinator_name.trim().to_owned()
        }
        "phone" | "contactphone" | "agencyphone" | "companyphone" => {
            facts.contact_phone.trim().to_owned()
        }
        "services" => facts.services.join(", "),
        "startdate" | "proposedstartdate" => start_date(facts).unwrap_or_default(),
        "weeklycost" => facts.weekly_cost.map(format_money).unwrap_or_default(),
        "monthlycost" => facts.monthly_cost.map(format_money).unwrap_or_default(),
        _ => return None,
    };
    (!value.is_empty()).then_some(value)
}

/// Replaces the placeholders a template may carry (`{client_name}`, `{{clientName}}`,
/// `[CLIENT_NAME]` and the like) with the facts. None when any placeholder is unknown or
/// its fact is missing, or a bracket is left open: a hole or a token never reaches a
/// family.
fn fill(text: &str, facts: &ClientFacts) -> Option<String> {
    let mut filled = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(['{', '[', '}', ']']) {
        filled.push_str(&rest[..at]);
        let tail = &rest[at..];
        let (open, close) = match tail.as_bytes()[0] {
            b'{' if tail.starts_with("{{") => ("{{", "}}"),
            b'{' => ("{", "}"),
            b'[' => ("[", "]"),
            _ => return None,
        };
        let inner = &tail[open.len()..];
        let end = inner.find(close)?;
        filled.push_str(&placeholder_value(&placeholder_key(&inner[..end]), facts)?);
        rest = &inner[end + close.len()..];
    }
    filled.push_str(rest);
    Some(filled)
}

/// The proposed start date as a family reads it ("Tuesday, December 1, 2026").
fn start_date(facts: &ClientFacts) -> Option<String> {
    let text = facts.start_date.as_deref()?.trim();
    let date: jiff::civil::Date = text.parse().ok()?;
    Some(date.strftime("%A, %B %-d, %Y").to_string())
}

/// The line a family is greeted with: the family contact by name.
pub(crate) fn greeting(facts: &ClientFacts) -> String {
    let name = facts.family_name.trim();
    if name.is_empty() {
        "Hello,".to_owned()
    } else {
        format!("Dear {name},")
    }
}

/// The first line of every sign-off; a link paragraph added when an email is sent goes
/// just before it.
pub const SIGN_OFF: &str = "Warm regards,";

/// How every email to a family ends: the coordinator's name, then the agency's
/// signature (Settings → Email), its name and phone unless the signature already gives
/// them.
pub(crate) fn sign_off(facts: &ClientFacts) -> String {
    let mut lines = vec![SIGN_OFF.to_owned()];
    let coordinator = facts.coordinator_name.trim();
    if !coordinator.is_empty() {
        lines.push(coordinator.to_owned());
    }
    let signature = facts.signature.trim();
    if !signature.is_empty() {
        lines.push(signature.to_owned());
    }
    for extra in [facts.company_name.trim(), facts.contact_phone.trim()] {
        if !extra.is_empty() && !signature.contains(extra) {
            lines.push(extra.to_owned());
        }
    }
    lines.join("\n")
}

/// The client as a letter names them.
fn client(facts: &ClientFacts) -> String {
    match facts.client_name.trim() {
        "" => "your loved one".to_owned(),
        name => name.to_owned(),
    }
}

/// The agency as a sentence names it: by name, else "us".
fn agency(facts: &ClientFacts) -> String {
    match facts.company_name.trim() {
        "" => "us".to_owned(),
        name => name.to_owned(),
    }
}

/// How a family reaches the agency with questions.
fn questions_line(facts: &ClientFacts) -> String {
    match facts.contact_phone.trim() {
        "" => "If you have any questions, just reply to this email.".to_owned(),
        phone => {
            format!("If you have any questions, just reply to this email or call us at {phone}.")
        }
    }
}

/// The proposal in sentences and lists: services (the spec's labels), the weekly
/// schedule, the start date and the cost. Only the facts that are known.
fn proposal_paragraphs(facts: &ClientFacts) -> Vec<String> {
    let mut paragraphs = vec![format!(
        "Thank you for trusting {} with {}'s care. Based on our assessment, here is the care we propose.",
        agency(facts),
        client(facts)
    )];
    if !facts.services.is_empty() {
        let list: Vec<String> = facts.services.iter().map(|s| format!("- {s}")).collect();
        paragraphs.push(format!("Services:\n{}", list.join("\n")));
    }
    if !facts.schedule.is_empty() {
        let mut schedule = format!("Weekly schedule:\n{}", facts.schedule.join("\n"));
        if let Some(hours) = facts.total_weekly_hours.filter(|h| *h > 0.0) {
            schedule.push_str(&format!("\nTotal: {hours} hours per week"));
        }
        paragraphs.push(schedule);
    }
    if let Some(date) = start_date(facts) {
        paragraphs.push(format!("Proposed start date: {date}"));
    }
    match (facts.weekly_cost, facts.monthly_cost) {
        (Some(weekly), Some(monthly)) => paragraphs.push(format!(
            "Cost: {} per week (about {} per month).",
            format_money(weekly),
            format_money(monthly)
        )),
        (Some(weekly), None) => {
            paragraphs.push(format!("Cost: {} per week.", format_money(weekly)))
        }
        _ => {}
    }
    paragraphs
}

/// The body of an email of a pipeline stage (None: a general one), from the facts alone.
fn email_paragraphs(stage: Option<Stage>, facts: &ClientFacts) -> Vec<String> {
    let (client, agency) = (client(facts), agency(facts));
    let mut paragraphs = match stage {
        Some(Stage::Intake) => {
            let mut paragraphs = vec![format!(
                "Thank you for calling {agency} about care for {client}."
            )];
            if !facts.services.is_empty() {
                paragraphs.push(format!(
                    "You asked about help with: {}.",
                    facts.services.join(", ")
                ));
            }
            paragraphs.push(format!(
                "The next step is a free in-home assessment, where we meet {client} and talk \
                 through the care that would help most. Please reply with a few days and times \
                 that suit you."
            ));
            paragraphs
        }
        Some(Stage::Assessment) => vec![
            format!("This is a friendly reminder of {client}'s in-home assessment with {agency}."),
            format!(
                "We will talk through daily routines, the home and the help {client} would like. \
                 If you need a different day or time, please let us know."
            ),
        ],
        Some(Stage::CarePlan) => {
            let mut paragraphs = proposal_paragraphs(facts);
            paragraphs.push(
                "When you are ready to go ahead, let us know and we will prepare the service \
                 agreement."
                    .to_owned(),
            );
            paragraphs
        }
        Some(Stage::Contract) => {
            let mut paragraphs = vec![format!(
                "The Home Care Service Agreement for {client} is ready."
            )];
            if let (Some(weekly), Some(monthly)) = (facts.weekly_cost, facts.monthly_cost) {
                paragraphs.push(format!(
                    "It confirms the services and schedule we discussed, at {} per week (about \
                     {} per month).",
                    format_money(weekly),
                    format_money(monthly)
                ));
            }
            paragraphs.push(
                "We will email it to you with a personal link to read and sign it online. Once \
                 it is signed, we will confirm the start date with you."
                    .to_owned(),
            );
            paragraphs
        }
        None => vec![format!(
            "We are writing from {agency} to check in about {client}'s care. If anything has \
             changed, we would like to hear about it."
        )],
    };
    paragraphs.push(questions_line(facts));
    paragraphs
}

/// A text message of a pipeline stage, at most 160 characters: the fullest wording that
/// fits, with the agency's phone when there is one.
fn text_message(stage: Option<Stage>, facts: &ClientFacts) -> String {
    let client = client(facts);
    let from = match facts.company_name.trim() {
        "" => "Your home care agency".to_owned(),
        name => name.to_owned(),
    };
    let what = match stage {
        Some(Stage::Intake) => format!(
            "thank you for calling about {client}. When would suit you for a free in-home assessment?"
        ),
        Some(Stage::Assessment) => {
            format!("a reminder of {client}'s in-home assessment. Need another time? Let us know.")
        }
        Some(Stage::CarePlan) => {
            format!("the care plan proposal for {client} is in your email.")
        }
        Some(Stage::Contract) => format!(
            "the service agreement for {client} is ready to sign; the link is in your email."
        ),
        None => format!("checking in about {client}'s care."),
    };
    let phone = facts.contact_phone.trim();
    let mut candidates = Vec::new();
    if !phone.is_empty() {
        candidates.push(format!("{from}: {what} Questions? Call {phone}."));
    }
    candidates.push(format!("{from}: {what}"));
    candidates.push(what.clone());
    candidates
        .into_iter()
        .find(|text| text.chars().count() <= SMS_LIMIT)
        .unwrap_or_else(|| shorten(&what, SMS_LIMIT))
}

const SMS_LIMIT: usize = 160;

/// Text cut to `limit` characters at a word boundary (a very long client name).
fn shorten(text: &str, limit: usize) -> String {
    let mut out = String::new();
    for word in text.split_whitespace() {
        let extra = usize::from(!out.is_empty()) + word.chars().count();
        if out.chars().count() + extra > limit {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// The stage a letter is written for: the chosen template's, else (a general template,
/// or none) the client's own.
fn letter_stage(request: &DraftRequest) -> Option<Stage> {
    match request.template.as_ref().map(|template| template.stage) {
        Some(TemplateStage::Intake) => Some(Stage::Intake),
        Some(TemplateStage::Assessment) => Some(Stage::Assessment),
        Some(TemplateStage::CarePlan) => Some(Stage::CarePlan),
        Some(TemplateStage::Contract) => Some(Stage::Contract),
        Some(TemplateStage::General) | None => request.facts.stage,
    }
}

/// The care plan proposal email: the proposal, then a request to approve it with the
/// personal link added below it when it is sent, and the sign-off.
pub fn proposal_email(facts: &ClientFacts) -> String {
    let mut body = vec![greeting(facts)];
    body.extend(proposal_paragraphs(facts));
    let questions = questions_line(facts);
    body.push(format!(
        "The proposal letter is attached as a PDF. To go ahead, please approve the proposal \
         with your personal link below. {questions}"
    ));
    body.push(sign_off(facts));
    body.join("\n\n")
}

/// The contract email the send dialog starts with: the family contact by name, the
/// agreement's rate and costs, signing through the personal link added below it when it
/// is sent (never "reply to sign"), and the sign-off.
pub fn contract_email(facts: &ClientFacts, pricing: &PricingDetails) -> String {
    [
        greeting(facts),
        format!(
            "Thank you for choosing {} to care for {}. The Home Care Service Agreement is \
             attached to this email as a PDF.",
            agency(facts),
            client(facts)
        ),
        format!(
            "It confirms the services and schedule we discussed, at {} per hour ({} per week, \
             about {} per month).",
            format_money(pricing.hourly_rate),
            format_money(pricing.weekly_cost),
            format_money(pricing.monthly_cost)
        ),
        format!(
            "Please read the agreement and sign it online with your personal link below. {}",
            questions_line(facts)
        ),
        sign_off(facts),
    ]
    .join("\n\n")
}

/// The email with a new signing link (Resend): the family contact by name, why a new
/// link came, the link paragraph and the sign-off.
pub fn resend_email(facts: &ClientFacts, link_paragraph: &str) -> String {
    [
        greeting(facts),
        format!(
            "Here is a new personal link to sign the Home Care Service Agreement for {}. The \
             earlier link no longer works.",
            client(facts)
        ),
        link_paragraph.to_owned(),
        questions_line(facts),
        sign_off(facts),
    ]
    .join("\n\n")
}

/// An email body with `paragraph` (a personal link and when it expires) put just before
/// its sign-off, so the email still ends with who wrote it; at the end when staff took
/// the sign-off out.
pub fn with_paragraph_before_sign_off(body: &str, paragraph: &str) -> String {
    let body = body.trim_end();
    let sign_off = body.rmatch_indices(SIGN_OFF).map(|(at, _)| at).find(|&at| {
        let starts_line = at == 0 || body[..at].ends_with('\n');
        let ends_line = body[at + SIGN_OFF.len()..]
            .chars()
            .next()
            .is_none_or(|c| c == '\n' || c == '\r');
        starts_line && ends_line
    });
    let (before, after) = match sign_off {
        Some(at) => (body[..at].trim_end(), &body[at..]),
        None => (body, ""),
    };
    [before, paragraph, after]
        .into_iter()
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// A draft written from the facts alone: the letter of the template's (or the client's)
/// stage. Neither a template's AI prompt nor what staff typed is copied into a message
/// to a family: both are instructions to a writer, not words for the family. An
/// internal note is what staff typed, tidied.
pub fn write_draft(request: &DraftRequest) -> String {
    let facts = &request.facts;
    match request.kind {
        DraftKind::Note => {
            let mut note = request.prompt.trim().to_owned();
            if !facts.client_name.trim().is_empty() {
                note = format!("{}: {note}", facts.client_name.trim());
            }
            if !note.ends_with('.') {
                note.push('.');
            }
            note
        }
        DraftKind::Sms => text_message(letter_stage(request), facts),
        DraftKind::Email => {
            let mut body = vec![greeting(facts)];
            body.extend(email_paragraphs(letter_stage(request), facts));
            body.push(sign_off(facts));
            body.join("\n\n")
        }
        DraftKind::MarketingEmail => proposal_email(facts),
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

    /// The facts of a care plan: every one a letter may use.
    fn full_facts() -> ClientFacts {
        ClientFacts {
            client_name: "Harriet Ashcombe".to_owned(),
            family_name: "Margaret Ashcombe".to_owned(),
            services: vec![
                "Help with Daily Personal Care".to_owned(),
                "Friendly Companionship".to_owned(),
            ],
            schedule: vec![
                "Monday: 4 hours, 9am-1pm".to_owned(),
                "Wednesday: 4 hours, 9am-1pm".to_owned(),
            ],
            total_weekly_hours: Some(8.0),
            weekly_cost: Some(1250.0),
            monthly_cost: Some(5412.5),
            start_date: Some("2026-12-01".to_owned()),
            stage: Some(Stage::CarePlan),
            coordinator_name: "Priya Shah".to_owned(),
            company_name: "Sunrise Care".to_owned(),
            contact_phone: "(217) 555-0199".to_owned(),
            signature: "Sunrise Care\nHome care you can trust".to_owned(),
        }
    }

    /// Facts with little known: a name typed in a dialog.
    fn sparse_facts() -> ClientFacts {
        ClientFacts {
            client_name: "Ada".to_owned(),
            ..ClientFacts::default()
        }
    }

    fn request(kind: DraftKind, prompt: &str) -> DraftRequest {
        DraftRequest {
            kind,
            prompt: prompt.to_owned(),
            facts: full_facts(),
            template: None,
        }
    }

    fn seeded() -> Vec<MessageTemplate> {
        crate::demo::message_templates()
            .into_iter()
            .map(|input| MessageTemplate {
                subject_template: Some(input.subject_template).filter(|s| !s.is_empty()),
                ..template(input.stage, input.message_type, &input.ai_prompt_template)
            })
            .collect()
    }

    /// A template written to leak: instructions and every placeholder style, known and
    /// unknown.
    fn custom(message_type: MessageType) -> MessageTemplate {
        let mut custom = template(
            TemplateStage::General,
            message_type,
            "You are a helpful assistant. Write a warm note to [FAMILY_NAME] about {client_name}. \
             Mention {{services}} and [PLACEHOLDER]. Ask them to reply YES. Sign as {coordinator}. \
             Do not mention prices. {unknown_token} {{another_one}}",
        );
        custom.subject_template = Some("Hello {{familyName}} from [COMPANY_NAME]".to_owned());
        custom
    }

    /// The sentences of a prompt, filled as a careless writer would fill them: any of them
    /// in a letter means the prompt leaked.
    fn prompt_sentences(prompt: &str, facts: &ClientFacts) -> Vec<String> {
        prompt
            .split(['.', '!', '?', ':', '\n'])
            .map(|sentence| {
                let mut text = sentence.trim().to_owned();
                for (token, value) in [
                    ("{client_name}", facts.client_name.as_str()),
                    ("[FAMILY_NAME]", facts.family_name.as_str()),
                ] {
                    text = text.replace(token, value);
                }
                text
            })
            .filter(|sentence| sentence.split_whitespace().count() >= 3)
            .collect()
    }

    /// What a family must never read: a sentence of the prompt or a placeholder.
    fn assert_clean(output: &str, prompt: &str, facts: &ClientFacts, what: &str) {
        for sentence in prompt_sentences(prompt, facts) {
            assert!(
                !output.contains(&sentence),
                "{what}: the prompt's \"{sentence}\" leaked into:\n{output}"
            );
        }
        assert!(
            !output.contains(['[', ']', '{', '}']),
            "{what}: a placeholder in:\n{output}"
        );
        assert!(!output.trim().is_empty(), "{what}: empty");
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
    fn no_template_prompt_or_placeholder_reaches_a_family_from_any_template() {
        let mut templates = seeded();
        assert_eq!(templates.len(), 10, "an email and a text for every stage");
        for message_type in [MessageType::Email, MessageType::Sms] {
            for stage in [
                TemplateStage::General,
                TemplateStage::Intake,
                TemplateStage::Assessment,
                TemplateStage::CarePlan,
                TemplateStage::Contract,
            ] {
                assert!(
                    templates
                        .iter()
                        .any(|t| t.message_type == message_type && t.stage == stage),
                    "no seeded {message_type:?} template for {stage:?}"
                );
            }
        }
        templates.push(custom(MessageType::Email));
        templates.push(custom(MessageType::Sms));
        let client_stages = [
            None,
            Some(Stage::Intake),
            Some(Stage::Assessment),
            Some(Stage::CarePlan),
            Some(Stage::Contract),
        ];
        for facts in [full_facts(), sparse_facts()] {
            for stage in client_stages {
                let facts = ClientFacts {
                    stage,
                    ..facts.clone()
                };
                for template in &templates {
                    let kinds: &[DraftKind] = match template.message_type {
                        MessageType::Email => &[DraftKind::Email, DraftKind::MarketingEmail],
                        MessageType::Sms => &[DraftKind::Sms],
                    };
                    for &kind in kinds {
                        // Chosen in the dialog, with and without words typed by staff.
                        for prompt in ["", "Tell them Tuesday works [DATE]"] {
                            let request = DraftRequest {
                                kind,
                                prompt: prompt.to_owned(),
                                facts: facts.clone(),
                                template: Some(template.clone()),
                            };
                            let what = format!("{kind:?} from {:?} for {stage:?}", template.name);
                            let output = write_draft(&request);
                            assert_clean(&output, &template.ai_prompt_template, &facts, &what);
                            assert_clean(&output, prompt, &facts, &what);
                            if kind == DraftKind::Sms {
                                assert!(output.chars().count() <= 160, "{what}: {output}");
                            }
                            if let Some(subject) = draft_subject(&request) {
                                assert_clean(&subject, "", &facts, &what);
                            }
                        }
                    }
                }
                // The marketing email as the proposal dialog drafts it: no template chosen.
                let request = DraftRequest {
                    kind: DraftKind::MarketingEmail,
                    prompt: String::new(),
                    facts: facts.clone(),
                    template: None,
                };
                let output = write_draft(&request);
                for template in &templates {
                    assert_clean(&output, &template.ai_prompt_template, &facts, "proposal");
                }
            }
        }
    }

    #[test]
    fn the_proposal_email_is_composed_from_the_facts_and_asks_for_approval_by_link() {
        let email = write_draft(&request(DraftKind::MarketingEmail, ""));
        assert_eq!(
            email,
            "Dear Margaret Ashcombe,\n\n\
             Thank you for trusting Sunrise Care with Harriet Ashcombe's care. Based on our \
             assessment, here is the care we propose.\n\n\
             Services:\n- Help with Daily Personal Care\n- Friendly Companionship\n\n\
             Weekly schedule:\nMonday: 4 hours, 9am-1pm\nWednesday: 4 hours, 9am-1pm\n\
             Total: 8 hours per week\n\n\
             Proposed start date: Tuesday, December 1, 2026\n\n\
             Cost: $1,250.00 per week (about $5,412.50 per month).\n\n\
             The proposal letter is attached as a PDF. To go ahead, please approve the proposal \
             with your personal link below. If you have any questions, just reply to this email \
             or call us at (217) 555-0199.\n\n\
             Warm regards,\nPriya Shah\nSunrise Care\nHome care you can trust\n(217) 555-0199"
        );
        assert!(!email.contains("reply YES"));
    }

    #[test]
    fn the_contract_email_greets_the_family_contact_and_signs_by_link() {
        let pricing = PricingDetails {
            hourly_rate: 28.5,
            weekly_cost: 228.0,
            monthly_cost: 987.24,
        };
        let email = contract_email(&full_facts(), &pricing);
        assert_eq!(
            email,
            "Dear Margaret Ashcombe,\n\n\
             Thank you for choosing Sunrise Care to care for Harriet Ashcombe. The Home Care \
             Service Agreement is attached to this email as a PDF.\n\n\
             It confirms the services and schedule we discussed, at $28.50 per hour ($228.00 per \
             week, about $987.24 per month).\n\n\
             Please read the agreement and sign it online with your personal link below. If you \
             have any questions, just reply to this email or call us at (217) 555-0199.\n\n\
             Warm regards,\nPriya Shah\nSunrise Care\nHome care you can trust\n(217) 555-0199"
        );
        assert!(!email.to_lowercase().contains("reply to sign"));
        assert!(!email.to_lowercase().contains("sign it and reply"));
    }

    #[test]
    fn the_sign_off_names_the_coordinator_then_the_agency_once() {
        let base = full_facts();
        // (coordinator, signature, company, phone, expected)
        let cases = [
            (
                "Priya Shah",
                "",
                "Sunrise Care",
                "(217) 555-0199",
                "Warm regards,\nPriya Shah\nSunrise Care\n(217) 555-0199",
            ),
            ("", "", "Sunrise Care", "", "Warm regards,\nSunrise Care"),
            (
                "Priya Shah",
                "The Sunrise Care team\n(217) 555-0199",
                "Sunrise Care",
                "(217) 555-0199",
                "Warm regards,\nPriya Shah\nThe Sunrise Care team\n(217) 555-0199",
            ),
            (
                "Priya Shah",
                "Home care you can trust",
                "Sunrise Care",
                "",
                "Warm regards,\nPriya Shah\nHome care you can trust\nSunrise Care",
            ),
        ];
        for (coordinator, signature, company, phone, expected) in cases {
            let facts = ClientFacts {
                coordinator_name: coordinator.to_owned(),
                signature: signature.to_owned(),
                company_name: company.to_owned(),
                contact_phone: phone.to_owned(),
                ..base.clone()
            };
            assert_eq!(sign_off(&facts), expected);
        }
    }

    #[test]
    fn a_link_paragraph_goes_just_above_the_sign_off() {
        let link = "Sign here:\nLINK";
        let cases = [
            (
                "Dear Ann,\n\nHello.\n\nWarm regards,\nPriya",
                "Dear Ann,\n\nHello.\n\nSign here:\nLINK\n\nWarm regards,\nPriya",
            ),
            // The last sign-off line, not a mention of it in a sentence.
            (
                "We send Warm regards, always.\n\nWarm regards,\nPriya\n",
                "We send Warm regards, always.\n\nSign here:\nLINK\n\nWarm regards,\nPriya",
            ),
            // Staff took the sign-off out: the link ends the email.
            (
                "Dear Ann,\n\nHello.\n",
                "Dear Ann,\n\nHello.\n\nSign here:\nLINK",
            ),
            ("Warm regards,", "Sign here:\nLINK\n\nWarm regards,"),
        ];
        for (body, expected) in cases {
            assert_eq!(
                with_paragraph_before_sign_off(body, link),
                expected,
                "{body:?}"
            );
        }
    }

    #[test]
    fn placeholders_fill_from_the_facts_or_leave_nothing() {
        let facts = full_facts();
        let cases = [
            (
                "{client_name} / {{familyName}} / [COMPANY_NAME] / {services}",
                Some(
                    "Harriet Ashcombe / Margaret Ashcombe / Sunrise Care / Help with Daily Personal Care, Friendly Companionship",
                ),
            ),
            (
                "[Client Name] starts {start_date}",
                Some("Harriet Ashcombe starts Tuesday, December 1, 2026"),
            ),
            ("{weeklyCost} a week", Some("$1,250.00 a week")),
            ("No placeholder", Some("No placeholder")),
            ("Hello {unknown}", None),
            ("Hello [PLACEHOLDER]", None),
            ("Hello {{client_name}", None),
            ("Hello {client_name", None),
            ("Hello client_name}", None),
        ];
        for (text, expected) in cases {
            assert_eq!(fill(text, &facts).as_deref(), expected, "{text}");
        }
        // A known placeholder whose fact is missing leaves no hole either.
        assert_eq!(fill("Dear {family_name}", &sparse_facts()), None);
    }

    #[test]
    fn a_chosen_templates_stage_picks_the_letter_and_its_subject_is_filled() {
        let mut chosen = template(
            TemplateStage::Intake,
            MessageType::Email,
            "Welcome {client_name} to [COMPANY_NAME].",
        );
        chosen.subject_template = Some("Welcome, {{familyName}}".to_owned());
        let mut request = request(DraftKind::Email, "");
        request.template = Some(chosen.clone());
        let email = write_draft(&request);
        assert!(email.starts_with("Dear Margaret Ashcombe,\n\nThank you for calling Sunrise Care about care for Harriet Ashcombe."), "{email}");
        assert!(email.contains("free in-home assessment"), "{email}");
        assert!(
            email.ends_with(
                "Warm regards,\nPriya Shah\nSunrise Care\nHome care you can trust\n(217) 555-0199"
            ),
            "{email}"
        );
        assert_eq!(
            draft_subject(&request).as_deref(),
            Some("Welcome, Margaret Ashcombe")
        );
        // A subject with a placeholder the facts cannot fill is not suggested.
        chosen.subject_template = Some("About {pet_name}".to_owned());
        request.template = Some(chosen);
        assert_eq!(draft_subject(&request), None);
        // Without a chosen template there is no subject to suggest, and the client's own
        // stage picks the letter.
        request.template = None;
        assert_eq!(draft_subject(&request), None);
        request.facts.stage = Some(Stage::Contract);
        let email = write_draft(&request);
        assert!(
            email.contains("Service Agreement for Harriet Ashcombe is ready"),
            "{email}"
        );
        let sms = write_draft(&DraftRequest {
            kind: DraftKind::Sms,
            ..request.clone()
        });
        assert_eq!(
            sms,
            "Sunrise Care: the service agreement for Harriet Ashcombe is ready to sign; the link is in your email. Questions? Call (217) 555-0199."
        );
        let note = write_draft(&DraftRequest {
            kind: DraftKind::Note,
            prompt: "Called the daughter".to_owned(),
            ..request
        });
        assert_eq!(note, "Harriet Ashcombe: Called the daughter.");
    }
}
