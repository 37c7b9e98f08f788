//! `carepath export`: expected files, standard output, filters, atomic default names and
//! flat memory whatever the row count.

use std::path::Path;

use carepath_core::model::{Actor, Channel, IntakeForm};

use crate::common::{carepath, carepath_in, check_expected, normalize_ids, ok, sample_agency};

const KINDS: [&str; 7] = [
    "intakes",
    "clients",
    "assessments",
    "care-plans",
    "contracts",
    "communications",
    "contacts",
];

#[test]
fn every_export_matches_its_expected_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("agency.db");
    sample_agency(&db);
    for kind in KINDS {
        let file = dir.path().join(format!("{kind}.csv"));
        let report = ok(carepath(
            &db,
            &["export", kind, "--out", file.to_str().unwrap()],
        ));
        assert!(report.starts_with("Exported "), "{report}");
        let csv = std::fs::read_to_string(&file).unwrap();
        check_expected(&format!("export/{kind}.csv"), &normalize_ids(&csv));
    }
}

#[test]
fn out_dash_writes_the_same_csv_to_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("agency.db");
    sample_agency(&db);
    let file = dir.path().join("contracts.csv");
    ok(carepath(
        &db,
        &["export", "contracts", "-o", file.to_str().unwrap()],
    ));
    let output = carepath(&db, &["export", "contracts", "--out", "-"]);
    let printed = ok(output);
    assert_eq!(printed, std::fs::read_to_string(&file).unwrap());
    assert!(printed.starts_with("Client Name,Status,Created,Sent,Signed,"));
    assert!(printed.contains("Walter Ames,signed,"));
}

#[test]
fn default_name_is_kind_and_date_and_leaves_no_partial_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("agency.db");
    sample_agency(&db);
    let out_dir = dir.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    let report = ok(carepath_in(&db, &["export", "care-plans"], Some(&out_dir)));
    assert!(report.contains("Exported 1 row to care-plans_"), "{report}");
    ok(carepath(
        &db,
        &["export", "clients", "--out", out_dir.to_str().unwrap()],
    ));
    let mut names: Vec<String> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 2, "{names:?}");
    for (name, kind) in names.iter().zip(["care-plans_", "clients_"]) {
        let date = name.strip_prefix(kind).and_then(|n| n.strip_suffix(".csv"));
        let date = date.unwrap_or_else(|| panic!("{name}"));
        assert!(date.parse::<jiff::civil::Date>().is_ok(), "{name}");
    }
}

#[test]
fn since_and_include_deleted_filter_rows() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("agency.db");
    let sample = sample_agency(&db);
    let later = ok(carepath(
        &db,
        &["export", "clients", "--since", "2025-03-11", "-o", "-"],
    ));
    assert_eq!(later.lines().count(), 1, "header only: {later}");
    let file = dir.path().join("later.csv");
    let output = carepath(
        &db,
        &[
            "export",
            "clients",
            "--since",
            "2025-03-11",
            "-o",
            file.to_str().unwrap(),
        ],
    );
    assert!(crate::common::stdout(&output).contains("Exported 0 rows"));
    let same_day = ok(carepath(
        &db,
        &["export", "clients", "--since", "2025-03-10", "-o", "-"],
    ));
    assert_eq!(same_day.lines().count(), 3);

    let mut store = crate::common::pinned_store(&db);
    store
        .delete_intake(&Actor::system(Channel::Cli), &sample.rose)
        .unwrap();
    drop(store);
    let live = ok(carepath(&db, &["export", "intakes", "-o", "-"]));
    assert!(!live.contains("\"Lee, Rose\""));
    let all = ok(carepath(
        &db,
        &["export", "intakes", "--include-deleted", "-o", "-"],
    ));
    assert!(all.contains("\"Lee, Rose\""));

    let bad = carepath(&db, &["export", "clients", "--since", "last week"]);
    assert_eq!(bad.status.code(), Some(1));
    assert_eq!(crate::common::stderr(&bad).lines().count(), 1);
    let usage = carepath(&db, &["export", "patients"]);
    assert_eq!(usage.status.code(), Some(2));
}

/// Builds a database of `n` submitted intakes in one transaction.
pub fn build_clients(db: &Path, n: usize) {
    let mut store = carepath_core::store::Store::open(db).unwrap();
    let actor = Actor::system(Channel::Cli);
    store
        .batch(|store| {
            for i in 0..n {
                store.create_intake(
                    &actor,
                    IntakeForm {
                        staff_member_taking_call: "Dana Cole".to_owned(),
                        caller_name: format!("Caller {i}"),
                        caller_phone: format!("555-{:07}", i),
                        caller_email: format!("caller{i}@example.com"),
                        client_full_name: format!("Client {i}, Jr."),
                        date_of_birth: "1940-01-01".to_owned(),
                        services_required: vec![
                            "Companionship".to_owned(),
                            "Meal Preparation".to_owned(),
                        ],
                        ..IntakeForm::default()
                    },
                )?;
            }
            Ok(())
        })
        .unwrap();
}

/// Runs an export to a file and returns the child's peak resident memory in KiB.
#[expect(
    clippy::zombie_processes,
    reason = "the child is reaped by wait4, which also reports its peak memory"
)]
fn export_peak_rss_kib(db: &Path, out: &Path) -> i64 {
    let child = std::process::Command::new(crate::common::bin())
        .args(["--db", db.to_str().unwrap(), "export", "clients", "-o"])
        .arg(out)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child and writes into the two locals above.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid);
    assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0);
    usage.ru_maxrss
}

#[test]
fn export_memory_does_not_grow_with_rows() {
    let dir = tempfile::tempdir().unwrap();
    let small = dir.path().join("small.db");
    let big = dir.path().join("big.db");
    build_clients(&small, 10_000);
    build_clients(&big, 100_000);
    let small_rss = export_peak_rss_kib(&small, &dir.path().join("small.csv"));
    let big_rss = export_peak_rss_kib(&big, &dir.path().join("big.csv"));
    let big_csv = std::fs::read_to_string(dir.path().join("big.csv")).unwrap();
    assert_eq!(big_csv.lines().count(), 100_001);
    assert!(big_csv.contains("\"Client 99999, Jr.\""));
    // The file is about ten times larger; the process must not be.
    assert!(
        big_rss <= small_rss + 4 * 1024,
        "peak RSS {small_rss} KiB for 10k rows, {big_rss} KiB for 100k"
    );
}
