//! `carepath remind`: sends the visit reminders due now (the family's the day before a
//! visit, each assessor's summary of the day; times in Settings → Notifications), for a
//! cron job when the server's own scheduler is not wanted. Mail goes out like the
//! server's: SMTP when `CAREPATH_SMTP_URL` is set, otherwise the outbox.

use std::net::SocketAddr;
use std::path::Path;

use carepath_server::{Config, PublicUrl};

#[derive(clap::Args)]
#[command(after_help = "Example (every five minutes, in crontab):\n  \
    */5 * * * *  carepath remind --db /srv/carepath/carepath.db")]
pub struct Args {}

pub fn run(db: &Path, _args: Args) -> anyhow::Result<()> {
    let addr: SocketAddr = ([127, 0, 0, 1], 0).into();
    let public_url = PublicUrl::parse("http://127.0.0.1:8080")?;
    let config = Config::new(addr, db.to_path_buf(), public_url).with_env();
    let round = carepath_server::send_reminders_blocking(config)?;
    println!("{} reminder(s) sent", round.sent);
    if round.failed > 0 {
        anyhow::bail!(
            "{} reminder(s) could not be sent; they are tried again on the next run",
            round.failed
        );
    }
    Ok(())
}
