//! `carepath import`: spreadsheet and CSV lead lists into intakes, with a per-row report,
//! duplicate detection, all-or-nothing loading and undo by batch.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use carepath_core::import::{LeadImportOptions, MAX_FILE_BYTES, OnDuplicate, too_large};
use carepath_core::model::{Actor, Channel};
use carepath_core::store::{ImportReport, Store};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: ImportCommand,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Duplicates {
    /// Leave the existing client alone and report the row.
    Skip,
    /// Fill the existing client's intake with the row's non-empty cells.
    Update,
    /// Create a new client anyway.
    Create,
}

#[derive(clap::Subcommand)]
enum ImportCommand {
    /// Import leads from a .csv, .xlsx or .ods file as submitted intakes.
    #[command(
        after_help = "The first row must name the columns. Common names are recognised:\n  \
        Name / Client Name / Full Name, First Name + Last Name, DOB / Date of Birth,\n  \
        Caller, Phone / Caller Phone, Email, Relationship, Address, City, State, Zip,\n  \
        Services, Source, Notes, Staff, Date, Coordinator, Hours per Week, …\n\
        Other columns are ignored unless mapped with --map \"Column=field\".\n\n\
        Every row is checked with the intake form's rules; nothing is written while any row\n\
        has a problem unless --skip-invalid is given. Rows that match a client (same phone,\n\
        same email, or same name and date of birth) are skipped by default. Importing the\n\
        same file again does nothing; `carepath import undo BATCH` removes a batch.\n\n\
        Examples:\n  \
        carepath import leads referrals.xlsx --dry-run\n  \
        carepath import leads referrals.xlsx --sheet March --map \"Referred By=howDidYouHear\"\n  \
        carepath import leads web-form.csv --skip-invalid --on-duplicate update"
    )]
    Leads {
        /// The lead file (.csv, .xlsx or .ods; at most 50 MB).
        file: PathBuf,
        /// Read a column as an intake field, e.g. "Referred By=howDidYouHear" or
        /// "Fax=ignore". Repeat for several columns.
        #[arg(long = "map", value_name = "COLUMN=FIELD")]
        maps: Vec<String>,
        /// The worksheet to read (default: the first).
        #[arg(long, value_name = "NAME")]
        sheet: Option<String>,
        /// Show what would be imported, skipped and refused; write nothing.
        #[arg(long)]
        dry_run: bool,
        /// What to do with a row that matches an existing client.
        #[arg(long, value_enum, default_value = "skip")]
        on_duplicate: Duplicates,
        /// Import the valid rows and report the others (default: all or nothing).
        #[arg(long)]
        skip_invalid: bool,
        /// Give the new leads whose row names no coordinator to this member of staff
        /// (their email); without it they are unassigned.
        #[arg(long, value_name = "EMAIL")]
        owner: Option<String>,
    },
    /// Remove every client an import batch created (refused once any has moved on).
    Undo {
        /// The batch id printed by the import (see `carepath import list`).
        batch: String,
    },
    /// List the import batches, newest first.
    List,
}

pub fn run(db: &Path, args: Args) -> anyhow::Result<()> {
    let mut store = Store::open(db).with_context(|| format!("cannot open {}", db.display()))?;
    let actor = Actor::system(Channel::Cli);
    match args.command {
        ImportCommand::Leads {
            file,
            maps,
            sheet,
            dry_run,
            on_duplicate,
            skip_invalid,
            owner,
        } => {
            let owner = match owner {
                Some(email) => {
                    let user = store
                        .user_by_email(&email)
                        .with_context(|| format!("no user with the email {email:?}"))?;
                    anyhow::ensure!(!user.disabled, "{email} is disabled and cannot own clients");
                    Some(user.id)
                }
                None => None,
            };
            let file_name = file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| file.display().to_string());
            let size = std::fs::metadata(&file)
                .with_context(|| format!("cannot read {}", file.display()))?
                .len();
            if size > MAX_FILE_BYTES {
                return Err(too_large(&file_name).into());
            }
            let bytes =
                std::fs::read(&file).with_context(|| format!("cannot read {}", file.display()))?;
            let options = LeadImportOptions {
                file_name,
                sheet,
                maps,
                on_duplicate: match on_duplicate {
                    Duplicates::Skip => OnDuplicate::Skip,
                    Duplicates::Update => OnDuplicate::Update,
                    Duplicates::Create => OnDuplicate::Create,
                },
                skip_invalid,
                dry_run,
                owner,
            };
            let bar = std::io::stderr().is_terminal().then(progress_bar);
            let mut progress = |done: usize, total: usize| {
                if let Some(bar) = &bar {
                    bar.set_length(total as u64);
                    bar.set_position(done as u64);
                }
            };
            let report = store.import_leads(&actor, &bytes, &options, &mut progress)?;
            if let Some(bar) = bar {
                bar.finish_and_clear();
            }
            print_report(&report)
        }
        ImportCommand::Undo { batch } => {
            let undone = store.undo_import(&actor, &batch)?;
            println!(
                "Undid import batch {} ({}): removed {} client(s).",
                undone.batch_id, undone.file_name, undone.removed
            );
            Ok(())
        }
        ImportCommand::List => {
            let batches = store.import_batches()?;
            if batches.is_empty() {
                println!("No imports yet.");
            }
            for batch in batches {
                println!(
                    "{}\t{}\t{}\tcreated {}, updated {}, skipped {}{}",
                    batch.id,
                    batch.created_at,
                    batch.file_name,
                    batch.rows_created,
                    batch.rows_updated,
                    batch.rows_skipped,
                    batch
                        .undone_at
                        .map(|at| format!(", undone {at}"))
                        .unwrap_or_default()
                );
            }
            Ok(())
        }
    }
}

fn progress_bar() -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(0);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "importing {bar:40} {pos}/{len} rows ({per_sec}, {eta} left)",
    ) {
        bar.set_style(style);
    }
    bar
}

/// The per-row report, then one summary line.
fn print_report(report: &ImportReport) -> anyhow::Result<()> {
    if let Some(batch) = &report.already_imported {
        println!(
            "{} was already imported on {} (batch {}): nothing to do.",
            report.file_name, batch.created_at, batch.id
        );
        return Ok(());
    }
    if report.dry_run {
        let columns: Vec<String> = report
            .columns
            .iter()
            .map(|(header, field)| match field {
                Some(field) => format!("{header} → {field}"),
                None => format!("{header} → (ignored)"),
            })
            .collect();
        println!("Columns: {}", columns.join(", "));
    }
    for issue in &report.invalid {
        println!("Row {}, {}: {}", issue.row, issue.column, issue.message);
    }
    for note in &report.skipped {
        println!(
            "Row {} ({}): skipped, {}",
            note.row, note.client_name, note.message
        );
    }
    for note in &report.updated {
        println!("Row {} ({}): {}", note.row, note.client_name, note.message);
    }
    let counts = format!(
        "{} row(s) read: {} new, {} updated, {} skipped, {} with problems",
        report.rows,
        report.created,
        report.updated.len(),
        report.skipped.len(),
        report.invalid_rows
    );
    if report.dry_run {
        println!(
            "Dry run of {}: {counts}. Nothing was written.",
            report.file_name
        );
        return Ok(());
    }
    if !report.committed {
        bail!(
            "nothing imported from {}: {} row(s) have problems (listed above); fix them or use --skip-invalid to import the other {} row(s)",
            report.file_name,
            report.invalid_rows,
            report.created + report.updated.len()
        );
    }
    let batch = report.batch_id.as_deref().unwrap_or("");
    println!(
        "Imported {}: {counts}. Batch {batch} (undo with: carepath import undo {batch}).",
        report.file_name
    );
    Ok(())
}
