//! The outbox folder: emails (`.eml`) and text messages (`.sms`) written instead of sent
//! when no mail server or SMS provider is set up, and their listing for GET /api/outbox.

use std::path::Path;

use carepath_core::outbound::SendFailure;
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
}

pub(crate) async fn write(dir: &Path, file_name: &str, contents: &[u8]) -> Result<(), SendFailure> {
    let failed = |_| SendFailure::new("The outbox folder cannot be written.");
    tokio::fs::create_dir_all(dir).await.map_err(failed)?;
    // Written under a temporary name, then renamed: the listing never sees half a file.
    let partial = dir.join(format!(".{file_name}.partial"));
    tokio::fs::write(&partial, contents).await.map_err(failed)?;
    tokio::fs::rename(&partial, dir.join(file_name))
        .await
        .map_err(failed)
}

fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        key.trim().eq_ignore_ascii_case(name).then(|| value.trim())
    })
}

/// The body of the first text/plain part of a multipart body.
fn text_part(body: &str) -> Option<&str> {
    let start = body.find("Content-Type: text/plain")?;
    let part = &body[start..];
    let (_, content) = part
        .split_once("\r\n\r\n")
        .or_else(|| part.split_once("\n\n"))?;
    Some(content.split("\n--").next().unwrap_or(content))
}

fn entry(file_name: String, text: &str, written_at: String) -> Option<OutboxEntry> {
    let kind = if file_name.ends_with(".eml") {
        "email"
    } else if file_name.ends_with(".sms") {
        "sms"
    } else {
        return None;
    };
    let (head, body) = text
        .split_once("\r\n\r\n")
        .or_else(|| text.split_once("\n\n"))
        .unwrap_or((text, ""));
    // A message with attachments is multipart: the preview is its first text part.
    let body = if header(head, "Content-Type").is_some_and(|value| value.starts_with("multipart/"))
    {
        text_part(body).unwrap_or_default()
    } else {
        body
    };
    Some(OutboxEntry {
        kind: kind.to_owned(),
        to: header(head, "To").unwrap_or_default().to_owned(),
        subject: header(head, "Subject").map(str::to_owned),
        preview: body.trim().chars().take(200).collect(),
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
        let modified = item.metadata()?.modified()?;
        files.push((modified, name, item.path()));
    }
    // File names start with a time-ordered id, so the name breaks ties.
    files.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| b.1.cmp(&a.1)));
    let mut entries = Vec::new();
    for (modified, name, path) in files.into_iter().take(limit) {
        let text = String::from_utf8_lossy(&std::fs::read(&path)?).into_owned();
        let written_at = jiff::Timestamp::try_from(modified)
            .map(|moment| moment.to_string())
            .unwrap_or_default();
        entries.extend(entry(name, &text, written_at));
    }
    Ok(entries)
}
