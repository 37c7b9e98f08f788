//! Tidy: the house rules a reviewer would otherwise have to remember, checked over the
//! workspace's source (after rust-analyzer's `tidy.rs`). Each check also runs on a small
//! temporary tree with the violation planted, so a checker that stopped finding anything
//! fails here instead of passing quietly. `scripts/check-architecture` is tried the same way.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The crates whose `src/` holds the workspace's Rust modules.
const CRATES: &[&str] = &["core", "server", "tui", "cli"];

/// Statement openings that only SQL has (as the start of a string literal).
const SQL_OPENINGS: &[&str] = &[
    "\"SELECT ",
    "\"INSERT INTO",
    "\"INSERT OR ",
    "\"DELETE FROM",
    "\"CREATE TABLE",
    "\"CREATE INDEX",
    "\"CREATE TRIGGER",
    "\"PRAGMA ",
    "\"BEGIN IMMEDIATE",
    "\"WITH RECURSIVE",
];

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("core sits in the workspace")
        .to_path_buf()
}

fn rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.map(|entry| entry.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            files.push(path);
        }
    }
}

/// The spec's messages: every `pub const NAME: &str = "…";` of core's validation rules.
fn spec_messages(root: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(&root.join("core/src/rules/validation"), &mut files);
    let mut messages = Vec::new();
    for file in files {
        for line in fs::read_to_string(&file).unwrap().lines() {
            let Some(rest) = line.trim().strip_prefix("pub const ") else {
                continue;
            };
            let Some((_, value)) = rest.split_once(": &str = \"") else {
                continue;
            };
            if let Some(message) = value.strip_suffix("\";") {
                messages.push(message.to_owned());
            }
        }
    }
    messages
}

/// Every violation of the tree at `root`, one line each (`path: what`).
fn check_tree(root: &Path) -> Vec<String> {
    let messages = spec_messages(root);
    // Spelled in two halves so this file does not report itself.
    let forbidden_macros = [concat!("dbg", "!("), concat!("todo", "!(")];
    let mut problems = Vec::new();
    for krate in CRATES {
        let crate_dir = root.join(krate);
        let mut sources = Vec::new();
        rust_files(&crate_dir.join("src"), &mut sources);
        let mut tests = Vec::new();
        rust_files(&crate_dir.join("tests"), &mut tests);
        for file in sources.iter().chain(&tests) {
            let text = fs::read_to_string(file).unwrap();
            let name = file.strip_prefix(root).unwrap().display().to_string();
            let in_src = sources.contains(file);
            if in_src && !text.trim_start().starts_with("//!") {
                problems.push(format!(
                    "{name}: no `//!` line saying what the module is for"
                ));
            }
            for forbidden in forbidden_macros {
                if text.contains(forbidden) {
                    problems.push(format!(
                        "{name}: {} left in",
                        forbidden.trim_end_matches('(')
                    ));
                }
            }
            if !in_src {
                continue;
            }
            if !name.starts_with("core/src/store/") {
                for opening in SQL_OPENINGS {
                    if text.contains(opening) {
                        problems.push(format!(
                            "{name}: SQL ({}…) outside core/src/store",
                            &opening[1..]
                        ));
                    }
                }
            }
            // The domain types are what rules compute with, so the dependency points from
            // rules to model, never back.
            if name.starts_with("core/src/model/") && text.contains("crate::rules") {
                problems.push(format!("{name}: model depends on rules"));
            }
            if !name.starts_with("core/") {
                for message in &messages {
                    if text.contains(&format!("\"{message}\"")) {
                        problems.push(format!(
                            "{name}: the spec message \"{message}\" belongs to core"
                        ));
                    }
                }
            }
        }
    }
    problems
}

#[test]
fn the_workspace_keeps_the_house_rules() {
    let root = workspace_root();
    assert!(
        spec_messages(&root).len() >= 20,
        "the spec's messages are found in core/src/rules/validation"
    );
    let problems = check_tree(&root);
    assert!(
        problems.is_empty(),
        "house rules broken:\n{}",
        problems.join("\n")
    );
}

fn write(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

#[test]
fn tidy_reports_each_planted_violation() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "core/src/rules/validation/mod.rs",
        "//! Messages.\npub const NEEDS_NAME: &str = \"Please enter a name\";\n",
    );
    write(root, "core/src/lib.rs", "//! The domain.\npub mod rules;\n");
    write(
        root,
        "core/src/store/intakes.rs",
        "//! Intakes.\nconst Q: &str = \"SELECT id FROM intakes\";\n",
    );
    assert!(check_tree(root).is_empty(), "a clean tree passes");

    write(root, "tui/src/app.rs", "pub struct App;\n");
    write(
        root,
        "server/src/api/intakes.rs",
        "//! Intakes.\nconst Q: &str = \"DELETE FROM intakes\";\n",
    );
    write(
        root,
        "cli/src/main.rs",
        "//! The binary.\nfn main() { eprintln!(\"{}\", \"Please enter a name\"); }\n",
    );
    write(
        root,
        "core/src/rules/pricing.rs",
        &format!(
            "//! Prices.\nfn rate() -> u32 {{ {}) }}\n",
            concat!("todo", "!(")
        ),
    );
    write(
        root,
        "server/tests/it/api.rs",
        &format!("fn t() {{ {}1); }}\n", concat!("dbg", "!(")),
    );
    write(
        root,
        "core/src/model/settings.rs",
        "//! Settings.\nconst DAYS: u32 = crate::rules::signing::DAYS;\n",
    );
    let problems = check_tree(root).join("\n");
    for expected in [
        "tui/src/app.rs: no `//!` line",
        "server/src/api/intakes.rs: SQL (DELETE FROM…) outside core/src/store",
        "cli/src/main.rs: the spec message \"Please enter a name\" belongs to core",
        "core/src/rules/pricing.rs: todo! left in",
        "server/tests/it/api.rs: dbg! left in",
        "core/src/model/settings.rs: model depends on rules",
    ] {
        assert!(
            problems.contains(expected),
            "{expected:?} missing from:\n{problems}"
        );
    }
    assert!(
        !problems.contains("core/src/store/intakes.rs"),
        "SQL in the store is where it belongs:\n{problems}"
    );
}

/// Runs `scripts/check-architecture` on a workspace of its own.
fn check_architecture(root: &Path) -> std::process::Output {
    Command::new("bash")
        .arg(workspace_root().join("scripts/check-architecture"))
        .env("CAREPATH_ROOT", root)
        .env("CARGO_NET_OFFLINE", "true")
        .output()
        .unwrap()
}

fn fake_workspace(root: &Path, core_dependencies: &str) {
    write(
        root,
        "Cargo.toml",
        "[workspace]\nresolver = \"3\"\nmembers = [\"core\"]\n",
    );
    write(
        root,
        "core/Cargo.toml",
        &format!(
            "[package]\nname = \"carepath-core\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n[dependencies]\n{core_dependencies}"
        ),
    );
    write(root, "core/src/lib.rs", "//! Core.\n");
    write(
        root,
        "tokio/Cargo.toml",
        "[package]\nname = \"tokio\"\nversion = \"1.0.0\"\nedition = \"2024\"\n",
    );
    write(root, "tokio/src/lib.rs", "//! A stand-in runtime.\n");
}

#[test]
fn the_architecture_check_passes_a_clean_core_and_fails_a_runtime_or_an_unreadable_tree() {
    let clean = tempfile::tempdir().unwrap();
    fake_workspace(clean.path(), "");
    let output = check_architecture(clean.path());
    assert!(
        output.status.success(),
        "a core without runtime crates passes: {}",
        String::from_utf8_lossy(&output.stderr)
    );

    let with_runtime = tempfile::tempdir().unwrap();
    fake_workspace(with_runtime.path(), "tokio = { path = \"../tokio\" }\n");
    let output = check_architecture(with_runtime.path());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "a core depending on tokio fails");
    assert!(
        stderr.contains("must not depend on") && stderr.contains("tokio"),
        "{stderr}"
    );

    let broken = tempfile::tempdir().unwrap();
    fake_workspace(broken.path(), "");
    write(broken.path(), "core/Cargo.toml", "[package\nname = ");
    let output = check_architecture(broken.path());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "an unreadable tree fails");
    assert!(stderr.contains("cargo tree failed"), "{stderr}");
}
