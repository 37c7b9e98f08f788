//! The outbound adapters the server runs: email (SMTP or the outbox), SMS (a Twilio-style
//! HTTP API or the outbox) and AI drafting (an OpenAI-compatible chat endpoint or core's
//! built-in writer). The traits and message types are core's.

mod ai;
mod email;
pub mod outbox;
mod sms;

use std::sync::{Arc, PoisonError, RwLock};
use std::time::Duration;

use carepath_core::model::{EmailSettings, SmsSettings, TestOutcome};
use carepath_core::outbound::{
    Drafter, EmailMessage, EmailSender, OutboundFuture, SendFailure, SentEmail, SentSms,
    SmsMessage, SmsSender,
};
use carepath_core::rules::setup::{
    TEST_EMAIL_SUBJECT, TEST_TEXT_BODY, test_email_body, test_email_sent, test_text_sent,
};
use carepath_core::store::{StaffNotice, StaffText, Store};

use crate::config::{Config, SmsConfig};

pub use outbox::OutboxEntry;
pub use sms::signed_by_provider;

#[derive(Clone)]
pub struct Outbound {
    pub email: Arc<dyn EmailSender>,
    pub sms: Arc<dyn SmsSender>,
    /// The senders behind `email` and `sms`, swapped when Settings save an account.
    email_switch: Arc<Switch<dyn EmailSender>>,
    sms_switch: Arc<Switch<dyn SmsSender>>,
    client: reqwest::Client,
    /// None: the built-in template writer drafts.
    pub drafter: Option<Arc<dyn Drafter>>,
    pub mail_from: String,
    pub sms_from: String,
}

/// An HTTP client for outside services: bounded waits and no redirects (a redirect could
/// carry the credentials somewhere else).
pub fn http_client(
    connect_timeout: Duration,
    timeout: Duration,
) -> anyhow::Result<reqwest::Client> {
    Ok(reqwest::Client::builder()
        .connect_timeout(connect_timeout)
        .timeout(timeout)
        .redirect(reqwest::redirect::Policy::none())
        .build()?)
}

impl Outbound {
    pub fn from_config(config: &Config) -> anyhow::Result<Self> {
        let outbox = config.outbox_dir();
        let email: Arc<dyn EmailSender> = match &config.smtp_url {
            Some(url) => Arc::new(email::SmtpSender::new(url, config.outbound_timeout)?),
            None => Arc::new(email::OutboxEmail::new(outbox.clone())),
        };
        let client = http_client(config.connect_timeout, config.outbound_timeout)?;
        let sms: Arc<dyn SmsSender> = match &config.sms {
            Some(sms) => Arc::new(sms::HttpSms::new(client.clone(), sms.clone())),
            None => Arc::new(sms::OutboxSms::new(outbox)),
        };
        let drafter: Option<Arc<dyn Drafter>> = config.ai.as_ref().map(|ai| {
            Arc::new(ai::ChatDrafter::new(client.clone(), ai.clone())) as Arc<dyn Drafter>
        });
        let email_switch = Arc::new(Switch::new(email));
        let sms_switch = Arc::new(Switch::new(sms));
        Ok(Self {
            email: email_switch.clone(),
            sms: sms_switch.clone(),
            email_switch,
            sms_switch,
            client,
            drafter,
            mail_from: config.mail_from.clone(),
            sms_from: config
                .sms
                .as_ref()
                .map(|sms| sms.from.clone())
                .unwrap_or_default(),
        })
    }
}

/// A sender that can be replaced while the server runs: each message goes through the
/// one current when it starts.
pub struct Switch<S: ?Sized> {
    current: RwLock<Arc<S>>,
}

impl<S: ?Sized> Switch<S> {
    fn new(sender: Arc<S>) -> Self {
        Self {
            current: RwLock::new(sender),
        }
    }

    fn current(&self) -> Arc<S> {
        self.current
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn replace(&self, sender: Arc<S>) {
        *self.current.write().unwrap_or_else(PoisonError::into_inner) = sender;
    }
}

impl EmailSender for Switch<dyn EmailSender> {
    fn send<'a>(&'a self, email: &'a EmailMessage) -> OutboundFuture<'a, SentEmail, SendFailure> {
        let sender = self.current();
        Box::pin(async move { sender.send(email).await })
    }
}

impl SmsSender for Switch<dyn SmsSender> {
    fn send<'a>(&'a self, sms: &'a SmsMessage) -> OutboundFuture<'a, SentSms, SendFailure> {
        let sender = self.current();
        Box::pin(async move { sender.send(sms).await })
    }
}

/// The mail server a test email goes through: the environment's, else the saved one.
fn smtp_sender(config: &Config, store: &Store) -> anyhow::Result<Option<email::SmtpSender>> {
    if let Some(url) = &config.smtp_url {
        return email::SmtpSender::new(url, config.outbound_timeout).map(Some);
    }
    let Some(login) = store.smtp_login(&config.secret_keys())? else {
        return Ok(None);
    };
    if login.host.is_empty() {
        return Ok(None);
    }
    let extra_root = match &config.smtp_ca_file {
        Some(path) => Some(std::fs::read(path).map_err(|error| {
            anyhow::anyhow!(
                "cannot read CAREPATH_SMTP_CA_FILE {}: {error}",
                path.display()
            )
        })?),
        None => None,
    };
    email::SmtpSender::from_login(&login, config.outbound_timeout, extra_root.as_deref()).map(Some)
}

/// The SMS provider a test text goes through: the environment's, else the saved one.
fn sms_config(config: &Config, store: &Store) -> anyhow::Result<Option<SmsConfig>> {
    if let Some(sms) = &config.sms {
        return Ok(Some(sms.clone()));
    }
    Ok(store
        .sms_login(&config.secret_keys())?
        .map(|login| SmsConfig {
            base_url: login.base_url,
            account_sid: login.account_sid,
            auth_token: login.auth_token,
            from: String::new(),
        }))
}

impl Outbound {
    /// Takes up the accounts Settings saved, for each channel the environment does not
    /// set: the saved SMTP server (else the outbox) and the SMS provider when texts are
    /// on (else the outbox).
    pub fn use_saved_accounts(&self, config: &Config, store: &Store) -> anyhow::Result<()> {
        let outbox = config.outbox_dir();
        if config.smtp_url.is_none() {
            let sender: Arc<dyn EmailSender> = match smtp_sender(config, store)? {
                Some(sender) => Arc::new(sender),
                None => Arc::new(email::OutboxEmail::new(outbox.clone())),
            };
            self.email_switch.replace(sender);
        }
        if config.sms.is_none() {
            let sender: Arc<dyn SmsSender> = match sms_config(config, store)? {
                Some(sms) => Arc::new(sms::HttpSms::new(self.client.clone(), sms)),
                None => Arc::new(sms::OutboxSms::new(outbox)),
            };
            self.sms_switch.replace(sender);
        }
        Ok(())
    }

    /// Sends the test email to `to` through the mail server in use, and answers what
    /// the server said, in words. None: no mail server is set up.
    pub async fn test_email(setup: TestEmailSetup, to: String) -> Option<TestOutcome> {
        let TestEmailSetup {
            sender,
            from,
            agency,
        } = setup;
        let sender = sender?;
        let message = EmailMessage {
            from,
            to: vec![to.clone()],
            subject: TEST_EMAIL_SUBJECT.to_owned(),
            body: test_email_body(&agency),
            ..EmailMessage::default()
        };
        Some(match sender.deliver(&message).await {
            Ok(_) => TestOutcome {
                ok: true,
                message: test_email_sent(&to, sender.host()),
            },
            Err(failure) => TestOutcome {
                ok: false,
                message: failure.reason,
            },
        })
    }

    /// Sends the test text to `to`. None: texts are off.
    pub async fn test_text(
        &self,
        sms: Option<SmsConfig>,
        from: String,
        to: String,
    ) -> Option<TestOutcome> {
        let sms = sms?;
        let sender = sms::HttpSms::new(self.client.clone(), sms);
        let message = SmsMessage {
            from,
            to: to.clone(),
            body: TEST_TEXT_BODY.to_owned(),
        };
        Some(match sender.send(&message).await {
            Ok(_) => TestOutcome {
                ok: true,
                message: test_text_sent(&to),
            },
            Err(failure) => TestOutcome {
                ok: false,
                message: failure.reason,
            },
        })
    }
}

/// What a test email needs from the database, read on the blocking pool.
pub struct TestEmailSetup {
    pub sender: Option<email::SmtpSender>,
    pub from: String,
    pub agency: String,
}

impl TestEmailSetup {
    /// The mail server in use and the sender address (Settings', else the configured).
    pub fn read(config: &Config, store: &Store) -> anyhow::Result<Self> {
        let settings = store.settings()?;
        let from = Some(settings.email.default_from.trim().to_owned())
            .filter(|from| !from.is_empty())
            .unwrap_or_else(|| config.mail_from.clone());
        Ok(Self {
            sender: smtp_sender(config, store)?,
            from,
            agency: settings.general.company_name,
        })
    }
}

/// The SMS provider in use (the environment's, else the one Settings saved): a test
/// text goes through it, and a family's reply is checked with its auth token.
pub fn sms_account_in_use(config: &Config, store: &Store) -> anyhow::Result<Option<SmsConfig>> {
    sms_config(config, store)
}

impl Outbound {
    /// Sends an email to a member of staff (a notification or a digest) from the agency's
    /// sender. It goes to them alone: Settings' copies and blind copies are for emails to
    /// families.
    pub async fn send_staff_notice(
        &self,
        settings: &EmailSettings,
        notice: StaffNotice,
    ) -> Result<(), SendFailure> {
        let from = Some(settings.default_from.trim().to_owned())
            .filter(|from| !from.is_empty())
            .unwrap_or_else(|| self.mail_from.clone());
        let message = EmailMessage {
            from,
            to: vec![notice.to],
            subject: notice.subject,
            body: notice.body,
            ..EmailMessage::default()
        };
        self.email.send(&message).await.map(|_| ())
    }

    /// The number texts go from: Settings' sender number, else the configured one.
    pub fn sms_sender(&self, settings: &SmsSettings) -> String {
        Some(settings.default_sender_number.trim().to_owned())
            .filter(|number| !number.is_empty())
            .unwrap_or_else(|| self.sms_from.clone())
    }

    /// Texts a member of staff (an urgent update) from the agency's number.
    pub async fn send_staff_text(
        &self,
        settings: &SmsSettings,
        text: StaffText,
    ) -> Result<(), SendFailure> {
        let message = SmsMessage {
            from: self.sms_sender(settings),
            to: text.to,
            body: text.body,
        };
        self.sms.send(&message).await.map(|_| ())
    }
}
