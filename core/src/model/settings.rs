//! Agency settings: the six tabs of the Settings screen plus what the server needs.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GeneralSettings {
    pub company_name: String,
    pub contact_email: String,
    pub contact_phone: String,
    pub business_hours: String,
    pub postal_address: String,
    pub fax: String,
    /// IANA zone used for "today", "this month" and follow-ups due today.
    pub time_zone: String,
}

impl Default for GeneralSettings {
    fn default() -> Self {
        Self {
            company_name: "Carepath Home Care".to_owned(),
            contact_email: String::new(),
            contact_phone: String::new(),
            business_hours: "9:00 AM - 5:00 PM".to_owned(),
            postal_address: String::new(),
            fax: String::new(),
            time_zone: String::new(),
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EmailSettings {
    pub default_from: String,
    pub reply_to: String,
    pub signature: String,
    pub default_cc: String,
    /// Blind copies added to every proposal and contract email.
    pub bcc: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SmsSettings {
    pub default_sender_number: String,
    pub show_character_limit_warnings: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NotificationSettings {
    pub email_on_new_communication: bool,
    pub sms_on_urgent_updates: bool,
    pub inbound_reply_alerts: bool,
    /// When the family is reminded of an assessment visit the day before: HH:MM in the
    /// agency's zone.
    pub visit_reminder_time: String,
    /// When each assessor is emailed the day's visits: HH:MM in the agency's zone.
    pub assessor_summary_time: String,
}

impl Default for NotificationSettings {
    fn default() -> Self {
        Self {
            email_on_new_communication: true,
            sms_on_urgent_updates: true,
            inbound_reply_alerts: true,
            visit_reminder_time: "17:00".to_owned(),
            assessor_summary_time: "07:00".to_owned(),
        }
    }
}

/// How long a proposal approval or contract signing link works when Settings name no
/// other lifetime.
pub const DEFAULT_LINK_DAYS: u32 = 14;

/// Who must sign in with a second factor (administrators only set it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum SecondFactorPolicy {
    #[default]
    Nobody,
    Administrators,
    Everyone,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WorkflowSettings {
    pub stage_alert_days: u32,
    pub auto_assign_intakes: bool,
    /// Minutes without a request before a browser session is signed out.
    pub idle_timeout_minutes: u32,
    /// Days a proposal approval or contract signing link works (administrators only).
    pub signing_link_days: u32,
    /// Who must have a second factor: a user who must and has none can only set one up
    /// after signing in (administrators only).
    pub second_factor_required: SecondFactorPolicy,
    /// Days a device keeps the clients' records and unsent assessments it took offline
    /// before it erases them (administrators only).
    pub offline_retention_days: u32,
    /// A proposal sent and not answered after this many days joins its owner's queue.
    pub proposal_follow_up_days: u32,
    /// A contract sent and not signed after this many days joins its owner's queue.
    pub contract_follow_up_days: u32,
    /// The agency's start-of-care checklist: each signed client gets these items, copied
    /// when the contract is signed.
    pub start_of_care_checklist: Vec<String>,
}

impl Default for WorkflowSettings {
    fn default() -> Self {
        Self {
            stage_alert_days: 7,
            auto_assign_intakes: false,
            idle_timeout_minutes: 30,
            signing_link_days: DEFAULT_LINK_DAYS,
            second_factor_required: SecondFactorPolicy::Nobody,
            offline_retention_days: 7,
            proposal_follow_up_days: 3,
            contract_follow_up_days: 3,
            start_of_care_checklist: super::handoff::DEFAULT_START_OF_CARE_CHECKLIST
                .map(str::to_owned)
                .to_vec(),
        }
    }
}

/// The smallest and largest whole number a settings field takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NumberBounds {
    pub min: u32,
    pub max: u32,
}

/// Where the agency's logo is served, open to anyone: it is printed on every document
/// the family gets, so it is no secret.
pub const LOGO_PATH: &str = "/api/public/logo";

/// The agency's logo as Settings show it; the file itself is served at [`LOGO_PATH`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LogoInfo {
    /// `image/png` or `image/jpeg`.
    pub content_type: String,
    pub width: u32,
    pub height: u32,
    /// The file's size in bytes.
    pub size: u64,
    pub sha256: String,
    pub updated_at: String,
    /// The logo's address with its fingerprint, so a browser may keep it for good.
    pub url: String,
}

impl LogoInfo {
    /// The address of a logo with this fingerprint.
    pub fn url_for(sha256: &str) -> String {
        let version: String = sha256.chars().take(16).collect();
        format!("{LOGO_PATH}?v={version}")
    }
}

/// All settings. Stored one JSON document per tab, shared by all staff.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Settings {
    /// Each tab's row version, keyed by tab name; an update names the one it read.
    pub versions: std::collections::BTreeMap<String, i64>,
    /// The fields only an administrator may change, keyed by tab name: a staff member's
    /// save that changes one is refused, so the screen shows them read-only to staff.
    #[serde(default)]
    pub admin_only: std::collections::BTreeMap<String, Vec<String>>,
    /// Each number field's bounds, keyed by tab name then field name.
    #[serde(default)]
    pub bounds:
        std::collections::BTreeMap<String, std::collections::BTreeMap<String, NumberBounds>>,
    pub general: GeneralSettings,
    pub email: EmailSettings,
    pub sms: SmsSettings,
    pub notifications: NotificationSettings,
    pub workflow: WorkflowSettings,
    /// The agency's logo, if an administrator uploaded one (changed through its own
    /// upload, never through a tab).
    #[serde(default)]
    pub logo: Option<LogoInfo>,
}

/// One tab's new values, as a settings update names them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "tab", content = "values", rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum SettingsTab {
    General(GeneralSettings),
    Email(EmailSettings),
    Sms(SmsSettings),
    Notifications(NotificationSettings),
    Workflow(WorkflowSettings),
}

impl SettingsTab {
    pub fn name(&self) -> &'static str {
        match self {
            SettingsTab::General(_) => "general",
            SettingsTab::Email(_) => "email",
            SettingsTab::Sms(_) => "sms",
            SettingsTab::Notifications(_) => "notifications",
            SettingsTab::Workflow(_) => "workflow",
        }
    }
}
