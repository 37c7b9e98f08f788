//! SMS transports: a Twilio-style REST API, and the outbox.

use std::path::PathBuf;

use carepath_core::outbound::{OutboundFuture, SendFailure, SentSms, SmsMessage, SmsSender};

use crate::config::SmsConfig;

pub struct HttpSms {
    client: reqwest::Client,
    config: SmsConfig,
}

impl HttpSms {
    pub fn new(client: reqwest::Client, config: SmsConfig) -> Self {
        Self { client, config }
    }
}

#[derive(serde::Deserialize)]
struct ProviderAnswer {
    sid: Option<String>,
    message: Option<String>,
}

fn transport_failure(error: &reqwest::Error) -> SendFailure {
    if error.is_timeout() {
        SendFailure::new("The SMS provider did not answer in time.")
    } else if error.is_connect() {
        SendFailure::new("The SMS provider could not be reached.")
    } else {
        SendFailure::new("The SMS provider's answer could not be read.")
    }
}

impl SmsSender for HttpSms {
    fn send<'a>(&'a self, sms: &'a SmsMessage) -> OutboundFuture<'a, SentSms, SendFailure> {
        Box::pin(async move {
            let url = format!(
                "{}/2010-04-01/Accounts/{}/Messages.json",
                self.config.base_url.trim_end_matches('/'),
                self.config.account_sid
            );
            let form = [
                ("To", sms.to.as_str()),
                ("From", sms.from.as_str()),
                ("Body", sms.body.as_str()),
            ];
            let response = self
                .client
                .post(url)
                .basic_auth(&self.config.account_sid, Some(&self.config.auth_token))
                .form(&form)
                .send()
                .await
                .map_err(|error| transport_failure(&error))?;
            let status = response.status();
            let answer: Option<ProviderAnswer> = response.json().await.ok();
            if !status.is_success() {
                let detail = answer.and_then(|answer| answer.message).unwrap_or_default();
                let reason = format!("The SMS provider refused the message ({status}). {detail}");
                return Err(SendFailure::new(reason.trim().to_owned()));
            }
            match answer.and_then(|answer| answer.sid) {
                Some(sid) => Ok(SentSms { sid }),
                None => Err(SendFailure::new(
                    "The SMS provider's answer had no message id.",
                )),
            }
        })
    }
}

/// Writes each text message as `<outbox>/<id>.sms`.
pub struct OutboxSms {
    dir: PathBuf,
}

impl OutboxSms {
    pub fn new(dir: PathBuf) -> Self {
        Self { dir }
    }
}

impl SmsSender for OutboxSms {
    fn send<'a>(&'a self, sms: &'a SmsMessage) -> OutboundFuture<'a, SentSms, SendFailure> {
        Box::pin(async move {
            let sid = format!("outbox-{}", uuid::Uuid::now_v7());
            let text = format!(
                "From: {}\r\nTo: {}\r\n\r\n{}\r\n",
                sms.from, sms.to, sms.body
            );
            super::outbox::write(&self.dir, &format!("{sid}.sms"), text.as_bytes(), false).await?;
            Ok(SentSms { sid })
        })
    }
}
