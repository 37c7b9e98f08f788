//! Families' emailed replies: reads the reply-to mailbox Settings → Email name over IMAP
//! (IMAP4rev1 through async-imap, TLS from the first byte through rustls; LOGIN with a
//! password or SASL XOAUTH2 with an access token) and hands each new message to core,
//! which keeps it once and places it. Each round opens its own connection, so a mail
//! server that restarted between rounds is simply reached again. Inside `carepath serve`
//! a task runs a round every `reply_interval`; `carepath fetch-replies` runs one (cron).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_imap::Client;
use async_imap::error::Error as ImapError;
use carepath_core::inbound::{MAX_FETCHED_MESSAGE_BYTES, parse_email, parse_headers_only};
use carepath_core::model::{Communication, ImapAuth};
use carepath_core::rules::setup::{ImapProblem, imap_problem_words, replies_fetched};
use carepath_core::store::{ImapLogin, Store};
use futures_util::TryStreamExt;
use rustls::pki_types::ServerName;
use rustls::pki_types::pem::PemObject;
use tokio::net::TcpStream;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::config::Config;

/// How far back the first read of a folder looks: older mail in an agency's mailbox is
/// not a reply to anything Carepath sent, and would only crowd the Unmatched list.
const FIRST_READ_DAYS: i64 = 14;

/// What one round did.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct RepliesFetched {
    /// Replies kept for the first time (some may be unmatched).
    pub kept: Vec<Communication>,
    /// Messages kept before (fetched or delivered twice).
    pub known: usize,
    /// Messages that were not emails at all, passed over.
    pub unreadable: usize,
}

impl RepliesFetched {
    pub fn unmatched(&self) -> usize {
        self.kept
            .iter()
            .filter(|kept| kept.parents.intake_id.is_none())
            .count()
    }
}

/// The fetcher's own connection, like the reminders': a round never waits for the
/// request pool.
#[derive(Clone)]
pub struct ReplyStore(Arc<Mutex<Store>>);

impl ReplyStore {
    pub fn open(config: &Config) -> anyhow::Result<Self> {
        Ok(Self(Arc::new(Mutex::new(Store::open(&config.db_path)?))))
    }

    async fn call<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Store) -> carepath_core::Result<T> + Send + 'static,
    ) -> anyhow::Result<T> {
        let store = self.0.clone();
        let answer = tokio::task::spawn_blocking(move || {
            let mut store = store
                .lock()
                .map_err(|_| anyhow::anyhow!("the replies' connection was poisoned"))?;
            f(&mut store).map_err(anyhow::Error::from)
        })
        .await??;
        Ok(answer)
    }
}

/// A round's failure: no mailbox to read, or the mail server's problem in words.
#[derive(Debug)]
pub enum FetchFailure {
    NoMailbox,
    Mailbox(String),
    Internal(anyhow::Error),
}

impl std::fmt::Display for FetchFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FetchFailure::NoMailbox => f.write_str(carepath_core::rules::setup::NO_REPLY_MAILBOX),
            FetchFailure::Mailbox(words) => f.write_str(words),
            FetchFailure::Internal(error) => write!(f, "{error}"),
        }
    }
}

impl From<anyhow::Error> for FetchFailure {
    fn from(error: anyhow::Error) -> Self {
        FetchFailure::Internal(error)
    }
}

/// One round: reads what is new in the mailbox, keeps it, and records how it went (in
/// words, for Settings → Email).
pub async fn fetch_round(
    config: &Config,
    store: &ReplyStore,
) -> Result<RepliesFetched, FetchFailure> {
    let keys = config.secret_keys();
    let login = store.call(move |store| store.imap_login(&keys)).await?;
    let Some(login) = login.filter(|login| !login.host.is_empty()) else {
        return Err(FetchFailure::NoMailbox);
    };
    let extra_root = match &config.imap_ca_file {
        Some(path) => Some(std::fs::read(path).map_err(|error| {
            anyhow::anyhow!(
                "cannot read CAREPATH_IMAP_CA_FILE {}: {error}",
                path.display()
            )
        })?),
        None => None,
    };
    let outcome = read_mailbox(config, &login, extra_root.as_deref(), store).await;
    let (ok, words) = match &outcome {
        Ok(round) => (true, replies_fetched(round.kept.len(), round.unmatched())),
        Err(problem) => (false, imap_problem_words(problem, &login.host)),
    };
    store
        .call(move |store| store.record_mailbox_check(ok, &words))
        .await?;
    outcome.map_err(|problem| FetchFailure::Mailbox(imap_problem_words(&problem, &login.host)))
}

/// What an IMAP error means, for the words staff see.
fn problem_of(error: ImapError) -> ImapProblem {
    match error {
        ImapError::Io(error) => match error.kind() {
            std::io::ErrorKind::TimedOut => ImapProblem::TimedOut,
            std::io::ErrorKind::InvalidData => ImapProblem::TlsFailed,
            _ => ImapProblem::Other(error.to_string()),
        },
        ImapError::ConnectionLost => {
            ImapProblem::Other("the server closed the connection".to_owned())
        }
        other => ImapProblem::Other(other.to_string()),
    }
}

fn tls_config(extra_root: Option<&[u8]>) -> Result<rustls::ClientConfig, ImapProblem> {
    let mut roots = rustls::RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    if let Some(pem) = extra_root {
        for certificate in rustls::pki_types::CertificateDer::pem_slice_iter(pem) {
            let certificate = certificate
                .map_err(|error| ImapProblem::Other(format!("the CA file is not PEM: {error}")))?;
            roots.add(certificate).map_err(|error| {
                ImapProblem::Other(format!("the CA file is not usable: {error}"))
            })?;
        }
    }
    Ok(rustls::ClientConfig::builder()
        .with_root_certificates(roots)
        .with_no_client_auth())
}

/// SASL XOAUTH2 (Google's and Microsoft's): the user and the bearer token in one
/// response. A refusal comes back as a challenge (a JSON error), answered empty so the
/// server ends the exchange with its NO.
struct XOauth2<'a> {
    user: &'a str,
    token: &'a str,
    sent: bool,
}

impl async_imap::Authenticator for &mut XOauth2<'_> {
    type Response = String;

    fn process(&mut self, _challenge: &[u8]) -> String {
        if self.sent {
            return String::new();
        }
        self.sent = true;
        xoauth2_response(self.user, self.token)
    }
}

/// The XOAUTH2 initial response, before base64.
fn xoauth2_response(user: &str, token: &str) -> String {
    format!("user={user}\x01auth=Bearer {token}\x01\x01")
}

async fn within<T>(
    limit: Duration,
    work: impl std::future::Future<Output = Result<T, ImapProblem>>,
) -> Result<T, ImapProblem> {
    tokio::time::timeout(limit, work)
        .await
        .unwrap_or(Err(ImapProblem::TimedOut))
}

async fn read_mailbox(
    config: &Config,
    login: &ImapLogin,
    extra_root: Option<&[u8]>,
    store: &ReplyStore,
) -> Result<RepliesFetched, ImapProblem> {
    let limit = config.outbound_timeout;
    let host = login.host.clone();
    let tcp = tokio::time::timeout(
        config.connect_timeout,
        TcpStream::connect((host.as_str(), login.port)),
    )
    .await
    .map_err(|_| ImapProblem::TimedOut)?
    .map_err(|_| ImapProblem::CannotConnect)?;
    let connector = tokio_rustls::TlsConnector::from(Arc::new(tls_config(extra_root)?));
    let name = ServerName::try_from(host.clone())
        .map_err(|_| ImapProblem::Other(format!("{host} is not a server name")))?;
    let tls = within(limit, async {
        connector
            .connect(name, tcp)
            .await
            .map_err(|_| ImapProblem::TlsFailed)
    })
    .await?;
    let mut client = Client::new(tls);
    let mut session = within(limit, async {
        client
            .read_response()
            .await
            .map_err(|error| problem_of(ImapError::Io(error)))?
            .ok_or_else(|| ImapProblem::Other("the server sent no greeting".to_owned()))?;
        match login.auth {
            ImapAuth::Password => {
                client
                    .login(&login.username, &login.secret)
                    .await
                    .map_err(|(error, _)| match error {
                        ImapError::No(_) | ImapError::Bad(_) => {
                            ImapProblem::LoginRefused { oauth2: false }
                        }
                        other => problem_of(other),
                    })
            }
            ImapAuth::Oauth2 => {
                let mut sasl = XOauth2 {
                    user: &login.username,
                    token: &login.secret,
                    sent: false,
                };
                client
                    .authenticate("XOAUTH2", &mut sasl)
                    .await
                    .map_err(|(error, _)| match error {
                        ImapError::No(_) | ImapError::Bad(_) => {
                            ImapProblem::LoginRefused { oauth2: true }
                        }
                        other => problem_of(other),
                    })
            }
        }
    })
    .await?;
    let folder = login.folder.clone();
    let mailbox = within(limit, async {
        session.select(&folder).await.map_err(|error| match error {
            ImapError::No(_) => ImapProblem::NoFolder(folder.clone()),
            other => problem_of(other),
        })
    })
    .await?;
    let validity = mailbox.uid_validity.unwrap_or(0);
    let before = store
        .call(|store| store.mailbox_position())
        .await
        .map_err(|error| ImapProblem::Other(error.to_string()))?;
    let position = store
        .call(move |store| store.set_mailbox_validity(validity))
        .await
        .map_err(|error| ImapProblem::Other(error.to_string()))?;
    // The UIDs to read: after the last one kept; on a first read (or after the server
    // renumbered the folder), those of the last days only.
    let mut uids: Vec<u32> = if before.uid_validity == Some(validity) && position.last_uid > 0 {
        let last = position.last_uid;
        within(limit, async {
            let fetched: Vec<_> = session
                .uid_fetch(format!("{}:*", last + 1), "(UID)")
                .await
                .map_err(problem_of)?
                .try_collect()
                .await
                .map_err(problem_of)?;
            // `n:*` always answers the newest message, even when it is older than n.
            Ok(fetched
                .iter()
                .filter_map(|fetch| fetch.uid)
                .filter(|uid| *uid > last)
                .collect())
        })
        .await?
    } else {
        let since = jiff::Zoned::now()
            .checked_sub(jiff::Span::new().days(FIRST_READ_DAYS))
            .map(|day| day.strftime("%d-%b-%Y").to_string())
            .map_err(|error| ImapProblem::Other(error.to_string()))?;
        within(limit, async {
            Ok(session
                .uid_search(format!("SINCE {since}"))
                .await
                .map_err(problem_of)?
                .into_iter()
                .collect())
        })
        .await?
    };
    uids.sort_unstable();
    let mut round = RepliesFetched::default();
    for uid in uids {
        let raw = within(limit, async {
            let sizes: Vec<_> = session
                .uid_fetch(uid.to_string(), "(UID RFC822.SIZE)")
                .await
                .map_err(problem_of)?
                .try_collect()
                .await
                .map_err(problem_of)?;
            let size = sizes
                .iter()
                .find(|fetch| fetch.uid == Some(uid))
                .and_then(|fetch| fetch.size)
                .unwrap_or(0);
            let whole = size <= MAX_FETCHED_MESSAGE_BYTES;
            let query = if whole {
                "(UID BODY.PEEK[])"
            } else {
                "(UID BODY.PEEK[HEADER])"
            };
            let fetched: Vec<_> = session
                .uid_fetch(uid.to_string(), query)
                .await
                .map_err(problem_of)?
                .try_collect()
                .await
                .map_err(problem_of)?;
            let message = fetched.iter().find(|fetch| fetch.uid == Some(uid));
            let email = if whole {
                message.and_then(|fetch| fetch.body()).and_then(parse_email)
            } else {
                message
                    .and_then(|fetch| fetch.header())
                    .and_then(parse_headers_only)
            };
            Ok(email)
        })
        .await?;
        let Some(email) = raw else {
            round.unreadable += 1;
            store
                .call(move |store| store.advance_mailbox(uid))
                .await
                .map_err(|error| ImapProblem::Other(error.to_string()))?;
            continue;
        };
        let kept = store
            .call(move |store| store.keep_inbound_email(&email, Some(uid)))
            .await
            .map_err(|error| ImapProblem::Other(error.to_string()))?;
        if kept.first {
            round.kept.push(kept.communication);
        } else {
            round.known += 1;
        }
    }
    // Courtesy only: what was kept is kept whether or not the server hears it.
    let _ = tokio::time::timeout(Duration::from_secs(2), session.logout()).await;
    Ok(round)
}

/// Starts the fetcher: a round at once, then one every `reply_interval`, until
/// `shutdown` turns true. None when the interval is zero. `on_reply` hears each reply
/// kept for the first time (the coordinator's notice).
pub fn start(
    config: &Config,
    mut shutdown: watch::Receiver<bool>,
    on_reply: impl Fn(Communication) + Send + Sync + 'static,
) -> anyhow::Result<Option<JoinHandle<()>>> {
    if config.reply_interval.is_zero() {
        return Ok(None);
    }
    let store = ReplyStore::open(config)?;
    let config = config.clone();
    Ok(Some(tokio::spawn(async move {
        loop {
            if *shutdown.borrow() {
                break;
            }
            match fetch_round(&config, &store).await {
                Ok(round) => {
                    if !round.kept.is_empty() {
                        tracing::info!(kept = round.kept.len(), "replies fetched");
                    }
                    for reply in round.kept {
                        on_reply(reply);
                    }
                }
                Err(FetchFailure::NoMailbox) => {}
                Err(error) => tracing::warn!(%error, "fetching replies failed"),
            }
            tokio::select! {
                () = tokio::time::sleep(config.reply_interval) => {}
                changed = shutdown.changed() => {
                    if changed.is_err() {
                        break;
                    }
                }
            }
        }
    })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_xoauth2_response_names_the_user_and_the_bearer_token() {
        assert_eq!(
            xoauth2_response("office@agency.test", "ya29.token"),
            "user=office@agency.test\x01auth=Bearer ya29.token\x01\x01"
        );
        let mut sasl = XOauth2 {
            user: "u",
            token: "t",
            sent: false,
        };
        let mut authenticator = &mut sasl;
        assert_eq!(
            async_imap::Authenticator::process(&mut authenticator, b""),
            "user=u\x01auth=Bearer t\x01\x01"
        );
        // The error challenge that follows a refusal is answered empty.
        assert_eq!(
            async_imap::Authenticator::process(&mut authenticator, b"{\"status\":\"401\"}"),
            ""
        );
    }
}
