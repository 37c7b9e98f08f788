//! Store benchmark: builds a demo agency of N clients (default 100000) and prints how long
//! that took, how long list pages, counts, search and the dashboard take on it, and the
//! query plans of a filtered page. Run: `cargo run --release -p carepath-core --example
//! bench_store -- [CLIENTS] [DB_FILE]`.

use std::time::{Duration, Instant};

use carepath_core::demo::{DemoOptions, build};
use carepath_core::model::Stage;
use carepath_core::rules::stage::ClientUrgency;
use carepath_core::store::{ClientQuery, StageFilter, Store};

fn time<T>(label: &str, runs: u32, mut f: impl FnMut() -> T) -> T {
    let mut best = Duration::MAX;
    let mut value = None;
    for _ in 0..runs {
        let started = Instant::now();
        value = Some(f());
        best = best.min(started.elapsed());
    }
    println!("{label:<58} {:>9.2} ms", best.as_secs_f64() * 1000.0);
    value.expect("at least one run")
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let clients: usize = args
        .next()
        .map(|a| a.parse())
        .transpose()?
        .unwrap_or(100_000);
    let dir = tempfile_dir()?;
    let path = args
        .next()
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| dir.join("bench.db"));
    let fresh = !path.exists();
    let mut store = Store::open(&path)?;
    if fresh {
        let started = Instant::now();
        build(&mut store, &DemoOptions { clients, seed: 7 })?;
        println!(
            "demo agency of {clients} clients built in {:.1} s",
            started.elapsed().as_secs_f64()
        );
    }

    time(
        "dashboard (counts, follow-ups today, recent 10)",
        20,
        || store.dashboard().map(|d| d.recent_activity.len()),
    )?;
    let first = time(
        "clients page 1 (no filter, 50 rows, with 7 counts)",
        20,
        || store.clients_page(&ClientQuery::default()),
    )?;
    let filtered = ClientQuery {
        stage: Some(StageFilter::Intake),
        urgency: Some(ClientUrgency::Overdue),
        ..ClientQuery::default()
    };
    time("clients page 1, stage intake + overdue", 20, || {
        store.clients_page(&filtered)
    })?;
    let on_track = ClientQuery {
        stage: Some(StageFilter::CarePlan),
        urgency: Some(ClientUrgency::OnTrack),
        ..ClientQuery::default()
    };
    time("clients page 1, stage care plan + on track", 20, || {
        store.clients_page(&on_track)
    })?;

    // Walk deep into the list and time a page there: keyset paging costs the same.
    let mut cursor = first.next_cursor.clone();
    let mut pages = 1;
    while pages < 1_000 {
        let page = store.clients_page(&ClientQuery {
            cursor: cursor.clone(),
            ..ClientQuery::default()
        })?;
        pages += 1;
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    time(
        &format!("clients page {pages} (deep, by cursor)"),
        20,
        || {
            store.clients_page(&ClientQuery {
                cursor: cursor.clone(),
                ..ClientQuery::default()
            })
        },
    )?;
    time("search \"smi\" (trigram)", 20, || store.search("smi"))?;
    time("search \"Ma\" (2-character prefix)", 20, || {
        store.search("Ma")
    })?;
    time("intakes awaiting assessment", 5, || {
        store.intakes_awaiting_assessment()
    })?;
    let today = store.clock()?.today();
    let year = carepath_core::store::AnalyticsRange::parse(
        Some(
            &today
                .saturating_sub(jiff::Span::new().days(364))
                .to_string(),
        ),
        None,
        today,
    )?;
    time("analytics (a year)", 3, || store.analytics(year))?;

    for urgency in [
        ClientUrgency::Overdue,
        ClientUrgency::DueSoon,
        ClientUrgency::OnTrack,
    ] {
        println!("\nquery plan, stage intake + {urgency:?} page:");
        for line in store.explain_clients_page(Stage::Intake, urgency)? {
            println!("  {line}");
        }
    }
    Ok(())
}

fn tempfile_dir() -> std::io::Result<std::path::PathBuf> {
    let dir = std::env::temp_dir().join(format!("carepath-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}
