//! The documented columns of each export, in order. The store's export queries select
//! exactly these, in the same order (a test holds them together).

use super::{CellKind, ExportKind};

/// One column of an export: its header and how its value is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    pub header: &'static str,
    pub kind: CellKind,
}

const fn text(header: &'static str) -> Column {
    Column {
        header,
        kind: CellKind::Text,
    }
}

const fn list(header: &'static str) -> Column {
    Column {
        header,
        kind: CellKind::List,
    }
}

const fn number(header: &'static str) -> Column {
    Column {
        header,
        kind: CellKind::Number,
    }
}

const fn money(header: &'static str) -> Column {
    Column {
        header,
        kind: CellKind::Money,
    }
}

const fn yes_no(header: &'static str) -> Column {
    Column {
        header,
        kind: CellKind::YesNo,
    }
}

const INTAKES: &[Column] = &[
    text("Intake ID"),
    text("Created"),
    text("Date"),
    text("Staff Member Taking Call"),
    text("Client Name"),
    text("Date of Birth"),
    text("Caller Name"),
    text("Relationship to Client"),
    text("Caller Phone"),
    text("Caller Email"),
    text("How Did You Hear"),
    text("Client Address"),
    text("City"),
    text("State"),
    text("Zip Code"),
    text("Client Phone"),
    text("Client Email"),
    list("Living Situation"),
    list("Services Required"),
    number("Total Hours per Week"),
    text("Anticipated Start Date"),
    list("Source of Payment"),
    text("Status"),
    yes_no("Draft"),
    text("Assigned Coordinator"),
    text("Last Contact"),
    text("Next Follow-up"),
    text("Follow-up Notes"),
    text("Assessment Scheduled"),
    text("Import Batch"),
    text("Deleted At"),
];

const CLIENTS: &[Column] = &[
    text("Client ID"),
    text("Client Name"),
    text("Date of Birth"),
    text("Caller Name"),
    text("Caller Phone"),
    text("Caller Email"),
    list("Services Required"),
    text("Stage"),
    yes_no("Archived"),
    text("Stage Entered"),
    text("Intake Status"),
    text("Assessment Status"),
    text("Care Plan Status"),
    text("Contract Status"),
    text("Last Contact"),
    text("Next Follow-up"),
    text("Created"),
    text("Deleted At"),
];

const ASSESSMENTS: &[Column] = &[
    text("Assessment ID"),
    text("Intake ID"),
    text("Client Name"),
    text("Assessment Date"),
    text("Coordinator"),
    text("Status"),
    list("Recommended Services"),
    number("Recommended Hours"),
    list("Preferred Days"),
    text("Created"),
    text("Completed"),
    text("Deleted At"),
];

const CARE_PLANS: &[Column] = &[
    text("Care Plan ID"),
    text("Assessment ID"),
    text("Intake ID"),
    text("Client Name"),
    text("Family Contact Name"),
    text("Family Contact Email"),
    text("Care Coordinator"),
    Column {
        header: "Services",
        kind: CellKind::ServiceList,
    },
    text("Status"),
    money("Hourly Rate"),
    number("Total Weekly Hours"),
    money("Weekly Cost"),
    money("Monthly Cost"),
    text("Proposed Start Date"),
    text("Sent"),
    text("Approved"),
    text("Created"),
    text("Deleted At"),
];

/// The spec's five contract columns come first, as the contracts list exports them.
const CONTRACTS: &[Column] = &[
    text("Client Name"),
    text("Status"),
    text("Created"),
    text("Sent"),
    text("Signed"),
    text("Contract ID"),
    text("Care Plan ID"),
    text("Intake ID"),
    text("Family Contact Email"),
    money("Hourly Rate"),
    money("Weekly Cost"),
    money("Monthly Cost"),
    text("Deleted At"),
];

const COMMUNICATIONS: &[Column] = &[
    text("Communication ID"),
    text("Intake ID"),
    text("Client Name"),
    text("Type"),
    text("Direction"),
    text("Visibility"),
    text("Status"),
    text("Subject"),
    text("Content"),
    text("Recipient Email"),
    text("Recipient Phone"),
    text("Sender"),
    text("Sent"),
    text("Created"),
    text("Failure Reason"),
];

const CONTACTS: &[Column] = &[
    text("Contact ID"),
    text("Intake ID"),
    text("Client Name"),
    text("Contact Type"),
    text("Full Name"),
    text("Relationship"),
    text("Phone"),
    text("Email"),
    text("Address"),
    text("Notes"),
    yes_no("Primary"),
    text("Created"),
];

/// The columns of an export, in file order.
pub fn columns(kind: ExportKind) -> &'static [Column] {
    match kind {
        ExportKind::Intakes => INTAKES,
        ExportKind::Clients => CLIENTS,
        ExportKind::Assessments => ASSESSMENTS,
        ExportKind::CarePlans => CARE_PLANS,
        ExportKind::Contracts => CONTRACTS,
        ExportKind::Communications => COMMUNICATIONS,
        ExportKind::Contacts => CONTACTS,
    }
}
