//! `carepath doctor`: the setup checklist the dashboard shows administrators, printed
//! for whoever runs the machine. Exits non-zero while a required item is missing, so a
//! deployment script or a monitor can stop on it.

use std::path::Path;

use anyhow::Context;
use carepath_core::model::CheckState;
use carepath_core::store::{Deployment, Store};
use carepath_server::PublicUrl;

#[derive(clap::Args)]
pub struct Args {
    /// The address people open Carepath at (as given to `carepath serve`).
    #[arg(
        long,
        env = "CAREPATH_PUBLIC_URL",
        value_name = "URL",
        default_value = "http://127.0.0.1:8080"
    )]
    public_url: String,
}

pub fn run(db: &Path, args: Args) -> anyhow::Result<()> {
    if !db.exists() {
        anyhow::bail!("{} does not exist", db.display());
    }
    let public_url = PublicUrl::parse(&args.public_url).context("--public-url")?;
    let store = Store::open(db)?;
    let deployment = Deployment {
        public_url_https: public_url.https,
        sms_from_environment: std::env::var("CAREPATH_SMS_URL")
            .is_ok_and(|url| !url.trim().is_empty()),
        // Only the running server knows; its checklist and health show the replica.
        replication: carepath_core::model::ReplicationState::NotConfigured,
    };
    let checklist = store.checklist(deployment)?;
    let mut missing = 0;
    for item in &checklist.items {
        let (mark, note) = match item.state {
            CheckState::Done => ("ok  ", ""),
            CheckState::Missing if item.required => ("FAIL", " (required)"),
            CheckState::Missing => ("todo", ""),
            CheckState::NotConfigured => ("todo", " (not configured)"),
        };
        println!("[{mark}] {}{note}", item.title);
        if item.state != CheckState::Done {
            println!("       {}", item.why);
        }
        if item.required && item.state != CheckState::Done {
            missing += 1;
        }
    }
    if missing > 0 {
        anyhow::bail!("{missing} required setup item(s) missing");
    }
    println!("Carepath is set up.");
    Ok(())
}
