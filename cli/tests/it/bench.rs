//! The CLI benchmark (ignored by default; `scripts/bench-cli` runs it in release):
//! import rows/s for 100,000 generated leads as CSV and XLSX, export rows/s, and PDF
//! milliseconds and bytes per document.

use std::time::Instant;

use crate::common::{carepath, ok, sample_agency};

const LEADS: usize = 100_000;

#[test]
#[ignore = "benchmark: run scripts/bench-cli"]
fn cli_figures() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("leads.csv");
    let mut text = String::from("Client Name,Caller,Phone,Email,DOB,Services,Source\n");
    for i in 0..LEADS {
        text.push_str(&format!(
            "Client {i},Caller {i},555{i:07},family{i}@example.com,{}/{}/19{},Companionship; Meal Preparation,Web\n",
            1 + i % 12,
            1 + i % 28,
            30 + i % 40
        ));
    }
    std::fs::write(&csv, text).unwrap();
    let xlsx = dir.path().join("leads.xlsx");
    crate::import::write_leads_xlsx(&xlsx, LEADS);

    for (name, file) in [("CSV", &csv), ("XLSX", &xlsx)] {
        let db = dir.path().join(format!("{name}.db"));
        let started = Instant::now();
        ok(carepath(&db, &["import", "leads", file.to_str().unwrap()]));
        let seconds = started.elapsed().as_secs_f64();
        println!(
            "import {name}: {LEADS} leads in {seconds:.2} s = {:.0} rows/s",
            LEADS as f64 / seconds
        );
    }

    // This machine's timings wander by a fifth from run to run: each export runs
    // several times and the best and the median are printed.
    let db = dir.path().join("CSV.db");
    for kind in ["clients", "intakes"] {
        let out = dir.path().join(format!("{kind}.csv"));
        let to_file = timings(|| {
            ok(carepath(
                &db,
                &["export", kind, "-o", out.to_str().unwrap()],
            ));
        });
        print_export(kind, "to a file, flushed to disk", to_file);
        let streamed = timings(|| {
            let status = std::process::Command::new(crate::common::bin())
                .args(["--db", db.to_str().unwrap(), "export", kind, "--out", "-"])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .status()
                .unwrap();
            assert!(status.success());
        });
        print_export(kind, "streamed to standard output", streamed);
    }

    let db = dir.path().join("sample.db");
    let sample = sample_agency(&db);
    for (kind, id) in [
        ("intake", sample.rose.as_str().to_owned()),
        ("assessment", sample.assessment.as_str().to_owned()),
        ("care-plan", sample.care_plan.as_str().to_owned()),
        ("contract", sample.contract.as_str().to_owned()),
    ] {
        let store = carepath_core::store::Store::open(&db).unwrap();
        let kind_enum = match kind {
            "intake" => carepath_core::pdf::PrintKind::Intake,
            "assessment" => carepath_core::pdf::PrintKind::Assessment,
            "care-plan" => carepath_core::pdf::PrintKind::CarePlan,
            _ => carepath_core::pdf::PrintKind::Contract,
        };
        let runs = 10;
        let mut bytes = Vec::new();
        let started = Instant::now();
        for _ in 0..runs {
            bytes.clear();
            store.print(kind_enum, &id, &mut bytes).unwrap();
        }
        let ms = started.elapsed().as_secs_f64() * 1000.0 / runs as f64;
        println!("pdf {kind}: {ms:.1} ms, {} bytes", bytes.len());
    }
}

const RUNS: usize = 7;

/// The best and the median of `RUNS` timings of `run`, in seconds.
fn timings(mut run: impl FnMut()) -> (f64, f64) {
    let mut seconds: Vec<f64> = (0..RUNS)
        .map(|_| {
            let started = Instant::now();
            run();
            started.elapsed().as_secs_f64()
        })
        .collect();
    seconds.sort_by(f64::total_cmp);
    (seconds[0], seconds[RUNS / 2])
}

fn print_export(kind: &str, how: &str, (best, median): (f64, f64)) {
    println!(
        "export {kind}: {LEADS} rows {how} (process start included): best {best:.3} s = {:.0} rows/s, median {median:.3} s = {:.0} rows/s",
        LEADS as f64 / best,
        LEADS as f64 / median
    );
}
