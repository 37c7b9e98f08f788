//! `carepath backup`: a consistent copy of the live database, safe while the server and
//! the TUI are writing to it.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use carepath_core::store::Store;

#[derive(clap::Args)]
#[command(
    after_help = "The copy is taken with SQLite's online backup, checked, and renamed into\n\
    place only when complete. To restore, stop Carepath and copy the file back over the\n\
    database (or point --db at it).\n\n\
    Example (nightly, keeps one copy per weekday):\n  \
    carepath backup /var/backups/carepath/carepath-$(date +%a).db"
)]
pub struct Args {
    /// The backup file to write (replaced when it exists).
    file: PathBuf,
}

pub fn run(db: &Path, args: Args) -> anyhow::Result<()> {
    let store =
        Store::open_existing(db).with_context(|| format!("cannot open {}", db.display()))?;
    if same_file(db, &args.file) {
        bail!("the backup file cannot be the database itself");
    }
    store
        .backup_to(&args.file)
        .with_context(|| format!("backup to {} failed", args.file.display()))?;
    let bytes = std::fs::metadata(&args.file).map(|m| m.len()).unwrap_or(0);
    println!(
        "Backed up {} to {} ({bytes} bytes, checked).",
        db.display(),
        args.file.display()
    );
    Ok(())
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}
