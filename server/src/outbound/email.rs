//! Email transports: SMTP through lettre, and the outbox that writes `.eml` files.

use std::path::PathBuf;
use std::time::Duration;

use carepath_core::outbound::{EmailMessage, EmailSender, OutboundFuture, SendFailure, SentEmail};
use lettre::message::Mailbox;
use lettre::message::header::ContentType;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

fn mailbox(address: &str) -> Result<Mailbox, SendFailure> {
    address
        .trim()
        .parse()
        .map_err(|_| SendFailure::new(format!("{address} is not a valid email address")))
}

/// The MIME message and the id it is known by (its Message-ID's local part). Blind
/// copies go into the envelope only (lettre drops the Bcc header when it builds), except
/// in the outbox (`keep_bcc`), which has no envelope: there the header is the only record
/// of who would have received a blind copy.
pub(crate) fn build_message(
    email: &EmailMessage,
    keep_bcc: bool,
) -> Result<(Message, String), SendFailure> {
    let id = uuid::Uuid::now_v7().to_string();
    let mut builder = Message::builder();
    if keep_bcc {
        builder = builder.keep_bcc();
    }
    let mut builder = builder
        .from(mailbox(&email.from)?)
        .subject(email.subject.clone())
        .message_id(Some(format!("<{id}@carepath>")));
    for address in &email.to {
        builder = builder.to(mailbox(address)?);
    }
    for address in &email.cc {
        builder = builder.cc(mailbox(address)?);
    }
    for address in &email.bcc {
        builder = builder.bcc(mailbox(address)?);
    }
    if let Some(reply_to) = &email.reply_to {
        builder = builder.reply_to(mailbox(reply_to)?);
    }
    let message = builder
        .header(ContentType::TEXT_PLAIN)
        .body(email.body.clone())
        .map_err(|error| SendFailure::new(format!("cannot build the email: {error}")))?;
    Ok((message, id))
}

pub struct SmtpSender {
    transport: AsyncSmtpTransport<Tokio1Executor>,
}

impl SmtpSender {
    pub fn new(url: &str, timeout: Duration) -> anyhow::Result<Self> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            .map_err(|error| anyhow::anyhow!("CAREPATH_SMTP_URL is not usable: {error}"))?
            .timeout(Some(timeout))
            .build();
        Ok(Self { transport })
    }
}

impl EmailSender for SmtpSender {
    fn send<'a>(&'a self, email: &'a EmailMessage) -> OutboundFuture<'a, SentEmail, SendFailure> {
        Box::pin(async move {
            let (message, id) = build_message(email, false)?;
            self.transport.send(message).await.map_err(|error| {
                SendFailure::new(format!("The mail server refused the email: {error}"))
            })?;
            Ok(SentEmail { id })
        })
    }
}

/// Writes each email as `<outbox>/<id>.eml`, for agencies without a mail server yet and
/// for demos; GET /api/outbox lists them.
pub struct OutboxEmail {
    dir: PathBuf,
}

impl OutboxEmail {
    pub fn new(dir: PathBuf) -> Self {
        Self { dir }
    }
}

impl EmailSender for OutboxEmail {
    fn send<'a>(&'a self, email: &'a EmailMessage) -> OutboundFuture<'a, SentEmail, SendFailure> {
        Box::pin(async move {
            let (message, id) = build_message(email, true)?;
            super::outbox::write(&self.dir, &format!("{id}.eml"), &message.formatted()).await?;
            Ok(SentEmail { id })
        })
    }
}
