//! `carepath demo`: a realistic demo agency in a new or existing database.

use std::path::Path;
use std::time::Instant;

use anyhow::Context;
use carepath_core::demo::{self, DemoOptions};
use carepath_core::store::Store;

#[derive(clap::Args)]
pub struct Args {
    /// How many clients to create.
    #[arg(long, default_value_t = 60)]
    clients: usize,
    /// Seed for the generator: the same seed gives the same agency.
    #[arg(long, default_value_t = 7)]
    seed: u64,
}

pub fn run(db: &Path, args: Args) -> anyhow::Result<()> {
    let started = Instant::now();
    let mut store = Store::open(db).with_context(|| format!("cannot open {}", db.display()))?;
    let report = demo::build(
        &mut store,
        &DemoOptions {
            clients: args.clients,
            seed: args.seed,
        },
    )
    .context("cannot build the demo agency")?;
    println!(
        "Demo agency ready in {}: {} clients, {} staff ({:.1} s).",
        db.display(),
        report.clients,
        report.users,
        started.elapsed().as_secs_f64()
    );
    println!(
        "Sign in as admin: {} / {}",
        report.admin_email, report.password
    );
    println!(
        "Sign in as staff: {} / {}",
        report.staff_email, report.password
    );
    Ok(())
}
