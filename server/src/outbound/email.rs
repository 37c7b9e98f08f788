//! Email transports: SMTP through lettre, and the outbox that writes `.eml` files.

use std::path::PathBuf;
use std::time::Duration;

use carepath_core::model::SmtpTls;
use carepath_core::outbound::{EmailMessage, EmailSender, OutboundFuture, SendFailure, SentEmail};
use carepath_core::rules::setup::{SmtpProblem, classify_smtp_reply, smtp_problem_words};
use carepath_core::store::SmtpLogin;
use lettre::message::header::ContentType;
use lettre::message::{Attachment, Mailbox, MultiPart, SinglePart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
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
    /// The server's name, for what its answers mean in words.
    host: String,
}

impl SmtpSender {
    pub fn new(url: &str, timeout: Duration) -> anyhow::Result<Self> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            .map_err(|error| anyhow::anyhow!("CAREPATH_SMTP_URL is not usable: {error}"))?
            .timeout(Some(timeout))
            .build();
        let host = reqwest::Url::parse(url)
            .ok()
            .and_then(|url| url.host_str().map(str::to_owned))
            .unwrap_or_else(|| "The mail server".to_owned());
        Ok(Self { transport, host })
    }

    /// The server Settings → Email saved. `extra_root` is a PEM certificate trusted
    /// besides the machine's usual ones.
    pub fn from_login(
        login: &SmtpLogin,
        timeout: Duration,
        extra_root: Option<&[u8]>,
    ) -> anyhow::Result<Self> {
        let host = login.host.trim().to_owned();
        let tls_parameters = || -> anyhow::Result<TlsParameters> {
            let mut builder = TlsParameters::builder(host.clone());
            if let Some(pem) = extra_root {
                builder = builder.add_root_certificate(Certificate::from_pem(pem)?);
            }
            Ok(builder.build_rustls()?)
        };
        let tls = match login.tls {
            SmtpTls::Starttls => Tls::Required(tls_parameters()?),
            SmtpTls::Implicit => Tls::Wrapper(tls_parameters()?),
            SmtpTls::None => Tls::None,
        };
        let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host.clone())
            .port(login.port)
            .tls(tls)
            .timeout(Some(timeout));
        if !login.username.is_empty() || login.password.is_some() {
            builder = builder.credentials(Credentials::new(
                login.username.clone(),
                login.password.clone().unwrap_or_default(),
            ));
        }
        Ok(Self {
            transport: builder.build(),
            host,
        })
    }

    /// Sends, answering a refusal in words (core's, chosen by the server's reply).
    pub async fn deliver(&self, email: &EmailMessage) -> Result<SentEmail, SendFailure> {
        let (message, id) = build_message(email)?;
        self.transport
            .send(message)
            .await
            .map_err(|error| SendFailure::new(smtp_error_words(&error, &self.host)))?;
        Ok(SentEmail { id })
    }

    pub fn host(&self) -> &str {
        &self.host
    }
}

/// What lettre's error means, in core's words.
fn smtp_error_words(error: &lettre::transport::smtp::Error, host: &str) -> String {
    use std::error::Error as _;

    let problem = if let Some(code) = error.status() {
        // The server's own text is the error's source.
        let text = error.source().map(ToString::to_string).unwrap_or_default();
        classify_smtp_reply(u16::from(code), &text)
    } else if error.is_timeout() {
        SmtpProblem::TimedOut
    } else if error.is_tls() {
        SmtpProblem::TlsFailed
    } else if error.is_client() {
        let text = error.to_string();
        if text.contains("authentication mechanism") {
            SmtpProblem::NoAuthOffered
        } else if text.to_ascii_lowercase().contains("tls") {
            SmtpProblem::TlsRequired
        } else {
            SmtpProblem::Other(text)
        }
    } else if error.is_response() {
        // An answer that is not SMTP: usually TLS spoken to a plain port or the reverse.
        SmtpProblem::TlsFailed
    } else {
        let text = error.to_string().to_ascii_lowercase();
        if text.contains("tls") || text.contains("certificate") || text.contains("handshake") {
            SmtpProblem::TlsFailed
        } else {
            SmtpProblem::CannotConnect
        }
    };
    smtp_problem_words(&problem, host)
}

impl EmailSender for SmtpSender {
    fn send<'a>(&'a self, email: &'a EmailMessage) -> OutboundFuture<'a, SentEmail, SendFailure> {
        Box::pin(self.deliver(email))
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
