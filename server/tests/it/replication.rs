//! `serve --replicate`: administrators see where replication stands in the health check
//! (strangers and staff still get the terse answer), and are emailed once when it has
//! failed for the set time. A stand-in Litestream that fails at once plays the broken
//! replica; a real one, when installed, replicates to a folder.

use std::path::{Path, PathBuf};
use std::time::Duration;

use carepath_core::rules::replication::ReplicaUrl;
use carepath_server::replication::ReplicationConfig;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::support::{ADMIN, TestServer, expect_json, outbox_emails, readable};

const SUBJECT: &str = "Carepath: backups are not replicating";

/// A Litestream that answers its version and fails every replication, as one whose
/// bucket refuses its credentials does.
fn failing_litestream(dir: &Path) -> PathBuf {
    let path = dir.join("litestream-failing");
    std::fs::write(
        &path,
        "#!/bin/sh\n\
         if [ \"$1\" = version ]; then echo v0.5.17; exit 0; fi\n\
         echo 'time=2026-01-01T00:00:00Z level=ERROR msg=\"cannot replicate\" error=\"AccessDenied\"' >&2\n\
         exit 1\n",
    )
    .expect("write script");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    path
}

async fn replication_of(server: &TestServer) -> Value {
    let admin = server.admin().await;
    let body = expect_json(admin.get("/api/health").await, StatusCode::OK).await;
    body["replication"].clone()
}

#[tokio::test]
async fn a_failing_replica_shows_to_administrators_and_emails_them_once() {
    let scripts = tempfile::tempdir().expect("temp dir");
    let litestream = failing_litestream(scripts.path());
    let server = TestServer::start_with(|config| {
        let mut replicate =
            ReplicationConfig::new(ReplicaUrl::parse("s3://agency-backups/carepath").unwrap());
        replicate.litestream = litestream;
        replicate.alert_after = Duration::from_millis(500);
        replicate.poll = Duration::from_millis(100);
        config.replicate = Some(replicate);
    })
    .await;
    // Strangers and staff learn nothing about it.
    let anonymous = expect_json(server.anonymous().get("/api/health").await, StatusCode::OK).await;
    assert_eq!(anonymous, json!({"status": "ok"}));
    let staff = server.staff().await;
    assert_eq!(
        expect_json(staff.get("/api/health").await, StatusCode::OK).await,
        json!({"status": "ok"})
    );

    let mut replication = Value::Null;
    let mut alerts = Vec::new();
    for _ in 0..100 {
        replication = replication_of(&server).await;
        alerts = outbox_emails(&server)
            .into_iter()
            .map(|email| readable(&email))
            .filter(|email| email.contains(SUBJECT))
            .collect();
        if replication["state"] == "failing" && !alerts.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(replication["state"], "failing", "{replication}");
    assert_eq!(replication["replica"], "s3://agency-backups/carepath");
    assert!(replication["failingSince"].is_string(), "{replication}");
    assert_eq!(replication["lastReplicatedAt"], Value::Null);
    assert_eq!(replication["syncIntervalSeconds"], 1);
    assert_eq!(alerts.len(), 1, "one email, to the one administrator");
    let alert = &alerts[0];
    assert!(alert.contains(ADMIN.0), "{alert}");
    assert!(alert.contains("s3://agency-backups/carepath"), "{alert}");
    assert!(
        alert.contains("AccessDenied") || alert.contains("Litestream stopped"),
        "{alert}"
    );
    // Still failing a while later: no second email.
    tokio::time::sleep(Duration::from_millis(800)).await;
    let again = outbox_emails(&server)
        .into_iter()
        .filter(|email| readable(email).contains(SUBJECT))
        .count();
    assert_eq!(again, 1);
}

#[tokio::test]
async fn without_replication_administrators_are_told_it_is_not_configured() {
    let server = TestServer::start().await;
    let replication = replication_of(&server).await;
    assert_eq!(replication["state"], "notConfigured", "{replication}");
}

#[tokio::test]
async fn a_real_litestream_replicates_to_a_folder_and_reports_its_last_sync() {
    let installed = std::process::Command::new("litestream")
        .arg("version")
        .output()
        .is_ok_and(|output| output.status.success());
    if !installed {
        println!("skipped: litestream is not installed (scripts/setup installs it)");
        return;
    }
    let replica_dir = tempfile::tempdir().expect("temp dir");
    let url = format!("file://{}", replica_dir.path().join("replica").display());
    let server = TestServer::start_with(|config| {
        let mut replicate = ReplicationConfig::new(ReplicaUrl::parse(&url).unwrap());
        replicate.poll = Duration::from_millis(200);
        config.replicate = Some(replicate);
    })
    .await;
    let mut replication = Value::Null;
    for _ in 0..100 {
        replication = replication_of(&server).await;
        if replication["state"] == "replicating" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(replication["state"], "replicating", "{replication}");
    assert!(replication["lastReplicatedAt"].is_string(), "{replication}");
    assert!(
        replication["lagSeconds"]
            .as_u64()
            .is_some_and(|lag| lag <= 5),
        "{replication}"
    );
    assert!(replication["position"].is_string(), "{replication}");
    assert!(replica_dir.path().join("replica").join("ltx").is_dir());
}
