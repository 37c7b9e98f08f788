//! Business rules as pure functions: no database, no clock of their own, no I/O.

pub mod clock;
pub mod contract_text;
pub mod costs;
pub mod csv_cell;
pub mod holidays;
pub mod journey;
pub mod pipeline;
pub mod pricing;
pub mod search;
pub mod sms;
pub mod stage;
pub mod transitions;
pub mod validation;
