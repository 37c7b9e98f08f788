//! The systemd unit shipped in packaging/: `systemd-analyze verify` accepts it (run on a
//! copy whose ExecStart names the binary just built, since verify checks the program
//! exists), and the settings it passes are ones `carepath serve` reads; and how `serve`
//! has its threads scheduled.

use std::process::Command;

use crate::common::bin;

const UNIT: &str = include_str!("../../../packaging/carepath.service");

#[test]
fn the_systemd_unit_verifies_and_runs_carepath_serve() {
    assert!(UNIT.contains("ExecStart=/usr/bin/carepath serve\n"));
    for hardening in [
        "User=carepath",
        "NoNewPrivileges=yes",
        "ProtectSystem=strict",
        "ReadWritePaths=/var/lib/carepath",
        "KillMode=mixed",
    ] {
        assert!(UNIT.contains(hardening), "the unit lacks {hardening}");
    }
    let help = Command::new(bin())
        .args(["serve", "--help"])
        .output()
        .expect("carepath runs");
    let help = String::from_utf8_lossy(&help.stdout);
    for variable in ["CAREPATH_ADDR", "CAREPATH_REPLICATE", "CAREPATH_PUBLIC_URL"] {
        assert!(help.contains(variable), "serve does not read {variable}");
    }
    if Command::new("systemd-analyze")
        .arg("--version")
        .output()
        .is_err()
    {
        println!("skipped systemd-analyze verify: systemd-analyze is not installed");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let unit = dir.path().join("carepath.service");
    std::fs::write(&unit, UNIT.replace("/usr/bin/carepath", bin())).expect("write unit");
    let verified = Command::new("systemd-analyze")
        .arg("verify")
        .arg(&unit)
        .output()
        .expect("systemd-analyze runs");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&verified.stdout),
        String::from_utf8_lossy(&verified.stderr)
    );
    assert!(verified.status.success(), "{said}");
    assert!(
        !said.contains("carepath.service:"),
        "systemd-analyze complained about the unit: {said}"
    );
}

#[test]
fn serve_refuses_a_sign_in_burst_that_is_not_a_number_in_range() {
    let dir = tempfile::tempdir().expect("temp dir");
    for value in ["0", "ten", "10001"] {
        let refused = Command::new(bin())
            .arg("--db")
            .arg(dir.path().join("carepath.db"))
            .args(["serve", "--addr", "127.0.0.1:0"])
            .env("CAREPATH_SIGN_IN_BURST", value)
            .stdin(std::process::Stdio::null())
            .output()
            .expect("carepath runs");
        assert!(!refused.status.success(), "{value}: serve started");
        let said = String::from_utf8_lossy(&refused.stderr);
        assert!(
            said.contains(&format!(
                "CAREPATH_SIGN_IN_BURST must be a number from 1 to 10000, not \"{value}\""
            )),
            "{value}: {said}"
        );
    }
}

/// `serve` runs its runtime's threads under `SCHED_BATCH`, so a database thread hands
/// back its answers without being preempted for each; the database threads keep the
/// policy the server was started with (server/src/scheduling.rs).
#[cfg(target_os = "linux")]
#[test]
fn serve_batches_its_runtime_threads_only() {
    use std::time::{Duration, Instant};

    const DEFAULT: u32 = 0;
    const BATCH: u32 = 3;
    let dir = tempfile::tempdir().expect("temp dir");
    let log = dir.path().join("serve.log");
    let mut server = Command::new(bin())
        .arg("--db")
        .arg(dir.path().join("carepath.db"))
        .args(["serve", "--addr", "127.0.0.1:0"])
        .env_remove("CAREPATH_DB")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(&log).expect("log file"))
        .spawn()
        .expect("carepath runs");
    let tasks = format!("/proc/{}/task", server.id());
    // Each thread's name and policy (the 41st field of its stat).
    let policies = || -> Vec<(String, u32)> {
        let Ok(entries) = std::fs::read_dir(&tasks) else {
            return Vec::new();
        };
        entries
            .filter_map(|entry| std::fs::read_to_string(entry.ok()?.path().join("stat")).ok())
            .filter_map(|stat| {
                let (head, tail) = stat.rsplit_once(')')?;
                let name = head.split_once('(')?.1.to_owned();
                let policy = tail.split_whitespace().nth(38)?.parse().ok()?;
                Some((name, policy))
            })
            .collect()
    };
    // The policies of the threads named `wanted`.
    fn of<'a>(seen: &'a [(String, u32)], wanted: &'a str) -> impl Iterator<Item = u32> + 'a {
        seen.iter()
            .filter(move |(name, _)| name == wanted)
            .map(|(_, policy)| *policy)
    }
    let as_expected = |seen: &[(String, u32)]| {
        // A server started under another policy than the default keeps it everywhere.
        let Some(started) = of(seen, "carepath").next() else {
            return false;
        };
        let runtime = if started == DEFAULT { BATCH } else { started };
        let all = |wanted: &str, policy: u32, at_least: usize| {
            of(seen, wanted).count() >= at_least && of(seen, wanted).all(|p| p == policy)
        };
        all("tokio-rt-worker", runtime, 1)
            && all("carepath-db-0", started, 1)
            && all("carepath-db-wri", started, 1)
    };
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut seen = policies();
    while !as_expected(&seen)
        && Instant::now() < deadline
        && server.try_wait().ok().flatten().is_none()
    {
        std::thread::sleep(Duration::from_millis(50));
        seen = policies();
    }
    let _ = server.kill();
    let _ = server.wait();
    assert!(
        as_expected(&seen),
        "threads and their policies: {seen:?}\nserve said: {}",
        std::fs::read_to_string(&log).unwrap_or_default()
    );
}
