//! Integration tests of the TUI: keys in, state out, and screen snapshots, on a real
//! SQLite file filled through core with a pinned clock.

mod support;

mod archive;
mod form;
mod live;
mod navigation;
mod snapshots;
mod visits;
