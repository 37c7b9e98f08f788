//! `carepath restore`: brings the database back from a Litestream replica (the one
//! `carepath serve --replicate` writes), checks it and migrates it before it takes the
//! database's place. It never replaces an existing database unless told to.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, bail};
use carepath_core::rules::replication::ReplicaUrl;
use carepath_core::store::{SCHEMA_VERSION, Store};

#[derive(clap::Args)]
#[command(after_help = "Stop Carepath first. Examples:\n  \
    carepath restore --from s3://agency-backups/carepath --db /var/lib/carepath/carepath.db\n  \
    carepath restore --from file:///srv/replica --at 2026-03-01T09:30:00Z --db /tmp/then.db\n\n\
    For s3:// replicas, Litestream reads AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY from\n\
    the environment; another S3-compatible store goes in the address:\n  \
    s3://bucket/path?endpoint=https://s3.example.com&region=eu-1")]
pub struct Args {
    /// The replica: file:///path or s3://bucket/path.
    #[arg(long, value_name = "URL")]
    from: String,

    /// Restore the database as it was at this moment (RFC 3339, e.g.
    /// 2026-03-01T09:30:00Z) instead of the newest copy.
    #[arg(long, value_name = "TIME")]
    at: Option<String>,

    /// Replace the database when it exists (stop Carepath first).
    #[arg(long)]
    force: bool,

    /// The Litestream binary.
    #[arg(
        long,
        env = "CAREPATH_LITESTREAM",
        default_value = "litestream",
        value_name = "PATH"
    )]
    litestream: PathBuf,
}

pub fn run(db: &Path, args: Args) -> anyhow::Result<()> {
    let replica = ReplicaUrl::parse(&args.from).map_err(anyhow::Error::msg)?;
    let at = args
        .at
        .as_deref()
        .map(|at| {
            at.trim()
                .parse::<jiff::Timestamp>()
                .map_err(|_| anyhow::anyhow!("--at must be a moment such as 2026-03-01T09:30:00Z"))
        })
        .transpose()?;
    let existing = [db.to_path_buf(), sidecar(db, "-wal")]
        .into_iter()
        .any(|path| path.exists());
    if existing && !args.force {
        bail!(
            "{} already exists; nothing was changed. Stop Carepath and run again with \
             --force to replace it, or restore into another file with --db",
            db.display()
        );
    }
    if let Some(parent) = db.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
    }
    // Restored beside the database and moved over it only once it has passed its checks.
    let staging = sidecar(db, ".restoring");
    remove_database(&staging)?;
    let mut command = Command::new(&args.litestream);
    command.arg("restore").arg("-o").arg(&staging);
    if let Some(at) = at {
        command.arg("-timestamp").arg(at.to_string());
    }
    let output = command
        .arg(&replica.url)
        .stdin(Stdio::null())
        .output()
        .with_context(|| {
            format!(
                "cannot run Litestream ({}); install it (scripts/setup does) or set \
                 CAREPATH_LITESTREAM",
                args.litestream.display()
            )
        })?;
    if !output.status.success() || !staging.exists() {
        let said = String::from_utf8_lossy(&output.stderr);
        let said = said
            .lines()
            .rev()
            .find(|line| !line.trim().is_empty())
            .unwrap_or("");
        remove_database(&staging)?;
        let hint = if at.is_some() && said.contains("timestamp does not exist") {
            " (--at must fall between the replica's oldest and newest change; leave it out \
             for the newest copy)"
        } else {
            ""
        };
        bail!(
            "nothing could be restored from {}: {}{hint}",
            replica.shown,
            if said.is_empty() {
                "no copy found"
            } else {
                said.trim()
            }
        );
    }
    let checked = check_and_migrate(&staging);
    if let Err(error) = checked {
        remove_database(&staging)?;
        return Err(error);
    }
    if args.force {
        remove_database(db)?;
        // Litestream's record of what it shipped from the old file; it would not match
        // the restored one.
        let state = litestream_state_dir(db);
        if state.is_dir() {
            std::fs::remove_dir_all(&state)
                .with_context(|| format!("cannot remove {}", state.display()))?;
        }
    }
    std::fs::rename(&staging, db)
        .with_context(|| format!("cannot move the restored copy to {}", db.display()))?;
    let bytes = std::fs::metadata(db).map(|m| m.len()).unwrap_or(0);
    let moment = at.map_or("the newest copy".to_owned(), |at| format!("as of {at}"));
    println!(
        "Restored {} from {} ({moment}, {bytes} bytes): integrity ok, schema version \
         {SCHEMA_VERSION}.",
        db.display(),
        replica.shown
    );
    Ok(())
}

/// The integrity and foreign-key check, then the migrations this build has.
fn check_and_migrate(path: &Path) -> anyhow::Result<()> {
    {
        let store = Store::open_existing(path).context("the restored copy cannot be opened")?;
        let problems = store.check()?;
        if !problems.is_empty() {
            bail!(
                "the restored copy failed its integrity check ({} problem(s)): {}",
                problems.len(),
                problems.join("; ")
            );
        }
    }
    // Closing the last connection folds the WAL into the file before it is moved.
    Store::open(path).context("the restored copy cannot be migrated")?;
    Ok(())
}

fn sidecar(db: &Path, suffix: &str) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Where Litestream keeps its own state for a database: `.NAME-litestream` beside it.
fn litestream_state_dir(db: &Path) -> PathBuf {
    let name = db
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    db.with_file_name(format!(".{name}-litestream"))
}

fn remove_database(path: &Path) -> anyhow::Result<()> {
    for file in [
        path.to_path_buf(),
        sidecar(path, "-wal"),
        sidecar(path, "-shm"),
    ] {
        match std::fs::remove_file(&file) {
            Ok(()) => {}
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(error) => {
                return Err(error).with_context(|| format!("cannot remove {}", file.display()));
            }
        }
    }
    Ok(())
}
