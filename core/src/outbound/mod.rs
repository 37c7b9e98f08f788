//! Outbound messages: the adapters' traits (email, SMS, AI drafting), the messages they
//! carry, and the built-in template writer that drafts without any account.
//!
//! Core has no async runtime, so the traits hand back boxed futures made of `std` types
//! only; the server runs them on its runtime. Everything here is pure: no I/O.

mod calendar;
mod writer;

use std::future::Future;
use std::pin::Pin;

use serde::{Deserialize, Serialize};

use crate::error::{Error, ValidationErrors};
use crate::model::{CarePlan, CarePlanService, EmailSettings, MessageTemplate, Stage};
use crate::rules::validation::{AI_NOTE_PROMPT_NEEDED, AI_PROMPT_NEEDED};

pub use calendar::{
    InvitationFacts, InvitationMethod, Invitee, visit_invitation, visit_uid, visits_feed,
};
pub use writer::{
    SIGN_OFF, chosen_template, contract_email, draft_subject, offered_templates, proposal_email,
    resend_email, with_paragraph_before_sign_off, write_draft,
};

/// The subject of every care plan proposal mailing.
pub const PROPOSAL_SUBJECT: &str = "Home Care Proposal";
/// The default subject of a contract sent for signature.
pub const CONTRACT_SUBJECT: &str = "Home Care Service Agreement - Ready for Signature";
/// The subject of a magic link email.
pub const MAGIC_LINK_SUBJECT: &str = "Your Carepath sign-in link";
/// The subject of a password recovery email.
pub const RECOVERY_SUBJECT: &str = "Reset your Carepath password";
/// The subject of an invitation to sign up.
pub const INVITATION_SUBJECT: &str = "You are invited to Carepath";

pub const AI_RATE_LIMITED: &str = "Rate limit exceeded. Please try again later.";
pub const AI_MARKETING_RATE_LIMITED: &str = "AI rate limit exceeded. Please try again in a moment.";
pub const AI_PAYMENT_REQUIRED: &str = "Payment required. Please add credits to continue.";
pub const AI_FAILED: &str = "Failed to generate message";
pub const AI_NOTE_FAILED: &str = "Failed to generate note";
pub const AI_MARKETING_FAILED: &str = "Failed to generate email. Please try again.";

/// A future an adapter returns; `Send` so a multi-threaded runtime can drive it.
pub type OutboundFuture<'a, T, E> = Pin<Box<dyn Future<Output = Result<T, E>> + Send + 'a>>;

/// Why a send failed, in words staff can act on (shown next to the Retry button).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SendFailure {
    pub reason: String,
}

impl SendFailure {
    pub fn new(reason: impl Into<String>) -> Self {
        Self {
            reason: reason.into(),
        }
    }
}

/// A file sent with an email (the proposal letter or the contract as a PDF).
#[derive(Clone, PartialEq, Eq, Default)]
pub struct EmailAttachment {
    pub file_name: String,
    pub content_type: String,
    pub bytes: Vec<u8>,
}

impl std::fmt::Debug for EmailAttachment {
    // The bytes are a whole document: a debug line names it and its size only.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EmailAttachment")
            .field("file_name", &self.file_name)
            .field("content_type", &self.content_type)
            .field("bytes", &self.bytes.len())
            .finish()
    }
}

/// One email as it leaves the agency. Blind copies travel in the envelope only.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EmailMessage {
    pub from: String,
    pub to: Vec<String>,
    pub cc: Vec<String>,
    pub bcc: Vec<String>,
    pub reply_to: Option<String>,
    pub subject: String,
    pub body: String,
    /// Sent as a multipart/mixed message when not empty.
    pub attachments: Vec<EmailAttachment>,
    /// Carries a secret link (sign-in, recovery, invitation, approval, signing): it goes
    /// to its recipient alone, and an outbox keeps it where no listing or preview reads it.
    pub private: bool,
    /// What an outbox may list of a private message: its text with the link replaced.
    /// None keeps the message out of the listing altogether (account emails).
    pub public_body: Option<String>,
}

/// What the transport gives back: its id for the message (kept as `email_id`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SentEmail {
    pub id: String,
}

pub trait EmailSender: Send + Sync {
    fn send<'a>(&'a self, email: &'a EmailMessage) -> OutboundFuture<'a, SentEmail, SendFailure>;
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SmsMessage {
    pub from: String,
    pub to: String,
    pub body: String,
}

/// What the provider gives back: its message id (kept as `messageSid`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SentSms {
    pub sid: String,
}

pub trait SmsSender: Send + Sync {
    fn send<'a>(&'a self, sms: &'a SmsMessage) -> OutboundFuture<'a, SentSms, SendFailure>;
}

/// What to draft.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum DraftKind {
    Email,
    Sms,
    Note,
    MarketingEmail,
}

/// The facts a draft may use: only these leave the building when an outside AI service
/// writes the draft, never whole records.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct ClientFacts {
    pub client_name: String,
    /// The family contact a letter greets.
    pub family_name: String,
    /// The services: a care plan's by the spec's labels, else those the intake asked for.
    pub services: Vec<String>,
    /// One line per day with hours ("Monday: 4 hours, 9am-1pm").
    pub schedule: Vec<String>,
    pub total_weekly_hours: Option<f64>,
    pub weekly_cost: Option<f64>,
    pub monthly_cost: Option<f64>,
    /// The proposed start date as stored (YYYY-MM-DD).
    pub start_date: Option<String>,
    /// Where the client is in the pipeline: the letter the built-in writer writes when no
    /// template of a stage was chosen.
    pub stage: Option<Stage>,
    /// The care coordinator, who signs the letter.
    pub coordinator_name: String,
    pub company_name: String,
    pub contact_phone: String,
    /// Settings → Email's signature.
    pub signature: String,
}

impl ClientFacts {
    /// The facts of a care plan's marketing email (the spec's generate-marketing-email
    /// body: client name, family name, services, schedule, weekly and monthly cost).
    pub fn from_care_plan(plan: &CarePlan) -> Self {
        Self {
            client_name: plan.client_name.clone(),
            family_name: plan.family_contact_name.clone(),
            services: plan
                .services
                .iter()
                .map(|service| CarePlanService::label(*service).to_owned())
                .collect(),
            schedule: plan
                .schedule
                .days()
                .iter()
                .filter(|(_, day)| day.hours > 0.0)
                .map(|(name, day)| {
                    let unit = if day.hours == 1.0 { "hour" } else { "hours" };
                    if day.time.trim().is_empty() {
                        format!("{name}: {} {unit}", day.hours)
                    } else {
                        format!("{name}: {} {unit}, {}", day.hours, day.time.trim())
                    }
                })
                .collect(),
            total_weekly_hours: Some(plan.total_weekly_hours),
            weekly_cost: Some(plan.weekly_cost),
            monthly_cost: Some(plan.monthly_cost),
            start_date: plan
                .proposed_start_date
                .clone()
                .filter(|date| !date.trim().is_empty()),
            stage: Some(Stage::CarePlan),
            coordinator_name: plan.care_coordinator_name.trim().to_owned(),
            ..Self::default()
        }
    }
}

/// One drafting request: what staff typed, the client's facts and the message template
/// staff chose in the send dialog (checked by [`chosen_template`]), if any.
#[derive(Debug, Clone, PartialEq)]
pub struct DraftRequest {
    pub kind: DraftKind,
    pub prompt: String,
    pub facts: ClientFacts,
    pub template: Option<MessageTemplate>,
}

/// Why a draft could not be written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DraftFailure {
    /// The AI service answered 429.
    RateLimited,
    /// The AI service answered 402.
    PaymentRequired,
    /// Anything else (unreachable, timed out, unreadable answer).
    Failed(String),
}

impl DraftFailure {
    /// The spec's message for this failure on this kind of draft.
    pub fn message(&self, kind: DraftKind) -> String {
        match (self, kind) {
            (DraftFailure::RateLimited, DraftKind::MarketingEmail) => {
                AI_MARKETING_RATE_LIMITED.to_owned()
            }
            (DraftFailure::RateLimited, _) => AI_RATE_LIMITED.to_owned(),
            (DraftFailure::PaymentRequired, _) => AI_PAYMENT_REQUIRED.to_owned(),
            (DraftFailure::Failed(_), DraftKind::Note) => AI_NOTE_FAILED.to_owned(),
            (DraftFailure::Failed(_), DraftKind::MarketingEmail) => AI_MARKETING_FAILED.to_owned(),
            (DraftFailure::Failed(_), _) => AI_FAILED.to_owned(),
        }
    }
}

pub trait Drafter: Send + Sync {
    fn draft<'a>(&'a self, request: &'a DraftRequest) -> OutboundFuture<'a, String, DraftFailure>;
}

/// The prompt must say what to write (the marketing email needs none: the plan says it,
/// nor does a draft from a chosen message template: its AI prompt says it).
pub fn validate_draft_request(kind: DraftKind, prompt: &str, templated: bool) -> Result<(), Error> {
    if !prompt.trim().is_empty() || kind == DraftKind::MarketingEmail || templated {
        return Ok(());
    }
    let message = if kind == DraftKind::Note {
        AI_NOTE_PROMPT_NEEDED
    } else {
        AI_PROMPT_NEEDED
    };
    Err(Error::Validation(ValidationErrors::single(
        "prompt", message,
    )))
}

/// Addresses in a settings text field: comma, semicolon or whitespace separated.
fn addresses(text: &str) -> Vec<String> {
    text.split(|c: char| c == ',' || c == ';' || c.is_whitespace())
        .map(str::trim)
        .filter(|address| !address.is_empty())
        .map(str::to_owned)
        .collect()
}

/// An email to `to`, with the sender, reply-to, copies and blind copies the Settings'
/// email tab names (never addresses written into code). `fallback_from` is used when the
/// settings name no sender.
pub fn compose_email(
    settings: &EmailSettings,
    fallback_from: &str,
    to: &str,
    subject: &str,
    body: &str,
) -> EmailMessage {
    let from = if settings.default_from.trim().is_empty() {
        fallback_from.to_owned()
    } else {
        settings.default_from.trim().to_owned()
    };
    let reply_to = Some(settings.reply_to.trim().to_owned()).filter(|address| !address.is_empty());
    EmailMessage {
        from,
        to: addresses(to),
        cc: addresses(&settings.default_cc),
        bcc: settings
            .bcc
            .iter()
            .flat_map(|entry| addresses(entry))
            .collect(),
        reply_to,
        subject: subject.trim().to_owned(),
        body: body.to_owned(),
        attachments: Vec::new(),
        private: false,
        public_body: None,
    }
}

/// The agency's name and postal address as the lines that sign an email (emails are
/// plain text, so the letterhead's logo cannot travel with them).
pub fn agency_sign_off(general: &crate::model::GeneralSettings) -> Vec<String> {
    std::iter::once(general.company_name.trim())
        .chain(general.postal_address.lines().map(str::trim))
        .filter(|line| !line.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The agency's signature block: its name, address and phone, each on a line.
pub fn agency_signature(general: &crate::model::GeneralSettings) -> String {
    let mut lines = agency_sign_off(general);
    if !general.contact_phone.trim().is_empty() {
        lines.push(format!("Phone {}", general.contact_phone.trim()));
    }
    lines.join("\n")
}

/// An email that carries a secret link: to its recipient alone, never to the Settings'
/// copies or blind copies (whoever can change those would otherwise receive every
/// sign-in link), and marked private for the outbox.
pub fn compose_private_email(
    settings: &EmailSettings,
    fallback_from: &str,
    to: &str,
    subject: &str,
    body: &str,
) -> EmailMessage {
    EmailMessage {
        cc: Vec::new(),
        bcc: Vec::new(),
        private: true,
        ..compose_email(settings, fallback_from, to, subject, body)
    }
}

/// An email that carries a family's personal link (approval or signing): the family's
/// private message, with the link in place of `placeholder`, and, when Settings name
/// copy or blind-copy addresses, a copy for them that keeps the placeholder. The copies
/// see what was sent; only the family can use the link.
pub fn link_email_with_copy(
    settings: &EmailSettings,
    fallback_from: &str,
    to: &str,
    subject: &str,
    body: &str,
    placeholder: &str,
    link: &str,
) -> (EmailMessage, Option<EmailMessage>) {
    let mut private = compose_private_email(
        settings,
        fallback_from,
        to,
        subject,
        &body.replacen(placeholder, link, 1),
    );
    private.public_body = Some(body.to_owned());
    let copy = compose_email(
        settings,
        fallback_from,
        "",
        subject,
        &format!(
            "A copy of the email sent to {}. Its personal link went to them alone.\n\n{body}",
            to.trim()
        ),
    );
    let copy = (!copy.cc.is_empty() || !copy.bcc.is_empty()).then_some(copy);
    (private, copy)
}

/// The account emails Carepath sends on its own, each carrying a secret link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccountEmail {
    MagicLink,
    Recovery,
    Invitation,
}

/// The link an account email carries: the web app's sign-in page with the kind and the
/// token in the fragment (never sent to a server in a request line or a log). An
/// invitation's link also names the invited address, to fill in the sign-up form.
pub fn account_link(public_url: &str, kind: AccountEmail, token: &str, email: &str) -> String {
    let base = public_url.trim_end_matches('/');
    match kind {
        AccountEmail::MagicLink => format!("{base}/login#type=magiclink&token={token}"),
        AccountEmail::Recovery => format!("{base}/login#type=recovery&token={token}"),
        AccountEmail::Invitation => {
            let email: String = email
                .trim()
                .bytes()
                .map(|byte| {
                    if byte.is_ascii_alphanumeric() || b"@.-_".contains(&byte) {
                        char::from(byte).to_string()
                    } else {
                        format!("%{byte:02X}")
                    }
                })
                .collect();
            format!("{base}/login#type=invite&token={token}&email={email}")
        }
    }
}

/// The subject and body of an account email. `name` greets the recipient (for an
/// invitation, it is who invited them); `link` is the secret link.
pub fn account_email(kind: AccountEmail, name: &str, link: &str) -> (&'static str, String) {
    match kind {
        AccountEmail::MagicLink | AccountEmail::Recovery => {
            let (subject, action) = if kind == AccountEmail::MagicLink {
                (MAGIC_LINK_SUBJECT, "sign in to Carepath")
            } else {
                (RECOVERY_SUBJECT, "choose a new Carepath password")
            };
            let body = format!(
                "Hello {name},\n\nUse this link to {action}:\n\n{link}\n\nThe link works once and expires in 10 minutes. \
                 If you did not ask for it, you can ignore this email.\n"
            );
            (subject, body)
        }
        AccountEmail::Invitation => (
            INVITATION_SUBJECT,
            format!(
                "Hello,\n\n{name} invited you to Carepath. Open this link to create your account:\n\n{link}\n\n\
                 The link works once and expires in 7 days.\n"
            ),
        ),
    }
}

/// The system prompt an outside AI service gets with a request, then the user prompt:
/// what to write and the needed facts, nothing else. The facts are the whole truth the
/// service may use, so it is told to leave no placeholder for a person to fill in, and
/// emails end with the sign-off core writes.
pub fn ai_prompts(request: &DraftRequest, templates: &[MessageTemplate]) -> (String, String) {
    let what = match request.kind {
        DraftKind::Email => "a short, warm, professional email to a client's family",
        DraftKind::Sms => "a text message of at most 160 characters to a client's family",
        DraftKind::Note => "a concise internal case note for the care team",
        DraftKind::MarketingEmail => {
            "a warm care plan proposal email to a family that asks them to approve the proposal \
             with the personal link that will follow the email (they may reply with questions)"
        }
    };
    let mut system = format!(
        "You write for a non-medical home-care agency. Write {what}. Answer with the text only. \
         Use only the facts given; never write a placeholder in brackets or braces."
    );
    if matches!(request.kind, DraftKind::Email | DraftKind::MarketingEmail) {
        system.push_str(&format!(
            " End with exactly this sign-off:\n{}",
            writer::sign_off(&request.facts)
        ));
    }
    if let Some(template) = writer::template_for(request, templates) {
        system.push_str("\nFollow this guidance: ");
        system.push_str(template.ai_prompt_template.trim());
    }
    let facts = &request.facts;
    let mut user = String::new();
    if !request.prompt.trim().is_empty() {
        user.push_str(&format!("Request: {}\n", request.prompt.trim()));
    }
    for (label, value) in [
        ("Client", facts.client_name.as_str()),
        ("Family", facts.family_name.as_str()),
        ("Agency", facts.company_name.as_str()),
        ("Agency phone", facts.contact_phone.as_str()),
        ("Coordinator", facts.coordinator_name.as_str()),
    ] {
        if !value.trim().is_empty() {
            user.push_str(&format!("{label}: {}\n", value.trim()));
        }
    }
    if !facts.services.is_empty() {
        user.push_str(&format!("Services: {}\n", facts.services.join("; ")));
    }
    if !facts.schedule.is_empty() {
        user.push_str(&format!("Schedule: {}\n", facts.schedule.join("; ")));
    }
    if let Some(date) = facts.start_date.as_deref() {
        user.push_str(&format!("Proposed start date: {date}\n"));
    }
    if let (Some(weekly), Some(monthly)) = (facts.weekly_cost, facts.monthly_cost) {
        user.push_str(&format!(
            "Weekly cost: {}; monthly cost: {}\n",
            crate::rules::format::format_money(weekly),
            crate::rules::format::format_money(monthly)
        ));
    }
    (system, user)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compose_email_takes_reply_to_copies_and_blind_copies_from_settings() {
        let settings = EmailSettings {
            default_from: String::new(),
            reply_to: " office@agency.test ".to_owned(),
            signature: String::new(),
            default_cc: "a@agency.test, b@agency.test".to_owned(),
            bcc: vec![
                "records@agency.test".to_owned(),
                "owner@agency.test; x@y.test".to_owned(),
            ],
        };
        let email = compose_email(
            &settings,
            "carepath@localhost",
            "family@home.test",
            " Hi ",
            "Body",
        );
        assert_eq!(email.from, "carepath@localhost");
        assert_eq!(email.reply_to.as_deref(), Some("office@agency.test"));
        assert_eq!(email.cc, ["a@agency.test", "b@agency.test"]);
        assert_eq!(
            email.bcc,
            ["records@agency.test", "owner@agency.test", "x@y.test"]
        );
        assert_eq!(email.subject, "Hi");
    }

    #[test]
    fn private_emails_go_to_their_recipient_alone() {
        let settings = EmailSettings {
            default_from: "office@agency.test".to_owned(),
            reply_to: "office@agency.test".to_owned(),
            signature: String::new(),
            default_cc: "watcher@agency.test".to_owned(),
            bcc: vec!["records@agency.test".to_owned()],
        };
        let (subject, body) = account_email(
            AccountEmail::MagicLink,
            "Ann",
            "https://care.test/login#type=magiclink&token=abc",
        );
        let email = compose_private_email(&settings, "x@y.test", "ann@agency.test", subject, &body);
        assert!(email.private);
        assert_eq!(email.to, ["ann@agency.test"]);
        assert!(email.cc.is_empty() && email.bcc.is_empty());
        assert!(email.body.contains("token=abc"));
        assert!(!compose_email(&settings, "x@y.test", "a@b.test", "s", "b").private);
    }

    #[test]
    fn a_link_email_goes_privately_and_its_copy_keeps_the_placeholder() {
        let mut settings = EmailSettings {
            reply_to: "office@agency.test".to_owned(),
            bcc: vec!["records@agency.test".to_owned()],
            ..EmailSettings::default()
        };
        let (family, copy) = link_email_with_copy(
            &settings,
            "x@y.test",
            "family@home.test",
            "Home Care Proposal",
            "Approve here: [link]",
            "[link]",
            "https://care.test/approve/abc",
        );
        assert!(family.private && family.bcc.is_empty());
        assert_eq!(family.body, "Approve here: https://care.test/approve/abc");
        let copy = copy.expect("a copy for the blind copies");
        assert!(!copy.private && copy.to.is_empty());
        assert_eq!(copy.bcc, ["records@agency.test"]);
        assert!(copy.body.contains("[link]") && !copy.body.contains("abc"));
        settings.bcc.clear();
        let (_, copy) = link_email_with_copy(
            &settings, "x@y.test", "f@h.test", "S", "[link]", "[link]", "L",
        );
        assert!(copy.is_none());
    }

    #[test]
    fn draft_failures_use_the_spec_messages() {
        let cases = [
            (DraftFailure::RateLimited, DraftKind::Email, AI_RATE_LIMITED),
            (
                DraftFailure::RateLimited,
                DraftKind::MarketingEmail,
                AI_MARKETING_RATE_LIMITED,
            ),
            (
                DraftFailure::PaymentRequired,
                DraftKind::Sms,
                AI_PAYMENT_REQUIRED,
            ),
            (
                DraftFailure::Failed("x".into()),
                DraftKind::Note,
                AI_NOTE_FAILED,
            ),
            (
                DraftFailure::Failed("x".into()),
                DraftKind::Email,
                AI_FAILED,
            ),
        ];
        for (failure, kind, expected) in cases {
            assert_eq!(failure.message(kind), expected, "{failure:?} {kind:?}");
        }
    }

    #[test]
    fn a_draft_needs_a_prompt_except_the_marketing_email() {
        assert!(validate_draft_request(DraftKind::MarketingEmail, "", false).is_ok());
        // A chosen message template says what to write.
        assert!(validate_draft_request(DraftKind::Sms, "", true).is_ok());
        let Err(Error::Validation(errors)) = validate_draft_request(DraftKind::Note, " ", false)
        else {
            panic!("expected a validation error");
        };
        assert_eq!(errors.message, AI_NOTE_PROMPT_NEEDED);
        let Err(Error::Validation(errors)) = validate_draft_request(DraftKind::Email, "", false)
        else {
            panic!("expected a validation error");
        };
        assert_eq!(errors.message, AI_PROMPT_NEEDED);
    }
}
