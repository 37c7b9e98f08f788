//! Business rules as pure functions: no database, no clock of their own, no I/O.

pub mod clock;
pub mod pipeline;
