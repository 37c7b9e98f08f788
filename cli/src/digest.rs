//! `carepath digest`: the daily email to each coordinator listing their overdue clients
//! (Settings → Notifications), for a cron job. Mail goes out like the server's: SMTP when
//! `CAREPATH_SMTP_URL` is set, otherwise the outbox.

use std::net::SocketAddr;
use std::path::Path;

use anyhow::Context;
use carepath_server::{Config, PublicUrl};

#[derive(clap::Args)]
#[command(after_help = "Example (every weekday at 7:00, in crontab):\n  \
    0 7 * * 1-5  carepath digest --db /srv/carepath/carepath.db --public-url https://care.example.org")]
pub struct Args {
    /// The address people open Carepath at; the digest's links start with it.
    #[arg(
        long,
        env = "CAREPATH_PUBLIC_URL",
        value_name = "URL",
        default_value = "http://127.0.0.1:8080"
    )]
    public_url: String,
}

pub fn run(db: &Path, args: Args) -> anyhow::Result<()> {
    let public_url = PublicUrl::parse(&args.public_url).context("--public-url")?;
    let addr: SocketAddr = ([127, 0, 0, 1], 0).into();
    let config = Config::new(addr, db.to_path_buf(), public_url).with_env();
    let sent = carepath_server::send_digests_blocking(config)?;
    println!("{sent} digest(s) sent");
    Ok(())
}
