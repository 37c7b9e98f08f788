//! The outbound adapters the server runs: email (SMTP or the outbox), SMS (a Twilio-style
//! HTTP API or the outbox) and AI drafting (an OpenAI-compatible chat endpoint or core's
//! built-in writer). The traits and message types are core's.

mod ai;
mod email;
pub mod outbox;
mod sms;

use std::sync::Arc;
use std::time::Duration;

use carepath_core::model::{EmailSettings, SmsSettings};
use carepath_core::outbound::{
    Drafter, EmailMessage, EmailSender, SendFailure, SmsMessage, SmsSender,
};
use carepath_core::store::{StaffNotice, StaffText};

use crate::config::Config;

pub use outbox::OutboxEntry;
pub use sms::signed_by_provider;

#[derive(Clone)]
pub struct Outbound {
    pub email: Arc<dyn EmailSender>,
    pub sms: Arc<dyn SmsSender>,
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
        let drafter: Option<Arc<dyn Drafter>> = config
            .ai
            .as_ref()
            .map(|ai| Arc::new(ai::ChatDrafter::new(client, ai.clone())) as Arc<dyn Drafter>);
        Ok(Self {
            email,
            sms,
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
