//! carepath-server: the HTTP face of Carepath. The JSON API under `/api` (thin handlers
//! over core's store), browser sessions, live updates, the outbound adapters and the
//! embedded web UI, in one axum app.

pub mod api;
pub mod config;
pub mod db;
pub mod delivery;
mod drafting;
pub mod error;
pub mod events;
pub mod extract;
mod feed_cache;
pub mod inbound;
mod middleware;
pub mod outbound;
pub mod reminders;
pub mod replication;
mod routes;
mod scheduling;
mod session;
mod session_cache;
mod throttle;
mod web;

use std::future::Future;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::extract::connect_info::ConnectInfo;
use axum::http::{Request, StatusCode};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, broadcast, watch};
use tower::ServiceExt;

pub use config::{AiConfig, Config, PublicUrl, SetupLinkSink, SmsConfig};
use db::Db;
use events::ChangeBatch;
/// The binary's global allocator. An answer of a list makes many small strings: with
/// mimalloc the server answers 15-20% more timelines and clients pages per second than
/// with glibc. Built without transparent huge pages, which would round its memory up to
/// 2 MiB pieces and keep an idle server at 70 MiB; the pool's memory keeper purges what
/// it freed (`db::release_allocator_memory`).
pub use mimalloc::MiMalloc as Allocator;
use outbound::Outbound;
use throttle::Throttle;

/// Largest JSON body accepted.
pub const BODY_LIMIT: usize = 1024 * 1024;

/// What every handler can reach. Every extractor and middleware of a request takes its
/// own copy, so a copy is one shared pointer rather than a clone of each part.
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

impl std::ops::Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

/// The parts of [`AppState`].
pub struct Shared {
    pub db: Db,
    /// Who is signed in, per session token, while nothing has been written.
    pub sessions: Arc<session_cache::SessionCache>,
    /// Calendar feeds as last drawn, while nothing has been written.
    pub feeds: feed_cache::FeedCache,
    pub config: Arc<Config>,
    pub outbound: Outbound,
    throttle: Arc<Throttle>,
    /// Password hashing slots: each hash takes memory for a moment, so a burst of
    /// sign-ins waits its turn instead of growing the server.
    hashing: Arc<Semaphore>,
    /// Bad family links per client address (same limits as sign-in).
    link_throttle: Arc<Throttle>,
    events: broadcast::Sender<ChangeBatch>,
    /// Event streams open per session and per user.
    streams: Arc<events::StreamCounts>,
    /// Turns true when the server is stopping; open event streams end on it.
    shutdown: watch::Receiver<bool>,
    /// True while the database has no user: the API answers only the setup page.
    setup_pending: std::sync::atomic::AtomicBool,
    /// Where replication off the machine stands (not configured without `--replicate`).
    pub replication: Arc<replication::Replication>,
}

impl AppState {
    /// Opens the database, sets up the adapters and starts the live update feed.
    pub fn new(config: Config, shutdown: watch::Receiver<bool>) -> anyhow::Result<Self> {
        if config
            .sms
            .as_ref()
            .is_some_and(|sms| sms.auth_token.is_empty())
        {
            tracing::warn!(
                "CAREPATH_SMS_TOKEN is not set: text message replies from families are refused \
                 until it is, since their signatures cannot be checked"
            );
        }
        let db = Db::open(&config.db_path, config.readers, config.query_deadline)?;
        let outbound = Outbound::from_config(&config)?;
        let setup_pending = {
            let mut store = carepath_core::store::Store::open(&config.db_path)?;
            // Authenticator app secrets saved before they were sealed are sealed now: the
            // key is outside the database, so its migration could not.
            match store.seal_totp_secrets(&config.secret_keys()) {
                Ok(0) => {}
                Ok(sealed) => tracing::info!(sealed, "authenticator app secrets sealed"),
                Err(error) => {
                    tracing::warn!(%error, "authenticator app secrets could not be sealed yet")
                }
            }
            if let Err(error) = outbound.use_saved_accounts(&config, &store) {
                // The error names the account, never its secret.
                tracing::warn!(%error, "a saved outbound account cannot be used; messages go to the outbox");
            }
            store.needs_setup()?
        };
        let (events, _) = broadcast::channel(1024);
        let streams = Arc::<events::StreamCounts>::default();
        events::start_feed(
            config.db_path.clone(),
            config.events_poll,
            events.clone(),
            streams.clone(),
            shutdown.clone(),
        )?;
        let sessions = Arc::new(session_cache::SessionCache::open(&config.db_path)?);
        Ok(Self(Arc::new(Shared {
            db,
            sessions,
            feeds: feed_cache::FeedCache::default(),
            throttle: Arc::new(Throttle::new(config.auth_burst, config.auth_refill)),
            hashing: Arc::new(Semaphore::new(config.hashing_slots.max(1))),
            link_throttle: Arc::new(Throttle::new(config.auth_burst, config.auth_refill)),
            config: Arc::new(config),
            outbound,
            events,
            streams,
            shutdown,
            setup_pending: std::sync::atomic::AtomicBool::new(setup_pending),
            replication: Arc::default(),
        })))
    }

    /// Whether the API still answers only the setup page. Once a user exists (the setup
    /// page's administrator, or `carepath user add` while the server runs) it stays open.
    pub async fn setup_pending(&self) -> bool {
        use std::sync::atomic::Ordering;
        if !self.setup_pending.load(Ordering::Acquire) {
            return false;
        }
        match self.db.call(|store| store.needs_setup()).await {
            Ok(true) => true,
            Ok(false) => {
                self.setup_done();
                false
            }
            // Fail closed: an unreadable database opens nothing.
            Err(_) => true,
        }
    }

    /// The first user exists: every route answers from now on.
    pub fn setup_done(&self) {
        self.setup_pending
            .store(false, std::sync::atomic::Ordering::Release);
    }

    /// A new one-time setup link, when the database has no user yet.
    fn issue_setup_link(&self) -> anyhow::Result<Option<String>> {
        let mut store = carepath_core::store::Store::open(&self.config.db_path)?;
        Ok(store.issue_setup_token()?.map(|token| {
            // In the fragment, which browsers never send: the secret stays out of
            // request logs and proxies.
            format!("{}/setup#token={token}", self.config.public_url.base)
        }))
    }
}

/// How long a sign-in waits for a hashing slot before it is answered 503.
const HASHING_WAIT: Duration = Duration::from_secs(5);
const BUSY_SIGNING_IN: &str = "Many people are signing in right now. Please try again in a moment.";

/// A slot to hash or check a password in. A hash takes 19 MiB, which mimalloc would
/// keep until the server next goes quiet; freeing the slot gives it back at once, so a
/// server that has just signed someone in is no bigger than before.
pub struct HashingPermit {
    _slot: OwnedSemaphorePermit,
}

impl Drop for HashingPermit {
    fn drop(&mut self) {
        // The hash was mimalloc's; glibc's arenas (SQLite's) are left to the idle keeper
        // rather than walked on a request's thread.
        db::purge_mimalloc();
    }
}

impl AppState {
    /// The WebAuthn relying party of the configured public address; a clear 422 when
    /// browsers would refuse passkeys there.
    pub fn relying_party(
        &self,
    ) -> Result<carepath_core::rules::passkeys::RelyingParty, error::ApiError> {
        Ok(
            carepath_core::rules::passkeys::RelyingParty::from_public_url(
                &self.config.public_url.base,
            )?,
        )
    }

    /// A slot to hash or check a password in; 503 when none frees up soon.
    pub async fn hashing_permit(&self) -> error::ApiResult<HashingPermit> {
        match tokio::time::timeout(HASHING_WAIT, self.hashing.clone().acquire_owned()).await {
            Ok(Ok(slot)) => Ok(HashingPermit { _slot: slot }),
            _ => Err(error::ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "busy",
                BUSY_SIGNING_IN,
            )),
        }
    }
}

/// The whole app: API, web UI, and the layers every request passes.
pub fn app(state: AppState) -> Router {
    let (api, _, _) = api::routes().into_parts();
    api.route(web::MANIFEST_PATH, axum::routing::get(web::manifest))
        .nest_service(web::ASSETS_PATH, web::assets())
        .fallback(web::fallback)
        .method_not_allowed_fallback(web::method_not_allowed)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            middleware::setup_gate,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            middleware::check_origin,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            middleware::request_deadline,
        ))
        .layer(axum::middleware::from_fn(middleware::security_headers))
        .layer(middleware::compression())
        .layer(axum::middleware::from_fn(middleware::log_request))
        .with_state(state)
}

/// The OpenAPI document of the JSON API, generated from the handlers and Rust types.
pub fn openapi() -> utoipa::openapi::OpenApi {
    api::openapi()
}

/// The OpenAPI document as the pretty JSON committed in web/openapi.json.
pub fn openapi_json() -> String {
    let mut text = openapi()
        .to_pretty_json()
        .unwrap_or_else(|_| "{}".to_owned());
    text.push('\n');
    text
}

/// Installs the one TLS crypto provider lettre and reqwest use. reqwest is built without
/// one of its own and panics when a client is made before a provider is installed, so
/// the `carepath` binary calls this first thing, whatever the command; the entry points
/// here call it too for callers that are not the binary. Calling it again does nothing.
pub fn install_crypto_provider() {
    // An error only means a provider is installed already.
    let _ = rustls::crypto::ring::default_provider().install_default();
}

/// Logs to stderr; `CAREPATH_LOG` (e.g. `debug`, `carepath_server=debug`) sets the level.
pub fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("CAREPATH_LOG")
        // memory-serve names every embedded asset at info as the server starts.
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,memory_serve=warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .try_init();
}

/// Runs `carepath serve` until Ctrl+C or SIGTERM.
pub async fn serve(config: Config) -> anyhow::Result<()> {
    init_logging();
    let listener = TcpListener::bind(config.addr)
        .await
        .map_err(|error| anyhow::anyhow!("cannot listen on {}: {error}", config.addr))?;
    serve_on(listener, config, shutdown_signal()).await
}

/// The answer to a connection over the cap, written before it is closed.
const TOO_MANY_CONNECTIONS: &str = "{\"error\":{\"code\":\"busy\",\"message\":\"The server is busy. Please try again in a moment.\"}}";

/// The 503 a request gets when its connection finds the cap full.
fn too_many_connections() -> axum::response::Response {
    let mut response = axum::response::Response::new(axum::body::Body::from(TOO_MANY_CONNECTIONS));
    *response.status_mut() = StatusCode::SERVICE_UNAVAILABLE;
    let headers = response.headers_mut();
    headers.insert(
        axum::http::header::CONTENT_TYPE,
        axum::http::HeaderValue::from_static("application/json"),
    );
    headers.insert(
        axum::http::header::RETRY_AFTER,
        axum::http::HeaderValue::from_static("5"),
    );
    headers.insert(
        axum::http::header::CONNECTION,
        axum::http::HeaderValue::from_static("close"),
    );
    response
}

/// Raises the soft limit on open files to the hard one, so the connection cap (and not
/// the file-descriptor limit) is what a flood of connections meets first.
fn raise_open_file_limit() {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit and setrlimit only read and write the struct passed.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
                return;
            }
            if limit.rlim_cur < limit.rlim_max {
                let before = limit.rlim_cur;
                limit.rlim_cur = limit.rlim_max;
                if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) == 0 {
                    tracing::info!(from = before, to = limit.rlim_max, "open-file limit raised");
                }
            }
        }
    }
}

/// Serves on a bound listener until `stop` completes; requests in flight are finished,
/// open event streams are closed.
///
/// A connection must send a whole request head within `header_timeout` of being
/// accepted (and of its previous answer): one that sends nothing, or only part of a
/// request, is closed then. It counts toward `max_connections` from its first request
/// on, so connections that never send one cannot keep anyone else out; past the cap a
/// request is answered 503 and its connection closed.
pub async fn serve_on(
    listener: TcpListener,
    config: Config,
    stop: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    install_crypto_provider();
    raise_open_file_limit();
    let (stopping, shutdown) = watch::channel(false);
    tracing::info!(config = ?config, "starting");
    let header_timeout = config.header_timeout;
    let connections = Arc::new(Semaphore::new(config.max_connections.max(1)));
    let replicate = config.replicate.clone();
    if let Some(replicate) = &replicate {
        let version = replication::check_litestream(&replicate.litestream)?;
        tracing::info!(litestream = %version, "Litestream found");
    }
    let state = AppState::new(config, shutdown.clone())?;
    let reminders = reminders::start(&state.config, state.outbound.clone(), shutdown.clone())?;
    let replies = {
        let state = state.clone();
        let handle = tokio::runtime::Handle::current();
        inbound::start(&state.config.clone(), shutdown, move |reply| {
            // The coordinator hears of a reply as of a texted one.
            let state = state.clone();
            handle.spawn(async move { delivery::notify_coordinator(&state, &reply).await });
        })?
    };
    let replicator = match replicate {
        Some(replicate) => {
            state.db.leave_checkpoints_to_replicator()?;
            Some(replication::start(
                state.clone(),
                replicate,
                stopping.subscribe(),
            )?)
        }
        None => None,
    };
    let addr = listener.local_addr()?;
    tracing::info!(%addr, "listening");
    let pending = state
        .setup_pending
        .load(std::sync::atomic::Ordering::Acquire);
    if let Some(link) = pending
        .then(|| state.issue_setup_link())
        .transpose()?
        .flatten()
    {
        tracing::info!("not set up yet: the setup link is printed on the console");
        (state.config.setup_link.0)(&link);
    }
    let router = app(state);
    let graceful = GracefulShutdown::new();
    // HTTP/1 only, without the automatic version detection: that detection waits for
    // the first bytes with no time limit, before hyper's header timeout starts.
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout);
    tokio::pin!(stop);
    loop {
        let (stream, remote) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of descriptors, or a connection reset before it was taken:
                    // wait a moment instead of spinning.
                    tracing::warn!(%error, "cannot accept a connection");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let held: Arc<OnceLock<OwnedSemaphorePermit>> = Arc::new(OnceLock::new());
        let router = router.clone();
        let connections = connections.clone();
        let service = hyper::service::service_fn(move |mut request: Request<Incoming>| {
            let router = router.clone();
            let admitted = held.get().is_some()
                || connections
                    .clone()
                    .try_acquire_owned()
                    .map(|permit| {
                        let _ = held.set(permit);
                    })
                    .is_ok();
            request.extensions_mut().insert(ConnectInfo(remote));
            async move {
                if !admitted {
                    return Ok::<_, std::convert::Infallible>(too_many_connections());
                }
                router.oneshot(request).await
            }
        });
        let connection = builder.serve_connection(TokioIo::new(stream), service);
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            let _ = connection.await;
        });
    }
    tracing::info!("shutting down: finishing requests in flight");
    let _ = stopping.send(true);
    drop(listener);
    // Requests in flight get a while to finish; event streams end on `stopping`.
    let _ = tokio::time::timeout(Duration::from_secs(30), graceful.shutdown()).await;
    // A reminders' round under way finishes, so every claimed send reports back.
    if let Some(reminders) = reminders {
        let _ = tokio::time::timeout(Duration::from_secs(30), reminders).await;
    }
    // A fetch under way keeps what it read; it is cut short past a few seconds (the
    // mailbox keeps the rest, and the next start reads on from the last message kept).
    if let Some(replies) = replies {
        let _ = tokio::time::timeout(Duration::from_secs(10), replies).await;
    }
    // Litestream goes last: it ships the changes of the requests just finished.
    if let Some(replicator) = replicator {
        let _ = replicator.await;
    }
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = terminate => {}
    }
}

/// [`serve`] on a runtime of its own, for the `carepath` binary's synchronous `main`.
pub fn serve_blocking(config: Config) -> anyhow::Result<()> {
    // Before the runtime's threads start, so a warning of theirs is written.
    init_logging();
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .on_thread_start(scheduling::batch_this_thread)
        .build()?
        .block_on(serve(config))
}

/// `carepath digest`: emails each coordinator the list of their overdue clients
/// (Settings → Notifications), through the configured mail adapter or the outbox. Meant
/// for a daily cron job. Answers how many digests were sent; stops at the first failure.
pub fn send_digests_blocking(config: Config) -> anyhow::Result<usize> {
    install_crypto_provider();
    let store = carepath_core::store::Store::open(&config.db_path)?;
    let digests = store.overdue_digests(&config.public_url.base)?;
    let settings = store.settings()?.email;
    drop(store);
    let outbound = Outbound::from_config(&config)?;
    outbound.use_saved_accounts(
        &config,
        &carepath_core::store::Store::open(&config.db_path)?,
    )?;
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?
        .block_on(async {
            let mut sent = 0;
            for digest in digests {
                let to = digest.to.clone();
                outbound
                    .send_staff_notice(&settings, digest)
                    .await
                    .map_err(|failure| {
                        anyhow::anyhow!("the digest to {to} was not sent: {}", failure.reason)
                    })?;
                sent += 1;
            }
            Ok(sent)
        })
}

/// `carepath fetch-replies`: one read of the reply mailbox (Settings → Email), for
/// agencies that run it from cron instead of leaving `carepath serve` to. Safe beside a
/// running server: each message is kept once whoever reads it.
pub fn fetch_replies_blocking(config: Config) -> anyhow::Result<inbound::RepliesFetched> {
    install_crypto_provider();
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?
        .block_on(async {
            let store = inbound::ReplyStore::open(&config)?;
            inbound::fetch_round(&config, &store)
                .await
                .map_err(|failure| anyhow::anyhow!("{failure}"))
        })
}

/// `carepath remind`: one round of the visit reminders (the family's the day before, the
/// assessors' morning summaries) through the configured adapters or the outbox, for
/// agencies that run it from cron instead of leaving `carepath serve` to. Safe beside a
/// running server: each reminder is claimed in the database before it is sent.
pub fn send_reminders_blocking(config: Config) -> anyhow::Result<reminders::RemindersSent> {
    install_crypto_provider();
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?
        .block_on(async {
            let store = reminders::ReminderStore::open(&config)?;
            let outbound = Outbound::from_config(&config)?;
            reminders::send_due(&store, &outbound).await
        })
}
