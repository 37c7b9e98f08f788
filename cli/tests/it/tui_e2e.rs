//! End to end through a real terminal: `carepath tui` runs in tmux on a demo agency;
//! keys go in with send-keys and the screen comes back with capture-pane. The intake
//! created through the form must then come out of `carepath export intakes`.

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use carepath_core::store::{ClientQuery, Store};

use crate::common::bin;

/// A tmux server of our own (its own socket), killed when the test ends however it ends.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn start(command: &str) -> Self {
        let tmux = Tmux {
            socket: format!("carepath-tui-e2e-{}", std::process::id()),
        };
        let started = tmux.run(&[
            "new-session",
            "-d",
            "-s",
            "tui",
            "-x",
            "100",
            "-y",
            "30",
            command,
        ]);
        assert!(
            started.status.success(),
            "tmux: {}",
            String::from_utf8_lossy(&started.stderr)
        );
        tmux
    }

    fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("tmux runs")
    }

    /// Named keys (Tab, NPage, C-s …).
    fn keys(&self, keys: &[&str]) {
        for key in keys {
            self.run(&["send-keys", "-t", "tui", key]);
        }
    }

    /// Literal text, typed as it is.
    fn text(&self, text: &str) {
        self.run(&["send-keys", "-t", "tui", "-l", text]);
    }

    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-t", "tui"]).stdout).into_owned()
    }

    /// Waits until every one of `texts` is on screen.
    fn wait_for(&self, texts: &[&str]) -> String {
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            let screen = self.screen();
            if texts.iter().all(|text| screen.contains(text)) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "waited for {texts:?}; the screen shows:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
    }
}

fn tmux_missing() -> bool {
    Command::new("tmux").arg("-V").output().is_err()
}

fn export_intakes(db: &Path) -> String {
    let output = Command::new(bin())
        .args(["export", "intakes", "--out", "-", "--db"])
        .arg(db)
        .env_remove("CAREPATH_DB")
        .output()
        .expect("carepath export runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn dashboard_search_and_a_new_intake_through_the_terminal() {
    if tmux_missing() {
        eprintln!("skipped: tmux is not installed (scripts/setup installs it)");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("demo.db");
    let demo = Command::new(bin())
        .args(["demo", "--clients", "200", "--db"])
        .arg(&db)
        .env_remove("CAREPATH_DB")
        .output()
        .expect("carepath demo runs");
    assert!(
        demo.status.success(),
        "{}",
        String::from_utf8_lossy(&demo.stderr)
    );

    // A client to search for, read through core.
    let store = Store::open(&db).expect("open the demo");
    let page = store
        .clients_page(&ClientQuery {
            limit: Some(1),
            ..ClientQuery::default()
        })
        .expect("a page of clients");
    let known = page.items[0].intake.client_full_name.clone();
    drop(store);

    let tmux = Tmux::start(&format!("{} tui --db '{}'", bin(), db.display()));
    tmux.wait_for(&["Outreach Dashboard", "Recent Activity", "New Intakes"]);

    // Search a client and open it.
    tmux.keys(&["C-k"]);
    tmux.wait_for(&["Search Clients", "Start typing to search clients"]);
    tmux.text(&known);
    tmux.wait_for(&[known.as_str()]);
    tmux.keys(&["Enter"]);
    tmux.wait_for(&["Journey:", "Latest Communications"]);

    // A new intake through the form.
    tmux.keys(&["C-n"]);
    tmux.wait_for(&["New Intake", "Staff Member Taking Call"]);
    tmux.keys(&["Tab"]);
    tmux.text("Sam Staff");
    tmux.keys(&["Tab"]);
    tmux.text("Quentin Marsh");
    tmux.keys(&["Tab"]);
    tmux.text("Son");
    tmux.keys(&["Tab"]);
    tmux.text("(217) 555-0177");
    tmux.keys(&["NPage", "Tab"]);
    tmux.text("Odessa Marsh");
    tmux.keys(&["Tab"]);
    tmux.text("1936-04-18");
    tmux.keys(&["C-s"]);
    tmux.wait_for(&["Intake Saved Successfully", "Odessa Marsh"]);
    tmux.keys(&["C-c"]);

    let export = export_intakes(&db);
    let row = export
        .lines()
        .find(|line| line.contains("Odessa Marsh"))
        .unwrap_or_else(|| panic!("the new intake is not in the export"));
    assert!(row.contains("Quentin Marsh"), "{row}");
    assert!(row.contains("(217) 555-0177"), "{row}");
}
