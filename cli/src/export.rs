//! `carepath export`: one list as a CSV file, streamed row by row and written
//! atomically, for nightly jobs and spreadsheets.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;
use carepath_core::export::{ExportKind, ExportOptions, parse_since};
use carepath_core::store::Store;

/// The lists that can be exported.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Kind {
    Intakes,
    Clients,
    Assessments,
    CarePlans,
    Contracts,
    Communications,
    Contacts,
}

impl From<Kind> for ExportKind {
    fn from(kind: Kind) -> Self {
        match kind {
            Kind::Intakes => ExportKind::Intakes,
            Kind::Clients => ExportKind::Clients,
            Kind::Assessments => ExportKind::Assessments,
            Kind::CarePlans => ExportKind::CarePlans,
            Kind::Contracts => ExportKind::Contracts,
            Kind::Communications => ExportKind::Communications,
            Kind::Contacts => ExportKind::Contacts,
        }
    }
}

#[derive(clap::Args)]
#[command(after_help = "Examples:\n  \
    carepath export clients                      writes clients_YYYY-MM-DD.csv here\n  \
    carepath export contracts --out -            prints the CSV\n  \
    carepath export intakes --since yesterday --out /backups/exports/\n\n\
    The columns of each export are listed in docs/cli.md.")]
pub struct Args {
    /// Which list to export.
    kind: Kind,
    /// Where to write: a file, a folder (the default file name inside it) or - for
    /// standard output. Default: {name}_{date}.csv in the current folder.
    #[arg(long, short = 'o', value_name = "FILE")]
    out: Option<PathBuf>,
    /// Only rows created or changed since then: a date (2025-01-31), today, yesterday,
    /// a number of days (7d) or a UTC time (2025-01-31T02:00:00Z).
    #[arg(long, value_name = "WHEN")]
    since: Option<String>,
    /// Also export records that were deleted (moved to trash).
    #[arg(long)]
    include_deleted: bool,
}

pub fn run(db: &Path, args: Args) -> anyhow::Result<()> {
    let store =
        Store::open_existing(db).with_context(|| format!("cannot open {}", db.display()))?;
    let kind = ExportKind::from(args.kind);
    let since = match &args.since {
        Some(text) => Some(parse_since(text, &store.clock()?)?),
        None => None,
    };
    let options = ExportOptions {
        since,
        include_deleted: args.include_deleted,
        ..ExportOptions::default()
    };

    if args.out.as_deref() == Some(Path::new("-")) {
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        let summary = store.export(kind, &options, &mut out)?;
        out.flush().context("cannot write to standard output")?;
        eprintln!("Exported {}.", rows(summary.rows));
        return Ok(());
    }

    let default_name = store.export_file_name(kind)?;
    let target = match args.out {
        None => PathBuf::from(default_name),
        Some(path) if path.is_dir() => path.join(default_name),
        Some(path) => path,
    };
    let summary = write_atomically(&target, |file| Ok(store.export(kind, &options, file)?))?;
    println!("Exported {} to {}.", rows(summary.rows), target.display());
    Ok(())
}

/// Writes through a temporary file in the target's folder and renames it into place, so
/// a job that dies half way never leaves half a file under the real name.
pub fn write_atomically<T>(
    target: &Path,
    write: impl FnOnce(&mut std::fs::File) -> anyhow::Result<T>,
) -> anyhow::Result<T> {
    let folder = match target.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut partial = tempfile::Builder::new()
        .prefix(".carepath-")
        .suffix(".partial")
        .tempfile_in(&folder)
        .with_context(|| format!("cannot write in {}", folder.display()))?;
    let value = write(partial.as_file_mut())?;
    partial
        .as_file()
        .sync_all()
        .with_context(|| format!("cannot write {}", target.display()))?;
    partial
        .persist(target)
        .with_context(|| format!("cannot write {}", target.display()))?;
    Ok(value)
}

fn rows(n: u64) -> String {
    if n == 1 {
        "1 row".to_owned()
    } else {
        format!("{n} rows")
    }
}
