//! `carepath contract verify FILE.pdf`: says whether a PDF is, byte for byte, a signed
//! contract Carepath made (it compares the file's SHA-256 with the ones kept at signing).

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use carepath_core::store::Store;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Say whether a PDF is exactly the signed contract Carepath made (exit 0), or not
    /// (exit 1: another file, or one changed after signing).
    #[command(after_help = "Example:\n  carepath contract verify signed-contract.pdf")]
    Verify {
        /// The PDF to check.
        file: PathBuf,
    },
}

pub fn run(db: &Path, args: Args) -> anyhow::Result<()> {
    match args.command {
        Command::Verify { file } => verify(db, &file),
    }
}

fn verify(db: &Path, file: &Path) -> anyhow::Result<()> {
    // Hashed as it is read: any file may be given, however large.
    let sha = std::fs::File::open(file)
        .and_then(|opened| {
            carepath_core::rules::signing::sha256_of(std::io::BufReader::new(opened))
        })
        .with_context(|| format!("cannot read {}", file.display()))?;
    let store =
        Store::open_existing(db).with_context(|| format!("cannot open {}", db.display()))?;
    let verdict = store.verify_signed_pdf_sha256(sha)?;
    if !verdict.matches {
        bail!(
            "{} is NOT the signed contract: {} (SHA-256 {})",
            file.display(),
            verdict.message,
            verdict.sha256
        );
    }
    println!(
        "{} is the signed contract. {}",
        file.display(),
        verdict.message
    );
    println!("SHA-256: {}", verdict.sha256);
    Ok(())
}
