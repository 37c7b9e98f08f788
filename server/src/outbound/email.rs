//! Email transports: SMTP through lettre, and the outbox that writes `.eml` files.

use std::path::PathBuf;
use std::time::Duration;

use carepath_core::outbound::{EmailMessage, EmailSender, OutboundFuture, SendFailure, SentEmail};
use lettre::message::header::ContentType;
use lettre::message::{Attachment, Mailbox, MultiPart, SinglePart};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

fn mailbox(address: &str) -> Result<Mailbox, SendFailure> {
    address
        .trim()
        .parse()
        .map_err(|_| SendFailure::new(format!("{address} is not a valid email address")))
}

/// The MIME message and the id it is known by (its Message-ID's local part). Blind
/// copies go into the envelope only: lettre drops the Bcc header when it builds (the
/// outbox records the envelope in its own first line).
pub(crate) fn build_message(email: &EmailMessage) -> Result<(Message, String), SendFailure> {
    let id = uuid::Uuid::now_v7().to_string();
    let mut builder = Message::builder()
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
    let built = if email.attachments.is_empty() {
        builder
            .header(ContentType::TEXT_PLAIN)
            .body(email.body.clone())
    } else {
        // The text first, then each file: multipart/mixed, as mail programs expect.
        let mut parts = MultiPart::mixed().singlepart(SinglePart::plain(email.body.clone()));
        for attachment in &email.attachments {
            let content_type = ContentType::parse(&attachment.content_type).map_err(|_| {
                SendFailure::new(format!(
                    "{} has an unknown content type",
                    attachment.file_name
                ))
            })?;
            parts = parts.singlepart(
                Attachment::new(attachment.file_name.clone())
                    .body(attachment.bytes.clone(), content_type),
            );
        }
        builder.multipart(parts)
    };
    let message =
        built.map_err(|error| SendFailure::new(format!("cannot build the email: {error}")))?;
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
            let (message, id) = build_message(email)?;
            self.transport.send(message).await.map_err(|error| {
                SendFailure::new(format!("The mail server refused the email: {error}"))
            })?;
            Ok(SentEmail { id })
        })
    }
}

/// Writes each email as `<outbox>/<id>.eml`, for agencies without a mail server yet and
/// for demos; GET /api/outbox lists them. The first line, `X-Envelope-To`, names every
/// recipient of the envelope, blind copies included.
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
            let (message, id) = build_message(email)?;
            // The file stands in for a delivery, so it keeps the envelope a mail server
            // would have used (blind copies included), as a header before the message.
            let recipients: Vec<String> = message
                .envelope()
                .to()
                .iter()
                .map(ToString::to_string)
                .collect();
            let mut file = format!("X-Envelope-To: {}\r\n", recipients.join(", ")).into_bytes();
            file.extend_from_slice(&message.formatted());
            // A message with a secret link goes where the listing never looks, readable
            // by the server's own account only.
            let (dir, private) = if email.private {
                (self.dir.join(super::outbox::PRIVATE_FOLDER), true)
            } else {
                (self.dir.clone(), false)
            };
            super::outbox::write(&dir, &format!("{id}.eml"), &file, private).await?;
            // What staff may see of it: the same message with the link replaced.
            if let (true, Some(public_body)) = (email.private, &email.public_body) {
                let listed = EmailMessage {
                    body: public_body.clone(),
                    private: false,
                    public_body: None,
                    ..email.clone()
                };
                let (message, listed_id) = build_message(&listed)?;
                let mut file = format!("X-Envelope-To: {}\r\n", recipients.join(", ")).into_bytes();
                file.extend_from_slice(&message.formatted());
                super::outbox::write(&self.dir, &format!("{listed_id}.eml"), &file, false).await?;
            }
            Ok(SentEmail { id })
        })
    }
}
