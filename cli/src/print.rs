//! `carepath print`: the intake form, assessment, care plan letter, contract or an
//! assessment visit's packet as a PDF, one record or every client in a stage.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use carepath_core::pdf::PrintKind;
use carepath_core::store::{ClientQuery, StageFilter, Store};

use crate::export::write_atomically;

#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Kind {
    Intake,
    Assessment,
    CarePlan,
    Contract,
    /// An assessment visit's packet (the id is the visit's).
    Packet,
}

impl From<Kind> for PrintKind {
    fn from(kind: Kind) -> Self {
        match kind {
            Kind::Intake => PrintKind::Intake,
            Kind::Assessment => PrintKind::Assessment,
            Kind::CarePlan => PrintKind::CarePlan,
            Kind::Contract => PrintKind::Contract,
            Kind::Packet => PrintKind::Packet,
        }
    }
}

#[derive(clap::Args)]
#[command(after_help = "Examples:\n  \
    carepath print intake 0195f0c2-… -o rose-lee-intake.pdf\n  \
    carepath print care-plan --all-stage care-plan -o proposals/\n  \
    carepath print packet 0195f0c3-… -o visit-packet.pdf\n\n\
    Pages are US letter with 0.5 inch margins; the agency's name, address, phone and fax\n\
    come from Settings (General).")]
pub struct Args {
    /// What to print.
    kind: Kind,
    /// The record's id (as shown in exports and the web app's addresses).
    #[arg(required_unless_present = "all_stage")]
    id: Option<String>,
    /// The PDF file to write, or with --all-stage the folder to write into.
    #[arg(long, short = 'o', value_name = "FILE")]
    out: PathBuf,
    /// Print the document of every client in a stage (intake, assessment, care-plan,
    /// contract, archived), one file each.
    #[arg(long, value_name = "STAGE", conflicts_with = "id")]
    all_stage: Option<String>,
}

pub fn run(db: &Path, args: Args) -> anyhow::Result<()> {
    let store =
        Store::open_existing(db).with_context(|| format!("cannot open {}", db.display()))?;
    let kind = PrintKind::from(args.kind);
    let Some(stage) = args.all_stage else {
        let id = args.id.unwrap_or_default();
        write_atomically(&args.out, |file| Ok(store.print(kind, id.trim(), file)?))?;
        println!(
            "Printed {} {} to {}.",
            kind.name(),
            id.trim(),
            args.out.display()
        );
        return Ok(());
    };

    if kind == PrintKind::Packet {
        bail!("a packet is printed for one visit: give the visit's id instead of --all-stage");
    }
    let filter = StageFilter::parse(stage.trim()).with_context(|| {
        format!(
            "unknown stage \"{stage}\": use intake, assessment, care-plan, contract or archived"
        )
    })?;
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    let mut query = ClientQuery {
        stage: Some(filter),
        limit: Some(200),
        ..ClientQuery::default()
    };
    let (mut printed, mut missing) = (0, 0);
    loop {
        let page = store.clients_page(&query)?;
        for client in &page.items {
            let intake = &client.intake;
            let position = &client.position;
            let id = match kind {
                PrintKind::Intake => Some(intake.id.as_str().to_owned()),
                PrintKind::Assessment => position
                    .latest_assessment_id
                    .as_ref()
                    .map(|i| i.as_str().to_owned()),
                PrintKind::CarePlan => position
                    .latest_care_plan_id
                    .as_ref()
                    .map(|i| i.as_str().to_owned()),
                PrintKind::Contract => position
                    .latest_contract_id
                    .as_ref()
                    .map(|i| i.as_str().to_owned()),
                PrintKind::Packet => None,
            };
            let Some(id) = id else {
                missing += 1;
                continue;
            };
            let target = args
                .out
                .join(file_name(kind, &intake.client_full_name, &id));
            write_atomically(&target, |file| Ok(store.print(kind, &id, file)?))?;
            printed += 1;
        }
        match page.next_cursor {
            Some(cursor) => query.cursor = Some(cursor),
            None => break,
        }
    }
    if printed == 0 && missing == 0 {
        bail!("no clients in stage {stage}");
    }
    println!(
        "Printed {printed} {} PDF(s) to {}{}.",
        kind.name(),
        args.out.display(),
        if missing > 0 {
            format!(" ({missing} client(s) have no {} yet)", kind.name())
        } else {
            String::new()
        }
    );
    Ok(())
}

/// `{client}-{kind}-{short id}.pdf`, safe on every file system.
fn file_name(kind: PrintKind, client: &str, id: &str) -> String {
    let name: String = client
        .chars()
        .map(|c| {
            if c.is_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect::<String>()
        .split('-')
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    let short: String = id
        .chars()
        .rev()
        .take(8)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    format!("{name}-{}-{short}.pdf", kind.name())
}
