//! The first run and the setup checklist: the setup form's checks, the mail providers'
//! usual servers, what an SMTP server's refusal means in words, and which parts of a
//! working agency are still missing.

use crate::error::ValidationErrors;
use crate::model::{
    CheckItem, CheckState, Checklist, ReplicationState, SetupForm, SmtpPreset, SmtpTls,
};
use crate::rules::validation::{
    INVALID_EMAIL, UNKNOWN_TIME_ZONE, looks_like_email, validate_new_password,
};

/// Every API answer but health, setup and the public files, until setup is done.
pub const NOT_SET_UP: &str = "Carepath is not set up yet. Open the setup link that `carepath serve` printed when it started.";
/// A setup link that is wrong, used, or no longer needed.
pub const SETUP_LINK_UNUSABLE: &str = "This setup link cannot be used: it was used already, Carepath is set up, or the link is not the one printed when the server last started.";
pub const AGENCY_NAME_REQUIRED: &str = "Enter the agency's name";
pub const ADMIN_NAME_REQUIRED: &str = "Enter the administrator's name";
pub const TIME_ZONE_REQUIRED: &str = "Choose the agency's time zone";

/// The setup form's checks, field by field.
pub fn validate_setup(form: &SetupForm) -> Result<(), crate::Error> {
    let mut errors = ValidationErrors::new();
    if form.company_name.trim().is_empty() {
        errors.add("company_name", AGENCY_NAME_REQUIRED);
    }
    if !form.contact_email.trim().is_empty() && !looks_like_email(&form.contact_email) {
        errors.add("contact_email", INVALID_EMAIL);
    }
    let zone = form.time_zone.trim();
    if zone.is_empty() {
        errors.add("time_zone", TIME_ZONE_REQUIRED);
    } else if jiff::tz::TimeZone::get(zone).is_err() {
        errors.add("time_zone", UNKNOWN_TIME_ZONE);
    }
    if form.admin_name.trim().is_empty() {
        errors.add("admin_name", ADMIN_NAME_REQUIRED);
    }
    if !looks_like_email(&form.admin_email) {
        errors.add("admin_email", INVALID_EMAIL);
    }
    if let Err(crate::Error::Validation(password)) =
        validate_new_password(&form.admin_password, &form.admin_password)
    {
        for (_, message) in password.fields {
            errors.add("admin_password", message);
        }
    }
    errors.into_result()
}

/// The machine's time zone, offered first on the setup page ("UTC" when it has no name).
pub fn machine_time_zone() -> String {
    jiff::tz::TimeZone::system()
        .iana_name()
        .unwrap_or("UTC")
        .to_owned()
}

/// The mail providers most agencies use, and a blank server of their own.
pub fn smtp_presets() -> Vec<SmtpPreset> {
    let preset = |name: &str, host: &str, port, tls| SmtpPreset {
        name: name.to_owned(),
        host: host.to_owned(),
        port,
        tls,
    };
    vec![
        preset("Google Workspace", "smtp.gmail.com", 587, SmtpTls::Starttls),
        preset(
            "Microsoft 365",
            "smtp.office365.com",
            587,
            SmtpTls::Starttls,
        ),
        preset("Another mail server", "", 587, SmtpTls::Starttls),
    ]
}

pub const SMTP_HOST_REQUIRED: &str = "Enter the mail server's address";
pub const SMTP_PORT_INVALID: &str = "Enter the mail server's port (1 to 65535)";
pub const MAILBOX_HOST_REQUIRED: &str = "Enter the reply mailbox's IMAP server address";
pub const MAILBOX_PORT_INVALID: &str = "Enter the IMAP server's port (1 to 65535; usually 993)";
pub const MAILBOX_USER_REQUIRED: &str = "Enter the reply mailbox's user name (usually its address)";
pub const MAILBOX_FOLDER_INVALID: &str =
    "A folder name cannot contain quotes, backslashes or line breaks";
/// A fetch with no mailbox saved (or replies turned off).
pub const NO_REPLY_MAILBOX: &str = "Turn reply fetching on and save the reply mailbox first.";
/// Only inbound emails and texts are read, unread or assigned.
pub const REPLY_NOT_INBOUND: &str = "Only a reply from a family can be marked read or assigned.";
pub const REPLY_ALREADY_ASSIGNED: &str = "This reply is already on a client's timeline.";
pub const SMS_URL_REQUIRED: &str = "Enter the SMS provider's address (https://…)";
pub const SMS_SID_REQUIRED: &str = "Enter the SMS account's ID";
/// A test with no account saved.
pub const NO_EMAIL_ACCOUNT: &str = "Save the mail server first, then send a test email.";
pub const NO_SMS_ACCOUNT: &str =
    "Turn texts on and save the SMS account first, then send a test text.";
pub const TEST_EMAIL_SUBJECT: &str = "Carepath test email";
pub const TEST_TEXT_BODY: &str = "Carepath test text: your agency's texts are working.";

/// A test text's number must look like a phone number.
pub fn validate_test_phone(to: &str) -> Result<(), crate::Error> {
    let mut errors = ValidationErrors::new();
    if !crate::rules::validation::looks_like_phone(to) {
        errors.add("to", crate::rules::validation::INVALID_PHONE);
    }
    errors.into_result()
}

/// The body of the test email.
pub fn test_email_body(agency: &str) -> String {
    format!(
        "This is a test email from Carepath for {agency}.\n\nIf you can read it, the mail server in Settings → Email works: proposals, contracts and notifications will be sent through it.\n"
    )
}

/// What went wrong talking to a mail server, as the server (or the network) said it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SmtpProblem {
    CannotConnect,
    TimedOut,
    /// The TLS handshake failed (wrong port for the TLS mode, or a certificate the
    /// machine does not trust).
    TlsFailed,
    /// The server wants TLS before anything else (530 5.7.0 "Must issue STARTTLS").
    TlsRequired,
    /// The server offers no way to sign in on this connection.
    NoAuthOffered,
    AuthRequired,
    AuthFailed,
    RelayDenied,
    SenderRefused,
    /// Any other reply: its code and text.
    Reply {
        code: u16,
        text: String,
    },
    Other(String),
}

/// A refused SMTP reply, read by its code and text.
pub fn classify_smtp_reply(code: u16, text: &str) -> SmtpProblem {
    let lower = text.to_ascii_lowercase();
    match code {
        _ if lower.contains("starttls") || lower.contains("5.7.11") => SmtpProblem::TlsRequired,
        535 | 534 => SmtpProblem::AuthFailed,
        454 if lower.contains("auth") => SmtpProblem::AuthFailed,
        530 => SmtpProblem::AuthRequired,
        _ if lower.contains("relay") => SmtpProblem::RelayDenied,
        550 | 551 | 554 if lower.contains("5.7.1") || lower.contains("not permitted") => {
            SmtpProblem::RelayDenied
        }
        553 | 555 => SmtpProblem::SenderRefused,
        _ => SmtpProblem::Reply {
            code,
            text: text.trim().to_owned(),
        },
    }
}

/// The problem in words, for the person who set the server up.
pub fn smtp_problem_words(problem: &SmtpProblem, host: &str) -> String {
    match problem {
        SmtpProblem::CannotConnect => format!(
            "Cannot connect to {host}: check the server's address and port, and that this machine may reach it."
        ),
        SmtpProblem::TimedOut => format!("{host} did not answer in time."),
        SmtpProblem::TlsFailed => format!(
            "The secure connection to {host} failed: check the TLS mode for this port (STARTTLS for 587, implicit TLS for 465) and that the server's certificate is valid."
        ),
        SmtpProblem::TlsRequired => {
            format!("{host} requires an encrypted connection: choose STARTTLS or implicit TLS.")
        }
        SmtpProblem::NoAuthOffered => format!(
            "{host} offers no way to sign in on this connection: it may require STARTTLS or implicit TLS first, or take no user name and password."
        ),
        SmtpProblem::AuthRequired => {
            format!("{host} requires signing in: enter the user name and password.")
        }
        SmtpProblem::AuthFailed => format!(
            "Authentication failed: {host} did not accept the user name and password. With Google Workspace or Microsoft 365 you may need an app password."
        ),
        SmtpProblem::RelayDenied => format!(
            "Relay denied: {host} will not send mail for this sender or to this recipient. Check the sender address in Settings → Email and that the account may send as it."
        ),
        SmtpProblem::SenderRefused => {
            format!("{host} refused the sender address: check the sender in Settings → Email.")
        }
        SmtpProblem::Reply { code, text } => {
            format!("{host} refused the email ({code}): {text}")
        }
        SmtpProblem::Other(text) => format!("The email could not be sent through {host}: {text}"),
    }
}

/// Why fetching replies from the mailbox failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImapProblem {
    CannotConnect,
    TimedOut,
    TlsFailed,
    /// The server refused the user name and password (or the access token).
    LoginRefused {
        oauth2: bool,
    },
    NoFolder(String),
    Other(String),
}

/// What went wrong fetching replies, in words staff can act on.
pub fn imap_problem_words(problem: &ImapProblem, host: &str) -> String {
    match problem {
        ImapProblem::CannotConnect => format!(
            "Cannot connect to {host}: check the IMAP server's address and port (usually 993), and that this machine may reach it."
        ),
        ImapProblem::TimedOut => format!("{host} did not answer in time."),
        ImapProblem::TlsFailed => format!(
            "The secure connection to {host} failed: the port must speak TLS from the first byte (usually 993) and the server's certificate must be valid."
        ),
        ImapProblem::LoginRefused { oauth2: false } => format!(
            "{host} did not accept the user name and password. With Google Workspace or Microsoft 365 use an app password, or OAuth2."
        ),
        ImapProblem::LoginRefused { oauth2: true } => format!(
            "{host} did not accept the OAuth2 access token: it may have expired. Save a new one."
        ),
        ImapProblem::NoFolder(folder) => {
            format!("{host} has no folder named {folder}: check the folder in Settings → Email.")
        }
        ImapProblem::Other(text) => format!("Replies could not be fetched from {host}: {text}"),
    }
}

/// A fetch that worked, in words.
pub fn replies_fetched(kept: usize, unmatched: usize) -> String {
    match (kept, unmatched) {
        (0, _) => "Connected; no new replies.".to_owned(),
        (1, 0) => "Connected; 1 new reply.".to_owned(),
        (kept, 0) => format!("Connected; {kept} new replies."),
        (kept, unmatched) => format!(
            "Connected; {kept} new {}, {unmatched} from unknown senders (see Unmatched replies).",
            if kept == 1 { "reply" } else { "replies" }
        ),
    }
}

/// The test email went through.
pub fn test_email_sent(to: &str, host: &str) -> String {
    format!("{host} accepted the test email to {to}. Check that it arrived.")
}

/// The test text went through.
pub fn test_text_sent(to: &str) -> String {
    format!("The SMS provider accepted the test text to {to}. Check that it arrived.")
}

/// What the checklist is computed from.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ChecklistFacts {
    pub sender: bool,
    pub reply_to: bool,
    pub contact_phone: bool,
    pub postal_address: bool,
    pub logo: bool,
    pub mail_tested: bool,
    /// None: texts are off; Some(tested).
    pub sms_tested: Option<bool>,
    pub public_url_https: bool,
    /// Staff users and open invitations besides the first administrator.
    pub more_staff: bool,
    pub backups: CheckState,
}

/// Whether the database is copied off the machine as it changes: done while Litestream
/// keeps the replica current, missing while it starts or fails, not configured without
/// `serve --replicate`.
pub fn backups_replicating(replication: ReplicationState) -> CheckState {
    match replication {
        ReplicationState::Replicating => CheckState::Done,
        ReplicationState::Starting | ReplicationState::Failing => CheckState::Missing,
        ReplicationState::NotConfigured => CheckState::NotConfigured,
    }
}

fn done(flag: bool) -> CheckState {
    if flag {
        CheckState::Done
    } else {
        CheckState::Missing
    }
}

/// The setup checklist: each item, whether it is done, and why it matters.
pub fn checklist(facts: &ChecklistFacts) -> Checklist {
    let item = |key: &str, title: &str, state, required, why: &str| CheckItem {
        key: key.to_owned(),
        title: title.to_owned(),
        state,
        required,
        why: why.to_owned(),
    };
    let items = vec![
        item(
            "sender",
            "Sender and reply-to address",
            done(facts.sender && facts.reply_to),
            true,
            "Proposals and contracts go out from the sender address, and families' answers come back to the reply-to address (Settings → Email).",
        ),
        item(
            "contact",
            "Contact phone and address",
            done(facts.contact_phone && facts.postal_address),
            true,
            "The agency's phone and address are printed on every letter and contract (Settings → General).",
        ),
        item(
            "logo",
            "Agency logo",
            done(facts.logo),
            false,
            "The logo heads every document the family receives (Settings → General).",
        ),
        item(
            "mail_tested",
            "Email tested",
            done(facts.mail_tested),
            true,
            "Until a test email has gone through the mail server, proposals, contracts and sign-in links may never arrive (Settings → Email → Send a test email).",
        ),
        item(
            "sms",
            "Texts tested, or turned off",
            done(facts.sms_tested.unwrap_or(true)),
            false,
            "Reminders and updates by text only reach families once the SMS account has sent a test text (Settings → SMS → Send a test text); turn texts off if the agency sends none.",
        ),
        item(
            "https",
            "Public address on https",
            done(facts.public_url_https),
            true,
            "Sign-in and signing links carry secrets: without https (--public-url https://…) they travel readable by anyone on the way.",
        ),
        item(
            "staff",
            "Another staff member invited",
            done(facts.more_staff),
            false,
            "With a single account nobody else can work the pipeline or take over when the administrator is away (Users → Invite).",
        ),
        item(
            "backups",
            "Backups replicating",
            facts.backups,
            false,
            "Everything the agency knows is one file on this machine: copy it elsewhere as it changes, or a broken disk loses it.",
        ),
    ];
    let ready = items
        .iter()
        .all(|item| !item.required || item.state == CheckState::Done);
    Checklist { items, ready }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smtp_replies_read_as_their_reason() {
        let cases = [
            (
                535,
                "5.7.8 Authentication credentials invalid",
                SmtpProblem::AuthFailed,
            ),
            (
                530,
                "5.7.0 Must issue a STARTTLS command first",
                SmtpProblem::TlsRequired,
            ),
            (
                530,
                "5.7.0 Authentication required",
                SmtpProblem::AuthRequired,
            ),
            (550, "5.7.1 Relaying denied", SmtpProblem::RelayDenied),
            (
                554,
                "5.7.1 Client host rejected: Access denied, not permitted",
                SmtpProblem::RelayDenied,
            ),
            (
                553,
                "5.1.8 Sender address rejected",
                SmtpProblem::SenderRefused,
            ),
        ];
        for (code, text, expected) in cases {
            assert_eq!(classify_smtp_reply(code, text), expected, "{code} {text}");
        }
        assert_eq!(
            classify_smtp_reply(452, "4.3.1 Insufficient system storage"),
            SmtpProblem::Reply {
                code: 452,
                text: "4.3.1 Insufficient system storage".into()
            }
        );
        assert!(
            smtp_problem_words(&SmtpProblem::AuthFailed, "smtp.example.org")
                .starts_with("Authentication failed")
        );
    }

    #[test]
    fn backups_are_done_only_while_the_replica_is_current() {
        assert_eq!(
            backups_replicating(ReplicationState::Replicating),
            CheckState::Done
        );
        assert_eq!(
            backups_replicating(ReplicationState::Failing),
            CheckState::Missing
        );
        assert_eq!(
            backups_replicating(ReplicationState::Starting),
            CheckState::Missing
        );
        assert_eq!(
            backups_replicating(ReplicationState::NotConfigured),
            CheckState::NotConfigured
        );
    }

    #[test]
    fn the_checklist_is_ready_when_every_required_item_is_done() {
        let mut facts = ChecklistFacts {
            sender: true,
            reply_to: true,
            contact_phone: true,
            postal_address: true,
            mail_tested: true,
            public_url_https: true,
            backups: backups_replicating(ReplicationState::NotConfigured),
            ..ChecklistFacts::default()
        };
        let list = checklist(&facts);
        assert!(list.ready);
        let state = |list: &Checklist, key: &str| {
            list.items
                .iter()
                .find(|item| item.key == key)
                .unwrap()
                .state
        };
        assert_eq!(state(&list, "sms"), CheckState::Done, "texts off");
        assert_eq!(state(&list, "backups"), CheckState::NotConfigured);
        assert_eq!(state(&list, "logo"), CheckState::Missing);
        facts.sms_tested = Some(false);
        facts.reply_to = false;
        let list = checklist(&facts);
        assert!(!list.ready);
        assert_eq!(state(&list, "sender"), CheckState::Missing);
        assert_eq!(state(&list, "sms"), CheckState::Missing);
    }

    #[test]
    fn the_setup_form_names_each_missing_field() {
        let form = SetupForm {
            time_zone: "Mars/Olympus".into(),
            admin_email: "nobody".into(),
            admin_password: "abc".into(),
            ..SetupForm::default()
        };
        let Err(crate::Error::Validation(errors)) = validate_setup(&form) else {
            panic!("refused");
        };
        let fields: Vec<&str> = errors.fields.keys().map(String::as_str).collect();
        for field in [
            "company_name",
            "time_zone",
            "admin_name",
            "admin_email",
            "admin_password",
        ] {
            assert!(fields.contains(&field), "{field} in {fields:?}");
        }
    }
}
