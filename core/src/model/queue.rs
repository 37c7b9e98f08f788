//! A coordinator's queue (what to do today, most late first), the tasks staff give each
//! other on a client, and a client's owner.

use serde::{Deserialize, Serialize};

use super::ids::{IntakeId, TaskId, UserId};

/// What a queue row is about. The order here breaks ties between rows due at the same
/// moment: the ones a family is waiting on first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum QueueKind {
    /// An assessment visit today where they are the assessor.
    Visit,
    /// The client's next follow-up is due today or overdue.
    FollowUp,
    /// A reply from the family nobody has read yet.
    Reply,
    /// A dated task given to them, due today or before.
    Task,
    /// A care plan proposal sent and not answered after Settings → Workflow's days.
    Proposal,
    /// A contract sent and not signed after Settings → Workflow's days.
    Contract,
    /// The client has stayed in its stage longer than the stage alert allows.
    StageAlert,
}

impl QueueKind {
    pub fn as_str(self) -> &'static str {
        match self {
            QueueKind::Visit => "visit",
            QueueKind::FollowUp => "follow_up",
            QueueKind::Reply => "reply",
            QueueKind::Task => "task",
            QueueKind::Proposal => "proposal",
            QueueKind::Contract => "contract",
            QueueKind::StageAlert => "stage_alert",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        [
            QueueKind::Visit,
            QueueKind::FollowUp,
            QueueKind::Reply,
            QueueKind::Task,
            QueueKind::Proposal,
            QueueKind::Contract,
            QueueKind::StageAlert,
        ]
        .into_iter()
        .find(|kind| kind.as_str() == text)
    }
}

/// The one thing a row asks for, drawn as its main button.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum QueueAction {
    /// Log the phone call that answers the follow-up.
    LogCall,
    /// Open the record (`route`).
    Open,
    /// Move the visit to another time (`route` opens it).
    Reschedule,
    /// Mark it done.
    MarkDone,
}

/// One row of a queue, as every face shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct QueueItem {
    pub kind: QueueKind,
    /// What the row's actions name: the client's id, the visit's or the task's.
    pub id: String,
    pub intake_id: IntakeId,
    pub client_name: String,
    /// When it fell (or falls) due, as a stored moment.
    pub due_at: String,
    /// Due before now.
    pub late: bool,
    /// When, in words: "3 days late", "Today at 2:00 PM".
    pub when: String,
    /// What it is, in words: "Follow-up due", "Proposal sent 5 days ago, no answer yet".
    pub title: String,
    /// The follow-up notes, the visit's place, the reply's text or the task's note.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub detail: Option<String>,
    pub action: QueueAction,
    /// The action's label: "Log a Call", "Open", "Reschedule", "Mark Done".
    pub action_label: String,
    /// Where Open (or the client's name) goes.
    pub route: String,
    /// Whether Snooze applies (every row but a visit, which is rescheduled instead).
    pub can_snooze: bool,
    /// Whether Mark Done applies.
    pub can_mark_done: bool,
    /// The phone to call, for Log a Call.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub phone: Option<String>,
}

/// A coordinator's queue for today.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Queue {
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub owner_id: UserId,
    pub owner_name: String,
    /// The agency's today, YYYY-MM-DD.
    pub today: String,
    /// Most late first: the most late ones, as many as were asked for (25 unless asked).
    pub items: Vec<QueueItem>,
    /// More rows are due than the queue shows; the oldest are shown.
    pub more: bool,
    /// The `limit` "Show more" asks for (a page more), while more are due and the queue
    /// may show more.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub more_limit: Option<u32>,
}

/// Puts a queue row off until a later day, with the reason staff give.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SnoozeInput {
    pub kind: Option<QueueKind>,
    /// The row's `id`.
    pub id: String,
    /// The day it comes back, YYYY-MM-DD (after today).
    pub until: String,
    pub reason: String,
}

/// Marks a queue row done.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct QueueDoneInput {
    pub kind: Option<QueueKind>,
    /// The row's `id`.
    pub id: String,
}

/// A new task on a client.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TaskInput {
    /// Who does it; the one adding it when empty.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>))]
    pub assignee_id: Option<UserId>,
    /// The day it is due, YYYY-MM-DD (today or later).
    pub due_date: String,
    pub note: String,
}

/// A task as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Task {
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub id: TaskId,
    pub version: i64,
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub intake_id: IntakeId,
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub assignee_id: UserId,
    pub assignee_name: String,
    pub due_date: String,
    pub note: String,
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub created_by_name: Option<String>,
    pub created_at: String,
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub done_at: Option<String>,
}

/// A client's new owner; null leaves the client unassigned.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OwnerInput {
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>))]
    pub owner_id: Option<UserId>,
}

/// A client's owner as the profile and the lists show it; a disabled user keeps their
/// clients, shown with their name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Owner {
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub id: UserId,
    pub full_name: String,
    pub disabled: bool,
}
