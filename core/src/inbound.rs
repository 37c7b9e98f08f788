//! An emailed reply as Carepath keeps it, read from the raw message (RFC 5322 and MIME,
//! parsed by mail-parser): who sent it, which messages it answers, its text and its
//! files. Pure: the server fetches the bytes over IMAP, the store keeps the result.

use mail_parser::{HeaderValue, MessageParser, MimeHeaders};
use sha2::{Digest, Sha256};

use crate::model::AttachmentInfo;
use crate::rules::validation::attachment_problem;

/// The longest text kept of one reply; a longer one is cut with a note.
pub const MAX_REPLY_TEXT_CHARS: usize = 50_000;
/// The note that ends a reply whose text was cut.
pub const REPLY_TEXT_CUT: &str = "[The rest of the message was longer than Carepath keeps.]";
/// The largest message fetched whole; a larger one is kept by its headers only.
pub const MAX_FETCHED_MESSAGE_BYTES: u32 = 40 * 1024 * 1024;
/// The text of a message kept by its headers only.
pub const REPLY_TOO_LARGE_TO_KEEP: &str = "[This message was larger than 40 MB; its text and files were not kept. Open it in the mailbox.]";

/// One reply, ready for the store.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct InboundEmail {
    /// The Message-ID without its angle brackets; one made from the message's hash when
    /// it has none, so the same message is still kept once.
    pub message_id: String,
    /// The ids of In-Reply-To, then References (newest first), without angle brackets.
    pub answers: Vec<String>,
    /// The sender's address, lower case, and name as written.
    pub from_address: String,
    pub from_name: String,
    pub subject: String,
    pub text: String,
    /// The Date header (RFC 3339), when it has one.
    pub date: Option<String>,
    pub attachments: Vec<InboundAttachment>,
}

/// A file the reply carried: kept when within the attachment limits, else only named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InboundAttachment {
    pub name: String,
    pub content_type: String,
    pub size: u64,
    /// The bytes when kept; None with the reason when past the limits.
    pub kept: Result<Vec<u8>, String>,
}

fn ids(value: &HeaderValue<'_>) -> Vec<String> {
    value
        .as_text_list()
        .unwrap_or_default()
        .iter()
        .map(|id| {
            id.trim()
                .trim_start_matches('<')
                .trim_end_matches('>')
                .to_owned()
        })
        .filter(|id| !id.is_empty())
        .collect()
}

/// Reads a raw message; None when it is not one at all.
pub fn parse_email(raw: &[u8]) -> Option<InboundEmail> {
    let message = MessageParser::default().parse(raw)?;
    // A message needs at least one header to be one.
    if message.headers().is_empty() {
        return None;
    }
    let message_id = message
        .message_id()
        .map(|id| id.trim().to_owned())
        .filter(|id| !id.is_empty())
        .unwrap_or_else(|| {
            let digest = Sha256::digest(raw);
            let hex: String = digest.iter().map(|byte| format!("{byte:02x}")).collect();
            format!("sha256-{hex}@message.invalid")
        });
    let mut answers = ids(message.in_reply_to());
    let mut references = ids(message.references());
    references.reverse();
    for id in references {
        if !answers.contains(&id) {
            answers.push(id);
        }
    }
    let (from_address, from_name) = message
        .from()
        .and_then(|from| from.first())
        .map(|addr| {
            (
                addr.address().unwrap_or_default().trim().to_lowercase(),
                addr.name().unwrap_or_default().trim().to_owned(),
            )
        })
        .unwrap_or_default();
    let mut text = message
        .body_text(0)
        .map(|text| text.replace("\r\n", "\n"))
        .unwrap_or_default()
        .trim()
        .to_owned();
    if text.chars().count() > MAX_REPLY_TEXT_CHARS {
        text = text.chars().take(MAX_REPLY_TEXT_CHARS).collect::<String>();
        text.push_str("\n\n");
        text.push_str(REPLY_TEXT_CUT);
    }
    let attachments = message
        .attachments()
        .map(|part| {
            let name = part
                .attachment_name()
                .map(str::to_owned)
                .unwrap_or_else(|| "attachment".to_owned());
            let content_type = part
                .content_type()
                .map(|ct| match ct.subtype() {
                    Some(subtype) => format!("{}/{}", ct.ctype(), subtype),
                    None => ct.ctype().to_owned(),
                })
                .unwrap_or_else(|| "application/octet-stream".to_owned())
                .to_lowercase();
            let bytes = part.contents();
            let size = bytes.len() as u64;
            let info = AttachmentInfo {
                name: name.clone(),
                size,
            };
            let kept = match attachment_problem(&info) {
                Some(problem) => Err(problem),
                None => Ok(bytes.to_vec()),
            };
            InboundAttachment {
                name,
                content_type,
                size,
                kept,
            }
        })
        .collect();
    Some(InboundEmail {
        message_id,
        answers,
        from_address,
        from_name,
        subject: message.subject().unwrap_or_default().trim().to_owned(),
        text,
        date: message.date().map(|date| date.to_rfc3339()),
        attachments,
    })
}

/// A message too large to fetch whole, kept by its headers: who, when, what it
/// answers, and a note instead of its text.
pub fn parse_headers_only(header: &[u8]) -> Option<InboundEmail> {
    let mut email = parse_email(header)?;
    email.text = REPLY_TOO_LARGE_TO_KEEP.to_owned();
    email.attachments.clear();
    Some(email)
}

/// The local part Carepath gave a message it sent (`<id@carepath>`), as kept in the
/// sent email's `email_id`; None for anyone else's message id.
pub fn sent_email_id(message_id: &str) -> Option<&str> {
    message_id
        .strip_suffix("@carepath")
        .filter(|id| !id.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reply_names_who_sent_it_what_it_answers_and_its_files() {
        let raw = "From: \"Maria Lopez\" <Maria@Home.Test>\r\n\
            To: office@agency.test\r\n\
            Subject: Re: Home Care Proposal\r\n\
            Message-ID: <reply-1@home.test>\r\n\
            In-Reply-To: <0190-abc@carepath>\r\n\
            References: <older@carepath> <0190-abc@carepath>\r\n\
            Date: Tue, 3 Mar 2026 10:00:00 -0600\r\n\
            MIME-Version: 1.0\r\n\
            Content-Type: multipart/mixed; boundary=\"b\"\r\n\
            \r\n\
            --b\r\n\
            Content-Type: text/plain; charset=utf-8\r\n\
            \r\n\
            S\u{ed}, por favor\r\n\
            --b\r\n\
            Content-Type: application/pdf\r\n\
            Content-Disposition: attachment; filename=\"signed.pdf\"\r\n\
            Content-Transfer-Encoding: base64\r\n\
            \r\n\
            JVBERi0xLjQK\r\n\
            --b\r\n\
            Content-Type: application/x-msdownload\r\n\
            Content-Disposition: attachment; filename=\"run.exe\"\r\n\
            \r\n\
            MZ\r\n\
            --b--\r\n";
        let email = parse_email(raw.as_bytes()).unwrap();
        assert_eq!(email.message_id, "reply-1@home.test");
        assert_eq!(email.answers, ["0190-abc@carepath", "older@carepath"]);
        assert_eq!(email.from_address, "maria@home.test");
        assert_eq!(email.from_name, "Maria Lopez");
        assert_eq!(email.subject, "Re: Home Care Proposal");
        assert_eq!(email.text, "Sí, por favor");
        assert_eq!(email.date.as_deref(), Some("2026-03-03T10:00:00-06:00"));
        assert_eq!(email.attachments.len(), 2);
        assert_eq!(email.attachments[0].name, "signed.pdf");
        assert_eq!(email.attachments[0].content_type, "application/pdf");
        assert_eq!(email.attachments[0].kept.as_deref(), Ok(&b"%PDF-1.4\n"[..]));
        assert_eq!(
            email.attachments[1].kept,
            Err("run.exe is not a supported file type.".to_owned())
        );
        assert_eq!(sent_email_id(&email.answers[0]), Some("0190-abc"));
        assert_eq!(sent_email_id("reply-1@home.test"), None);
    }

    #[test]
    fn a_message_without_an_id_is_known_by_its_hash() {
        let raw = b"From: a@b.test\r\nSubject: hi\r\n\r\nyes\r\n";
        let first = parse_email(raw).unwrap();
        assert!(first.message_id.starts_with("sha256-"));
        assert_eq!(parse_email(raw).unwrap().message_id, first.message_id);
        assert!(first.answers.is_empty());
        assert_eq!(first.text, "yes");
        assert!(parse_email(b"").is_none());
    }
}
