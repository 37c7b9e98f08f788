//! `carepath`: one binary for the server, the terminal UI and the office's command-line
//! jobs. Each subcommand lives in its own module with a `run` function; this file only
//! parses arguments and maps errors to exit codes (0 ok, 1 failure, 2 bad usage).

mod backup;
mod contract;
mod db;
mod db_path;
mod demo;
mod digest;
mod doctor;
mod export;
mod fetch_replies;
mod import;
mod print;
mod remind;
mod restore;
mod serve;
mod tui;
mod user;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

// The server's choice, for every subcommand: one binary, one allocator.
#[global_allocator]
static ALLOCATOR: carepath_server::Allocator = carepath_server::Allocator;

#[derive(Parser)]
#[command(
    name = "carepath",
    version,
    about = "Carepath: the back office of a home-care agency",
    long_about = "Carepath moves every client lead through intake, assessment, care plan and contract.\n\
                  Run `carepath serve` for the web app, `carepath tui` for the terminal app, or one of\n\
                  the office commands below. Every command works on one SQLite file: --db FILE or\n\
                  CAREPATH_DB, by default in your data directory."
)]
struct Cli {
    /// The database file (created when missing).
    #[arg(long, global = true, env = "CAREPATH_DB", value_name = "FILE")]
    db: Option<PathBuf>,

    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Build a realistic demo agency: staff, clients in every stage, templates.
    Demo(demo::Args),
    /// Serve the web app and its JSON API (see README, "Serving the web app").
    Serve(serve::Args),
    /// Email each coordinator their overdue clients (a daily cron job).
    Digest(digest::Args),
    /// Send the visit reminders due now: the family's the day before, each assessor's
    /// summary of the day (for cron; `carepath serve` sends them on its own too).
    Remind(remind::Args),
    /// Read the reply mailbox once and keep each new reply (for cron; `carepath serve`
    /// reads it on its own too).
    FetchReplies(fetch_replies::Args),
    /// Export a list as CSV (intakes, clients, assessments, care-plans, contracts,
    /// communications, contacts), for spreadsheets and nightly jobs.
    Export(export::Args),
    /// Manage staff users: add, list, invite, set-password, grant-admin, revoke-admin,
    /// disable.
    User(user::Args),
    /// Import leads from CSV or spreadsheet files, list imports, undo an import.
    Import(import::Args),
    /// Print an intake, assessment, care plan or contract as a PDF (a contract signed
    /// online prints as its signed PDF).
    Print(print::Args),
    /// Contracts: verify that a PDF is the signed contract.
    Contract(contract::Args),
    /// Write a consistent, checked copy of the database (safe while Carepath runs).
    Backup(backup::Args),
    /// Restore the database from a replica written by `serve --replicate` (the newest
    /// copy or one at a moment); checks and migrates it.
    Restore(restore::Args),
    /// Database upkeep: integrity check and schema migration.
    Db(db::Args),
    /// The setup checklist: what the agency has still to set up; fails while a required
    /// item is missing.
    Doctor(doctor::Args),
    /// The terminal app: dashboard, lists, intake form and client view.
    Tui(tui::Args),
}

fn main() -> ExitCode {
    // Before any command can make an HTTP client or a TLS connection (serve, digest).
    carepath_server::install_crypto_provider();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let code = if error.use_stderr() { 2 } else { 0 };
            let _ = error.print();
            return ExitCode::from(code);
        }
    };
    let db = db_path::resolve(cli.db);
    let result = match cli.command {
        Command::Demo(args) => demo::run(&db, args),
        Command::Serve(args) => serve::run(&db, args),
        Command::Digest(args) => digest::run(&db, args),
        Command::Remind(args) => remind::run(&db, args),
        Command::FetchReplies(args) => fetch_replies::run(&db, args),
        Command::Export(args) => export::run(&db, args),
        Command::User(args) => user::run(&db, args),
        Command::Import(args) => import::run(&db, args),
        Command::Print(args) => print::run(&db, args),
        Command::Contract(args) => contract::run(&db, args),
        Command::Backup(args) => backup::run(&db, args),
        Command::Restore(args) => restore::run(&db, args),
        Command::Db(args) => db::run(&db, args),
        Command::Doctor(args) => doctor::run(&db, args),
        Command::Tui(args) => tui::run(&db, args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            // One line on stderr: the cause chain joined, never a backtrace.
            let message = error
                .chain()
                .map(|cause| cause.to_string())
                .collect::<Vec<_>>()
                .join(": ");
            eprintln!("carepath: {message}");
            ExitCode::from(1)
        }
    }
}
