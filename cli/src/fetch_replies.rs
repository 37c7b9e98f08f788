//! `carepath fetch-replies`: reads the reply mailbox Settings → Email name once and keeps
//! each new reply (on its client's timeline, or in the Unmatched list), for a cron job
//! when the server's own fetcher is off (`serve --reply-interval 0`).

use std::net::SocketAddr;
use std::path::Path;

use carepath_server::{Config, PublicUrl};

#[derive(clap::Args)]
#[command(after_help = "Example (every five minutes, in crontab):\n  \
    */5 * * * *  carepath fetch-replies --db /srv/carepath/carepath.db")]
pub struct Args {}

pub fn run(db: &Path, _args: Args) -> anyhow::Result<()> {
    let addr: SocketAddr = ([127, 0, 0, 1], 0).into();
    let public_url = PublicUrl::parse("http://127.0.0.1:8080")?;
    let config = Config::new(addr, db.to_path_buf(), public_url).with_env();
    let round = carepath_server::fetch_replies_blocking(config)?;
    println!(
        "{} new repl{} ({} from unknown senders), {} fetched before",
        round.kept.len(),
        if round.kept.len() == 1 { "y" } else { "ies" },
        round.unmatched(),
        round.known
    );
    Ok(())
}
