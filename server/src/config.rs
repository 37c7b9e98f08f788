//! How `carepath serve` is set up: flags for the address, database and public URL, and
//! environment variables for the outbound adapters (secrets come only from there and are
//! never logged).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// The public address people open; sign-in links and the Origin check use it, never
/// the request's Host header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicUrl {
    /// Without a trailing slash: `https://care.example.org` or `http://127.0.0.1:8080/app`.
    pub base: String,
    /// Scheme, host and port, as browsers send it in `Origin`.
    pub origin: String,
    pub https: bool,
}

impl PublicUrl {
    pub fn parse(text: &str) -> anyhow::Result<Self> {
        let base = text.trim().trim_end_matches('/').to_owned();
        let (scheme, rest) = base
            .split_once("://")
            .ok_or_else(|| anyhow::anyhow!("the public URL must start with http:// or https://"))?;
        let scheme = scheme.to_ascii_lowercase();
        if scheme != "http" && scheme != "https" {
            anyhow::bail!("the public URL must start with http:// or https://");
        }
        let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
        if authority.is_empty() {
            anyhow::bail!("the public URL has no host");
        }
        let authority = authority.to_ascii_lowercase();
        // Browsers leave the default port out of Origin.
        let authority = match scheme.as_str() {
            "http" => authority
                .strip_suffix(":80")
                .unwrap_or(&authority)
                .to_owned(),
            _ => authority
                .strip_suffix(":443")
                .unwrap_or(&authority)
                .to_owned(),
        };
        Ok(Self {
            origin: format!("{scheme}://{authority}"),
            https: scheme == "https",
            base,
        })
    }
}

/// A Twilio-style SMS provider.
#[derive(Clone)]
pub struct SmsConfig {
    pub base_url: String,
    pub account_sid: String,
    pub auth_token: String,
    /// The sender number; the Settings' SMS tab may name another.
    pub from: String,
}

/// An OpenAI-compatible chat endpoint.
#[derive(Clone)]
pub struct AiConfig {
    pub base_url: String,
    pub api_key: Option<String>,
    pub model: String,
}

/// The most sign-in attempts at once an address may be given (CAREPATH_SIGN_IN_BURST).
pub const MAX_SIGN_IN_BURST: u32 = 10_000;

/// CAREPATH_SIGN_IN_BURST's value, if it is a number from 1 to [`MAX_SIGN_IN_BURST`].
fn sign_in_burst(value: &str) -> Option<u32> {
    value
        .trim()
        .parse::<u32>()
        .ok()
        .filter(|burst| (1..=MAX_SIGN_IN_BURST).contains(burst))
}

/// The sign-in attempts one address may make at once, as CAREPATH_SIGN_IN_BURST sets them
/// (an office whose staff all reach Carepath from one router or proxy signs in more than
/// ten people at the start of a day): None when it is not set, the reason when it is not a
/// number from 1 to [`MAX_SIGN_IN_BURST`].
pub fn sign_in_burst_from_env() -> Result<Option<u32>, String> {
    match env("CAREPATH_SIGN_IN_BURST") {
        None => Ok(None),
        Some(value) => sign_in_burst(&value).map(Some).ok_or_else(|| {
            format!("CAREPATH_SIGN_IN_BURST must be a number from 1 to {MAX_SIGN_IN_BURST}, not \"{value}\"")
        }),
    }
}

#[derive(Clone)]
pub struct Config {
    pub addr: SocketAddr,
    pub db_path: PathBuf,
    pub public_url: PublicUrl,
    /// Where the outbox lives (`<data dir>/outbox/`); by default the database's folder.
    pub data_dir: PathBuf,
    /// `smtp://host:port`, `smtps://user:pass@host` …; None writes emails to the outbox.
    pub smtp_url: Option<String>,
    /// The sender when the Settings' email tab names none.
    pub mail_from: String,
    pub sms: Option<SmsConfig>,
    pub ai: Option<AiConfig>,
    pub connect_timeout: Duration,
    /// Whole outbound request, SMTP conversation included.
    pub outbound_timeout: Duration,
    /// Connections that answer requests' reads: one per core the server may run on
    /// (see [`crate::db`]).
    pub readers: usize,
    /// How often the live-update feed looks for changes.
    pub events_poll: Duration,
    /// Sign-in attempts a client address may make at once, then one per `auth_refill`
    /// (CAREPATH_SIGN_IN_BURST, up to [`MAX_SIGN_IN_BURST`]).
    pub auth_burst: u32,
    pub auth_refill: Duration,
    /// Believe `X-Forwarded-For` for the client address (only behind a reverse proxy).
    pub trust_proxy: bool,
    /// The longest a request's database work may run before it is interrupted.
    pub query_deadline: Duration,
    /// The longest a client may take to send a request's headers, and its body.
    pub header_timeout: Duration,
    pub body_timeout: Duration,
    /// Connections served at once; one more is answered 503 and closed.
    pub max_connections: usize,
    /// Password hashes computed at once (each takes about 19 MB for a moment).
    pub hashing_slots: usize,
    /// How often the visit reminders' scheduler looks for reminders due; zero turns it
    /// off (`carepath remind` from cron instead).
    pub reminder_interval: Duration,
    /// Pins the scheduler's "now" (tests); None is the real clock.
    pub reminder_clock: Option<jiff::Timestamp>,
    /// How often the reply mailbox Settings → Email name is read; zero turns the
    /// fetcher off (`carepath fetch-replies` from cron instead).
    pub reply_interval: Duration,
    /// `CAREPATH_IMAP_CA_FILE`: a PEM certificate the reply mailbox server's is also
    /// checked against (an agency's own certificate authority).
    pub imap_ca_file: Option<PathBuf>,
    /// `CAREPATH_SECRET_KEY`: the key that seals saved passwords, instead of the key
    /// file beside the database.
    pub secret_key: Option<String>,
    /// `CAREPATH_SMTP_CA_FILE`: a PEM certificate the mail server's is also checked
    /// against (an agency's own certificate authority).
    pub smtp_ca_file: Option<PathBuf>,
    /// Where the one-time setup link goes when the database has no user: the console
    /// (stderr) by default, never the log.
    pub setup_link: SetupLinkSink,
    /// Continuous replication off the machine with Litestream (`--replicate`).
    pub replicate: Option<crate::replication::ReplicationConfig>,
}

/// Receives the setup link `carepath serve` makes for a database with no user.
#[derive(Clone)]
pub struct SetupLinkSink(pub std::sync::Arc<dyn Fn(&str) + Send + Sync>);

impl Default for SetupLinkSink {
    fn default() -> Self {
        Self(std::sync::Arc::new(|link: &str| {
            // Straight to the console, not through tracing: the link is a secret and
            // log files are kept and shipped.
            eprintln!(
                "\nCarepath is not set up yet. Open this link once to set up the agency and its first administrator:\n\n    {link}\n"
            );
        }))
    }
}

impl std::fmt::Debug for Config {
    // Hand-written so a secret can never reach a log line through `{:?}`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("addr", &self.addr)
            .field("db_path", &self.db_path)
            .field("public_url", &self.public_url.base)
            .field("data_dir", &self.data_dir)
            .field(
                "email",
                &if self.smtp_url.is_some() {
                    "smtp"
                } else {
                    "outbox"
                },
            )
            .field("sms", &if self.sms.is_some() { "http" } else { "outbox" })
            .field(
                "replicate",
                &self
                    .replicate
                    .as_ref()
                    .map(|replicate| &replicate.replica.shown),
            )
            .field(
                "ai",
                &if self.ai.is_some() {
                    "chat endpoint"
                } else {
                    "built-in writer"
                },
            )
            .finish()
    }
}

fn env(name: &str) -> Option<String> {
    std::env::var(name)
        .ok()
        .map(|value| value.trim().to_owned())
        .filter(|value| !value.is_empty())
}

impl Config {
    /// The defaults for a database and address, with no outbound accounts: email and SMS
    /// go to the outbox, drafts come from the built-in writer.
    pub fn new(addr: SocketAddr, db_path: PathBuf, public_url: PublicUrl) -> Self {
        let data_dir = db_path
            .parent()
            .filter(|parent| !parent.as_os_str().is_empty())
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("."));
        Self {
            addr,
            db_path,
            public_url,
            data_dir,
            smtp_url: None,
            mail_from: "carepath@localhost".to_owned(),
            sms: None,
            ai: None,
            connect_timeout: Duration::from_secs(5),
            outbound_timeout: Duration::from_secs(30),
            readers: std::thread::available_parallelism()
                .map(|cores| cores.get())
                .unwrap_or(1),
            events_poll: Duration::from_millis(250),
            auth_burst: 10,
            auth_refill: Duration::from_secs(60),
            trust_proxy: false,
            query_deadline: Duration::from_secs(20),
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            max_connections: 1024,
            hashing_slots: std::thread::available_parallelism()
                .map(|cores| cores.get())
                .unwrap_or(2),
            reminder_interval: Duration::from_secs(60),
            reminder_clock: None,
            reply_interval: Duration::from_secs(120),
            imap_ca_file: None,
            secret_key: None,
            smtp_ca_file: None,
            setup_link: SetupLinkSink::default(),
            replicate: None,
        }
    }

    /// Reads the adapters' settings from the environment: CAREPATH_DATA_DIR,
    /// CAREPATH_SMTP_URL, CAREPATH_MAIL_FROM, CAREPATH_SMS_URL/SID/TOKEN/FROM,
    /// CAREPATH_AI_URL/KEY/MODEL, CAREPATH_TRUST_PROXY, CAREPATH_SECRET_KEY,
    /// CAREPATH_SMTP_CA_FILE, CAREPATH_IMAP_CA_FILE. `carepath serve` also reads
    /// CAREPATH_SIGN_IN_BURST ([`sign_in_burst_from_env`]), refusing to start on a bad one.
    pub fn with_env(mut self) -> Self {
        self.secret_key = std::env::var(carepath_core::secrets::SECRET_KEY_ENV).ok();
        self.smtp_ca_file = env("CAREPATH_SMTP_CA_FILE").map(PathBuf::from);
        self.imap_ca_file = env("CAREPATH_IMAP_CA_FILE").map(PathBuf::from);
        if let Some(dir) = env("CAREPATH_DATA_DIR") {
            self.data_dir = PathBuf::from(dir);
        }
        self.smtp_url = env("CAREPATH_SMTP_URL").or(self.smtp_url);
        if let Some(from) = env("CAREPATH_MAIL_FROM") {
            self.mail_from = from;
        }
        if let Some(trust) = env("CAREPATH_TRUST_PROXY") {
            self.trust_proxy = matches!(trust.to_ascii_lowercase().as_str(), "1" | "true" | "yes");
        }
        if let Some(base_url) = env("CAREPATH_SMS_URL") {
            self.sms = Some(SmsConfig {
                base_url,
                account_sid: env("CAREPATH_SMS_SID").unwrap_or_default(),
                auth_token: env("CAREPATH_SMS_TOKEN").unwrap_or_default(),
                from: env("CAREPATH_SMS_FROM").unwrap_or_default(),
            });
        }
        if let Some(base_url) = env("CAREPATH_AI_URL") {
            self.ai = Some(AiConfig {
                base_url,
                api_key: env("CAREPATH_AI_KEY"),
                model: env("CAREPATH_AI_MODEL").unwrap_or_else(|| "gpt-4o-mini".to_owned()),
            });
        }
        self
    }

    /// Where the key that seals saved passwords comes from.
    pub fn secret_keys(&self) -> carepath_core::secrets::SecretKeySource {
        carepath_core::secrets::SecretKeySource::for_database(
            &self.db_path,
            self.secret_key.clone(),
        )
    }

    pub fn outbox_dir(&self) -> PathBuf {
        self.data_dir.join("outbox")
    }
}

#[cfg(test)]
mod tests {
    use super::{MAX_SIGN_IN_BURST, PublicUrl, sign_in_burst};

    #[test]
    fn a_sign_in_burst_is_a_number_from_one_to_the_most_allowed() {
        assert_eq!(sign_in_burst("40"), Some(40));
        assert_eq!(sign_in_burst(" 40\n"), Some(40));
        assert_eq!(sign_in_burst("10000"), Some(MAX_SIGN_IN_BURST));
        for refused in ["0", "10001", "-1", "ten", "", "4.5"] {
            assert_eq!(sign_in_burst(refused), None, "{refused:?}");
        }
    }

    #[test]
    fn public_url_origin_drops_path_and_default_port() {
        let url = PublicUrl::parse("HTTPS://Care.Example.org:443/app/").unwrap();
        assert_eq!(url.origin, "https://care.example.org");
        assert_eq!(url.base, "HTTPS://Care.Example.org:443/app");
        assert!(url.https);
        let url = PublicUrl::parse("http://127.0.0.1:8080").unwrap();
        assert_eq!(url.origin, "http://127.0.0.1:8080");
        assert!(!url.https);
        assert!(PublicUrl::parse("ftp://x").is_err());
        assert!(PublicUrl::parse("127.0.0.1").is_err());
    }
}
