//! Continuous replication off the machine: which replica addresses are accepted, when
//! replication counts as failing, and when the administrators are told.
//!
//! The server runs Litestream beside itself and feeds what it observes (is it running,
//! when did the replica last confirm a sync) into a [`ReplicationWatch`]; the watch
//! turns that into the [`ReplicationStatus`] the health check and the setup checklist
//! show, and says once when a failure has lasted long enough to email someone.

use jiff::{SignedDuration, Timestamp};

use crate::model::{ReplicationState, ReplicationStatus};
use crate::rules::clock::format_timestamp;

/// What `--replicate` / `--from` accept, said when something else is given.
pub const REPLICA_URL_HELP: &str =
    "The replica must be a file:///absolute/path or s3://bucket/path address.";

/// A replica address Litestream understands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplicaUrl {
    /// As given: Litestream reads options such as `?endpoint=` from it.
    pub url: String,
    /// Scheme, host and path only: what logs, emails and the health check show.
    pub shown: String,
}

impl ReplicaUrl {
    /// Accepts `file:///absolute/path` and `s3://bucket[/path]`; credentials belong in
    /// the environment, never in the address.
    pub fn parse(text: &str) -> Result<Self, String> {
        let text = text.trim();
        let parsed = url::Url::parse(text).map_err(|_| REPLICA_URL_HELP.to_owned())?;
        if !parsed.username().is_empty() || parsed.password().is_some() {
            return Err("Put the replica's credentials in the environment \
                        (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY), not in its address."
                .to_owned());
        }
        let shown = match parsed.scheme() {
            "file" => {
                if parsed.host_str().is_some_and(|host| !host.is_empty())
                    || parsed.path().len() <= 1
                {
                    return Err(REPLICA_URL_HELP.to_owned());
                }
                format!("file://{}", parsed.path())
            }
            "s3" => {
                let bucket = parsed.host_str().unwrap_or_default();
                if bucket.is_empty() {
                    return Err(REPLICA_URL_HELP.to_owned());
                }
                format!("s3://{bucket}{}", parsed.path())
            }
            _ => return Err(REPLICA_URL_HELP.to_owned()),
        };
        Ok(Self {
            url: text.to_owned(),
            shown,
        })
    }
}

/// A replica whose last confirmed sync is older than this is failing, even while the
/// replicator runs (it retries an unreachable replica with growing pauses).
pub const STALE_AFTER: SignedDuration = SignedDuration::from_secs(60);

/// What the supervisor last saw of the replicator.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Observation {
    /// The replicator process is alive.
    pub running: bool,
    /// When the replica last confirmed a sync, as the replicator reports it.
    pub last_synced_at: Option<Timestamp>,
    /// The database's latest transaction id the replicator has seen.
    pub position: Option<String>,
    /// Its latest complaint: an error it reported or the way it exited.
    pub error: Option<String>,
}

/// Replication's story since the server started: feeds observations in, tells the
/// status and whether an alert is due.
#[derive(Debug, Clone)]
pub struct ReplicationWatch {
    replica: String,
    sync_interval: SignedDuration,
    alert_after: SignedDuration,
    started_at: Timestamp,
    last: Observation,
    failing_since: Option<Timestamp>,
    alerted: bool,
}

impl ReplicationWatch {
    pub fn new(
        replica: &ReplicaUrl,
        sync_interval: SignedDuration,
        alert_after: SignedDuration,
        now: Timestamp,
    ) -> Self {
        Self {
            replica: replica.shown.clone(),
            sync_interval,
            alert_after,
            started_at: now,
            last: Observation::default(),
            failing_since: None,
            alerted: false,
        }
    }

    /// Records what the supervisor saw at `now`.
    pub fn observe(&mut self, now: Timestamp, seen: Observation) {
        let error = seen.error.clone().or_else(|| {
            // A newer observation without an error keeps the last one while still failing.
            self.failing_since.and(self.last.error.clone())
        });
        self.last = Observation { error, ..seen };
        if self.is_failing(now) {
            self.failing_since.get_or_insert(now);
        } else {
            self.failing_since = None;
            self.alerted = false;
            self.last.error = None;
        }
    }

    fn is_failing(&self, now: Timestamp) -> bool {
        if !self.last.running {
            return true;
        }
        let since = self.last.last_synced_at.unwrap_or(self.started_at);
        now.duration_since(since) > STALE_AFTER
    }

    /// True once per failure, when it has lasted `alert_after`; a recovery re-arms it.
    pub fn alert_due(&mut self, now: Timestamp) -> bool {
        match self.failing_since {
            Some(since) if !self.alerted && now.duration_since(since) >= self.alert_after => {
                self.alerted = true;
                true
            }
            _ => false,
        }
    }

    pub fn status(&self, now: Timestamp) -> ReplicationStatus {
        let state = if self.failing_since.is_some() {
            ReplicationState::Failing
        } else if self.last.last_synced_at.is_none() {
            ReplicationState::Starting
        } else {
            ReplicationState::Replicating
        };
        ReplicationStatus {
            state,
            replica: Some(self.replica.clone()),
            last_replicated_at: self.last.last_synced_at.map(format_timestamp),
            lag_seconds: self
                .last
                .last_synced_at
                .map(|at| u64::try_from(now.duration_since(at).as_secs()).unwrap_or(0)),
            position: self.last.position.clone(),
            failing_since: self.failing_since.map(format_timestamp),
            last_error: self.last.error.clone(),
            sync_interval_seconds: u64::try_from(self.sync_interval.as_secs()).unwrap_or(0),
        }
    }
}

/// The email's subject and body telling an administrator replication has failed.
pub fn alert_text(status: &ReplicationStatus, base_url: &str) -> (String, String) {
    let replica = status.replica.as_deref().unwrap_or("the replica");
    let since = status.failing_since.as_deref().unwrap_or("a while");
    let last = status
        .last_replicated_at
        .as_deref()
        .unwrap_or("not since the server started");
    let mut body = format!(
        "Carepath has not been able to copy its database to {replica} since {since} (UTC).\n\
         Last copy confirmed: {last}.\n"
    );
    if let Some(error) = &status.last_error {
        body.push_str(&format!("The replicator said: {error}\n"));
    }
    body.push_str(&format!(
        "\nUntil this is fixed, changes made at {base_url} exist only on the server's own disk.\n\
         Check the server's log (journalctl -u carepath) and the replica's storage and \
         credentials; docs/backup.md says how.\n\
         You get this email once per failure.\n"
    ));
    ("Carepath: backups are not replicating".to_owned(), body)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(seconds: i64) -> Timestamp {
        Timestamp::from_second(1_700_000_000 + seconds).unwrap()
    }

    #[test]
    fn replica_addresses_are_checked_and_shown_without_secrets() {
        let file = ReplicaUrl::parse("file:///var/backups/carepath").unwrap();
        assert_eq!(file.shown, "file:///var/backups/carepath");
        let s3 = ReplicaUrl::parse("s3://bucket/agency?endpoint=http://127.0.0.1:9000").unwrap();
        assert_eq!(s3.shown, "s3://bucket/agency");
        assert_eq!(s3.url, "s3://bucket/agency?endpoint=http://127.0.0.1:9000");
        for bad in [
            "",
            "/var/backups",
            "file://host/path",
            "file:///",
            "s3:///path",
            "gs://bucket/x",
            "https://example.org/x",
        ] {
            assert_eq!(
                ReplicaUrl::parse(bad).unwrap_err(),
                REPLICA_URL_HELP,
                "{bad}"
            );
        }
        assert!(
            ReplicaUrl::parse("s3://key:secret@bucket/x")
                .unwrap_err()
                .contains("environment")
        );
    }

    fn watch() -> ReplicationWatch {
        let replica = ReplicaUrl::parse("file:///backups/agency").unwrap();
        ReplicationWatch::new(
            &replica,
            SignedDuration::from_secs(1),
            SignedDuration::from_mins(15),
            at(0),
        )
    }

    fn synced(at_time: Timestamp) -> Observation {
        Observation {
            running: true,
            last_synced_at: Some(at_time),
            position: Some("0000000000000010".into()),
            error: None,
        }
    }

    #[test]
    fn a_fresh_sync_is_replicating_with_its_lag() {
        let mut watch = watch();
        watch.observe(
            at(1),
            Observation {
                running: true,
                ..Observation::default()
            },
        );
        assert_eq!(watch.status(at(1)).state, ReplicationState::Starting);
        watch.observe(at(5), synced(at(3)));
        let status = watch.status(at(5));
        assert_eq!(status.state, ReplicationState::Replicating);
        assert_eq!(status.lag_seconds, Some(2));
        assert_eq!(status.failing_since, None);
        assert_eq!(status.sync_interval_seconds, 1);
    }

    #[test]
    fn a_stopped_replicator_or_a_stale_replica_is_failing_and_alerts_once() {
        let mut watch = watch();
        watch.observe(at(5), synced(at(4)));
        watch.observe(
            at(10),
            Observation {
                running: false,
                last_synced_at: Some(at(4)),
                position: None,
                error: Some("exit status 1".into()),
            },
        );
        let status = watch.status(at(10));
        assert_eq!(status.state, ReplicationState::Failing);
        assert_eq!(status.last_error.as_deref(), Some("exit status 1"));
        assert!(!watch.alert_due(at(10 + 14 * 60)));
        assert!(watch.alert_due(at(10 + 15 * 60)));
        assert!(!watch.alert_due(at(10 + 16 * 60)), "only once");
        // It recovers, then a replica that stops confirming fails again and re-alerts.
        watch.observe(at(2000), synced(at(2000)));
        assert_eq!(watch.status(at(2000)).state, ReplicationState::Replicating);
        assert_eq!(watch.status(at(2000)).last_error, None);
        watch.observe(at(2061), synced(at(2000)));
        assert_eq!(watch.status(at(2061)).state, ReplicationState::Failing);
        assert!(watch.alert_due(at(2061 + 15 * 60)));
    }

    #[test]
    fn a_replicator_that_never_syncs_fails_after_the_stale_time() {
        let mut watch = watch();
        watch.observe(
            at(59),
            Observation {
                running: true,
                ..Observation::default()
            },
        );
        assert_eq!(watch.status(at(59)).state, ReplicationState::Starting);
        watch.observe(
            at(61),
            Observation {
                running: true,
                ..Observation::default()
            },
        );
        assert_eq!(watch.status(at(61)).state, ReplicationState::Failing);
    }

    #[test]
    fn the_alert_names_the_replica_and_the_error() {
        let mut watch = watch();
        watch.observe(
            at(10),
            Observation {
                running: false,
                error: Some("no such bucket".into()),
                ..Observation::default()
            },
        );
        let (subject, body) = alert_text(&watch.status(at(20)), "https://care.example.org");
        assert_eq!(subject, "Carepath: backups are not replicating");
        assert!(body.contains("file:///backups/agency"), "{body}");
        assert!(body.contains("no such bucket"), "{body}");
        assert!(body.contains("https://care.example.org"), "{body}");
    }
}
