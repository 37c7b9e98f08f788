//! The intake form: its fields as data, its editing state, and its view.

pub mod fields;
pub mod state;
pub mod view;

pub use state::FormState;
