//! Continuous replication off the machine (`carepath serve --replicate URL`): Litestream
//! runs beside the server as a child process, on a configuration generated here, and a
//! supervising task watches it. It asks Litestream's control socket when the replica
//! last confirmed a sync, restarts Litestream when it exits, and emails the
//! administrators once when replication has failed for longer than the set time. The
//! rules (what counts as failing, when to alert) are core's `rules::replication`.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context;
use axum::body::Bytes;
use carepath_core::model::ReplicationStatus;
use carepath_core::rules::replication::{Observation, ReplicaUrl, ReplicationWatch};
use http_body_util::{BodyExt, Empty};
use hyper_util::rt::TokioIo;
use jiff::{SignedDuration, Timestamp};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::watch;

use crate::AppState;

/// How replication is set up.
#[derive(Debug, Clone)]
pub struct ReplicationConfig {
    pub replica: ReplicaUrl,
    /// The Litestream binary (`litestream` on the PATH by default).
    pub litestream: PathBuf,
    /// How often Litestream ships the database's changes to the replica.
    pub sync_interval: Duration,
    /// How long replication may fail before the administrators are emailed.
    pub alert_after: Duration,
    /// How often the supervisor looks at Litestream.
    pub poll: Duration,
}

impl ReplicationConfig {
    pub fn new(replica: ReplicaUrl) -> Self {
        Self {
            replica,
            litestream: PathBuf::from("litestream"),
            sync_interval: Duration::from_secs(1),
            alert_after: Duration::from_secs(15 * 60),
            poll: Duration::from_secs(2),
        }
    }
}

/// What the server knows about replication, shared with the handlers.
#[derive(Default)]
pub struct Replication {
    watch: Mutex<Option<ReplicationWatch>>,
}

impl Replication {
    /// Where replication stands now: not configured, starting, replicating or failing,
    /// with the replica's last confirmed sync and the lag. The setup checklist and the
    /// administrators' health check read this.
    pub fn status(&self) -> ReplicationStatus {
        let watch = self
            .watch
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        match watch.as_ref() {
            Some(watch) => watch.status(Timestamp::now()),
            None => ReplicationStatus::not_configured(),
        }
    }

    fn with_watch<T>(&self, act: impl FnOnce(&mut ReplicationWatch) -> T) -> Option<T> {
        let mut watch = self
            .watch
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        watch.as_mut().map(act)
    }
}

/// Fails when the Litestream binary cannot be run at all, so a mistyped path stops
/// `carepath serve` at start instead of surfacing as an alert a quarter of an hour later.
pub fn check_litestream(binary: &Path) -> anyhow::Result<String> {
    let output = std::process::Command::new(binary)
        .arg("version")
        .stdin(Stdio::null())
        .output()
        .with_context(|| {
            format!(
                "cannot run Litestream ({}); install it (scripts/setup does) or set \
                 CAREPATH_LITESTREAM",
                binary.display()
            )
        })?;
    Ok(String::from_utf8_lossy(&output.stdout).trim().to_owned())
}

/// The files Litestream is given, beside the database's data.
struct Files {
    config: PathBuf,
    socket: PathBuf,
}

/// Litestream's configuration for one database and one replica. Written as JSON, which
/// is YAML too, by serde_json rather than by hand. Credentials are not in it: Litestream
/// reads them from the environment it inherits.
fn config_document(db: &Path, socket: &Path, config: &ReplicationConfig) -> String {
    let document = serde_json::json!({
        "socket": { "enabled": true, "path": socket },
        "dbs": [{
            "path": db,
            "replica": {
                "url": config.replica.url,
                "sync-interval": format!("{}ms", config.sync_interval.as_millis()),
            },
        }],
    });
    let mut text = serde_json::to_string_pretty(&document).unwrap_or_default();
    text.push('\n');
    text
}

fn write_files(db: &Path, data_dir: &Path, config: &ReplicationConfig) -> anyhow::Result<Files> {
    let files = Files {
        config: data_dir.join("litestream.yml"),
        socket: data_dir.join("litestream.sock"),
    };
    std::fs::create_dir_all(data_dir)
        .with_context(|| format!("cannot create {}", data_dir.display()))?;
    std::fs::write(&files.config, config_document(db, &files.socket, config))
        .with_context(|| format!("cannot write {}", files.config.display()))?;
    Ok(files)
}

/// Starts the supervisor: it runs until `stopping` turns true, then stops Litestream
/// (which ships what is left before it exits). Await the handle before leaving.
pub fn start(
    state: AppState,
    config: ReplicationConfig,
    mut stopping: watch::Receiver<bool>,
) -> anyhow::Result<tokio::task::JoinHandle<()>> {
    let db = state
        .config
        .db_path
        .canonicalize()
        .with_context(|| format!("cannot find {}", state.config.db_path.display()))?;
    let files = write_files(&db, &state.config.data_dir, &config)?;
    let now = Timestamp::now();
    *state
        .replication
        .watch
        .lock()
        .unwrap_or_else(|poison| poison.into_inner()) = Some(ReplicationWatch::new(
        &config.replica,
        signed(config.sync_interval),
        signed(config.alert_after),
        now,
    ));
    tracing::info!(replica = %config.replica.shown, config = %files.config.display(), "replicating with Litestream");
    Ok(tokio::spawn(async move {
        let complaints: Arc<Mutex<Option<String>>> = Arc::default();
        let mut child: Option<Child> = None;
        let mut exit: Option<String> = None;
        let mut pause = Duration::ZERO;
        let mut restart_at = tokio::time::Instant::now();
        loop {
            if child.is_none() && tokio::time::Instant::now() >= restart_at {
                match spawn(&config.litestream, &files, complaints.clone()) {
                    Ok(started) => child = Some(started),
                    Err(error) => exit = Some(format!("cannot start Litestream: {error}")),
                }
            }
            let running = match child.as_mut().map(Child::try_wait) {
                Some(Ok(None)) => true,
                Some(Ok(Some(status))) => {
                    exit = Some(format!("Litestream stopped ({status})"));
                    child = None;
                    false
                }
                Some(Err(error)) => {
                    exit = Some(format!("cannot watch Litestream: {error}"));
                    false
                }
                None => false,
            };
            if !running && child.is_none() && tokio::time::Instant::now() >= restart_at {
                // Restart with growing pauses: a replica that refuses at once would
                // otherwise start Litestream every poll.
                pause = (pause * 2).clamp(Duration::from_secs(5), Duration::from_secs(60));
                restart_at = tokio::time::Instant::now() + pause;
                if let Some(exit) = &exit {
                    tracing::warn!(reason = %exit, retry_in = ?pause, "replication is not running");
                }
            }
            let mut seen = if running {
                ask(&files.socket, &db).await
            } else {
                Observation::default()
            };
            seen.running = running;
            let said = complaints
                .lock()
                .unwrap_or_else(|poison| poison.into_inner())
                .take();
            // "Litestream stopped" with what it said last, which is usually why.
            seen.error = match (exit.take(), said) {
                (Some(exit), Some(said)) => Some(format!("{exit}: {said}")),
                (exit, said) => exit.or(said),
            };
            if running && seen.last_synced_at.is_some() {
                pause = Duration::ZERO;
            }
            let now = Timestamp::now();
            let alert = state.replication.with_watch(|watch| {
                watch.observe(now, seen);
                watch.alert_due(now).then(|| watch.status(now))
            });
            if let Some(Some(status)) = alert {
                send_alert(&state, status).await;
            }
            tokio::select! {
                () = tokio::time::sleep(config.poll) => {}
                _ = stopping.wait_for(|stop| *stop) => break,
            }
        }
        if let Some(child) = child {
            stop(child).await;
        }
    }))
}

fn signed(duration: Duration) -> SignedDuration {
    SignedDuration::try_from(duration).unwrap_or(SignedDuration::MAX)
}

fn spawn(
    binary: &Path,
    files: &Files,
    complaints: Arc<Mutex<Option<String>>>,
) -> std::io::Result<Child> {
    // A socket left by a Litestream that was killed would refuse the new one's.
    let _ = std::fs::remove_file(&files.socket);
    let mut command = Command::new(binary);
    command
        .arg("replicate")
        .arg("-config")
        .arg(&files.config)
        .arg("-no-expand-env")
        // Its info lines (one per sync) would drown the server's log.
        .args(["-log-level", "warn"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    #[cfg(target_os = "linux")]
    // SAFETY: prctl only sets this process's parent-death signal; it allocates nothing
    // and is async-signal-safe, as pre_exec requires.
    unsafe {
        command.pre_exec(|| {
            // Litestream goes when the server goes, even by kill -9: it ships what is
            // left on the terminate signal.
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM);
            Ok(())
        });
    }
    let mut child = command.spawn()?;
    if let Some(stderr) = child.stderr.take() {
        tokio::spawn(async move {
            let mut lines = BufReader::new(stderr).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                tracing::warn!(target: "litestream", "{line}");
                *complaints
                    .lock()
                    .unwrap_or_else(|poison| poison.into_inner()) = Some(message_of(&line));
            }
        });
    }
    Ok(child)
}

/// The `msg="…"` part of a Litestream log line (with its `error=` when there is one),
/// or the whole line.
fn message_of(line: &str) -> String {
    let field = |name: &str| {
        let start = line.find(&format!("{name}="))? + name.len() + 1;
        let rest = &line[start..];
        Some(match rest.strip_prefix('"') {
            Some(quoted) => quoted.split('"').next().unwrap_or_default().to_owned(),
            None => rest.split(' ').next().unwrap_or_default().to_owned(),
        })
    };
    match (field("msg"), field("error")) {
        (Some(msg), Some(error)) => format!("{msg}: {error}"),
        (Some(msg), None) => msg,
        _ => line.trim().to_owned(),
    }
}

/// Stops Litestream the way it expects (SIGTERM: it ships what is left, for up to 30
/// seconds), and kills it if it takes longer.
async fn stop(mut child: Child) {
    if let Some(pid) = child.id().and_then(|pid| i32::try_from(pid).ok()) {
        // SAFETY: kill only sends a signal to our own child's process id.
        unsafe {
            libc::kill(pid, libc::SIGTERM);
        }
    }
    match tokio::time::timeout(Duration::from_secs(40), child.wait()).await {
        Ok(Ok(status)) => tracing::info!(%status, "Litestream stopped"),
        _ => {
            tracing::warn!("Litestream did not stop in time: killed");
            let _ = child.kill().await;
        }
    }
}

/// What Litestream's control socket says about the database: the replica's last
/// confirmed sync and the latest transaction.
async fn ask(socket: &Path, db: &Path) -> Observation {
    let mut seen = Observation::default();
    let db_text = db.to_string_lossy();
    if let Ok(list) = control_get(socket, "/list").await {
        let entry = list["databases"]
            .as_array()
            .and_then(|dbs| dbs.iter().find(|entry| entry["path"] == *db_text));
        seen.last_synced_at = entry
            .and_then(|entry| entry["last_sync_at"].as_str())
            .and_then(|at| at.parse::<Timestamp>().ok());
    }
    let query = serde_urlencoded::to_string([("path", db_text.as_ref())]).unwrap_or_default();
    if let Ok(txid) = control_get(socket, &format!("/txid?{query}")).await {
        seen.position = txid["txid"].as_u64().map(|txid| format!("{txid:016x}"));
    }
    seen
}

async fn control_get(socket: &Path, target: &str) -> anyhow::Result<serde_json::Value> {
    let exchange = async {
        let stream = tokio::net::UnixStream::connect(socket).await?;
        let (mut sender, connection) =
            hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
        tokio::spawn(async move {
            let _ = connection.await;
        });
        let request = axum::http::Request::get(target)
            .header(axum::http::header::HOST, "localhost")
            .body(Empty::<Bytes>::new())?;
        let response = sender.send_request(request).await?;
        anyhow::ensure!(response.status().is_success(), "{}", response.status());
        let body = response.into_body().collect().await?.to_bytes();
        Ok(serde_json::from_slice(&body)?)
    };
    tokio::time::timeout(Duration::from_secs(2), exchange)
        .await
        .context("Litestream's control socket did not answer")?
}

/// Emails every active administrator, once per failure, through the staff-notice path.
async fn send_alert(state: &AppState, status: ReplicationStatus) {
    tracing::error!(replica = ?status.replica, since = ?status.failing_since, error = ?status.last_error, "replication has been failing: telling the administrators");
    let base = state.config.public_url.base.clone();
    let found = state
        .db
        .call(move |store| {
            Ok((
                store.replication_alerts(&status, &base)?,
                store.settings()?.email,
            ))
        })
        .await;
    let (notices, settings) = match found {
        Ok(found) => found,
        Err(error) => {
            tracing::error!(error = %error.message, "cannot find whom to tell about replication");
            return;
        }
    };
    for notice in notices {
        let to = notice.to.clone();
        if let Err(failure) = state.outbound.send_staff_notice(&settings, notice).await {
            tracing::error!(%to, reason = %failure.reason, "the replication alert was not sent");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn litestream_lines_are_reduced_to_their_message() {
        assert_eq!(
            message_of(
                r#"time=2026-01-01T00:00:00Z level=ERROR msg="monitor error" db=/x error="cannot connect""#
            ),
            "monitor error: cannot connect"
        );
        assert_eq!(message_of("plain words"), "plain words");
    }

    #[test]
    fn the_generated_configuration_names_the_database_replica_and_socket() {
        let config = ReplicationConfig::new(ReplicaUrl::parse("s3://bucket/agency").unwrap());
        let text = config_document(
            Path::new("/data/carepath.db"),
            Path::new("/data/litestream.sock"),
            &config,
        );
        let parsed: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(parsed["dbs"][0]["path"], "/data/carepath.db");
        assert_eq!(parsed["dbs"][0]["replica"]["url"], "s3://bucket/agency");
        assert_eq!(parsed["dbs"][0]["replica"]["sync-interval"], "1000ms");
        assert_eq!(parsed["socket"]["path"], "/data/litestream.sock");
    }
}
