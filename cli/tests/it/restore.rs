//! `carepath restore` from a Litestream file replica: the newest copy is restored,
//! checked and served to the next command; an existing database is never replaced
//! without --force. Skipped, saying so, where Litestream is not installed (scripts/setup
//! installs it).

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use carepath_core::model::{Actor, Channel};
use carepath_core::store::{NewUser, Store};

use crate::common::{carepath, ok, stderr};

fn litestream_installed() -> bool {
    let found = Command::new("litestream")
        .arg("version")
        .output()
        .is_ok_and(|output| output.status.success());
    if !found {
        println!("skipped: litestream is not installed (scripts/setup installs it)");
    }
    found
}

fn add_user(db: &Path, email: &str) {
    let mut store = Store::open(db).expect("open");
    store
        .create_user(
            &Actor::system(Channel::Cli),
            NewUser {
                email: email.into(),
                full_name: email.into(),
                password: Some("restore-secret".into()),
                is_admin: true,
            },
        )
        .expect("create user");
}

#[test]
fn restore_brings_back_the_replica_and_never_overwrites_without_force() {
    if !litestream_installed() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let live = dir.path().join("live.db");
    add_user(&live, "first@agency.test");
    let replica = format!("file://{}", dir.path().join("replica").display());
    let ship = || {
        let shipped = Command::new("litestream")
            .args(["replicate", "-once"])
            .arg(&live)
            .arg(&replica)
            .output()
            .expect("litestream runs");
        assert!(
            shipped.status.success(),
            "{}",
            String::from_utf8_lossy(&shipped.stderr)
        );
    };
    ship();
    // A second change shipped later: the replica then spans two moments.
    std::thread::sleep(Duration::from_millis(1500));
    let between = jiff::Timestamp::now();
    std::thread::sleep(Duration::from_millis(500));
    add_user(&live, "second@agency.test");
    ship();

    // A fresh file: the newest copy, restored, checked, and readable by the next command.
    let restored = dir.path().join("restored").join("carepath.db");
    let out = ok(carepath(&restored, &["restore", "--from", &replica]));
    assert!(out.contains("integrity ok"), "{out}");
    let users = ok(carepath(&restored, &["user", "list"]));
    assert!(
        users.contains("first@agency.test") && users.contains("second@agency.test"),
        "{users}"
    );
    assert!(!dir.path().join("restored/carepath.db.restoring").exists());

    // --at: the database as it was between the two changes.
    let then = dir.path().join("then.db");
    ok(carepath(
        &then,
        &["restore", "--from", &replica, "--at", &between.to_string()],
    ));
    let users = ok(carepath(&then, &["user", "list"]));
    assert!(
        users.contains("first@agency.test") && !users.contains("second@agency.test"),
        "{users}"
    );

    // An existing database is left alone without --force.
    add_user(&restored, "later@agency.test");
    let refused = carepath(&restored, &["restore", "--from", &replica]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        stderr(&refused).contains("already exists"),
        "{}",
        stderr(&refused)
    );
    assert!(ok(carepath(&restored, &["user", "list"])).contains("later@agency.test"));

    // With --force it is replaced by the replica's copy.
    ok(carepath(
        &restored,
        &["restore", "--from", &replica, "--force"],
    ));
    let users = ok(carepath(&restored, &["user", "list"]));
    assert!(
        users.contains("first@agency.test") && !users.contains("later@agency.test"),
        "{users}"
    );

    // Bad addresses and empty replicas are refused with a reason, changing nothing.
    let empty = format!("file://{}", dir.path().join("nothing").display());
    let elsewhere = dir.path().join("elsewhere.db");
    let none = carepath(&elsewhere, &["restore", "--from", &empty]);
    assert_eq!(none.status.code(), Some(1));
    assert!(
        stderr(&none).contains("nothing could be restored"),
        "{}",
        stderr(&none)
    );
    assert!(!elsewhere.exists());
    let bad = carepath(&elsewhere, &["restore", "--from", "/var/backups"]);
    assert!(
        stderr(&bad).contains("file:///absolute/path or s3://bucket/path"),
        "{}",
        stderr(&bad)
    );
}
