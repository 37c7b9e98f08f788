//! The derived pipeline status of an intake: the spec's six rules (first spec document,
//! §4), first match wins, with the blueprint's route fixes; a signed contract is looked
//! at first, since an Active Patient has finished the pipeline (blueprint difference 15).

use std::borrow::Cow;

use jiff::Timestamp;
use jiff::civil::Date;

use super::clock::AgencyClock;
use super::journey::route;
pub use crate::model::PipelineStatus;
use crate::model::{
    AssessmentId, AssessmentStatus, CarePlanId, CarePlanStatus, ContractId, ContractStatus,
    IntakeId, IntakeStatus, Stage,
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

/// A client whose contract is signed (an Active Patient) has finished the pipeline
/// (blueprint difference 15): never overdue, never in a stage alert, in no urgency list.
pub fn finished(contract: Option<ContractStatus>) -> bool {
    contract == Some(ContractStatus::Signed)
}

/// The stored overdue moment of a client that can never be overdue: later than any
/// moment a clock reaches, so `overdue_at < now` never holds for it.
pub const NEVER_OVERDUE: Timestamp = Timestamp::MAX;

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

/// An archived client (declined, not interested, …) is out of the pipeline: never
/// overdue, and its next step is its profile, where staff can reopen it.
pub fn archived_status(
    intake_id: &IntakeId,
    intake_status: IntakeStatus,
    days_in_stage: i64,
) -> PipelineStatus {
    let label = match intake_status {
        IntakeStatus::Declined => "Declined",
        IntakeStatus::NotInterested => "Not Interested",
        _ => "Archived",
    };
    PipelineStatus {
        label: Cow::Borrowed(label),
        description: Cow::Borrowed("Archived / Declined"),
        next_action: Cow::Borrowed("Reopen Client"),
        next_route: route("/clients/", intake_id.as_str(), ""),
        overdue: false,
        days_in_stage,
    }
}

pub fn derive_status(facts: &PipelineFacts<'_>, clock: &AgencyClock) -> PipelineStatus {
    let id = facts.intake_id;
    let days_in_stage = clock.days_since(facts.stage_entered_at).max(0);
    // The words are fixed but for a count of days, so a list row allocates nothing for them.
    let status = |label: &'static str,
                  description: Cow<'static, str>,
                  action: &'static str,
                  route: String| PipelineStatus {
        label: Cow::Borrowed(label),
        description,
        next_action: Cow::Borrowed(action),
        next_route: route,
        overdue: false,
        days_in_stage,
    };

    // 1. A signed contract: the pipeline is finished, so a follow-up date left on the
    // intake no longer makes the client overdue (blueprint difference 15).
    // The routes open the record itself rather than its list, so a next step is one click.
    if let Some((contract_id, ContractStatus::Signed)) = facts.contract {
        return status(
            "Active Patient",
            Cow::Borrowed("Contract signed"),
            "View Contract",
            route("/contracts/new?contract_id=", contract_id.as_str(), ""),
        );
    }

    // 2. A follow-up earlier than now.
    if let Some(follow_up) = facts.next_follow_up_at
        && follow_up < clock.now()
    {
        let days = clock.days_since(follow_up).max(0);
        let description = match days {
            0 => Cow::Borrowed("Due earlier today"),
            1 => Cow::Borrowed("1 day overdue"),
            n => Cow::Owned(format!("{n} days overdue")),
        };
        return PipelineStatus {
            overdue: true,
            ..status(
                "Follow-up Overdue",
                description,
                "Contact Client",
                route("/intake?intake_id=", id.as_str(), "&view=true"),
            )
        };
    }

    // 3. A contract waiting for its signature.
    if let Some((contract_id, _)) = facts.contract {
        return status(
            "Contract Sent",
            Cow::Borrowed("Awaiting signature"),
            "Follow Up on Contract",
            route("/contracts/new?contract_id=", contract_id.as_str(), ""),
        );
    }

    // 4. A care plan proposal exists.
    if let Some((care_plan_id, care_plan_status)) = facts.care_plan {
        return match care_plan_status {
            CarePlanStatus::Approved => status(
                "Care Plan Approved",
                Cow::Borrowed("Ready for contract"),
                "Generate Contract",
                route("/contracts/new?care_plan_id=", care_plan_id.as_str(), ""),
            ),
            CarePlanStatus::Sent => status(
                "Care Plan Sent",
                Cow::Borrowed("Awaiting family response"),
                "Follow Up on Care Plan",
                route("/care-plans/new?care_plan_id=", care_plan_id.as_str(), ""),
            ),
            _ => status(
                "Care Plan Ready",
                Cow::Borrowed("Ready to send"),
                "Send Care Plan",
                route("/care-plans/new?care_plan_id=", care_plan_id.as_str(), ""),
            ),
        };
    }

    // 5. An assessment exists.
    if let Some((assessment_id, assessment_status)) = facts.assessment {
        return if assessment_status == AssessmentStatus::Completed {
            status(
                "Assessment Complete",
                Cow::Borrowed("Ready for care plan"),
                "Generate Care Plan",
                route("/care-plans/new?assessment_id=", assessment_id.as_str(), ""),
            )
        } else {
            status(
                "Assessment In Progress",
                Cow::Borrowed("Being completed"),
                "Complete Assessment",
                route(
                    "/assessments/new?assessment_id=",
                    assessment_id.as_str(),
                    "",
                ),
            )
        };
    }

    let schedule_route = route("/assessments/new?intake_id=", id.as_str(), "");

    // 6. An assessment date is set.
    if let Some(scheduled) = facts.assessment_scheduled_date {
        let days = clock.days_until_date(scheduled);
        return if days > 0 {
            let description = if days == 1 {
                Cow::Borrowed("In 1 day")
            } else {
                Cow::Owned(format!("In {days} days"))
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
                Cow::Borrowed("Scheduled today or past"),
                "Complete Assessment",
                schedule_route,
            )
        };
    }

    // 7. By days since creation.
    let days = clock.days_since(facts.created_at).max(0);
    if days == 0 {
        status(
            "New Client",
            Cow::Borrowed("Intake just completed"),
            "Schedule Assessment",
            schedule_route,
        )
    } else if days > OVERDUE_AFTER_DAYS {
        PipelineStatus {
            overdue: true,
            ..status(
                "Intake",
                Cow::Owned(format!("{days} days since intake")),
                "Schedule Assessment",
                schedule_route,
            )
        }
    } else {
        let description = if days == 1 {
            Cow::Borrowed("1 day ago")
        } else {
            Cow::Owned(format!("{days} days ago"))
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
/// with `<`, while "more than 5 days" starts exactly at that midnight. A client that
/// has [`finished`] the pipeline is never overdue: [`NEVER_OVERDUE`].
pub fn overdue_at(
    next_follow_up_at: Option<Timestamp>,
    stage_entered_at: Timestamp,
    finished: bool,
    clock: &AgencyClock,
) -> Timestamp {
    if finished {
        return NEVER_OVERDUE;
    }
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

#[cfg(test)]
mod tests {
    use jiff::tz::TimeZone;
    use jiff::{SignedDuration, Timestamp};

    use super::*;

    const ZONE: &str = "America/New_York";
    /// 10:00 local (EST) on Sunday 22 November 2026.
    const NOW: &str = "2026-11-22T15:00:00Z";

    fn at(text: &str) -> Timestamp {
        text.parse().unwrap()
    }

    fn clock(now: &str) -> AgencyClock {
        AgencyClock::new(at(now), TimeZone::get(ZONE).unwrap())
    }

    /// A client's records, described by what differs from a fresh intake created now.
    #[derive(Clone, Copy, Default)]
    struct Given {
        created_at: Option<&'static str>,
        follow_up: Option<&'static str>,
        scheduled: Option<&'static str>,
        assessment: Option<AssessmentStatus>,
        care_plan: Option<CarePlanStatus>,
        contract: Option<ContractStatus>,
    }

    /// (label, description, next action, next route, overdue)
    type Expected<'a> = (&'a str, &'a str, &'a str, &'a str, bool);

    fn derive(given: Given, now: &str) -> PipelineStatus {
        let intake_id = IntakeId::from("i1");
        let assessment_id = AssessmentId::from("a1");
        let care_plan_id = CarePlanId::from("p1");
        let contract_id = ContractId::from("c1");
        let created_at = at(given.created_at.unwrap_or(now));
        let facts = PipelineFacts {
            intake_id: &intake_id,
            created_at,
            stage_entered_at: created_at,
            next_follow_up_at: given.follow_up.map(at),
            assessment_scheduled_date: given.scheduled.map(|d| d.parse().unwrap()),
            assessment: given.assessment.map(|s| (&assessment_id, s)),
            care_plan: given.care_plan.map(|s| (&care_plan_id, s)),
            contract: given.contract.map(|s| (&contract_id, s)),
        };
        derive_status(&facts, &clock(now))
    }

    fn check(given: Given, now: &str, expected: Expected<'_>) {
        let status = derive(given, now);
        let actual = (
            &*status.label,
            &*status.description,
            &*status.next_action,
            status.next_route.as_str(),
            status.overdue,
        );
        assert_eq!(actual, expected, "at {now}");
    }

    const FOLLOW_UP_OVERDUE: &str = "Follow-up Overdue";
    const INTAKE_ROUTE: &str = "/intake?intake_id=i1&view=true";
    const SCHEDULE_ROUTE: &str = "/assessments/new?intake_id=i1";

    #[test]
    fn follow_up_overdue_comes_first_until_the_contract_is_signed() {
        let unsigned = Given {
            contract: Some(ContractStatus::Sent),
            care_plan: Some(CarePlanStatus::Approved),
            assessment: Some(AssessmentStatus::Completed),
            scheduled: Some("2026-11-10"),
            created_at: Some("2026-11-01T15:00:00Z"),
            ..Given::default()
        };
        let active_patient = (
            "Active Patient",
            "Contract signed",
            "View Contract",
            "/contracts/new?contract_id=c1",
            false,
        );
        let cases = [
            ("2026-11-22T14:59:59.999Z", "Due earlier today"), // one millisecond before now
            ("2026-11-22T05:00:00Z", "Due earlier today"),     // local midnight today
            ("2026-11-22T04:59:59Z", "1 day overdue"),         // 23:59 local yesterday
            ("2026-11-21T15:00:00Z", "1 day overdue"),
            ("2026-11-20T15:00:00Z", "2 days overdue"),
            ("2026-10-23T15:00:00Z", "30 days overdue"),
        ];
        for (follow_up, description) in cases {
            let expected = (
                FOLLOW_UP_OVERDUE,
                description,
                "Contact Client",
                INTAKE_ROUTE,
                true,
            );
            // Alone, and ahead of every other rule (an unsigned contract included).
            let alone = Given {
                follow_up: Some(follow_up),
                ..Given::default()
            };
            check(alone, NOW, expected);
            let with_everything = Given {
                follow_up: Some(follow_up),
                ..unsigned
            };
            check(with_everything, NOW, expected);
            // A signed contract has finished the pipeline: never overdue.
            let signed = Given {
                contract: Some(ContractStatus::Signed),
                ..with_everything
            };
            check(signed, NOW, active_patient);
        }
    }

    #[test]
    fn only_a_signed_contract_finishes_the_pipeline() {
        let cases = [
            (None, false),
            (Some(ContractStatus::Draft), false),
            (Some(ContractStatus::Sent), false),
            (Some(ContractStatus::Signed), true),
        ];
        for (contract, expected) in cases {
            assert_eq!(finished(contract), expected, "{contract:?}");
        }
        // A finished client's overdue moment is never reached, follow-up or not.
        let clock = clock(NOW);
        let entered = at("2026-01-01T15:00:00Z");
        for follow_up in [None, Some(at("2026-02-01T15:00:00Z"))] {
            assert_eq!(overdue_at(follow_up, entered, true, &clock), NEVER_OVERDUE);
            assert!(overdue_at(follow_up, entered, false, &clock) < clock.now());
        }
    }

    #[test]
    fn a_follow_up_due_now_or_later_is_not_overdue() {
        for follow_up in [NOW, "2026-11-22T15:00:00.001Z", "2026-11-23T15:00:00Z"] {
            let given = Given {
                follow_up: Some(follow_up),
                ..Given::default()
            };
            check(
                given,
                NOW,
                (
                    "New Client",
                    "Intake just completed",
                    "Schedule Assessment",
                    SCHEDULE_ROUTE,
                    false,
                ),
            );
            let given = Given {
                follow_up: Some(follow_up),
                contract: Some(ContractStatus::Signed),
                ..Given::default()
            };
            check(
                given,
                NOW,
                (
                    "Active Patient",
                    "Contract signed",
                    "View Contract",
                    "/contracts/new?contract_id=c1",
                    false,
                ),
            );
        }
    }

    #[test]
    fn records_in_order_of_precedence() {
        let cases: Vec<(Given, Expected<'_>)> = vec![
            // 2. A contract: signed, else any other status.
            (
                Given {
                    contract: Some(ContractStatus::Signed),
                    care_plan: Some(CarePlanStatus::Approved),
                    assessment: Some(AssessmentStatus::Completed),
                    ..Given::default()
                },
                (
                    "Active Patient",
                    "Contract signed",
                    "View Contract",
                    "/contracts/new?contract_id=c1",
                    false,
                ),
            ),
            (
                Given {
                    contract: Some(ContractStatus::Sent),
                    care_plan: Some(CarePlanStatus::Approved),
                    ..Given::default()
                },
                (
                    "Contract Sent",
                    "Awaiting signature",
                    "Follow Up on Contract",
                    "/contracts/new?contract_id=c1",
                    false,
                ),
            ),
            (
                Given {
                    contract: Some(ContractStatus::Draft),
                    ..Given::default()
                },
                (
                    "Contract Sent",
                    "Awaiting signature",
                    "Follow Up on Contract",
                    "/contracts/new?contract_id=c1",
                    false,
                ),
            ),
            (
                Given {
                    contract: Some(ContractStatus::Cancelled),
                    ..Given::default()
                },
                (
                    "Contract Sent",
                    "Awaiting signature",
                    "Follow Up on Contract",
                    "/contracts/new?contract_id=c1",
                    false,
                ),
            ),
            // 3. A care plan: approved, sent, else ready.
            (
                Given {
                    care_plan: Some(CarePlanStatus::Approved),
                    assessment: Some(AssessmentStatus::Completed),
                    ..Given::default()
                },
                (
                    "Care Plan Approved",
                    "Ready for contract",
                    "Generate Contract",
                    "/contracts/new?care_plan_id=p1",
                    false,
                ),
            ),
            (
                Given {
                    care_plan: Some(CarePlanStatus::Sent),
                    assessment: Some(AssessmentStatus::Completed),
                    ..Given::default()
                },
                (
                    "Care Plan Sent",
                    "Awaiting family response",
                    "Follow Up on Care Plan",
                    "/care-plans/new?care_plan_id=p1",
                    false,
                ),
            ),
            (
                Given {
                    care_plan: Some(CarePlanStatus::Draft),
                    assessment: Some(AssessmentStatus::Completed),
                    ..Given::default()
                },
                (
                    "Care Plan Ready",
                    "Ready to send",
                    "Send Care Plan",
                    "/care-plans/new?care_plan_id=p1",
                    false,
                ),
            ),
            (
                Given {
                    care_plan: Some(CarePlanStatus::Declined),
                    ..Given::default()
                },
                (
                    "Care Plan Ready",
                    "Ready to send",
                    "Send Care Plan",
                    "/care-plans/new?care_plan_id=p1",
                    false,
                ),
            ),
            // 4. An assessment: completed, else in progress (blueprint fix 2's route).
            (
                Given {
                    assessment: Some(AssessmentStatus::Completed),
                    scheduled: Some("2026-11-30"),
                    ..Given::default()
                },
                (
                    "Assessment Complete",
                    "Ready for care plan",
                    "Generate Care Plan",
                    "/care-plans/new?assessment_id=a1",
                    false,
                ),
            ),
            (
                Given {
                    assessment: Some(AssessmentStatus::Draft),
                    scheduled: Some("2026-11-30"),
                    created_at: Some("2026-11-01T15:00:00Z"),
                    ..Given::default()
                },
                (
                    "Assessment In Progress",
                    "Being completed",
                    "Complete Assessment",
                    "/assessments/new?assessment_id=a1",
                    false,
                ),
            ),
            // 5. A scheduled assessment date beats the days since creation.
            (
                Given {
                    scheduled: Some("2026-11-23"),
                    created_at: Some("2026-11-01T15:00:00Z"),
                    ..Given::default()
                },
                (
                    "Assessment Scheduled",
                    "In 1 day",
                    "View Assessment Details",
                    SCHEDULE_ROUTE,
                    false,
                ),
            ),
            (
                Given {
                    scheduled: Some("2026-11-25"),
                    ..Given::default()
                },
                (
                    "Assessment Scheduled",
                    "In 3 days",
                    "View Assessment Details",
                    SCHEDULE_ROUTE,
                    false,
                ),
            ),
            (
                Given {
                    scheduled: Some("2026-11-22"),
                    ..Given::default()
                },
                (
                    "Assessment Due",
                    "Scheduled today or past",
                    "Complete Assessment",
                    SCHEDULE_ROUTE,
                    false,
                ),
            ),
            (
                Given {
                    scheduled: Some("2026-11-01"),
                    created_at: Some("2026-10-01T15:00:00Z"),
                    ..Given::default()
                },
                (
                    "Assessment Due",
                    "Scheduled today or past",
                    "Complete Assessment",
                    SCHEDULE_ROUTE,
                    false,
                ),
            ),
        ];
        for (given, expected) in cases {
            check(given, NOW, expected);
        }
    }

    #[test]
    fn scheduled_today_and_tomorrow_follow_the_agency_zone() {
        // 23:30 local on the 22nd is already the 23rd in UTC: "today" is still the 22nd.
        let late = "2026-11-23T04:30:00Z";
        let today = Given {
            scheduled: Some("2026-11-22"),
            created_at: Some(late),
            ..Given::default()
        };
        check(
            today,
            late,
            (
                "Assessment Due",
                "Scheduled today or past",
                "Complete Assessment",
                SCHEDULE_ROUTE,
                false,
            ),
        );
        let tomorrow = Given {
            scheduled: Some("2026-11-23"),
            created_at: Some(late),
            ..Given::default()
        };
        check(
            tomorrow,
            late,
            (
                "Assessment Scheduled",
                "In 1 day",
                "View Assessment Details",
                SCHEDULE_ROUTE,
                false,
            ),
        );
    }

    #[test]
    fn days_since_creation() {
        let new_intake = |description: &'static str| -> Expected<'static> {
            (
                "New Intake",
                description,
                "Schedule Assessment",
                SCHEDULE_ROUTE,
                false,
            )
        };
        let cases: [(&str, Expected<'_>); 8] = [
            (
                "2026-11-22T05:00:00Z", // 00:00 local today
                (
                    "New Client",
                    "Intake just completed",
                    "Schedule Assessment",
                    SCHEDULE_ROUTE,
                    false,
                ),
            ),
            ("2026-11-22T04:59:00Z", new_intake("1 day ago")), // 23:59 local yesterday
            ("2026-11-21T15:00:00Z", new_intake("1 day ago")),
            ("2026-11-19T15:00:00Z", new_intake("3 days ago")),
            ("2026-11-18T15:00:00Z", new_intake("4 days ago")),
            ("2026-11-17T05:00:00Z", new_intake("5 days ago")),
            (
                "2026-11-17T04:59:59.999Z", // 23:59:59.999 local on the 16th: six days
                (
                    "Intake",
                    "6 days since intake",
                    "Schedule Assessment",
                    SCHEDULE_ROUTE,
                    true,
                ),
            ),
            (
                "2026-11-02T15:00:00Z",
                (
                    "Intake",
                    "20 days since intake",
                    "Schedule Assessment",
                    SCHEDULE_ROUTE,
                    true,
                ),
            ),
        ];
        for (created_at, expected) in cases {
            let given = Given {
                created_at: Some(created_at),
                ..Given::default()
            };
            check(given, NOW, expected);
        }
        // Shortly after local midnight, a creation one minute before it is a day ago.
        let given = Given {
            created_at: Some("2026-11-22T04:59:00Z"),
            ..Given::default()
        };
        check(given, "2026-11-22T05:30:00Z", new_intake("1 day ago"));
        // A creation "in the future" (clock skew between machines) is new, not negative.
        let given = Given {
            created_at: Some("2026-11-23T15:00:00Z"),
            ..Given::default()
        };
        let status = derive(given, NOW);
        assert_eq!((&*status.label, status.days_in_stage), ("New Client", 0));
    }

    #[test]
    fn days_across_daylight_saving_changes() {
        // Spring forward on Sunday 8 March 2026: the day has 23 hours.
        let now = "2026-03-09T14:00:00Z"; // 10:00 EDT on the 9th
        let cases: [(&str, Expected<'_>); 3] = [
            (
                "2026-03-03T16:00:00Z", // 11:00 EST on the 3rd: six calendar days
                (
                    "Intake",
                    "6 days since intake",
                    "Schedule Assessment",
                    SCHEDULE_ROUTE,
                    true,
                ),
            ),
            (
                "2026-03-04T05:00:00Z", // 00:00 EST on the 4th: five days
                (
                    "New Intake",
                    "5 days ago",
                    "Schedule Assessment",
                    SCHEDULE_ROUTE,
                    false,
                ),
            ),
            (
                "2026-03-09T04:00:00Z", // 00:00 EDT on the 9th
                (
                    "New Client",
                    "Intake just completed",
                    "Schedule Assessment",
                    SCHEDULE_ROUTE,
                    false,
                ),
            ),
        ];
        for (created_at, expected) in cases {
            let given = Given {
                created_at: Some(created_at),
                ..Given::default()
            };
            check(given, now, expected);
        }
        // On the DST day itself, midnight is still EST (05:00 UTC).
        let on_the_day = "2026-03-08T16:00:00Z";
        for (created_at, label) in [
            ("2026-03-08T05:00:00Z", "New Client"),
            ("2026-03-08T04:59:00Z", "New Intake"),
        ] {
            let given = Given {
                created_at: Some(created_at),
                ..Given::default()
            };
            assert_eq!(derive(given, on_the_day).label, label, "{created_at}");
        }
        // Fall back on Sunday 1 November 2026: the day has 25 hours.
        let given = Given {
            created_at: Some("2026-10-27T04:00:00Z"), // 00:00 EDT on the 27th
            ..Given::default()
        };
        let status = derive(given, "2026-11-02T04:59:59Z"); // 23:59:59 EST on the 1st
        assert_eq!((&*status.label, status.overdue), ("New Intake", false));
        let status = derive(given, "2026-11-02T05:00:00Z"); // 00:00 EST on the 2nd
        assert_eq!((&*status.label, status.overdue), ("Intake", true));
    }

    #[test]
    fn days_in_stage_counts_from_the_stage_not_the_intake() {
        let intake_id = IntakeId::from("i1");
        let assessment_id = AssessmentId::from("a1");
        let facts = PipelineFacts {
            intake_id: &intake_id,
            created_at: at("2026-11-01T15:00:00Z"),
            stage_entered_at: at("2026-11-20T15:00:00Z"),
            next_follow_up_at: None,
            assessment_scheduled_date: None,
            assessment: Some((&assessment_id, AssessmentStatus::Completed)),
            care_plan: None,
            contract: None,
        };
        let status = derive_status(&facts, &clock(NOW));
        assert_eq!(status.days_in_stage, 2);
        assert!(!status.overdue);
        assert_eq!(stage_of(&facts), Stage::Assessment);
    }

    #[test]
    fn stages() {
        let cases = [
            (Given::default(), Stage::Intake),
            (
                Given {
                    scheduled: Some("2026-11-30"),
                    ..Given::default()
                },
                Stage::Intake,
            ),
            (
                Given {
                    assessment: Some(AssessmentStatus::Draft),
                    ..Given::default()
                },
                Stage::Assessment,
            ),
            (
                Given {
                    assessment: Some(AssessmentStatus::Completed),
                    care_plan: Some(CarePlanStatus::Draft),
                    ..Given::default()
                },
                Stage::CarePlan,
            ),
            (
                Given {
                    contract: Some(ContractStatus::Draft),
                    ..Given::default()
                },
                Stage::Contract,
            ),
        ];
        let intake_id = IntakeId::from("i1");
        let assessment_id = AssessmentId::from("a1");
        let care_plan_id = CarePlanId::from("p1");
        let contract_id = ContractId::from("c1");
        for (given, expected) in cases {
            let facts = PipelineFacts {
                intake_id: &intake_id,
                created_at: at(NOW),
                stage_entered_at: at(NOW),
                next_follow_up_at: None,
                assessment_scheduled_date: given.scheduled.map(|d| d.parse().unwrap()),
                assessment: given.assessment.map(|s| (&assessment_id, s)),
                care_plan: given.care_plan.map(|s| (&care_plan_id, s)),
                contract: given.contract.map(|s| (&contract_id, s)),
            };
            assert_eq!(stage_of(&facts), expected);
        }
    }

    /// `overdue_at(..) < now` must say exactly what "more than 5 days in the stage, or
    /// a follow-up earlier than now" says, at every moment around the boundary.
    #[test]
    fn overdue_at_agrees_with_the_rule() {
        let ms = SignedDuration::from_millis;
        let hours = SignedDuration::from_hours;
        // (stage entered, the first moment of its sixth day after)
        let entries = [
            ("2026-11-10T15:00:00Z", "2026-11-16T05:00:00Z"), // plain EST week
            ("2026-11-10T04:59:59Z", "2026-11-15T05:00:00Z"), // 23:59:59 local on the 9th
            ("2026-03-02T15:00:00Z", "2026-03-08T05:00:00Z"), // sixth day is the spring-forward day
            ("2026-03-05T15:00:00Z", "2026-03-11T04:00:00Z"), // the change falls within the wait
            ("2026-03-08T06:30:00Z", "2026-03-14T04:00:00Z"), // entered on the DST day, in EST
            ("2026-10-26T15:00:00Z", "2026-11-01T04:00:00Z"), // sixth day is the fall-back day
            ("2026-10-29T15:00:00Z", "2026-11-04T05:00:00Z"), // fall back within the wait
        ];
        for (entered, sixth_midnight) in entries {
            let entered = at(entered);
            let boundary = at(sixth_midnight);
            let offsets = [
                -hours(30),
                -hours(1),
                -ms(2),
                -ms(1),
                ms(0),
                ms(1),
                hours(1),
                hours(25),
            ];
            for offset in offsets {
                let now = boundary + offset;
                let clock = AgencyClock::new(now, TimeZone::get(ZONE).unwrap());
                let follow_ups = [
                    None,
                    Some(now - ms(1)),
                    Some(now),
                    Some(now + ms(1)),
                    Some(entered - hours(48)),
                    Some(boundary + hours(24 * 30)),
                ];
                for follow_up in follow_ups {
                    let by_rule = clock.days_since(entered) > OVERDUE_AFTER_DAYS
                        || follow_up.is_some_and(|f| f < now);
                    let by_column = overdue_at(follow_up, entered, false, &clock) < now;
                    assert_eq!(
                        by_column, by_rule,
                        "entered {entered}, now {now}, follow-up {follow_up:?}"
                    );
                }
                // The day part of the rule flips exactly at the sixth local midnight.
                assert_eq!(
                    clock.days_since(entered) > OVERDUE_AFTER_DAYS,
                    offset >= ms(0),
                    "entered {entered}, now {now}"
                );
            }
            // Without a follow-up the column is the last millisecond before that midnight,
            // whatever "now" is.
            let clock = clock(NOW);
            assert_eq!(overdue_at(None, entered, false, &clock), boundary - ms(1));
            // An earlier follow-up takes its place; a later one does not.
            let early = entered + hours(2);
            assert_eq!(overdue_at(Some(early), entered, false, &clock), early);
            assert_eq!(
                overdue_at(Some(boundary + hours(1)), entered, false, &clock),
                boundary - ms(1)
            );
        }
    }
}
