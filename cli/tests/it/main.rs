//! The `carepath` binary's integration tests: each module runs the real binary on
//! temporary databases.

mod bench;
mod common;
mod digest;
mod doctor;
mod export;
mod handoff;
mod import;
mod packaging;
mod print;
mod restore;
mod signing;
mod tui_e2e;
mod users;
