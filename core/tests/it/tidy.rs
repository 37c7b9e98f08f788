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

/// Where core keeps the messages people read: the spec's validation messages, and the
/// family's link pages and signing.
const MESSAGE_SOURCES: &[&str] = &["core/src/rules/validation", "core/src/rules/signing.rs"];

/// A source file should hold at least this many Rust files: a tree that lost its
/// sources (a wrong root, a deleted folder) cannot pass as one with nothing to report.
const MIN_RUST_FILES: usize = 200;

/// The messages: every `pub const NAME: &str = "…";` of [`MESSAGE_SOURCES`], its text on
/// the same line or the next, continued over lines with `\` as Rust allows.
fn spec_messages(root: &Path) -> Vec<String> {
    let mut files = Vec::new();
    for source in MESSAGE_SOURCES {
        let path = root.join(source);
        if path.is_dir() {
            rust_files(&path, &mut files);
        } else if path.is_file() {
            files.push(path);
        }
    }
    let mut messages = Vec::new();
    for file in files {
        let text = fs::read_to_string(&file).unwrap();
        let mut rest = text.as_str();
        while let Some(at) = rest.find("pub const ") {
            rest = &rest[at + "pub const ".len()..];
            let Some((declaration, after)) = rest.split_once('=') else {
                break;
            };
            if !declaration.trim_end().ends_with(": &str") {
                continue;
            }
            if let Some(message) = string_literal(after.trim_start()) {
                messages.push(message);
            }
        }
    }
    messages
}

/// The text of the plain string literal `source` starts with (`\"` and a `\` line
/// continuation read as Rust reads them); None for anything else (`concat!`, a raw
/// string).
fn string_literal(source: &str) -> Option<String> {
    let mut chars = source.strip_prefix('"')?.chars().peekable();
    let mut text = String::new();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(text),
            '\\' => match chars.next()? {
                '\n' => {
                    while chars.peek().is_some_and(|c| c.is_whitespace()) {
                        chars.next();
                    }
                }
                'n' => text.push('\n'),
                other => text.push(other),
            },
            other => text.push(other),
        }
    }
    None
}

/// Every violation of the tree at `root`, one line each (`path: what`), and how many
/// Rust files were read.
fn check_tree(root: &Path) -> (Vec<String>, usize) {
    let messages = spec_messages(root);
    // Spelled in two halves so this file does not report itself.
    let forbidden_macros = [concat!("dbg", "!("), concat!("todo", "!(")];
    let mut problems = Vec::new();
    let mut checked = 0;
    for krate in CRATES {
        let crate_dir = root.join(krate);
        let mut sources = Vec::new();
        rust_files(&crate_dir.join("src"), &mut sources);
        let mut tests = Vec::new();
        rust_files(&crate_dir.join("tests"), &mut tests);
        for file in sources.iter().chain(&tests) {
            checked += 1;
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
            // SQLite plans a bare `LIMIT ?` with the value bound, so every new binding
            // re-prepares the statement; `LIMIT +?` is planned once.
            if name.starts_with("core/src/store/") && text.contains(concat!("LIMIT ", "?")) {
                problems.push(format!(
                    "{name}: a bare LIMIT parameter (write LIMIT +?N, or a literal)"
                ));
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
    (problems, checked)
}

#[test]
fn the_workspace_keeps_the_house_rules() {
    let root = workspace_root();
    let messages = spec_messages(&root);
    assert!(
        messages.len() >= 40,
        "the messages are found in {MESSAGE_SOURCES:?}: {}",
        messages.len()
    );
    // Both a one-line message and one continued over lines are read whole.
    for known in [
        "Please type your full name.",
        carepath_core::rules::signing::ESIGN_CONSENT,
        carepath_core::rules::signing::LINK_UNAVAILABLE,
    ] {
        assert!(
            messages.iter().any(|message| message == known),
            "{known:?} missing from the messages"
        );
    }
    let (problems, checked) = check_tree(&root);
    assert!(
        checked >= MIN_RUST_FILES,
        "only {checked} Rust files were checked; the sources are missing"
    );
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
        "//! Intakes.\nconst Q: &str = \"SELECT id FROM intakes LIMIT +?1\";\n",
    );
    let (problems, checked) = check_tree(root);
    assert!(problems.is_empty(), "a clean tree passes: {problems:?}");
    assert_eq!(checked, 3, "every Rust file of the tree is counted");

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
    write(
        root,
        "core/src/rules/signing.rs",
        "//! Links.\npub const THANKS: &str =\n    \"Thank you. \\\n    It is recorded.\";\n",
    );
    write(
        root,
        "core/src/store/audit.rs",
        &format!(
            "//! Audit.\nconst Q: &str = \"SELECT seq FROM audit_log {}1\";\n",
            concat!("LIMIT ", "?")
        ),
    );
    write(
        root,
        "server/src/api/public.rs",
        "//! The family's pages.\nconst T: &str = \"Thank you. It is recorded.\";\n",
    );
    let problems = check_tree(root).0.join("\n");
    for expected in [
        "tui/src/app.rs: no `//!` line",
        "server/src/api/intakes.rs: SQL (DELETE FROM…) outside core/src/store",
        "cli/src/main.rs: the spec message \"Please enter a name\" belongs to core",
        "core/src/rules/pricing.rs: todo! left in",
        "server/tests/it/api.rs: dbg! left in",
        "core/src/model/settings.rs: model depends on rules",
        "core/src/store/audit.rs: a bare LIMIT parameter",
        "server/src/api/public.rs: the spec message \"Thank you. It is recorded.\" belongs to core",
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
fn the_architecture_check_passes_a_clean_core_and_fails_a_runtime_even_behind_a_feature_or_an_unreadable_tree()
 {
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

    // An optional dependency counts too: the check also reads the tree with all features.
    let behind_a_feature = tempfile::tempdir().unwrap();
    fake_workspace(
        behind_a_feature.path(),
        "tokio = { path = \"../tokio\", optional = true }\n\n[features]\nruntime = [\"dep:tokio\"]\n",
    );
    let output = check_architecture(behind_a_feature.path());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !output.status.success(),
        "a core with tokio behind a feature fails"
    );
    assert!(
        stderr.contains("--all-features") && stderr.contains("tokio"),
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
