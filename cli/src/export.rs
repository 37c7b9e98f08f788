//! `carepath export`: one list as a CSV file, streamed row by row and written
//! atomically, for nightly jobs and spreadsheets; `carepath export handoff` the signed
//! clients for the scheduling system, as CSV or JSON (docs/handoff.md).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;
use carepath_core::export::handoff::HandoffFormat;
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
    /// The signed clients' hand-off to care, for the scheduling system.
    Handoff,
}

/// The hand-off's file formats.
#[derive(Clone, Copy, Default, clap::ValueEnum)]
pub enum Format {
    #[default]
    Csv,
    Json,
}

impl From<Format> for HandoffFormat {
    fn from(format: Format) -> Self {
        match format {
            Format::Csv => HandoffFormat::Csv,
            Format::Json => HandoffFormat::Json,
        }
    }
}

impl Kind {
    /// The list export of this kind; None for the hand-off, which has its own.
    fn list(self) -> Option<ExportKind> {
        Some(match self {
            Kind::Intakes => ExportKind::Intakes,
            Kind::Clients => ExportKind::Clients,
            Kind::Assessments => ExportKind::Assessments,
            Kind::CarePlans => ExportKind::CarePlans,
            Kind::Contracts => ExportKind::Contracts,
            Kind::Communications => ExportKind::Communications,
            Kind::Contacts => ExportKind::Contacts,
            Kind::Handoff => return None,
        })
    }
}

#[derive(clap::Args)]
#[command(after_help = "Examples:\n  \
    carepath export clients                      writes clients_YYYY-MM-DD.csv here\n  \
    carepath export contracts --out -            prints the CSV\n  \
    carepath export intakes --since yesterday --out /backups/exports/\n  \
    carepath export handoff --since 2025-01-31   clients signed since, for scheduling\n  \
    carepath export handoff --format json -o -   the same as JSON\n\n\
    The columns of each export are listed in docs/cli.md, the hand-off's in docs/handoff.md.")]
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
    /// Also export records that were deleted (moved to trash). Not for the hand-off.
    #[arg(long)]
    include_deleted: bool,
    /// The hand-off's format: csv (the default) or json. Other exports are CSV.
    #[arg(long, value_enum)]
    format: Option<Format>,
}

pub fn run(db: &Path, args: Args) -> anyhow::Result<()> {
    let store =
        Store::open_existing(db).with_context(|| format!("cannot open {}", db.display()))?;
    let since = match &args.since {
        Some(text) => Some(parse_since(text, &store.clock()?)?),
        None => None,
    };
    let Some(kind) = args.kind.list() else {
        anyhow::ensure!(
            !args.include_deleted,
            "The hand-off has only signed clients: --include-deleted does not apply."
        );
        return handoff(
            &store,
            since,
            args.format.unwrap_or_default().into(),
            args.out,
        );
    };
    anyhow::ensure!(
        args.format.is_none(),
        "--format is for the hand-off; the {kind} export is CSV."
    );
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

/// `carepath export handoff`: the clients signed since then (all without `--since`).
fn handoff(
    store: &Store,
    since: Option<jiff::Timestamp>,
    format: HandoffFormat,
    out: Option<PathBuf>,
) -> anyhow::Result<()> {
    if out.as_deref() == Some(Path::new("-")) {
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        let n = store.export_handoff(since, format, &mut out)?;
        out.flush().context("cannot write to standard output")?;
        eprintln!("Exported {}.", clients(n));
        return Ok(());
    }
    let default_name = store.handoff_file_name(format)?;
    let target = match out {
        None => PathBuf::from(default_name),
        Some(path) if path.is_dir() => path.join(default_name),
        Some(path) => path,
    };
    let n = write_atomically(&target, |file| {
        Ok(store.export_handoff(since, format, file)?)
    })?;
    println!("Exported {} to {}.", clients(n), target.display());
    Ok(())
}

fn clients(n: u64) -> String {
    if n == 1 {
        "1 signed client".to_owned()
    } else {
        format!("{n} signed clients")
    }
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
