//! Live updates: one thread tails the audit log on its own connection and broadcasts each
//! change; `GET /api/events` streams them to browsers as server-sent events. Changes made
//! by other processes (the TUI, the CLI) on the same file arrive the same way.

use std::convert::Infallible;
use std::path::PathBuf;
use std::time::Duration;

use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use carepath_core::store::Store;
use futures_util::Stream;
use serde::Serialize;
use tokio::sync::{broadcast, watch};

use crate::AppState;
use crate::error::ApiResult;
use crate::session::CurrentUser;

/// One change, as the web UI receives it. Never client data: it says what changed, the
/// UI refetches what it shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct ChangeEvent {
    pub seq: i64,
    pub entity: String,
    pub id: String,
    pub action: String,
    pub intake_id: Option<String>,
}

/// Starts the feed thread. It polls `PRAGMA data_version` (cheap, no read transaction
/// kept open between polls) and reads the audit rows after the last one it saw only when
/// the file changed. It stops when `shutdown` turns true.
pub fn start_feed(
    path: PathBuf,
    poll: Duration,
    sender: broadcast::Sender<ChangeEvent>,
    shutdown: watch::Receiver<bool>,
) -> carepath_core::Result<()> {
    let store = Store::open(&path)?;
    let mut seq = store.latest_audit_seq()?;
    let mut version = store.data_version()?;
    std::thread::Builder::new()
        .name("carepath-events".to_owned())
        .spawn(move || {
            while !*shutdown.borrow() {
                std::thread::sleep(poll);
                match store.data_version() {
                    Ok(now) if now == version => continue,
                    Ok(now) => version = now,
                    Err(error) => {
                        tracing::warn!(%error, "live updates: cannot read the database version");
                        continue;
                    }
                }
                loop {
                    let entries = match store.audit_since(seq, 500) {
                        Ok(entries) => entries,
                        Err(error) => {
                            tracing::warn!(%error, "live updates: cannot read the change log");
                            break;
                        }
                    };
                    let full_batch = entries.len() == 500;
                    for entry in entries {
                        seq = entry.seq;
                        // No receiver is fine: nobody is watching right now.
                        let _ = sender.send(ChangeEvent {
                            seq: entry.seq,
                            entity: entry.entity,
                            id: entry.entity_id,
                            action: entry.action,
                            intake_id: entry.intake_id,
                        });
                    }
                    if !full_batch {
                        break;
                    }
                }
            }
        })
        .map_err(|error| carepath_core::Error::io("cannot start the live update feed", error))?;
    Ok(())
}

/// The open stream of one browser; ends when the server shuts down, so a graceful
/// shutdown does not wait for it.
fn changes(
    receiver: broadcast::Receiver<ChangeEvent>,
    shutdown: watch::Receiver<bool>,
) -> impl Stream<Item = Result<Event, Infallible>> {
    futures_util::stream::unfold(
        (receiver, shutdown),
        |(mut receiver, mut shutdown)| async move {
            if *shutdown.borrow() {
                return None;
            }
            tokio::select! {
                message = receiver.recv() => match message {
                    Ok(change) => {
                        let event = Event::default()
                            .event("change")
                            .id(change.seq.to_string())
                            .json_data(&change)
                            .unwrap_or_else(|_| Event::default().comment("unreadable change"));
                        Some((Ok(event), (receiver, shutdown)))
                    }
                    // A slow browser missed some: tell it to refetch everything.
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        let event = Event::default().event("resync").data("{}");
                        Some((Ok(event), (receiver, shutdown)))
                    }
                    Err(broadcast::error::RecvError::Closed) => None,
                },
                _ = shutdown.changed() => None,
            }
        },
    )
}

/// Server-sent events, one `change` event per change:
/// `{"seq", "entity", "id", "action", "intake_id"}`; keep-alive comments every 15 s.
#[utoipa::path(get, path = "/api/events", tag = "live",
    responses((status = 200, description = "text/event-stream of `change` events", body = ChangeEvent, content_type = "text/event-stream")))]
pub async fn stream(
    State(state): State<AppState>,
    _user: CurrentUser,
) -> ApiResult<Sse<impl Stream<Item = Result<Event, Infallible>>>> {
    let receiver = state.events.subscribe();
    Ok(Sse::new(changes(receiver, state.shutdown.clone()))
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15))))
}
