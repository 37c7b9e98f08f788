//! Templates, one module per table: message templates, pricing templates and the
//! versioned contract template.

mod contract;
mod message;
mod pricing;
