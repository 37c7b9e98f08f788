//! Continuous replication of the database off the machine: what the server reports about
//! it (for the administrators' health check and the setup checklist).

use serde::Serialize;

/// Where replication stands.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub enum ReplicationState {
    /// The server was started without `--replicate`: the database lives on this machine
    /// only.
    #[default]
    NotConfigured,
    /// The replicator has started and has not reported a finished copy yet.
    Starting,
    /// The replica received the database's changes recently.
    Replicating,
    /// The replicator stopped, or the replica has not been reached for too long.
    Failing,
}

/// What an administrator is told about replication.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ReplicationStatus {
    pub state: ReplicationState,
    /// The replica's address without credentials or query (`s3://bucket/path`).
    pub replica: Option<String>,
    /// When the replica last confirmed it holds every change (stored time form).
    pub last_replicated_at: Option<String>,
    /// Seconds since then: what a crash of this machine now could lose at most.
    pub lag_seconds: Option<u64>,
    /// The database's latest transaction the replicator has seen (hex, as Litestream
    /// writes it).
    pub position: Option<String>,
    /// Since when replication has been failing (stored time form).
    pub failing_since: Option<String>,
    /// The replicator's last error or exit, in its words.
    pub last_error: Option<String>,
    /// How often changes are shipped: the most a healthy replica is behind.
    pub sync_interval_seconds: u64,
}

impl ReplicationStatus {
    /// The answer of a server that replicates nowhere.
    pub fn not_configured() -> Self {
        Self {
            state: ReplicationState::NotConfigured,
            replica: None,
            last_replicated_at: None,
            lag_seconds: None,
            position: None,
            failing_since: None,
            last_error: None,
            sync_interval_seconds: 0,
        }
    }
}
