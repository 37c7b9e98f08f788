//! The outbox folder: emails (`.eml`) and text messages (`.sms`) written instead of sent
//! when no mail server or SMS provider is set up, and their listing for GET /api/outbox.

use std::path::Path;

use carepath_core::outbound::SendFailure;
use mail_parser::MimeHeaders;
use serde::Serialize;

/// One message in the outbox.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct OutboxEntry {
    pub file_name: String,
    /// `email` or `sms`.
    pub kind: String,
    pub to: String,
    pub subject: Option<String>,
    /// The first 200 characters of the body.
    pub preview: String,
    /// When the file was written (UTC RFC 3339).
    pub written_at: String,
    /// File names of the attached files, in order.
    pub attachments: Vec<String>,
}

/// One outbox message opened: its headers and its whole text.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct OutboxMessage {
    pub file_name: String,
    /// `email` or `sms`.
    pub kind: String,
    pub written_at: String,
    /// The message's headers in the order written (name, value), folded lines joined.
    pub headers: Vec<OutboxHeader>,
    pub to: String,
    pub subject: Option<String>,
    pub attachments: Vec<String>,
    /// Everything after the headers, as written.
    pub body: String,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct OutboxHeader {
    pub name: String,
    pub value: String,
}

/// The header a message carries when it holds a link meant only for its recipient
/// (sign-in, recovery, invitation); such a message is never opened through the API.
pub const PRIVATE_HEADER: &str = "X-Carepath-Private";

/// Why an outbox message cannot be opened.
#[derive(Debug)]
pub enum OpenError {
    /// Not a name the outbox writes, or no such file.
    NotFound,
    /// Marked private.
    Private,
    Io(std::io::Error),
}

/// The outbox's subfolder for messages that carry a secret link (sign-in, recovery,
/// invitation): never listed, never previewed; its recipient alone gets the link, and
/// the server's administrator can read it on the server's disk.
pub const PRIVATE_FOLDER: &str = "private";

pub(crate) async fn write(
    dir: &Path,
    file_name: &str,
    contents: &[u8],
    private: bool,
) -> Result<(), SendFailure> {
    let failed = |_| SendFailure::new("The outbox folder cannot be written.");
    tokio::fs::create_dir_all(dir).await.map_err(failed)?;
    // Every message holds a client's or a family's details: the outbox and its files
    // are the server account's alone, the private folder's as much as the rest.
    restrict(dir, 0o700).await.map_err(failed)?;
    if private && let Some(outbox) = dir.parent() {
        restrict(outbox, 0o700).await.map_err(failed)?;
    }
    // Written under a temporary name, then renamed: the listing never sees half a file.
    let partial = dir.join(format!(".{file_name}.partial"));
    tokio::fs::write(&partial, contents).await.map_err(failed)?;
    restrict(&partial, 0o600).await.map_err(failed)?;
    tokio::fs::rename(&partial, dir.join(file_name))
        .await
        .map_err(failed)
}

#[cfg(unix)]
async fn restrict(path: &Path, mode: u32) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    tokio::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).await
}

#[cfg(not(unix))]
async fn restrict(_path: &Path, _mode: u32) -> std::io::Result<()> {
    Ok(())
}

/// What the listing and the message view read from a file, parsed by a MIME library:
/// folded headers, encoded words (RFC 2047) and attachment names split or encoded by
/// RFC 2231 are read the way mail programs read them.
#[derive(Default)]
struct Parsed {
    headers: Vec<OutboxHeader>,
    to: String,
    subject: Option<String>,
    attachments: Vec<String>,
    /// The first text part, decoded.
    text: String,
}

fn parse(bytes: &[u8]) -> Parsed {
    let Some(message) = mail_parser::MessageParser::default().parse(bytes) else {
        return Parsed::default();
    };
    let headers: Vec<OutboxHeader> = message
        .headers_raw()
        .map(|(name, value)| OutboxHeader {
            name: name.to_owned(),
            value: value.split_whitespace().collect::<Vec<_>>().join(" "),
        })
        .collect();
    Parsed {
        to: header(&headers, "To").unwrap_or_default().to_owned(),
        subject: message.subject().map(str::to_owned),
        attachments: message
            .attachments()
            .filter_map(|part| part.attachment_name())
            .map(str::to_owned)
            .collect(),
        text: message
            .body_text(0)
            .map(|text| text.into_owned())
            .unwrap_or_default(),
        headers,
    }
}

fn header<'a>(headers: &'a [OutboxHeader], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|header| header.name.eq_ignore_ascii_case(name))
        .map(|header| header.value.as_str())
}

fn is_private(headers: &[OutboxHeader]) -> bool {
    header(headers, PRIVATE_HEADER).is_some_and(|value| {
        !matches!(
            value.to_ascii_lowercase().as_str(),
            "" | "0" | "no" | "false"
        )
    })
}

fn split_message(text: &str) -> (&str, &str) {
    text.split_once("\r\n\r\n")
        .or_else(|| text.split_once("\n\n"))
        .unwrap_or((text, ""))
}

fn kind_of(file_name: &str) -> Option<&'static str> {
    if file_name.ends_with(".eml") {
        Some("email")
    } else if file_name.ends_with(".sms") {
        Some("sms")
    } else {
        None
    }
}

/// Whether `file_name` is one the outbox writes: an id of letters, digits and dashes with
/// `.eml` or `.sms`. Anything else (a path, a dot file, another extension) is refused
/// before the file system is touched.
pub fn is_outbox_name(file_name: &str) -> bool {
    let Some(stem) = file_name
        .strip_suffix(".eml")
        .or_else(|| file_name.strip_suffix(".sms"))
    else {
        return false;
    };
    !stem.is_empty()
        && stem.len() <= 80
        && stem
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_')
}

fn written_at(metadata: &std::fs::Metadata) -> String {
    metadata
        .modified()
        .ok()
        .and_then(|modified| jiff::Timestamp::try_from(modified).ok())
        .map(|moment| moment.to_string())
        .unwrap_or_default()
}

/// Opens one message by the name the listing gave. Private messages are refused.
pub fn open(dir: &Path, file_name: &str) -> Result<OutboxMessage, OpenError> {
    if !is_outbox_name(file_name) {
        return Err(OpenError::NotFound);
    }
    let kind = kind_of(file_name).ok_or(OpenError::NotFound)?;
    let path = dir.join(file_name);
    let metadata = match std::fs::symlink_metadata(&path) {
        Ok(metadata) if metadata.is_file() => metadata,
        Ok(_) => return Err(OpenError::NotFound),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Err(OpenError::NotFound);
        }
        Err(error) => return Err(OpenError::Io(error)),
    };
    let bytes = std::fs::read(&path).map_err(OpenError::Io)?;
    let parsed = parse(&bytes);
    if is_private(&parsed.headers) {
        return Err(OpenError::Private);
    }
    let text = String::from_utf8_lossy(&bytes);
    let (_, body) = split_message(&text);
    Ok(OutboxMessage {
        file_name: file_name.to_owned(),
        kind: kind.to_owned(),
        written_at: written_at(&metadata),
        to: parsed.to,
        subject: parsed.subject,
        attachments: parsed.attachments,
        body: body.to_owned(),
        headers: parsed.headers,
    })
}

fn entry(file_name: String, bytes: &[u8], written_at: String) -> Option<OutboxEntry> {
    let kind = kind_of(&file_name)?;
    let parsed = parse(bytes);
    Some(OutboxEntry {
        kind: kind.to_owned(),
        to: parsed.to,
        subject: parsed.subject,
        preview: parsed.text.trim().chars().take(200).collect(),
        attachments: parsed.attachments,
        written_at,
        file_name,
    })
}

/// Newest first, at most `limit`. A missing folder is an empty outbox.
pub fn list(dir: &Path, limit: usize) -> std::io::Result<Vec<OutboxEntry>> {
    let read = match std::fs::read_dir(dir) {
        Ok(read) => read,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => return Err(error),
    };
    let mut files = Vec::new();
    for item in read {
        let item = item?;
        let name = item.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let metadata = item.metadata()?;
        // Only the messages themselves: the private folder is never read here.
        if !metadata.is_file() {
            continue;
        }
        let modified = metadata.modified()?;
        files.push((modified, name, item.path()));
    }
    // File names start with a time-ordered id, so the name breaks ties.
    files.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| b.1.cmp(&a.1)));
    let mut entries = Vec::new();
    for (modified, name, path) in files.into_iter().take(limit) {
        let bytes = std::fs::read(&path)?;
        let written_at = jiff::Timestamp::try_from(modified)
            .map(|moment| moment.to_string())
            .unwrap_or_default();
        entries.extend(entry(name, &bytes, written_at));
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The outbox, its private folder and every message in them are the server
    /// account's alone.
    #[cfg(unix)]
    #[tokio::test]
    async fn the_outbox_and_its_messages_are_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let outbox = dir.path().join("outbox");
        write(&outbox, "m1.eml", b"To: a@b.test\r\n\r\nHello\r\n", false)
            .await
            .unwrap();
        let private = outbox.join(PRIVATE_FOLDER);
        write(&private, "m2.eml", b"To: a@b.test\r\n\r\nLink\r\n", true)
            .await
            .unwrap();
        let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&outbox), 0o700);
        assert_eq!(mode(&private), 0o700);
        assert_eq!(mode(&outbox.join("m1.eml")), 0o600);
        assert_eq!(mode(&private.join("m2.eml")), 0o600);
    }

    #[test]
    fn only_names_the_outbox_writes_are_accepted() {
        for good in [
            "019ab000-0000-7000-8000-000000000001.eml",
            "outbox-019ab000-0000-7000-8000-000000000001.sms",
        ] {
            assert!(is_outbox_name(good), "{good}");
        }
        for bad in [
            "../secret.eml",
            "..%2Fsecret.eml",
            ".hidden.eml",
            "a/b.eml",
            "a\\b.eml",
            ".eml",
            "note.txt",
            "carepath.db",
            "x.eml.partial",
        ] {
            assert!(!is_outbox_name(bad), "{bad}");
        }
    }

    #[test]
    fn a_message_opens_with_its_folded_headers_and_attachments() {
        let dir = tempfile::tempdir().unwrap();
        let text = "From: office@agency.test\r\nReply-To: desk@agency.test\r\nTo: family@example.com\r\n\
                    Bcc: audit@agency.test\r\nSubject: Home Care\r\n Proposal\r\n\
                    Content-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\n\
                    Content-Type: text/plain\r\n\r\nHello\r\n--b\r\n\
                    Content-Disposition: attachment; filename=\"care-plan.pdf\"\r\n\r\nJVBERi0=\r\n--b--\r\n";
        std::fs::write(dir.path().join("m1.eml"), text).unwrap();
        let message = open(dir.path(), "m1.eml").unwrap();
        assert_eq!(message.kind, "email");
        assert_eq!(message.to, "family@example.com");
        assert_eq!(message.subject.as_deref(), Some("Home Care Proposal"));
        assert_eq!(message.attachments, vec!["care-plan.pdf".to_owned()]);
        assert!(
            message
                .headers
                .iter()
                .any(|h| h.name == "Bcc" && h.value == "audit@agency.test")
        );
        let listed = list(dir.path(), 10).unwrap();
        assert_eq!(listed[0].attachments, vec!["care-plan.pdf".to_owned()]);
    }

    #[test]
    fn attachment_names_split_or_encoded_by_rfc_2231_are_read_whole() {
        let dir = tempfile::tempdir().unwrap();
        let text = "To: family@example.com\r\nSubject: =?utf-8?q?Propuesta_de_cuidado?=\r\n\
                    MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\n\
                    Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n\
                    Se=C3=B1ora Reyes\r\n--b\r\n\
                    Content-Type: application/pdf\r\n\
                    Content-Disposition: attachment;\r\n filename*0*=utf-8''propuesta-se%C3%B1ora-;\r\n filename*1=reyes.pdf\r\n\r\n\
                    JVBERi0=\r\n--b--\r\n";
        std::fs::write(dir.path().join("m2.eml"), text).unwrap();
        let listed = list(dir.path(), 10).unwrap();
        assert_eq!(
            listed[0].attachments,
            vec!["propuesta-señora-reyes.pdf".to_owned()]
        );
        assert_eq!(listed[0].subject.as_deref(), Some("Propuesta de cuidado"));
        assert_eq!(listed[0].preview, "Señora Reyes");
    }

    #[test]
    fn private_missing_and_outside_messages_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("p1.eml"),
            "To: a@b.test\r\nX-Carepath-Private: yes\r\nSubject: Sign in\r\n\r\nlink\r\n",
        )
        .unwrap();
        std::fs::write(
            dir.path().join("n1.eml"),
            "To: a@b.test\r\nX-Carepath-Private: no\r\n\r\nhello\r\n",
        )
        .unwrap();
        assert!(matches!(
            open(dir.path(), "p1.eml"),
            Err(OpenError::Private)
        ));
        assert!(open(dir.path(), "n1.eml").is_ok());
        assert!(matches!(
            open(dir.path(), "gone.eml"),
            Err(OpenError::NotFound)
        ));
        let outside = dir.path().join("outside.eml");
        std::fs::write(&outside, "To: a@b.test\r\n\r\nsecret\r\n").unwrap();
        let inner = dir.path().join("outbox");
        std::fs::create_dir(&inner).unwrap();
        assert!(matches!(
            open(&inner, "../outside.eml"),
            Err(OpenError::NotFound)
        ));
    }
}
