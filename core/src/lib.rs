//! Carepath's domain: the pipeline rules, validation messages and the SQLite store.
//!
//! Nothing here knows about HTTP, terminals or argument parsing: the server, the TUI and
//! the CLI call these functions and show what they return.

pub mod error;
pub mod export;
pub mod import;
pub mod inbound;
pub mod model;
pub mod outbound;
pub mod pdf;
pub mod rules;
pub mod secrets;
pub mod store;

pub use error::{Error, Result, ValidationErrors};
pub mod demo;
