//! `carepath serve`: the web app and its JSON API over one database file. Outbound
//! adapters are set up from the environment (see the README's "Serving the web app").

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context;
use carepath_core::rules::replication::ReplicaUrl;
use carepath_server::config::sign_in_burst_from_env;
use carepath_server::replication::ReplicationConfig;
use carepath_server::{Config, PublicUrl};

#[derive(clap::Args)]
pub struct Args {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080", env = "CAREPATH_ADDR")]
    addr: SocketAddr,

    /// The address people open, e.g. https://care.example.org. Sign-in links and the
    /// Origin check use it; the session cookie is Secure when it is https. Default:
    /// http://<addr>.
    #[arg(long, env = "CAREPATH_PUBLIC_URL", value_name = "URL")]
    public_url: Option<String>,

    /// Replicate the database continuously to file:///path or s3://bucket/path with
    /// Litestream, run beside the server (see docs/backup.md). S3 credentials come from
    /// AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY; another S3-compatible store is named
    /// in the address (?endpoint=https://…&region=…).
    #[arg(long, env = "CAREPATH_REPLICATE", value_name = "URL")]
    replicate: Option<String>,

    /// The Litestream binary for --replicate.
    #[arg(
        long,
        env = "CAREPATH_LITESTREAM",
        default_value = "litestream",
        value_name = "PATH"
    )]
    litestream: PathBuf,

    /// Email the administrators when replication has failed for this many minutes.
    #[arg(
        long,
        env = "CAREPATH_REPLICATION_ALERT_MINUTES",
        default_value_t = 15,
        value_name = "MINUTES"
    )]
    replication_alert_minutes: u64,

    /// Read the reply mailbox (Settings → Email) every this many seconds; 0 turns it off
    /// (then run `carepath fetch-replies` from cron).
    #[arg(
        long,
        env = "CAREPATH_REPLY_INTERVAL",
        default_value_t = 120,
        value_name = "SECONDS"
    )]
    reply_interval: u64,

    /// Look for visit reminders due every this many seconds; 0 turns the scheduler off
    /// (then run `carepath remind` from cron).
    #[arg(
        long,
        env = "CAREPATH_REMINDER_INTERVAL",
        default_value_t = 60,
        value_name = "SECONDS"
    )]
    reminder_interval: u64,

    /// Print the API's OpenAPI document (JSON) and exit.
    #[arg(long)]
    print_openapi: bool,
}

pub fn run(db: &Path, args: Args) -> anyhow::Result<()> {
    if args.print_openapi {
        print!("{}", carepath_server::openapi_json());
        return Ok(());
    }
    let public_url = args
        .public_url
        .unwrap_or_else(|| format!("http://{}", args.addr));
    let public_url = PublicUrl::parse(&public_url).context("--public-url")?;
    let mut config = Config::new(args.addr, db.to_path_buf(), public_url).with_env();
    if let Some(burst) = sign_in_burst_from_env().map_err(anyhow::Error::msg)? {
        config.auth_burst = burst;
    }
    config.reply_interval = Duration::from_secs(args.reply_interval);
    config.reminder_interval = Duration::from_secs(args.reminder_interval);
    if let Some(replicate) = args.replicate {
        let replica = ReplicaUrl::parse(&replicate)
            .map_err(anyhow::Error::msg)
            .context("--replicate")?;
        let mut replication = ReplicationConfig::new(replica);
        replication.litestream = args.litestream;
        replication.alert_after = Duration::from_secs(args.replication_alert_minutes.max(1) * 60);
        config.replicate = Some(replication);
    }
    carepath_server::serve_blocking(config)
}
