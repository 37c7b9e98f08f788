//! Business rules as pure functions: no database, no clock of their own, no I/O.

pub mod analytics;
pub mod clock;
pub mod contract_text;
pub mod costs;
pub mod csv_cell;
pub mod events;
pub mod format;
pub mod holidays;
pub mod journey;
pub mod logo;
pub mod offline;
pub mod pipeline;
pub mod pricing;
pub mod reminders;
pub mod replication;
pub mod search;
pub mod second_factor;
pub mod setup;
pub mod sign_in;
pub mod signing;
pub mod sms;
pub mod stage;
pub mod transitions;
pub mod validation;
pub mod visits;
