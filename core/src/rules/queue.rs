//! A coordinator's queue: when each kind of row falls due, the order (most late first),
//! what a row says and which action it offers, and the checks on a new task and a snooze.

use jiff::{SignedDuration, Timestamp};

use super::clock::{AgencyClock, days_between, parse_date};
use crate::error::{Error, ValidationErrors};
use crate::model::{QueueAction, QueueItem, QueueKind, SnoozeInput, TaskInput};
use crate::rules::validation::{DATE_IN_PAST, INVALID_DATE};

/// The rows a queue shows at first, the most late ones; "Show more" asks for this many
/// more at a time, up to [`QUEUE_MAX`]. A page a phone shows in a few screens, and
/// what the queue reads grows with it.
pub const QUEUE_PAGE: usize = 25;
pub const QUEUE_MAX: usize = 200;

/// The rows a queue asked for with `requested` shows: [`QUEUE_PAGE`] when none is asked,
/// never fewer than one or more than [`QUEUE_MAX`] (as the lists' pages are bounded).
pub fn queue_limit(requested: Option<u32>) -> usize {
    requested.map_or(QUEUE_PAGE, |rows| {
        usize::try_from(rows)
            .unwrap_or(QUEUE_MAX)
            .clamp(1, QUEUE_MAX)
    })
}

/// Settings → Workflow: the days a proposal or contract may wait for the family before it
/// joins the queue, and their bounds.
pub const WAITING_DAYS: (u32, u32) = (1, 60);

pub const TASK_NOTE_NEEDED: &str = "Please enter what needs doing";
pub const MAX_TASK_NOTE_CHARS: usize = 500;
pub const TASK_NOTE_TOO_LONG: &str = "Note must be at most 500 characters";
pub const TASK_DATE_NEEDED: &str = "Please enter a due date";
/// A task or a snooze further ahead than this is a typing mistake, not a plan.
pub const MAX_DAYS_AHEAD: i64 = 366;
pub const TOO_FAR_AHEAD: &str = "Date must be within a year from today";
pub const SNOOZE_DATE_NEEDED: &str = "Please choose the day it comes back";
pub const SNOOZE_NOT_AFTER_TODAY: &str = "Snooze until a day after today";
pub const SNOOZE_REASON_NEEDED: &str = "Please enter a reason";
pub const MAX_SNOOZE_REASON_CHARS: usize = 300;
pub const SNOOZE_REASON_TOO_LONG: &str = "Reason must be at most 300 characters";
pub const KIND_NEEDED: &str = "Say which row: its kind and id.";
pub const VISITS_ARE_RESCHEDULED: &str = "A visit is moved with Reschedule, not snoozed.";
pub const NOT_DONE_FROM_QUEUE: &str =
    "This row leaves the queue when the family answers; snooze it or open the client.";
pub const OWNER_NOT_STAFF: &str = "Choose an active member of staff.";
pub const TASK_ALREADY_DONE: &str = "This task is already done.";
/// A follow-up moved from the queue that had no time of day gets this one, so the form
/// and the lists agree on when it falls due.
pub const SNOOZED_FOLLOW_UP_TIME: &str = "09:00";

/// When a proposal or contract sent at `sent_at` joins the queue: `days` later.
pub fn waiting_due(sent_at: Timestamp, days: u32) -> Timestamp {
    sent_at
        .checked_add(SignedDuration::from_hours(i64::from(days) * 24))
        .unwrap_or(Timestamp::MAX)
}

/// The moment a proposal or contract sent before it has waited more than `days`.
pub fn waiting_cutoff(now: Timestamp, days: u32) -> Timestamp {
    now.checked_sub(SignedDuration::from_hours(i64::from(days) * 24))
        .unwrap_or(Timestamp::MIN)
}

/// The start of the agency's tomorrow: everything due before it is in today's queue.
pub fn end_of_today(clock: &AgencyClock) -> Timestamp {
    clock.start_of_day(clock.today().tomorrow().unwrap_or(clock.today()))
}

/// Most late first: by the moment each fell due, then by kind (a visit before a
/// follow-up due at the same moment), then by client and id so the order is stable.
pub fn order(rows: &mut [QueueRow]) {
    rows.sort_by(|a, b| {
        (
            a.parts.due,
            a.facts.kind(),
            a.parts.client_name.as_str(),
            a.parts.id.as_str(),
        )
            .cmp(&(
                b.parts.due,
                b.facts.kind(),
                b.parts.client_name.as_str(),
                b.parts.id.as_str(),
            ))
    });
}

/// When a row is due, in words: "3 days late" for a day before today, "Today at
/// 2:00 PM" (a task, which has no time: "Due today"), "Due Friday" ahead.
pub fn when_label(kind: QueueKind, due: Timestamp, clock: &AgencyClock) -> String {
    let due_date = clock.local_date(due);
    let days = days_between(due_date, clock.today());
    match days {
        1 => "1 day late".to_owned(),
        d if d > 1 => format!("{d} days late"),
        0 if kind == QueueKind::Task => "Due today".to_owned(),
        0 => format!(
            "Today at {}",
            due.to_zoned(clock.tz().clone()).strftime("%-I:%M %p")
        ),
        _ => format!("Due {}", due_date.strftime("%A, %B %-d")),
    }
}

fn plural(n: i64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// What makes a row's title: the facts each kind names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RowFacts {
    FollowUp,
    Visit,
    Reply {
        unread: i64,
    },
    Task {
        from: Option<String>,
    },
    /// Whole days since it was sent.
    Proposal {
        days: i64,
    },
    Contract {
        days: i64,
    },
    StageAlert {
        stage: &'static str,
        days: i64,
    },
}

impl RowFacts {
    pub fn kind(&self) -> QueueKind {
        match self {
            RowFacts::FollowUp => QueueKind::FollowUp,
            RowFacts::Visit => QueueKind::Visit,
            RowFacts::Reply { .. } => QueueKind::Reply,
            RowFacts::Task { .. } => QueueKind::Task,
            RowFacts::Proposal { .. } => QueueKind::Proposal,
            RowFacts::Contract { .. } => QueueKind::Contract,
            RowFacts::StageAlert { .. } => QueueKind::StageAlert,
        }
    }

    /// The row's title.
    pub fn title(&self) -> String {
        match self {
            RowFacts::FollowUp => "Follow-up due".to_owned(),
            RowFacts::Visit => "Assessment visit".to_owned(),
            RowFacts::Reply { unread } => plural(*unread, "unread reply", "unread replies"),
            RowFacts::Task { from: None } => "Task".to_owned(),
            RowFacts::Task { from: Some(name) } => format!("Task from {name}"),
            RowFacts::Proposal { days } => format!(
                "Proposal sent {} ago, no answer yet",
                plural(*days, "day", "days")
            ),
            RowFacts::Contract { days } => format!(
                "Contract sent {} ago, not signed yet",
                plural(*days, "day", "days")
            ),
            RowFacts::StageAlert { stage, days } => {
                format!("In {stage} for {}", plural(*days, "day", "days"))
            }
        }
    }
}

/// A row's one next action and its label.
pub fn action_of(kind: QueueKind) -> (QueueAction, &'static str) {
    match kind {
        QueueKind::FollowUp => (QueueAction::LogCall, "Log a Call"),
        QueueKind::Visit => (QueueAction::Reschedule, "Reschedule"),
        QueueKind::Task => (QueueAction::MarkDone, "Mark Done"),
        QueueKind::Reply | QueueKind::Proposal | QueueKind::Contract | QueueKind::StageAlert => {
            (QueueAction::Open, "Open")
        }
    }
}

/// Whether a row of this kind can be snoozed (a visit is rescheduled instead).
pub fn can_snooze(kind: QueueKind) -> bool {
    kind != QueueKind::Visit
}

/// Whether staff can mark a row of this kind done: a proposal, a contract or a stage
/// alert leaves the queue when the client moves on.
pub fn can_mark_done(kind: QueueKind) -> bool {
    matches!(
        kind,
        QueueKind::FollowUp | QueueKind::Visit | QueueKind::Reply | QueueKind::Task
    )
}

/// The parts of a row the store reads.
#[derive(Debug, Clone)]
pub struct RowParts {
    pub id: String,
    pub intake_id: crate::model::IntakeId,
    pub client_name: String,
    pub due: Timestamp,
    pub detail: Option<String>,
    pub route: String,
    pub phone: Option<String>,
}

/// A row as the store read it: what the queue is ordered by. Only the rows the queue
/// shows are worded ([`QueueRow::item`]): an owner of every client can have seven reads
/// of 51 candidates for 50 places, and wording one (its moment in the agency's zone, its
/// title) costs more than reading it.
#[derive(Debug, Clone)]
pub struct QueueRow {
    pub facts: RowFacts,
    pub parts: RowParts,
}

impl QueueRow {
    /// The queue row as staff see it.
    pub fn item(self, clock: &AgencyClock) -> QueueItem {
        let QueueRow { facts, parts } = self;
        let kind = facts.kind();
        let (action, label) = action_of(kind);
        QueueItem {
            kind,
            id: parts.id,
            intake_id: parts.intake_id,
            client_name: parts.client_name,
            due_at: super::clock::format_timestamp(parts.due),
            late: parts.due < clock.now(),
            when: when_label(kind, parts.due, clock),
            title: facts.title(),
            detail: parts.detail.filter(|text| !text.trim().is_empty()),
            action,
            action_label: label.to_owned(),
            route: parts.route,
            can_snooze: can_snooze(kind),
            can_mark_done: can_mark_done(kind),
            phone: parts.phone.filter(|text| !text.trim().is_empty()),
        }
    }
}

/// The timeline's lines for what staff do from the queue and the client's profile.
pub mod timeline {
    use jiff::civil::Date;

    use crate::model::QueueKind;
    use crate::rules::format::format_long_date;

    pub fn owner_changed(from: Option<&str>, to: Option<&str>) -> String {
        match (from, to) {
            (_, None) => "Coordinator removed: the client is unassigned".to_owned(),
            (None, Some(to)) => format!("Coordinator set to {to}"),
            (Some(from), Some(to)) => format!("Coordinator changed from {from} to {to}"),
        }
    }

    pub fn task_added(assignee: &str, due: Date, note: &str) -> String {
        format!(
            "Task for {assignee}, due {}: {}",
            format_long_date(due),
            note.trim()
        )
    }

    pub fn task_done(note: &str) -> String {
        format!("Task done: {}", note.trim())
    }

    pub fn snoozed(kind: QueueKind, until: Date, reason: &str) -> String {
        let what = match kind {
            QueueKind::FollowUp => "Follow-up moved to",
            QueueKind::Task => "Task moved to",
            QueueKind::Reply => "Unread replies snoozed until",
            QueueKind::Proposal => "Proposal follow-up snoozed until",
            QueueKind::Contract => "Contract follow-up snoozed until",
            QueueKind::StageAlert | QueueKind::Visit => "Stage alert snoozed until",
        };
        format!("{what} {}: {}", format_long_date(until), reason.trim())
    }

    pub const FOLLOW_UP_DONE: &str = "Follow-up done";

    pub fn replies_read(n: usize) -> String {
        if n == 1 {
            "1 reply read".to_owned()
        } else {
            format!("{n} replies read")
        }
    }
}

/// Checks a day after today and within a year; `past` is the message for a day too early.
fn check_day(
    errors: &mut ValidationErrors,
    field: &str,
    value: &str,
    clock: &AgencyClock,
    earliest_days: i64,
    empty: &str,
    too_early: &str,
) -> Option<jiff::civil::Date> {
    let value = value.trim();
    if value.is_empty() {
        errors.add(field, empty);
        return None;
    }
    let Some(date) = parse_date(value) else {
        errors.add(field, INVALID_DATE);
        return None;
    };
    let ahead = clock.days_until_date(date);
    if ahead < earliest_days {
        errors.add(field, too_early);
        None
    } else if ahead > MAX_DAYS_AHEAD {
        errors.add(field, TOO_FAR_AHEAD);
        None
    } else {
        Some(date)
    }
}

/// A new task: a note of at most 500 characters, due today or later (within a year).
/// Answers the due day.
pub fn validate_task(input: &TaskInput, clock: &AgencyClock) -> Result<jiff::civil::Date, Error> {
    let mut errors = ValidationErrors::new();
    let note = input.note.trim();
    if note.is_empty() {
        errors.add("note", TASK_NOTE_NEEDED);
    } else if note.chars().count() > MAX_TASK_NOTE_CHARS {
        errors.add("note", TASK_NOTE_TOO_LONG);
    }
    let due = check_day(
        &mut errors,
        "due_date",
        &input.due_date,
        clock,
        0,
        TASK_DATE_NEEDED,
        DATE_IN_PAST,
    );
    match due {
        Some(due) if errors.is_empty() => Ok(due),
        _ => Err(Error::Validation(errors)),
    }
}

/// A snooze: which row, a day after today (within a year) and a reason of at most 300
/// characters. Answers the kind and the day it comes back.
pub fn validate_snooze(
    input: &SnoozeInput,
    clock: &AgencyClock,
) -> Result<(QueueKind, jiff::civil::Date), Error> {
    let Some(kind) = input.kind.filter(|_| !input.id.trim().is_empty()) else {
        return Err(Error::Rejected(KIND_NEEDED.to_owned()));
    };
    if kind == QueueKind::Visit {
        return Err(Error::Rejected(VISITS_ARE_RESCHEDULED.to_owned()));
    }
    let mut errors = ValidationErrors::new();
    let until = check_day(
        &mut errors,
        "until",
        &input.until,
        clock,
        1,
        SNOOZE_DATE_NEEDED,
        SNOOZE_NOT_AFTER_TODAY,
    );
    let reason = input.reason.trim();
    if reason.is_empty() {
        errors.add("reason", SNOOZE_REASON_NEEDED);
    } else if reason.chars().count() > MAX_SNOOZE_REASON_CHARS {
        errors.add("reason", SNOOZE_REASON_TOO_LONG);
    }
    match until {
        Some(until) if errors.is_empty() => Ok((kind, until)),
        _ => Err(Error::Validation(errors)),
    }
}

/// Which row a Mark Done names; a proposal, contract or stage alert cannot be done here.
pub fn validate_done(kind: Option<QueueKind>, id: &str) -> Result<QueueKind, Error> {
    let Some(kind) = kind.filter(|_| !id.trim().is_empty()) else {
        return Err(Error::Rejected(KIND_NEEDED.to_owned()));
    };
    if !can_mark_done(kind) {
        return Err(Error::Rejected(NOT_DONE_FROM_QUEUE.to_owned()));
    }
    Ok(kind)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::IntakeId;
    use crate::rules::validation::test_support::{messages, pairs};

    fn at(text: &str) -> Timestamp {
        text.parse().unwrap()
    }

    /// The words of a refusal that is not about one field.
    fn refusal<T: std::fmt::Debug>(result: Result<T, Error>) -> String {
        match result {
            Err(Error::Rejected(message)) => message,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    /// Thursday 26 November 2026, 3:00 PM in Chicago.
    fn clock() -> AgencyClock {
        AgencyClock::new(
            at("2026-11-26T21:00:00Z"),
            AgencyClock::zone_named("America/Chicago"),
        )
    }

    fn row(facts: RowFacts, name: &str, due: &str) -> QueueRow {
        QueueRow {
            parts: RowParts {
                id: format!("{name}-{}", facts.kind().as_str()),
                intake_id: IntakeId::from(name),
                client_name: name.to_owned(),
                due: at(due),
                detail: None,
                route: String::new(),
                phone: None,
            },
            facts,
        }
    }

    /// The rows in the queue's order, worded.
    fn ordered(mut rows: Vec<QueueRow>) -> Vec<QueueItem> {
        order(&mut rows);
        rows.into_iter().map(|row| row.item(&clock())).collect()
    }

    #[test]
    fn the_most_late_row_comes_first_whatever_its_kind() {
        let items = ordered(vec![
            // Today's visit at 4 PM: not late yet.
            row(RowFacts::Visit, "Vera", "2026-11-26T22:00:00Z"),
            // A stage alert past its days since yesterday.
            row(
                RowFacts::StageAlert {
                    stage: "Intake",
                    days: 8,
                },
                "Sam",
                "2026-11-25T18:00:00Z",
            ),
            // A follow-up three days overdue.
            row(RowFacts::FollowUp, "Fay", "2026-11-23T16:00:00Z"),
            // A task due today (its day starts at midnight).
            row(RowFacts::Task { from: None }, "Tia", "2026-11-26T06:00:00Z"),
            // A reply unread since this morning.
            row(RowFacts::Reply { unread: 2 }, "Rae", "2026-11-26T15:30:00Z"),
        ]);
        let names: Vec<&str> = items.iter().map(|i| i.client_name.as_str()).collect();
        assert_eq!(names, ["Fay", "Sam", "Tia", "Rae", "Vera"]);
        let late: Vec<bool> = items.iter().map(|i| i.late).collect();
        assert_eq!(late, [true, true, true, true, false]);
    }

    #[test]
    fn rows_due_at_the_same_moment_put_the_family_first_then_the_name() {
        let due = "2026-11-26T16:00:00Z";
        let items = ordered(vec![
            row(
                RowFacts::StageAlert {
                    stage: "Care Plan",
                    days: 9,
                },
                "Ann",
                due,
            ),
            row(RowFacts::Task { from: None }, "Bea", due),
            row(RowFacts::FollowUp, "Cal", due),
            row(RowFacts::FollowUp, "Abe", due),
            row(RowFacts::Visit, "Dot", due),
        ]);
        let order: Vec<(&str, QueueKind)> = items
            .iter()
            .map(|i| (i.client_name.as_str(), i.kind))
            .collect();
        assert_eq!(
            order,
            [
                ("Dot", QueueKind::Visit),
                ("Abe", QueueKind::FollowUp),
                ("Cal", QueueKind::FollowUp),
                ("Bea", QueueKind::Task),
                ("Ann", QueueKind::StageAlert),
            ]
        );
    }

    #[test]
    fn lateness_is_counted_in_the_agency_s_calendar_days() {
        let clock = clock();
        let cases = [
            // 11 PM on Wednesday in Chicago is Thursday in UTC: one day late.
            (QueueKind::FollowUp, "2026-11-26T05:00:00Z", "1 day late"),
            (QueueKind::FollowUp, "2026-11-23T16:00:00Z", "3 days late"),
            (QueueKind::Visit, "2026-11-26T22:30:00Z", "Today at 4:30 PM"),
            (
                QueueKind::FollowUp,
                "2026-11-26T15:00:00Z",
                "Today at 9:00 AM",
            ),
            (QueueKind::Task, "2026-11-26T06:00:00Z", "Due today"),
            (
                QueueKind::Task,
                "2026-11-28T06:00:00Z",
                "Due Saturday, November 28",
            ),
        ];
        for (kind, due, expected) in cases {
            assert_eq!(when_label(kind, at(due), &clock), expected, "{due}");
        }
    }

    #[test]
    fn a_proposal_or_contract_joins_the_queue_its_days_after_it_was_sent() {
        let sent = at("2026-11-20T15:00:00Z");
        assert_eq!(waiting_due(sent, 3), at("2026-11-23T15:00:00Z"));
        let now = at("2026-11-23T15:00:00Z");
        // Sent exactly three days ago: not before the cutoff yet.
        assert!(sent >= waiting_cutoff(now, 3));
        assert!(sent < waiting_cutoff(now, 2));
        assert_eq!(waiting_due(sent, u32::MAX), Timestamp::MAX);
    }

    #[test]
    fn each_kind_says_what_it_is_and_offers_one_action() {
        let cases = [
            (
                RowFacts::FollowUp,
                "Follow-up due",
                QueueAction::LogCall,
                true,
                true,
            ),
            (
                RowFacts::Visit,
                "Assessment visit",
                QueueAction::Reschedule,
                false,
                true,
            ),
            (
                RowFacts::Reply { unread: 1 },
                "1 unread reply",
                QueueAction::Open,
                true,
                true,
            ),
            (
                RowFacts::Reply { unread: 3 },
                "3 unread replies",
                QueueAction::Open,
                true,
                true,
            ),
            (
                RowFacts::Task {
                    from: Some("Jordan Lee".to_owned()),
                },
                "Task from Jordan Lee",
                QueueAction::MarkDone,
                true,
                true,
            ),
            (
                RowFacts::Proposal { days: 5 },
                "Proposal sent 5 days ago, no answer yet",
                QueueAction::Open,
                true,
                false,
            ),
            (
                RowFacts::Contract { days: 1 },
                "Contract sent 1 day ago, not signed yet",
                QueueAction::Open,
                true,
                false,
            ),
            (
                RowFacts::StageAlert {
                    stage: "Assessment",
                    days: 12,
                },
                "In Assessment for 12 days",
                QueueAction::Open,
                true,
                false,
            ),
        ];
        for (facts, title, action, snooze, done) in cases {
            let item = row(facts.clone(), "Ann", "2026-11-25T16:00:00Z").item(&clock());
            assert_eq!(item.title, title);
            assert_eq!(item.action, action, "{title}");
            assert_eq!(item.can_snooze, snooze, "{title}");
            assert_eq!(item.can_mark_done, done, "{title}");
        }
    }

    #[test]
    fn a_task_needs_a_bounded_note_and_a_day_from_today_within_a_year() {
        let clock = clock();
        let task = |due: &str, note: &str| TaskInput {
            assignee_id: None,
            due_date: due.to_owned(),
            note: note.to_owned(),
        };
        assert_eq!(
            validate_task(&task("2026-11-26", "Call her daughter"), &clock).unwrap(),
            jiff::civil::date(2026, 11, 26)
        );
        assert!(
            validate_task(
                &task("2027-11-26", &"é".repeat(MAX_TASK_NOTE_CHARS)),
                &clock
            )
            .is_ok()
        );
        type Case<'a> = (&'a str, &'a str, &'a [(&'a str, &'a str)]);
        let cases: [Case<'_>; 6] = [
            ("", "x", &[("due_date", TASK_DATE_NEEDED)]),
            ("Thursday", "x", &[("due_date", INVALID_DATE)]),
            ("2026-11-25", "x", &[("due_date", DATE_IN_PAST)]),
            ("2027-11-28", "x", &[("due_date", TOO_FAR_AHEAD)]),
            ("2026-11-27", " \n", &[("note", TASK_NOTE_NEEDED)]),
            (
                "2026-11-27",
                &*"x".repeat(MAX_TASK_NOTE_CHARS + 1),
                &[("note", TASK_NOTE_TOO_LONG)],
            ),
        ];
        for (due, note, expected) in cases {
            let (_, fields) = messages(validate_task(&task(due, note), &clock).map(|_| ()));
            assert_eq!(fields, pairs(expected), "{due:?} {note:?}");
        }
    }

    #[test]
    fn a_snooze_names_its_row_a_later_day_and_a_reason() {
        let clock = clock();
        let snooze = |kind: Option<QueueKind>, until: &str, reason: &str| SnoozeInput {
            kind,
            id: "x".to_owned(),
            until: until.to_owned(),
            reason: reason.to_owned(),
        };
        assert_eq!(
            validate_snooze(
                &snooze(Some(QueueKind::Proposal), "2026-11-30", "Family away"),
                &clock
            )
            .unwrap(),
            (QueueKind::Proposal, jiff::civil::date(2026, 11, 30))
        );
        assert_eq!(
            refusal(validate_snooze(
                &snooze(Some(QueueKind::Visit), "2026-11-30", "x"),
                &clock
            )),
            VISITS_ARE_RESCHEDULED
        );
        assert_eq!(
            refusal(validate_snooze(&snooze(None, "2026-11-30", "x"), &clock)),
            KIND_NEEDED
        );
        let (_, fields) = messages(
            validate_snooze(&snooze(Some(QueueKind::FollowUp), "2026-11-26", ""), &clock)
                .map(|_| ()),
        );
        assert_eq!(
            fields,
            pairs(&[
                ("until", SNOOZE_NOT_AFTER_TODAY),
                ("reason", SNOOZE_REASON_NEEDED)
            ])
        );
        let long = "x".repeat(MAX_SNOOZE_REASON_CHARS + 1);
        let (_, fields) = messages(
            validate_snooze(&snooze(Some(QueueKind::Task), "", &long), &clock).map(|_| ()),
        );
        assert_eq!(
            fields,
            pairs(&[
                ("until", SNOOZE_DATE_NEEDED),
                ("reason", SNOOZE_REASON_TOO_LONG)
            ])
        );
    }

    #[test]
    fn each_action_has_its_timeline_line() {
        let day = jiff::civil::date(2026, 11, 30);
        assert_eq!(
            timeline::owner_changed(None, Some("Jordan Lee")),
            "Coordinator set to Jordan Lee"
        );
        assert_eq!(
            timeline::owner_changed(Some("Jordan Lee"), Some("Priya Shah")),
            "Coordinator changed from Jordan Lee to Priya Shah"
        );
        assert_eq!(
            timeline::owner_changed(Some("Jordan Lee"), None),
            "Coordinator removed: the client is unassigned"
        );
        assert_eq!(
            timeline::task_added("Priya Shah", day, " Call her daughter "),
            "Task for Priya Shah, due November 30, 2026: Call her daughter"
        );
        assert_eq!(
            timeline::task_done("Call her daughter"),
            "Task done: Call her daughter"
        );
        assert_eq!(
            timeline::snoozed(QueueKind::FollowUp, day, "Away until Monday"),
            "Follow-up moved to November 30, 2026: Away until Monday"
        );
        assert_eq!(
            timeline::snoozed(QueueKind::Proposal, day, "Thinking it over"),
            "Proposal follow-up snoozed until November 30, 2026: Thinking it over"
        );
        assert_eq!(timeline::replies_read(1), "1 reply read");
        assert_eq!(timeline::replies_read(3), "3 replies read");
    }

    #[test]
    fn only_rows_staff_finish_themselves_can_be_marked_done() {
        assert_eq!(
            validate_done(Some(QueueKind::Task), "t").unwrap(),
            QueueKind::Task
        );
        assert_eq!(
            validate_done(Some(QueueKind::Reply), "i").unwrap(),
            QueueKind::Reply
        );
        for kind in [
            QueueKind::Proposal,
            QueueKind::Contract,
            QueueKind::StageAlert,
        ] {
            assert_eq!(refusal(validate_done(Some(kind), "i")), NOT_DONE_FROM_QUEUE);
        }
        assert_eq!(
            refusal(validate_done(Some(QueueKind::Task), " ")),
            KIND_NEEDED
        );
    }
}
