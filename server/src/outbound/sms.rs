//! SMS transports: a Twilio-style REST API, and the outbox.

use std::path::PathBuf;

use carepath_core::outbound::{OutboundFuture, SendFailure, SentSms, SmsMessage, SmsSender};

use crate::config::SmsConfig;

/// Whether a webhook report carries the provider's signature (Twilio's scheme): the
/// base64 of an HMAC-SHA1, keyed with the account's auth token, over the address the
/// provider posted to followed by every form parameter's name and value, sorted by name.
/// Compared in constant time.
pub fn signed_by_provider(
    auth_token: &str,
    url: &str,
    params: &[(String, String)],
    signature: &str,
) -> bool {
    use base64::Engine as _;
    use ring::hmac;

    // Anyone can compute an HMAC with an empty key.
    if auth_token.is_empty() {
        return false;
    }
    let Ok(signature) = base64::engine::general_purpose::STANDARD.decode(signature.trim()) else {
        return false;
    };
    let mut sorted: Vec<&(String, String)> = params.iter().collect();
    sorted.sort();
    let mut signed = url.to_owned();
    for (name, value) in sorted {
        signed.push_str(name);
        signed.push_str(value);
    }
    let key = hmac::Key::new(hmac::HMAC_SHA1_FOR_LEGACY_USE_ONLY, auth_token.as_bytes());
    hmac::verify(&key, signed.as_bytes(), &signature).is_ok()
}

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

#[cfg(test)]
mod tests {
    use super::signed_by_provider;

    fn params(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
            .collect()
    }

    /// The worked example of Twilio's security documentation.
    #[test]
    fn the_providers_documented_example_is_signed() {
        let url = "https://mycompany.com/myapp.php?foo=1&bar=2";
        let body = params(&[
            ("CallSid", "CA1234567890ABCDE"),
            ("Caller", "+12349013030"),
            ("Digits", "1234"),
            ("From", "+12349013030"),
            ("To", "+18005551212"),
        ]);
        let token = "12345";
        assert!(signed_by_provider(
            token,
            url,
            &body,
            "0/KCTR6DLpKmkAf8muzZqo1nDgQ="
        ));
        assert!(!signed_by_provider(
            "54321",
            url,
            &body,
            "0/KCTR6DLpKmkAf8muzZqo1nDgQ="
        ));
        let mut changed = body.clone();
        changed[2].1 = "9999".to_owned();
        assert!(!signed_by_provider(
            token,
            url,
            &changed,
            "0/KCTR6DLpKmkAf8muzZqo1nDgQ="
        ));
        assert!(!signed_by_provider(token, url, &body, "not base64!"));
        assert!(!signed_by_provider(token, url, &body, ""));
    }
}
