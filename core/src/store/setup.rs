//! The first run and the outbound accounts: the one-time setup link (kept as its hash)
//! and the setup that creates the first administrator, the SMTP server and SMS provider
//! Settings keep (their secrets sealed with the key outside the database), and the facts
//! the setup checklist is computed from.

use rusqlite::{OptionalExtension, params};
use serde::{Deserialize, Serialize};

use super::credentials::{hash_password, new_token, token_hash};
use super::users::insert_user;
use super::{Store, audit, exec, query_row, ts};
use crate::error::{Error, Result, ValidationErrors};
use crate::model::{
    Actor, Channel, Checklist, EmailAccount, EmailAccountForm, GeneralSettings, SetupForm,
    SmsAccount, SmsAccountForm, SmtpTls, User, UserId,
};
use crate::rules::setup::{
    ChecklistFacts, SETUP_LINK_UNUSABLE, SMS_SID_REQUIRED, SMS_URL_REQUIRED, SMTP_HOST_REQUIRED,
    SMTP_PORT_INVALID, backups_replicating, checklist, validate_setup,
};
use crate::secrets::SecretKeySource;

/// What the checklist needs to know of the running server.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Deployment {
    /// The public URL starts with https://.
    pub public_url_https: bool,
    /// `CAREPATH_SMS_URL` sets up texts whatever Settings say.
    pub sms_from_environment: bool,
    /// Where replication off the machine stands (`serve --replicate`).
    pub replication: crate::model::ReplicationState,
}

/// What the database keeps of the SMTP account besides the password.
#[derive(Serialize, Deserialize)]
struct StoredEmail {
    host: String,
    port: u16,
    tls: SmtpTls,
    username: String,
}

#[derive(Serialize, Deserialize)]
struct StoredSms {
    enabled: bool,
    base_url: String,
    account_sid: String,
}

/// One row of `outbound_accounts`.
struct AccountRow {
    value: String,
    secret: Option<Vec<u8>>,
    tested_at: Option<String>,
    test_ok: bool,
    test_answer: String,
    version: i64,
}

/// The SMTP account as the mail adapter needs it: the password opened.
#[derive(Clone)]
pub struct SmtpLogin {
    pub host: String,
    pub port: u16,
    pub tls: SmtpTls,
    pub username: String,
    pub password: Option<String>,
}

impl std::fmt::Debug for SmtpLogin {
    // Hand-written so the password never reaches a log line.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmtpLogin")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("tls", &self.tls)
            .finish_non_exhaustive()
    }
}

/// The SMS account as the SMS adapter needs it: the auth token opened.
#[derive(Clone)]
pub struct SmsLogin {
    pub base_url: String,
    pub account_sid: String,
    pub auth_token: String,
}

impl std::fmt::Debug for SmsLogin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmsLogin")
            .field("base_url", &self.base_url)
            .finish_non_exhaustive()
    }
}

const EMAIL: &str = "email";
const SMS: &str = "sms";

impl Store {
    /// True while the agency has no user at all: `carepath serve` then prints a setup
    /// link and the API answers nothing else.
    pub fn needs_setup(&self) -> Result<bool> {
        Ok(query_row(
            self.conn(),
            "SELECT NOT EXISTS (SELECT 1 FROM users)",
            [],
            |row| row.get(0),
        )?)
    }

    /// A new setup link's secret (256 random bits; only its hash is kept), replacing any
    /// earlier unused one. None when the agency is set up already.
    pub fn issue_setup_token(&mut self) -> Result<Option<String>> {
        let now = self.now();
        let token = new_token();
        let hash = token_hash(&token);
        // Bookkeeping, like a sign-in link: no audit row.
        self.write(|tx| {
            let needed: bool =
                query_row(tx, "SELECT NOT EXISTS (SELECT 1 FROM users)", [], |row| {
                    row.get(0)
                })?;
            if !needed {
                return Ok(None);
            }
            exec(tx, "DELETE FROM setup_tokens WHERE used_at IS NULL", [])?;
            exec(
                tx,
                "INSERT INTO setup_tokens (token_hash, created_at) VALUES (?1, ?2)",
                params![hash, ts(now)],
            )?;
            Ok(Some(token))
        })
    }

    /// Whether a setup link's secret would be taken now.
    pub fn setup_token_usable(&self, token: &str) -> Result<bool> {
        Ok(query_row(
            self.conn(),
            "SELECT NOT EXISTS (SELECT 1 FROM users)
                AND EXISTS (SELECT 1 FROM setup_tokens WHERE token_hash = ?1 AND used_at IS NULL)",
            [token_hash(token)],
            |row| row.get(0),
        )?)
    }

    /// Sets the agency up: its details and its first administrator, in one transaction
    /// that also uses up the link. Refused ([`SETUP_LINK_UNUSABLE`]) when the link is
    /// unknown or used, or once any user exists.
    pub fn complete_setup(&mut self, form: &SetupForm) -> Result<User> {
        validate_setup(form)?;
        let email = form.admin_email.trim().to_lowercase();
        crate::rules::validation::check_field_text("admin_email", &email)?;
        crate::rules::validation::check_field_text("admin_name", form.admin_name.trim())?;
        let general = GeneralSettings {
            company_name: form.company_name.trim().to_owned(),
            contact_email: form.contact_email.trim().to_owned(),
            contact_phone: form.contact_phone.trim().to_owned(),
            business_hours: form.business_hours.trim().to_owned(),
            postal_address: form.postal_address.trim().to_owned(),
            fax: String::new(),
            time_zone: form.time_zone.trim().to_owned(),
        };
        crate::rules::validation::validate_settings(&crate::model::SettingsTab::General(
            general.clone(),
        ))?;
        let general = serde_json::to_string(&general)?;
        let hash = token_hash(&form.token);
        // Checked before the slow hash, and again inside the transaction.
        if !self.setup_token_usable(&form.token)? {
            return Err(Error::Forbidden(SETUP_LINK_UNUSABLE));
        }
        let password_hash = hash_password(&form.admin_password)?;
        let now = self.now();
        let id = UserId::new();
        let actor = Actor::system(Channel::Web);
        self.write(|tx| {
            let used = exec(
                tx,
                "UPDATE setup_tokens SET used_at = ?2
                 WHERE token_hash = ?1 AND used_at IS NULL
                   AND NOT EXISTS (SELECT 1 FROM users)",
                params![hash, ts(now)],
            )?;
            if used != 1 {
                return Err(Error::Forbidden(SETUP_LINK_UNUSABLE));
            }
            insert_user(
                tx,
                &actor,
                now,
                &id,
                &email,
                form.admin_name.trim(),
                Some(&password_hash),
                true,
            )?;
            exec(
                tx,
                "INSERT INTO settings (tab, value, updated_at, version) VALUES ('general', ?1, ?2, 1)
                 ON CONFLICT (tab) DO UPDATE SET value = ?1, updated_at = ?2, version = version + 1",
                params![general, ts(now)],
            )?;
            audit(tx, &actor, now, "update", "settings", "general", None, &["general"])
        })?;
        // The zone may differ from the default: day boundaries follow it.
        let clock = self.clock()?;
        self.write(|tx| super::position::refresh_all_overdue(tx, &clock).map(|_| ()))?;
        self.get_user(&id)
    }

    fn account_row(&self, channel: &str) -> Result<Option<AccountRow>> {
        Ok(query_row(
            self.conn(),
            "SELECT value, secret, tested_at, test_ok, test_answer, version
             FROM outbound_accounts WHERE channel = ?1",
            [channel],
            |row| {
                Ok(AccountRow {
                    value: row.get(0)?,
                    secret: row.get(1)?,
                    tested_at: row.get(2)?,
                    test_ok: row.get(3)?,
                    test_answer: row.get(4)?,
                    version: row.get(5)?,
                })
            },
        )
        .optional()?)
    }

    /// Saves a channel's account. The secret: `Some(non-empty)` is sealed anew, `Some("")`
    /// removes it, None keeps the stored one. A saved account has not been tested.
    fn save_account(
        &mut self,
        actor: &Actor,
        channel: &'static str,
        version: i64,
        value: String,
        secret: Option<&str>,
        keys: &SecretKeySource,
    ) -> Result<bool> {
        let sealed = keys.seal_change(channel, secret)?;
        let now = self.now();
        self.write(|tx| {
            let stored: Option<i64> = query_row(
                tx,
                "SELECT version FROM outbound_accounts WHERE channel = ?1",
                [channel],
                |row| row.get(0),
            )
            .optional()?;
            if stored.unwrap_or(0) != version {
                return Ok(false);
            }
            exec(
                tx,
                "INSERT INTO outbound_accounts (channel, value, updated_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT (channel) DO UPDATE SET value = ?2, updated_at = ?3,
                     version = version + 1, tested_at = NULL, test_ok = 0, test_answer = ''",
                params![channel, value, ts(now)],
            )?;
            let mut fields = vec!["account"];
            if let Some(sealed) = &sealed {
                exec(
                    tx,
                    "UPDATE outbound_accounts SET secret = ?2 WHERE channel = ?1",
                    params![channel, sealed],
                )?;
                fields.push("secret");
            }
            audit(
                tx,
                actor,
                now,
                "update",
                "outbound_account",
                channel,
                None,
                &fields,
            )?;
            Ok(true)
        })
    }

    /// Settings → Email's SMTP server (defaults when none was saved).
    pub fn email_account(&self, from_environment: bool) -> Result<EmailAccount> {
        let row = self.account_row(EMAIL)?;
        let stored = match &row {
            Some(row) => serde_json::from_str(&row.value)?,
            None => StoredEmail {
                host: String::new(),
                port: 587,
                tls: SmtpTls::Starttls,
                username: String::new(),
            },
        };
        Ok(EmailAccount {
            host: stored.host,
            port: stored.port,
            tls: stored.tls,
            username: stored.username,
            password_set: row.as_ref().is_some_and(|row| row.secret.is_some()),
            tested_at: row.as_ref().and_then(|row| row.tested_at.clone()),
            test_ok: row.as_ref().is_some_and(|row| row.test_ok),
            test_answer: row
                .as_ref()
                .map(|row| row.test_answer.clone())
                .unwrap_or_default(),
            version: row.as_ref().map_or(0, |row| row.version),
            from_environment,
            presets: crate::rules::setup::smtp_presets(),
        })
    }

    /// Saves Settings → Email's SMTP server. Administrators only.
    pub fn save_email_account(
        &mut self,
        actor: &Actor,
        keys: &SecretKeySource,
        form: &EmailAccountForm,
    ) -> Result<EmailAccount> {
        super::require_admin(actor)?;
        let mut errors = ValidationErrors::new();
        let host = form.host.trim();
        if host.is_empty() || host.contains(char::is_whitespace) {
            errors.add("host", SMTP_HOST_REQUIRED);
        }
        if form.port == 0 {
            errors.add("port", SMTP_PORT_INVALID);
        }
        errors.into_result()?;
        crate::rules::validation::check_field_text("host", host)?;
        crate::rules::validation::check_field_text("username", form.username.trim())?;
        let value = serde_json::to_string(&StoredEmail {
            host: host.to_owned(),
            port: form.port,
            tls: form.tls,
            username: form.username.trim().to_owned(),
        })?;
        let saved = self.save_account(
            actor,
            EMAIL,
            form.version,
            value,
            form.password.as_deref(),
            keys,
        )?;
        let account = self.email_account(false)?;
        if !saved {
            return Err(Error::conflict("email account", &account));
        }
        Ok(account)
    }

    /// The saved SMTP server with its password opened, for the mail adapter; None when
    /// none is saved.
    pub fn smtp_login(&self, keys: &SecretKeySource) -> Result<Option<SmtpLogin>> {
        let Some(row) = self.account_row(EMAIL)? else {
            return Ok(None);
        };
        let stored: StoredEmail = serde_json::from_str(&row.value)?;
        let password = keys.open_stored(EMAIL, row.secret.as_deref())?;
        Ok(Some(SmtpLogin {
            host: stored.host,
            port: stored.port,
            tls: stored.tls,
            username: stored.username,
            password,
        }))
    }

    /// Settings → SMS's provider account.
    pub fn sms_account(&self, from_environment: bool) -> Result<SmsAccount> {
        let row = self.account_row(SMS)?;
        let stored = match &row {
            Some(row) => serde_json::from_str(&row.value)?,
            None => StoredSms {
                enabled: false,
                base_url: String::new(),
                account_sid: String::new(),
            },
        };
        Ok(SmsAccount {
            enabled: stored.enabled,
            base_url: stored.base_url,
            account_sid: stored.account_sid,
            auth_token_set: row.as_ref().is_some_and(|row| row.secret.is_some()),
            tested_at: row.as_ref().and_then(|row| row.tested_at.clone()),
            test_ok: row.as_ref().is_some_and(|row| row.test_ok),
            test_answer: row
                .as_ref()
                .map(|row| row.test_answer.clone())
                .unwrap_or_default(),
            version: row.as_ref().map_or(0, |row| row.version),
            from_environment,
        })
    }

    /// Saves Settings → SMS's provider account. Administrators only.
    pub fn save_sms_account(
        &mut self,
        actor: &Actor,
        keys: &SecretKeySource,
        form: &SmsAccountForm,
    ) -> Result<SmsAccount> {
        super::require_admin(actor)?;
        let base_url = form.base_url.trim().trim_end_matches('/');
        let account_sid = form.account_sid.trim();
        if form.enabled {
            let mut errors = ValidationErrors::new();
            if !(base_url.starts_with("https://") || base_url.starts_with("http://")) {
                errors.add("base_url", SMS_URL_REQUIRED);
            }
            if account_sid.is_empty() {
                errors.add("account_sid", SMS_SID_REQUIRED);
            }
            errors.into_result()?;
        }
        crate::rules::validation::check_field_text("base_url", base_url)?;
        crate::rules::validation::check_field_text("account_sid", account_sid)?;
        let value = serde_json::to_string(&StoredSms {
            enabled: form.enabled,
            base_url: base_url.to_owned(),
            account_sid: account_sid.to_owned(),
        })?;
        let saved = self.save_account(
            actor,
            SMS,
            form.version,
            value,
            form.auth_token.as_deref(),
            keys,
        )?;
        let account = self.sms_account(false)?;
        if !saved {
            return Err(Error::conflict("SMS account", &account));
        }
        Ok(account)
    }

    /// The saved SMS account with its token opened; None when texts are off.
    pub fn sms_login(&self, keys: &SecretKeySource) -> Result<Option<SmsLogin>> {
        let Some(row) = self.account_row(SMS)? else {
            return Ok(None);
        };
        let stored: StoredSms = serde_json::from_str(&row.value)?;
        if !stored.enabled {
            return Ok(None);
        }
        let auth_token = keys
            .open_stored(SMS, row.secret.as_deref())?
            .unwrap_or_default();
        Ok(Some(SmsLogin {
            base_url: stored.base_url,
            account_sid: stored.account_sid,
            auth_token,
        }))
    }

    /// Remembers a test message's outcome (bookkeeping: no audit row). `email` or `sms`;
    /// a channel configured only in the environment gets a row of its own.
    pub fn record_outbound_test(&mut self, channel: &str, ok: bool, answer: &str) -> Result<()> {
        let channel = if channel == SMS { SMS } else { EMAIL };
        let now = self.now();
        let empty = if channel == SMS {
            r#"{"enabled":false,"base_url":"","account_sid":""}"#
        } else {
            r#"{"host":"","port":587,"tls":"starttls","username":""}"#
        };
        self.write(|tx| {
            exec(
                tx,
                "INSERT INTO outbound_accounts (channel, value, updated_at, tested_at, test_ok, test_answer)
                 VALUES (?1, ?2, ?3, ?3, ?4, ?5)
                 ON CONFLICT (channel) DO UPDATE SET tested_at = ?3, test_ok = ?4, test_answer = ?5",
                params![channel, empty, ts(now), ok, answer],
            )
            .map(|_| ())
        })
    }

    /// The setup checklist, as the dashboard and `carepath doctor` show it.
    pub fn checklist(&self, deployment: Deployment) -> Result<Checklist> {
        let settings = self.settings()?;
        let filled = |text: &str| !text.trim().is_empty();
        let email = self.email_account(false)?;
        let sms = self.sms_account(deployment.sms_from_environment)?;
        let sms_on = sms.enabled || deployment.sms_from_environment;
        let more_staff: bool = query_row(
            self.conn(),
            "SELECT (SELECT count(*) FROM users WHERE NOT disabled) > 1
                 OR EXISTS (SELECT 1 FROM invitations WHERE accepted_at IS NULL)",
            [],
            |row| row.get(0),
        )?;
        Ok(checklist(&ChecklistFacts {
            sender: filled(&settings.email.default_from),
            reply_to: filled(&settings.email.reply_to),
            contact_phone: filled(&settings.general.contact_phone),
            postal_address: filled(&settings.general.postal_address),
            logo: settings.logo.is_some(),
            mail_tested: email.test_ok,
            sms_tested: sms_on.then_some(sms.test_ok),
            public_url_https: deployment.public_url_https,
            more_staff,
            backups: backups_replicating(deployment.replication),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A login may reach a log line through `{:?}`: its secret never does.
    #[test]
    fn a_logins_debug_never_shows_its_secret() {
        let smtp = SmtpLogin {
            host: "smtp.example.org".into(),
            port: 587,
            tls: SmtpTls::Starttls,
            username: "office".into(),
            password: Some("hunter2-password".into()),
        };
        let sms = SmsLogin {
            base_url: "https://sms.example.org".into(),
            account_sid: "AC1".into(),
            auth_token: "token-secret".into(),
        };
        let shown = format!("{smtp:?} {sms:?}");
        assert!(shown.contains("smtp.example.org"), "{shown}");
        assert!(
            !shown.contains("hunter2") && !shown.contains("token-secret"),
            "{shown}"
        );
    }
}
