//! carepath-server: the HTTP face of Carepath. The JSON API under `/api` (thin handlers
//! over core's store), browser sessions, live updates, the outbound adapters and the
//! embedded web UI, in one axum app.

pub mod api;
pub mod config;
pub mod db;
pub mod error;
pub mod events;
pub mod extract;
mod middleware;
pub mod outbound;
mod routes;
pub mod session;
mod throttle;
mod web;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use tokio::net::TcpListener;
use tokio::sync::{broadcast, watch};

pub use config::{AiConfig, Config, PublicUrl, SmsConfig};
use db::Db;
use events::ChangeEvent;
use outbound::Outbound;
use throttle::Throttle;

/// Largest JSON body accepted.
pub const BODY_LIMIT: usize = 1024 * 1024;

/// What every handler can reach.
#[derive(Clone)]
pub struct AppState {
    pub db: Db,
    /// Who is signed in, per session token, while nothing has been written.
    pub sessions: Arc<session::SessionCache>,
    pub config: Arc<Config>,
    pub outbound: Outbound,
    throttle: Arc<Throttle>,
    events: broadcast::Sender<ChangeEvent>,
    /// Turns true when the server is stopping; open event streams end on it.
    shutdown: watch::Receiver<bool>,
}

impl AppState {
    /// Opens the database, sets up the adapters and starts the live update feed.
    pub fn new(config: Config, shutdown: watch::Receiver<bool>) -> anyhow::Result<Self> {
        let db = Db::open(&config.db_path, config.pool_size)?;
        let outbound = Outbound::from_config(&config)?;
        let (events, _) = broadcast::channel(1024);
        events::start_feed(
            config.db_path.clone(),
            config.events_poll,
            events.clone(),
            shutdown.clone(),
        )?;
        let sessions = Arc::new(session::SessionCache::open(&config.db_path)?);
        Ok(Self {
            db,
            sessions,
            throttle: Arc::new(Throttle::new(config.auth_burst, config.auth_refill)),
            config: Arc::new(config),
            outbound,
            events,
            shutdown,
        })
    }
}

/// The whole app: API, web UI, and the layers every request passes.
pub fn app(state: AppState) -> Router {
    let (api, _, _) = api::routes().into_parts();
    api.fallback(web::fallback)
        .method_not_allowed_fallback(web::method_not_allowed)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            middleware::check_origin,
        ))
        .layer(axum::middleware::from_fn(middleware::security_headers))
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

/// Logs to stderr; `CAREPATH_LOG` (e.g. `debug`, `carepath_server=debug`) sets the level.
pub fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("CAREPATH_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
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

/// Serves on a bound listener until `stop` completes; requests in flight are finished,
/// open event streams are closed.
pub async fn serve_on(
    listener: TcpListener,
    config: Config,
    stop: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    // One TLS crypto provider for lettre and reqwest; an error only means it is set.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let (stopping, shutdown) = watch::channel(false);
    tracing::info!(config = ?config, "starting");
    let state = AppState::new(config, shutdown)?;
    let addr = listener.local_addr()?;
    tracing::info!(%addr, "listening");
    axum::serve(
        listener,
        app(state).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(async move {
        stop.await;
        tracing::info!("shutting down: finishing requests in flight");
        let _ = stopping.send(true);
    })
    .await?;
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
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(serve(config))
}
