//! The first run (the setup form an agency fills in once), the outbound accounts
//! Settings keep (the SMTP server, the SMS provider) and the setup checklist.

use serde::{Deserialize, Serialize};

/// What the setup page asks: the agency, then its first administrator.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SetupForm {
    /// The secret of the setup link `carepath serve` printed.
    pub token: String,
    pub company_name: String,
    pub postal_address: String,
    pub contact_phone: String,
    pub contact_email: String,
    /// IANA zone, e.g. `America/Chicago`.
    pub time_zone: String,
    pub business_hours: String,
    pub admin_name: String,
    pub admin_email: String,
    pub admin_password: String,
}

/// Whether the agency still needs setting up, and the zone to offer first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SetupState {
    /// True until the first administrator exists.
    pub needed: bool,
    /// The server machine's time zone (IANA name), preselected on the setup page.
    pub machine_time_zone: String,
}

/// How the SMTP conversation is protected.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum SmtpTls {
    /// Plain connection upgraded with STARTTLS, which is required (port 587).
    #[default]
    Starttls,
    /// TLS from the first byte (port 465).
    Implicit,
    /// No encryption: only for a relay on the same machine or network.
    None,
}

/// The agency's SMTP server as Settings show it: the password is never sent back, only
/// whether one is set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EmailAccount {
    pub host: String,
    pub port: u16,
    pub tls: SmtpTls,
    pub username: String,
    pub password_set: bool,
    /// When the last test email was tried, and whether the server took it.
    pub tested_at: Option<String>,
    pub test_ok: bool,
    /// The last test's answer, in words.
    pub test_answer: String,
    pub version: i64,
    /// `CAREPATH_SMTP_URL` is set: it is used instead of this account.
    pub from_environment: bool,
    /// Usual servers to start from (Google Workspace, Microsoft 365, another).
    pub presets: Vec<SmtpPreset>,
}

/// An SMTP account saved from Settings → Email.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EmailAccountForm {
    /// The account's version as read (0 when none was saved).
    pub version: i64,
    pub host: String,
    pub port: u16,
    pub tls: SmtpTls,
    #[serde(default)]
    pub username: String,
    /// A new password; absent keeps the saved one, empty removes it.
    #[serde(default)]
    pub password: Option<String>,
}

/// The agency's SMS provider (a Twilio-style account) as Settings show it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SmsAccount {
    /// False: the agency sends no texts (they go to the outbox).
    pub enabled: bool,
    pub base_url: String,
    pub account_sid: String,
    pub auth_token_set: bool,
    pub tested_at: Option<String>,
    pub test_ok: bool,
    pub test_answer: String,
    pub version: i64,
    /// `CAREPATH_SMS_URL` is set: it is used instead of this account.
    pub from_environment: bool,
}

/// An SMS account saved from Settings → SMS.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SmsAccountForm {
    pub version: i64,
    pub enabled: bool,
    #[serde(default)]
    pub base_url: String,
    #[serde(default)]
    pub account_sid: String,
    /// A new auth token; absent keeps the saved one, empty removes it.
    #[serde(default)]
    pub auth_token: Option<String>,
}

/// A mail provider's usual server, offered as a starting point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SmtpPreset {
    pub name: String,
    pub host: String,
    pub port: u16,
    pub tls: SmtpTls,
}

/// What a test email or text came to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TestOutcome {
    pub ok: bool,
    /// The server's answer in words.
    pub message: String,
}

/// How far one item of the setup checklist is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum CheckState {
    Done,
    #[default]
    Missing,
    /// Nothing is set up for it yet (backups replicating).
    NotConfigured,
}

/// One item of the setup checklist.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CheckItem {
    /// Stable name: `sender`, `contact`, `logo`, `mail_tested`, `sms`, `https`,
    /// `staff`, `backups`.
    pub key: String,
    pub title: String,
    pub state: CheckState,
    /// A required item that is not done makes `carepath doctor` fail.
    pub required: bool,
    /// Why it matters, and what is missing.
    pub why: String,
}

/// The setup checklist, in the order an agency would work through it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Checklist {
    pub items: Vec<CheckItem>,
    /// Every required item is done.
    pub ready: bool,
}
