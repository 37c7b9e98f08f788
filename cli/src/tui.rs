//! `carepath tui`: the terminal app over the same database as the server.

use std::path::Path;

#[derive(clap::Args)]
pub struct Args {
    /// Act as this staff user (recorded in the audit log); default: the first admin.
    #[arg(long = "as", value_name = "EMAIL")]
    as_email: Option<String>,
}

pub fn run(db: &Path, args: Args) -> anyhow::Result<()> {
    carepath_tui::run(db, args.as_email.as_deref())
}
