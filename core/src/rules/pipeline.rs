//! The derived pipeline status of an intake: the spec's six rules (first spec document,
//! §4), first match wins, with the blueprint's route fixes.

use jiff::Timestamp;
use jiff::civil::Date;
use serde::{Deserialize, Serialize};

use super::clock::AgencyClock;
use crate::model::{
    AssessmentId, AssessmentStatus, CarePlanId, CarePlanStatus, ContractId, ContractStatus,
    IntakeId, Stage,
};

/// An intake is flagged overdue after more than this many days without progress.
pub const OVERDUE_AFTER_DAYS: i64 = 5;

/// What the rules read about one intake and its latest linked records.
#[derive(Debug, Clone)]
pub struct PipelineFacts<'a> {
    pub intake_id: &'a IntakeId,
    pub created_at: Timestamp,
    pub stage_entered_at: Timestamp,
    pub next_follow_up_at: Option<Timestamp>,
    pub assessment_scheduled_date: Option<Date>,
    pub assessment: Option<(&'a AssessmentId, AssessmentStatus)>,
    pub care_plan: Option<(&'a CarePlanId, CarePlanStatus)>,
    pub contract: Option<(&'a ContractId, ContractStatus)>,
}

/// The status line every list and the dashboard show for an intake.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PipelineStatus {
    pub label: String,
    pub description: String,
    pub next_action: String,
    pub next_route: String,
    pub overdue: bool,
    /// Whole calendar days since the client entered its current stage.
    pub days_in_stage: i64,
}

/// The furthest stage with a record: contract, else care plan, else assessment, else intake.
pub fn stage_of(facts: &PipelineFacts<'_>) -> Stage {
    if facts.contract.is_some() {
        Stage::Contract
    } else if facts.care_plan.is_some() {
        Stage::CarePlan
    } else if facts.assessment.is_some() {
        Stage::Assessment
    } else {
        Stage::Intake
    }
}

pub fn derive_status(facts: &PipelineFacts<'_>, clock: &AgencyClock) -> PipelineStatus {
    let id = facts.intake_id;
    let days_in_stage = clock.days_since(facts.stage_entered_at).max(0);
    let status = |label: &str, description: String, action: &str, route: String| PipelineStatus {
        label: label.to_owned(),
        description,
        next_action: action.to_owned(),
        next_route: route,
        overdue: false,
        days_in_stage,
    };

    // 1. A follow-up earlier than now.
    if let Some(follow_up) = facts.next_follow_up_at
        && follow_up < clock.now()
    {
        let days = clock.days_since(follow_up).max(0);
        let description = match days {
            0 => "Due earlier today".to_owned(),
            1 => "1 day overdue".to_owned(),
            n => format!("{n} days overdue"),
        };
        return PipelineStatus {
            overdue: true,
            ..status(
                "⚠️ Follow-up Overdue",
                description,
                "Contact Client",
                format!("/intake?intake_id={id}&view=true"),
            )
        };
    }

    // 2. A contract exists.
    if let Some((_, contract_status)) = facts.contract {
        return if contract_status == ContractStatus::Signed {
            status(
                "Active Patient",
                "Contract signed".to_owned(),
                "View Contract",
                "/contracts".to_owned(),
            )
        } else {
            status(
                "Contract Sent",
                "Awaiting signature".to_owned(),
                "Follow Up on Contract",
                "/contracts".to_owned(),
            )
        };
    }

    // 3. A care plan proposal exists.
    if let Some((care_plan_id, care_plan_status)) = facts.care_plan {
        return match care_plan_status {
            CarePlanStatus::Approved => status(
                "Care Plan Approved",
                "Ready for contract".to_owned(),
                "Generate Contract",
                format!("/contracts/new?care_plan_id={care_plan_id}"),
            ),
            CarePlanStatus::Sent => status(
                "Care Plan Sent",
                "Awaiting family response".to_owned(),
                "Follow Up on Care Plan",
                "/care-plans".to_owned(),
            ),
            _ => status(
                "Care Plan Ready",
                "Ready to send".to_owned(),
                "Send Care Plan",
                "/care-plans".to_owned(),
            ),
        };
    }

    // 4. An assessment exists.
    if let Some((assessment_id, assessment_status)) = facts.assessment {
        return if assessment_status == AssessmentStatus::Completed {
            status(
                "Assessment Complete",
                "Ready for care plan".to_owned(),
                "Generate Care Plan",
                format!("/care-plans/new?assessment_id={assessment_id}"),
            )
        } else {
            status(
                "Assessment In Progress",
                "Being completed".to_owned(),
                "Complete Assessment",
                format!("/assessments/new?assessment_id={assessment_id}"),
            )
        };
    }

    let schedule_route = format!("/assessments/new?intake_id={id}");

    // 5. An assessment date is set.
    if let Some(scheduled) = facts.assessment_scheduled_date {
        let days = clock.days_until_date(scheduled);
        return if days > 0 {
            let description = if days == 1 {
                "In 1 day".to_owned()
            } else {
                format!("In {days} days")
            };
            status(
                "Assessment Scheduled",
                description,
                "View Assessment Details",
                schedule_route,
            )
        } else {
            status(
                "Assessment Due",
                "Scheduled today or past".to_owned(),
                "Complete Assessment",
                schedule_route,
            )
        };
    }

    // 6. By days since creation.
    let days = clock.days_since(facts.created_at).max(0);
    if days == 0 {
        status(
            "New Client",
            "Intake just completed".to_owned(),
            "Schedule Assessment",
            schedule_route,
        )
    } else if days > OVERDUE_AFTER_DAYS {
        PipelineStatus {
            overdue: true,
            ..status(
                "⚠️ Intake",
                format!("{days} days since intake"),
                "Schedule Assessment",
                schedule_route,
            )
        }
    } else {
        let description = if days == 1 {
            "1 day ago".to_owned()
        } else {
            format!("{days} days ago")
        };
        status(
            "New Intake",
            description,
            "Schedule Assessment",
            schedule_route,
        )
    }
}

/// The moment a client becomes overdue on the clients list: its follow-up time, or the
/// start of its sixth day in the current stage, whichever comes first. Kept on the intake
/// row so "overdue" is an index range (`overdue_at < now`) instead of a computation over
/// every row. One millisecond is taken off the day boundary because the list compares
/// with `<`, while "more than 5 days" starts exactly at that midnight.
pub fn overdue_at(
    next_follow_up_at: Option<Timestamp>,
    stage_entered_at: Timestamp,
    clock: &AgencyClock,
) -> Timestamp {
    let entered_on = clock.local_date(stage_entered_at);
    let sixth_day = entered_on
        .checked_add(jiff::Span::new().days(OVERDUE_AFTER_DAYS + 1))
        .unwrap_or(Date::MAX);
    let by_days = clock
        .start_of_day(sixth_day)
        .checked_sub(jiff::SignedDuration::from_millis(1))
        .unwrap_or(Timestamp::MIN);
    match next_follow_up_at {
        Some(follow_up) if follow_up < by_days => follow_up,
        _ => by_days,
    }
}
