//! `carepath db`: database upkeep, the integrity check and schema migration.

use std::path::Path;

use anyhow::{Context, bail};
use carepath_core::store::{SCHEMA_VERSION, Store};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: DbCommand,
}

#[derive(clap::Subcommand)]
enum DbCommand {
    /// Check the database's integrity and foreign keys; exits 1 when problems are found.
    Check,
    /// Bring the database's schema up to date (every command also does this on open).
    Migrate,
}

pub fn run(db: &Path, args: Args) -> anyhow::Result<()> {
    match args.command {
        DbCommand::Check => {
            let store = Store::open_existing(db)
                .with_context(|| format!("cannot open {}", db.display()))?;
            let problems = store.check()?;
            if problems.is_empty() {
                println!("{}: ok (integrity and foreign keys).", db.display());
                return Ok(());
            }
            for problem in &problems {
                println!("{problem}");
            }
            bail!("{} problem(s) found in {}", problems.len(), db.display());
        }
        DbCommand::Migrate => {
            Store::open(db).with_context(|| format!("cannot open {}", db.display()))?;
            println!(
                "{}: schema version {SCHEMA_VERSION}, up to date.",
                db.display()
            );
        }
    }
    Ok(())
}
