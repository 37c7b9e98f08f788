//! `carepath digest` against a real SMTP server on loopback (Python's aiosmtpd, which
//! scripts/setup installs): each coordinator's overdue clients arrive and it exits 0.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{bin, stderr, stdout};

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Kills the SMTP server when the test ends, whatever happens.
struct Smtp(std::process::Child);

impl Drop for Smtp {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn digest_sends_each_coordinators_overdue_clients_over_smtp() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("agency.db");
    let demo = Command::new(bin())
        .arg("--db")
        .arg(&db)
        .args(["demo", "--clients", "40"])
        .env_remove("CAREPATH_DB")
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(demo.success());

    let port = free_port();
    let maildir = dir.path().join("mail");
    let _smtp = Smtp(
        Command::new("python3")
            .args(["-m", "aiosmtpd", "-n", "-l"])
            .arg(format!("127.0.0.1:{port}"))
            .args(["-c", "aiosmtpd.handlers.Mailbox"])
            .arg(&maildir)
            .stdout(Stdio::null())
            .spawn()
            .expect("python3 -m aiosmtpd (run scripts/setup to install aiosmtpd)"),
    );
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "aiosmtpd did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    }

    let output = Command::new(bin())
        .arg("--db")
        .arg(&db)
        .args(["digest", "--public-url", "https://care.example.org"])
        .env_remove("CAREPATH_DB")
        .env("CAREPATH_SMTP_URL", format!("smtp://127.0.0.1:{port}"))
        .env("CAREPATH_DATA_DIR", dir.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "exit {:?}\nstdout: {}\nstderr: {}",
        output.status.code(),
        stdout(&output),
        stderr(&output)
    );
    let sent: usize = stdout(&output)
        .split_whitespace()
        .next()
        .and_then(|count| count.parse().ok())
        .unwrap_or(0);
    assert!(sent > 0, "{}", stdout(&output));
    let delivered: Vec<String> = std::fs::read_dir(maildir.join("new"))
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter_map(|entry| std::fs::read_to_string(entry.path()).ok())
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(delivered.len(), sent, "one message per digest");
    assert!(
        delivered
            .iter()
            .all(|message| message.contains("https://care.example.org/")),
        "each digest links to the clients"
    );
}
