//! Domain types: ids, statuses, the forms staff fill in and the records the store returns.

pub mod assessment;
pub mod care_plan;
pub mod communication;
pub mod contact;
pub mod contract;
pub mod ids;
pub mod inbound;
pub mod intake;
pub mod options;
pub mod queue;
pub mod replication;
mod serde_form;
pub mod settings;
pub mod setup;
pub mod signing;
pub mod status;
pub mod templates;
pub mod user;
pub mod visit;

pub use assessment::*;
pub use care_plan::*;
pub use communication::*;
pub use contact::*;
pub use contract::*;
pub use ids::*;
pub use inbound::*;
pub use intake::*;
pub use queue::*;
pub use replication::*;
pub use settings::*;
pub use setup::*;
pub use signing::*;
pub use status::*;
pub use templates::*;
pub use user::*;
pub use visit::*;
