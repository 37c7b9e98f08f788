//! Emails, text messages, notes, call logs, AI prompts and contacts: what each needs
//! before it is saved or sent.

use super::{INVALID_EMAIL, add_text_bound_errors, check_text, looks_like_email};
use crate::error::{Error, ValidationErrors};
use crate::model::{
    AttachmentInfo, CallLogInput, CommunicationType, ContactInput, EmailInput, NoteInput, Reply,
    SmsInput,
};

pub const FILL_IN_ALL_FIELDS: &str = "Please fill in all fields";
pub const NOTE_NEEDS_CONTENT: &str = "Please enter a note";
pub const CALL_LOG_INCOMPLETE: &str = "Please fill in phone number and notes";
pub const AI_PROMPT_NEEDED: &str = "Please describe what you want to write";
pub const AI_NOTE_PROMPT_NEEDED: &str = "Please enter what you'd like the note to say";
/// A draft names a message template the dialog does not offer for this client (inactive,
/// for another stage or message type, or deleted meanwhile).
pub const TEMPLATE_NOT_OFFERED: &str =
    "This template is not available for this client. Choose an active template for their stage.";
pub const CONTACT_NEEDS_NAME: &str = "Contact name is required";
/// The toast title the spec gives contact validation.
pub const CONTACT_VALIDATION_TITLE: &str = "Validation Error";

/// Largest attachment: 10 MB.
pub const MAX_ATTACHMENT_BYTES: u64 = 10 * 1024 * 1024;
/// Accepted attachment types, by extension.
pub const ATTACHMENT_EXTENSIONS: &[&str] = &["pdf", "doc", "docx", "txt", "png", "jpg", "jpeg"];

/// The attachment limits as named enum schemas of the OpenAPI document, so the web's file
/// picker checks the same types and size as the server (generated, like the SMS tables).
#[cfg(feature = "openapi")]
pub fn attachment_openapi_schemas() -> Vec<(
    String,
    utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
)> {
    use crate::model::options::enum_schema;
    use utoipa::openapi::schema::Type;
    vec![
        (
            "AttachmentExtension".to_owned(),
            enum_schema(
                Type::String,
                ATTACHMENT_EXTENSIONS.to_vec(),
                "A file type an email may attach, by its extension.",
            ),
        ),
        (
            "AttachmentMaxBytes".to_owned(),
            enum_schema(
                Type::Integer,
                vec![MAX_ATTACHMENT_BYTES],
                "The largest file an email may attach, in bytes.",
            ),
        ),
    ]
}

fn require(errors: &mut ValidationErrors, field: &str, value: &str, message: &str) {
    if value.trim().is_empty() {
        errors.add(field, message);
    }
}

/// The message for one attachment, if it cannot be attached.
pub fn attachment_problem(attachment: &AttachmentInfo) -> Option<String> {
    let extension = attachment
        .name
        .rsplit_once('.')
        .map(|(_, extension)| extension.to_ascii_lowercase());
    let supported =
        extension.is_some_and(|extension| ATTACHMENT_EXTENSIONS.contains(&extension.as_str()));
    if !supported {
        Some(format!("{} is not a supported file type.", attachment.name))
    } else if attachment.size > MAX_ATTACHMENT_BYTES {
        Some(format!(
            "{} is too large. Max size is {}MB.",
            attachment.name,
            MAX_ATTACHMENT_BYTES / (1024 * 1024)
        ))
    } else {
        None
    }
}

/// Send Email: recipient, subject and body, and every attachment acceptable (keyed
/// `attachments.0`, `attachments.1` …).
pub fn validate_email(input: &EmailInput) -> Result<(), Error> {
    let mut errors = ValidationErrors::new();
    require(&mut errors, "to", &input.to, FILL_IN_ALL_FIELDS);
    require(&mut errors, "subject", &input.subject, FILL_IN_ALL_FIELDS);
    require(&mut errors, "body", &input.body, FILL_IN_ALL_FIELDS);
    if !input.to.trim().is_empty() && !looks_like_email(&input.to) {
        errors.add("to", INVALID_EMAIL);
    }
    for (index, attachment) in input.attachments.iter().enumerate() {
        if let Some(problem) = attachment_problem(attachment) {
            errors.add(&format!("attachments.{index}"), problem);
        }
    }
    add_text_bound_errors(input, &mut errors);
    errors.into_result()
}

pub const INVALID_PHONE: &str = "Please enter a valid phone number";

/// A phone number as people write it: 7 to 15 digits, with spaces, dots, dashes,
/// brackets and a leading plus. Nothing else, so no line break can reach a message's
/// headers.
pub fn looks_like_phone(text: &str) -> bool {
    let text = text.trim();
    let digits = text.chars().filter(char::is_ascii_digit).count();
    (7..=15).contains(&digits)
        && text
            .chars()
            .enumerate()
            .all(|(index, c)| c.is_ascii_digit() || " .-()".contains(c) || (c == '+' && index == 0))
}

/// A member of staff's mobile number, trimmed; empty means none.
pub fn staff_phone(phone: &str) -> Result<String, Error> {
    let phone = phone.trim();
    if !phone.is_empty() && !looks_like_phone(phone) {
        return Err(Error::Validation(ValidationErrors::single(
            "phone",
            INVALID_PHONE,
        )));
    }
    Ok(phone.to_owned())
}

/// The reply webhook's answer when no SMS provider account is configured.
pub const REPLIES_NEED_SMS_ACCOUNT: &str = "Replies arrive only through an SMS provider account.";
/// The reply webhook's answer to a body that is not a URL-encoded form.
pub const REPLY_NOT_A_FORM: &str = "The report is not a form.";
/// The reply webhook's answer to a report without the provider's valid signature.
pub const REPLY_NOT_SIGNED: &str = "The report does not carry the SMS provider's signature.";
/// The reply webhook's answer when the account has no auth token to check signatures
/// with: every report is refused rather than checked against an empty key.
pub const REPLIES_NEED_SMS_TOKEN: &str =
    "Replies are refused until the SMS provider's auth token (CAREPATH_SMS_TOKEN) is set.";
/// The reply webhook's answer to a report larger than any the provider sends.
pub const REPLY_TOO_LARGE: &str = "The report is too large.";
/// The largest report the webhook reads: a text message's fields take a few kilobytes.
pub const MAX_REPLY_BYTES: usize = 16 * 1024;

/// A reply reported by the SMS provider: a sender that looks like a phone number, the
/// provider's message id (letters and digits, at most 64), and text within the bounds
/// of a message. The provider is a machine, so these refusals are for a broken or forged
/// report, never for a family.
pub fn validate_reply(reply: &Reply) -> Result<(), Error> {
    let mut errors = ValidationErrors::new();
    if !looks_like_phone(&reply.from) {
        errors.add("From", INVALID_PHONE);
    }
    let id = &reply.provider_id;
    if id.is_empty() || id.len() > 64 || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
        errors.add(
            "MessageSid",
            "The provider's message id is missing or malformed",
        );
    }
    check_text(&mut errors, "message", &reply.body);
    errors.into_result()
}

/// Send SMS: phone and message.
pub fn validate_sms(input: &SmsInput) -> Result<(), Error> {
    let mut errors = ValidationErrors::new();
    require(&mut errors, "to", &input.to, FILL_IN_ALL_FIELDS);
    if !input.to.trim().is_empty() && !looks_like_phone(&input.to) {
        errors.add("to", INVALID_PHONE);
    }
    require(&mut errors, "message", &input.message, FILL_IN_ALL_FIELDS);
    add_text_bound_errors(input, &mut errors);
    errors.into_result()
}

/// Add Note: content.
pub fn validate_note(input: &NoteInput) -> Result<(), Error> {
    let mut errors = ValidationErrors::new();
    require(&mut errors, "content", &input.content, NOTE_NEEDS_CONTENT);
    add_text_bound_errors(input, &mut errors);
    errors.into_result()
}

/// Log Call: phone and notes; the duration is optional free text.
pub fn validate_call_log(input: &CallLogInput) -> Result<(), Error> {
    let mut errors = ValidationErrors::new();
    require(&mut errors, "phone", &input.phone, CALL_LOG_INCOMPLETE);
    require(&mut errors, "notes", &input.notes, CALL_LOG_INCOMPLETE);
    add_text_bound_errors(input, &mut errors);
    errors.into_result()
}

/// Generate with AI: the staff member's description of what to write. Notes ask in
/// their own words.
pub fn validate_ai_prompt(kind: CommunicationType, prompt: &str) -> Result<(), Error> {
    let message = match kind {
        CommunicationType::Note => AI_NOTE_PROMPT_NEEDED,
        _ => AI_PROMPT_NEEDED,
    };
    let mut errors = ValidationErrors::new();
    require(&mut errors, "prompt", prompt, message);
    errors.into_result()
}

/// Add or edit a contact: the name is required; every field comes back trimmed (the
/// store turns the empty optional ones into null).
pub fn validate_contact(input: &ContactInput) -> Result<ContactInput, Error> {
    let trimmed = ContactInput {
        contact_type: input.contact_type,
        full_name: input.full_name.trim().to_owned(),
        relationship: input.relationship.trim().to_owned(),
        phone: input.phone.trim().to_owned(),
        email: input.email.trim().to_owned(),
        address: input.address.trim().to_owned(),
        notes: input.notes.trim().to_owned(),
        is_primary: input.is_primary,
    };
    let mut errors = ValidationErrors::new();
    require(
        &mut errors,
        "full_name",
        &trimmed.full_name,
        CONTACT_NEEDS_NAME,
    );
    if !trimmed.email.is_empty() && !looks_like_email(&trimmed.email) {
        errors.add("email", INVALID_EMAIL);
    }
    add_text_bound_errors(&trimmed, &mut errors);
    errors.into_result().map(|()| trimmed)
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{messages, pairs};
    use super::*;
    use crate::model::ContactType;

    fn attachment(name: &str, size: u64) -> AttachmentInfo {
        AttachmentInfo {
            name: name.into(),
            size,
        }
    }

    #[test]
    fn email_fields() {
        let email = |to: &str, subject: &str, body: &str| EmailInput {
            to: to.into(),
            subject: subject.into(),
            body: body.into(),
            ..EmailInput::default()
        };
        let cases = [
            (email("ann@example.com", "Hello", "Body"), vec![]),
            (
                email("", "", ""),
                vec![
                    ("to", FILL_IN_ALL_FIELDS),
                    ("subject", FILL_IN_ALL_FIELDS),
                    ("body", FILL_IN_ALL_FIELDS),
                ],
            ),
            (
                email("ann@example.com", " ", "Body"),
                vec![("subject", FILL_IN_ALL_FIELDS)],
            ),
            (
                email("ann@example.com", "Hello", "\n"),
                vec![("body", FILL_IN_ALL_FIELDS)],
            ),
            (email("ann", "Hello", "Body"), vec![("to", INVALID_EMAIL)]),
        ];
        for (input, expected) in cases {
            let (headline, actual) = messages(validate_email(&input));
            assert_eq!(actual, pairs(&expected), "{input:?}");
            assert_eq!(headline, expected.first().map(|(_, m)| *m).unwrap_or(""));
        }
    }

    #[test]
    fn attachments() {
        let cases = [
            ("report.pdf", 1, None),
            ("REPORT.PDF", 1, None),
            ("letter.doc", 1, None),
            ("letter.Docx", 1, None),
            ("notes.txt", 0, None),
            ("photo.png", 1, None),
            ("photo.JPG", 1, None),
            // 10 MB (10 × 1024 × 1024 bytes) is allowed; one byte more is not.
            ("photo.jpeg", 10_485_760, None),
            (
                "photo.jpeg",
                10_485_761,
                Some("photo.jpeg is too large. Max size is 10MB."),
            ),
            (
                "movie.mp4",
                1,
                Some("movie.mp4 is not a supported file type."),
            ),
            (
                "archive.pdf.zip",
                1,
                Some("archive.pdf.zip is not a supported file type."),
            ),
            ("pdf", 1, Some("pdf is not a supported file type.")),
            ("", 1, Some(" is not a supported file type.")),
            // An unsupported type is reported before its size.
            (
                "big.exe",
                u64::MAX,
                Some("big.exe is not a supported file type."),
            ),
        ];
        for (name, size, expected) in cases {
            assert_eq!(
                attachment_problem(&attachment(name, size)).as_deref(),
                expected,
                "{name} {size}"
            );
        }
        let input = EmailInput {
            to: "ann@example.com".into(),
            subject: "Hello".into(),
            body: "Body".into(),
            attachments: vec![
                attachment("ok.pdf", 10),
                attachment("movie.mp4", 10),
                attachment("scan.png", 20 * 1024 * 1024),
            ],
            ..EmailInput::default()
        };
        let (headline, actual) = messages(validate_email(&input));
        assert_eq!(headline, "movie.mp4 is not a supported file type.");
        assert_eq!(
            actual,
            pairs(&[
                ("attachments.1", "movie.mp4 is not a supported file type."),
                ("attachments.2", "scan.png is too large. Max size is 10MB."),
            ])
        );
    }

    #[test]
    fn sms_note_and_call_log() {
        let sms = |to: &str, message: &str| SmsInput {
            to: to.into(),
            message: message.into(),
            ..SmsInput::default()
        };
        let cases = [
            (validate_sms(&sms("555-0100", "Hi")), vec![]),
            (
                validate_sms(&sms("", "Hi")),
                vec![("to", FILL_IN_ALL_FIELDS)],
            ),
            (
                validate_sms(&sms("555-0100", " ")),
                vec![("message", FILL_IN_ALL_FIELDS)],
            ),
            (validate_sms(&sms("+1 (555) 010-0100", "Hi")), vec![]),
            (
                validate_sms(&sms("555-0100\r\nTo: +15550199", "Hi")),
                vec![("to", INVALID_PHONE)],
            ),
            (validate_sms(&sms("555", "Hi")), vec![("to", INVALID_PHONE)]),
            (
                validate_note(&NoteInput {
                    content: "Called back".into(),
                    ..NoteInput::default()
                }),
                vec![],
            ),
            (
                validate_note(&NoteInput::default()),
                vec![("content", NOTE_NEEDS_CONTENT)],
            ),
            (
                validate_call_log(&CallLogInput {
                    phone: "555".into(),
                    notes: "Left a message".into(),
                    ..CallLogInput::default()
                }),
                vec![],
            ),
            (
                validate_call_log(&CallLogInput {
                    notes: "Left a message".into(),
                    ..CallLogInput::default()
                }),
                vec![("phone", CALL_LOG_INCOMPLETE)],
            ),
            (
                validate_call_log(&CallLogInput::default()),
                vec![
                    ("phone", CALL_LOG_INCOMPLETE),
                    ("notes", CALL_LOG_INCOMPLETE),
                ],
            ),
        ];
        for (result, expected) in cases {
            let (headline, actual) = messages(result);
            assert_eq!(actual, pairs(&expected));
            assert_eq!(headline, expected.first().map(|(_, m)| *m).unwrap_or(""));
        }
    }

    #[test]
    fn ai_prompts() {
        let cases = [
            (
                CommunicationType::Email,
                "",
                Some("Please describe what you want to write"),
            ),
            (
                CommunicationType::Sms,
                "  ",
                Some("Please describe what you want to write"),
            ),
            (
                CommunicationType::Note,
                "",
                Some("Please enter what you'd like the note to say"),
            ),
            (CommunicationType::Email, "Thank them", None),
            (CommunicationType::Note, "Summarise the call", None),
        ];
        for (kind, prompt, expected) in cases {
            let (headline, _) = messages(validate_ai_prompt(kind, prompt));
            assert_eq!(headline, expected.unwrap_or(""), "{kind} {prompt:?}");
        }
    }

    #[test]
    fn contacts() {
        let input = ContactInput {
            contact_type: ContactType::Emergency,
            full_name: "  Ann Lee ".into(),
            relationship: " Daughter ".into(),
            phone: " 555 ".into(),
            email: " ann@example.com ".into(),
            address: "  ".into(),
            notes: "".into(),
            is_primary: true,
        };
        let trimmed = validate_contact(&input).unwrap();
        assert_eq!(
            trimmed,
            ContactInput {
                contact_type: ContactType::Emergency,
                full_name: "Ann Lee".into(),
                relationship: "Daughter".into(),
                phone: "555".into(),
                email: "ann@example.com".into(),
                address: "".into(),
                notes: "".into(),
                is_primary: true,
            }
        );
        let cases = [
            (
                ContactInput::default(),
                vec![("full_name", CONTACT_NEEDS_NAME)],
            ),
            (
                ContactInput {
                    full_name: " ".into(),
                    email: "nope".into(),
                    ..ContactInput::default()
                },
                vec![("full_name", CONTACT_NEEDS_NAME), ("email", INVALID_EMAIL)],
            ),
        ];
        for (input, expected) in cases {
            let (headline, actual) = messages(validate_contact(&input).map(|_| ()));
            assert_eq!(actual, pairs(&expected));
            assert_eq!(headline, expected[0].1);
        }
    }
}
