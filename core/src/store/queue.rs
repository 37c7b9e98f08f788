//! A coordinator's queue ("Today"): one read per kind of row, each a range of an index
//! that starts with the owner and runs in the order the rows fell due, merged most late
//! first. Also the tasks, the snoozes, Mark Done and the replies read.

use jiff::Timestamp;
use rusqlite::{Connection, OptionalExtension, params};

use super::communications::log_description;
use super::{Store, audit, ts};
use crate::error::{Error, Result};
use crate::model::{
    Actor, AssessmentId, CarePlanId, ContractId, IntakeForm, IntakeId, Parents, Queue,
    QueueDoneInput, QueueKind, SnoozeInput, Stage, Task, TaskId, TaskInput, UserId, VisitId,
};
use crate::rules::clock::{AgencyClock, parse_date, parse_timestamp};
use crate::rules::journey::{furthest_form_route, profile_route};
use crate::rules::queue::{
    QUEUE_MAX, QUEUE_PAGE, QueueRow, RowFacts, RowParts, SNOOZED_FOLLOW_UP_TIME, end_of_today,
    order, timeline, validate_done, validate_snooze, validate_task, waiting_cutoff, waiting_due,
};
use crate::rules::stage::stage_alert_cutoff;
use crate::rules::validation::follow_up_timestamp;

/// Each read asks for one row more than the queue shows, to know whether more are due.
/// The statements write that limit `LIMIT +?4`: SQLite plans a limit that is a bare
/// parameter with the value bound, so binding it again made it parse and plan the
/// statement anew on every call (a quarter of a queue's cost). The `+` makes it an
/// expression it does not read ahead of time. The tidy test refuses a bare one.
fn read_limit(shown: usize) -> i64 {
    i64::try_from(shown).map_or(i64::MAX, |shown| shown.saturating_add(1))
}

/// Each read names its index: the agency-wide ones (`intakes_follow_up`,
/// `intakes_stage_alert`) order the same rows and the planner, seeing no statistics, may
/// take one of them and walk every coordinator's clients.
///
/// A client's row is hidden while a snooze of its kind runs (`?2` is now).
macro_rules! not_snoozed {
    ($kind:literal) => {
        concat!(
            "NOT EXISTS (SELECT 1 FROM queue_snoozes s WHERE s.intake_id = i.id AND s.kind = '",
            $kind,
            "' AND s.until > ?2)"
        )
    };
}

/// Follow-ups of the owner's active clients dated before the end of today (`?3`),
/// along `intakes_owner_follow_up`. Every read binds the same four values (owner, now,
/// bound, limit); a read that has no use for now names it in a condition that is always
/// true, since a statement must use each value it is given.
const FOLLOW_UPS: &str = "SELECT i.id, i.client_full_name, i.caller_phone, i.next_follow_up_date,
        i.follow_up_notes
    FROM intakes i INDEXED BY intakes_owner_follow_up
    WHERE i.owner_id = ?1 AND i.deleted_at IS NULL AND i.archived = 0
      AND i.next_follow_up_date IS NOT NULL AND i.next_follow_up_date < ?3 AND ?2 = ?2
    ORDER BY i.next_follow_up_date, i.list_seq LIMIT +?4";

/// The assessor's scheduled visits today (`?2` to `?3`), along `assessment_visits_by_assessor`.
const VISITS: &str = "SELECT v.id, v.intake_id, i.client_full_name, i.caller_phone, v.starts_at,
        v.place
    FROM assessment_visits v JOIN intakes i ON i.id = v.intake_id
    WHERE v.assessor_id = ?1 AND v.starts_at >= ?2 AND v.starts_at < ?3
      AND v.status = 'scheduled' AND i.deleted_at IS NULL
    ORDER BY v.starts_at LIMIT +?4";

/// Clients with replies nobody has read, oldest first, along `intakes_owner_unread`.
const REPLIES: &str = concat!(
    "SELECT i.id, i.client_full_name, i.caller_phone, i.unread_since,
        (SELECT count(*) FROM communications c
         WHERE c.intake_id = i.id AND c.direction = 'inbound' AND c.read_at IS NULL),
        (SELECT c.content FROM communications c
         WHERE c.intake_id = i.id AND c.direction = 'inbound' AND c.read_at IS NULL
         ORDER BY c.created_at DESC LIMIT 1)
    FROM intakes i INDEXED BY intakes_owner_unread
    WHERE i.owner_id = ?1 AND i.deleted_at IS NULL AND i.unread_since IS NOT NULL
      AND i.unread_since < ?3 AND ",
    not_snoozed!("reply"),
    " ORDER BY i.unread_since, i.list_seq LIMIT +?4"
);

/// Proposals sent before the cutoff (`?3`) and not answered, along
/// `intakes_owner_proposal` (a proposal is sent after it is made, so its making is
/// before the cutoff too).
const PROPOSALS: &str = concat!(
    "SELECT i.id, i.client_full_name, i.caller_phone, p.sent_at, p.id, i.latest_care_plan_at
    FROM intakes i INDEXED BY intakes_owner_proposal JOIN care_plan_proposals p ON p.id = i.latest_care_plan_id
    WHERE i.owner_id = ?1 AND i.deleted_at IS NULL AND i.archived = 0
      AND i.latest_care_plan_status = 'sent' AND i.latest_contract_id IS NULL
      AND i.latest_care_plan_at < ?3 AND p.sent_at < ?3 AND ",
    not_snoozed!("proposal"),
    " ORDER BY i.latest_care_plan_at, i.list_seq LIMIT +?4"
);

/// Contracts sent before the cutoff (`?3`) and not signed, along `intakes_owner_contract`.
const CONTRACTS: &str = concat!(
    "SELECT i.id, i.client_full_name, i.caller_phone, k.sent_at, k.id, i.latest_contract_at
    FROM intakes i INDEXED BY intakes_owner_contract JOIN contracts k ON k.id = i.latest_contract_id
    WHERE i.owner_id = ?1 AND i.deleted_at IS NULL AND i.archived = 0
      AND i.latest_contract_status = 'sent'
      AND i.latest_contract_at < ?3 AND k.sent_at < ?3 AND ",
    not_snoozed!("contract"),
    " ORDER BY i.latest_contract_at, i.list_seq LIMIT +?4"
);

/// Clients in their stage since before the stage alert's cutoff (`?3`), along
/// `intakes_owner_stage_alert`; a finished client's moment is never, so it is not among them.
const STAGE_ALERTS: &str = concat!(
    "SELECT i.id, i.client_full_name, i.caller_phone, i.stage_entered_at, i.stage,
        i.latest_assessment_id, i.latest_care_plan_id, i.latest_contract_id
    FROM intakes i INDEXED BY intakes_owner_stage_alert
    WHERE i.owner_id = ?1 AND i.deleted_at IS NULL AND i.archived = 0
      AND i.stage_alert_from < ?3 AND ",
    not_snoozed!("stage_alert"),
    " ORDER BY i.stage_alert_from, i.list_seq LIMIT +?4"
);

/// The assignee's open tasks due today or before (`?3`, a day), along `tasks_open`.
const TASKS: &str = "SELECT t.id, t.intake_id, i.client_full_name, i.caller_phone, t.due_date,
        t.note, CASE WHEN t.created_by IS t.assignee_id THEN NULL ELSE c.full_name END
    FROM tasks t JOIN intakes i ON i.id = t.intake_id LEFT JOIN users c ON c.id = t.created_by
    WHERE t.assignee_id = ?1 AND t.done_at IS NULL AND t.due_date <= ?3
      AND i.deleted_at IS NULL AND ?2 = ?2
    ORDER BY t.due_date, t.id LIMIT +?4";

/// The statements of one queue, to show which index each reads.
pub(crate) const QUEUE_READS: [(&str, &str); 7] = [
    ("follow_up", FOLLOW_UPS),
    ("visit", VISITS),
    ("reply", REPLIES),
    ("proposal", PROPOSALS),
    ("contract", CONTRACTS),
    ("stage_alert", STAGE_ALERTS),
    ("task", TASKS),
];

/// When a row falls due, and the soonest a row at its place in its read could.
struct Due {
    soonest: Timestamp,
    at: Timestamp,
}

impl Due {
    /// For a read ordered by the moment the row falls due.
    fn at(at: Timestamp) -> Self {
        Self { soonest: at, at }
    }
}

fn moment(text: &str) -> Timestamp {
    parse_timestamp(text).unwrap_or(Timestamp::MIN)
}

/// The reads of one queue and what each found: rows, and whether some were left unread.
struct Reads<'a> {
    conn: &'a Connection,
    owner: &'a UserId,
    clock: &'a AgencyClock,
    /// The rows the queue shows.
    limit: usize,
    rows: Vec<QueueRow>,
    more: bool,
}

impl Reads<'_> {
    /// Runs one read with the owner, `from`, `bound` and the limit. `due` says when a row
    /// falls due and, from the column the read's index is ordered by, the soonest it could
    /// have (never going back along the read). The read stops at the first row that
    /// cannot fall due before the queue's last row so far, and skips wording a row due
    /// after it: neither can be shown, and an owner of every client would otherwise word
    /// hundreds of rows for fifty places.
    fn read(
        &mut self,
        sql: &str,
        (from, bound): (&str, &str),
        due: impl Fn(&rusqlite::Row<'_>, &AgencyClock) -> rusqlite::Result<Due>,
        map: impl Fn(&rusqlite::Row<'_>, Timestamp, &AgencyClock) -> rusqlite::Result<QueueRow>,
    ) -> Result<()> {
        let last_shown = self.last_shown();
        let after_last = |moment: Timestamp| last_shown.is_some_and(|last| moment > last);
        let mut statement = self.conn.prepare_cached(sql)?;
        let mut rows = statement.query(params![self.owner, from, bound, read_limit(self.limit)])?;
        let mut kept = 0;
        while let Some(row) = rows.next()? {
            let Due { soonest, at } = due(row, self.clock)?;
            if kept == self.limit || after_last(soonest) {
                self.more = true;
                break;
            }
            kept += 1;
            if after_last(at) {
                self.more = true;
            } else {
                self.rows.push(map(row, at, self.clock)?);
            }
        }
        Ok(())
    }

    /// When the queue's last row so far falls due, once it has rows enough to fill it.
    fn last_shown(&self) -> Option<Timestamp> {
        if self.rows.len() < self.limit {
            return None;
        }
        let mut dues: Vec<Timestamp> = self.rows.iter().map(|row| row.parts.due).collect();
        Some(*dues.select_nth_unstable(self.limit - 1).1)
    }
}

fn row(
    facts: RowFacts,
    (id, intake_id): (String, IntakeId),
    client_name: String,
    due: Timestamp,
    detail: Option<String>,
    route: String,
    phone: Option<String>,
) -> QueueRow {
    QueueRow {
        facts,
        parts: RowParts {
            id,
            intake_id,
            client_name,
            due,
            detail,
            route,
            phone,
        },
    }
}

impl Store {
    /// A member of staff's queue for today, most late first: their clients' follow-ups
    /// due today or before, their assessment visits today, their clients' unread
    /// replies, proposals and contracts waiting past Settings → Workflow's days, stage
    /// alerts, and the tasks given to them due today or before. It shows the `limit` most
    /// late ([`crate::rules::queue::queue_limit`] bounds what a caller asks).
    pub fn queue(&self, owner: &UserId, limit: usize) -> Result<Queue> {
        let limit = limit.clamp(1, QUEUE_MAX);
        self.snapshot(|| {
            let clock = self.clock()?;
            let workflow = self.settings()?.workflow;
            let owner_name: String = super::query_row(
                self.conn(),
                "SELECT full_name FROM users WHERE id = ?1",
                [owner],
                |row| row.get(0),
            )
            .optional()?
            .ok_or_else(|| Error::not_found("user", owner))?;
            let now = clock.now();
            let now_text = ts(now);
            let tomorrow = ts(end_of_today(&clock));
            let today = clock.today();
            let mut reads = Reads {
                conn: self.conn(),
                owner,
                clock: &clock,
                limit,
                rows: Vec::new(),
                more: false,
            };
            // The kinds that tend to be most late are read first (a client stuck in a
            // stage for months, then overdue calls), so the reads after them stop early.
            let alert_days = workflow.stage_alert_days;
            let cutoff = ts(stage_alert_cutoff(now, alert_days));
            reads.read(
                STAGE_ALERTS,
                (&now_text, &cutoff),
                |row, _| {
                    Ok(Due::at(waiting_due(
                        moment(&row.get::<_, String>(3)?),
                        alert_days,
                    )))
                },
                |row, due, clock| {
                    let id: IntakeId = row.get(0)?;
                    let entered: String = row.get(3)?;
                    let stage: Stage = row.get(4)?;
                    let assessment: Option<AssessmentId> = row.get(5)?;
                    let care_plan: Option<CarePlanId> = row.get(6)?;
                    let contract: Option<ContractId> = row.get(7)?;
                    let route = furthest_form_route(
                        &id,
                        assessment.as_ref(),
                        care_plan.as_ref(),
                        contract.as_ref(),
                    );
                    Ok(self::row(
                        RowFacts::StageAlert {
                            stage: stage.label(),
                            days: clock.days_since(moment(&entered)),
                        },
                        (id.to_string(), id),
                        row.get(1)?,
                        due,
                        None,
                        route,
                        row.get(2)?,
                    ))
                },
            )?;
            reads.read(
                FOLLOW_UPS,
                (&now_text, &tomorrow),
                |row, _| Ok(Due::at(moment(&row.get::<_, String>(3)?))),
                |row, due, _| {
                    let id: IntakeId = row.get(0)?;
                    Ok(self::row(
                        RowFacts::FollowUp,
                        (id.to_string(), id.clone()),
                        row.get(1)?,
                        due,
                        row.get(4)?,
                        profile_route(&id, true),
                        row.get(2)?,
                    ))
                },
            )?;
            // A proposal's or contract's row falls due its days after it was sent; the
            // reads go in the order they were made, which is before they were sent.
            let sent = |row: &rusqlite::Row<'_>| -> rusqlite::Result<Timestamp> {
                let sent: Option<String> = row.get(3)?;
                Ok(moment(sent.as_deref().unwrap_or_default()))
            };
            let made = |row: &rusqlite::Row<'_>| -> rusqlite::Result<Timestamp> {
                Ok(moment(&row.get::<_, String>(5)?))
            };
            type Facts = fn(i64) -> RowFacts;
            type Route = fn(&IntakeId, String) -> String;
            let waiting: [(&str, u32, Facts, Route); 2] = [
                (
                    PROPOSALS,
                    workflow.proposal_follow_up_days,
                    |days| RowFacts::Proposal { days },
                    |id, care_plan| {
                        furthest_form_route(id, None, Some(&CarePlanId::from(care_plan)), None)
                    },
                ),
                (
                    CONTRACTS,
                    workflow.contract_follow_up_days,
                    |days| RowFacts::Contract { days },
                    |id, contract| {
                        furthest_form_route(id, None, None, Some(&ContractId::from(contract)))
                    },
                ),
            ];
            for (sql, days, facts, route) in waiting {
                let cutoff = ts(waiting_cutoff(now, days));
                reads.read(
                    sql,
                    (&now_text, &cutoff),
                    |row, _| {
                        Ok(Due {
                            soonest: waiting_due(made(row)?, days),
                            at: waiting_due(sent(row)?, days),
                        })
                    },
                    |row, due, clock| {
                        let id: IntakeId = row.get(0)?;
                        let route = route(&id, row.get(4)?);
                        Ok(self::row(
                            facts(clock.days_since(sent(row)?)),
                            (id.to_string(), id),
                            row.get(1)?,
                            due,
                            None,
                            route,
                            row.get(2)?,
                        ))
                    },
                )?;
            }
            reads.read(
                REPLIES,
                (&now_text, &tomorrow),
                |row, _| Ok(Due::at(moment(&row.get::<_, String>(3)?))),
                |row, due, _| {
                    let id: IntakeId = row.get(0)?;
                    Ok(self::row(
                        RowFacts::Reply {
                            unread: row.get(4)?,
                        },
                        (id.to_string(), id.clone()),
                        row.get(1)?,
                        due,
                        row.get(5)?,
                        profile_route(&id, true),
                        row.get(2)?,
                    ))
                },
            )?;
            reads.read(
                TASKS,
                (&now_text, &today.to_string()),
                |row, clock| {
                    let due: String = row.get(4)?;
                    Ok(Due::at(
                        parse_date(&due)
                            .map(|day| clock.start_of_day(day))
                            .unwrap_or(Timestamp::MIN),
                    ))
                },
                |row, due, _| {
                    let task: TaskId = row.get(0)?;
                    let intake: IntakeId = row.get(1)?;
                    Ok(self::row(
                        RowFacts::Task { from: row.get(6)? },
                        (task.to_string(), intake.clone()),
                        row.get(2)?,
                        due,
                        row.get(5)?,
                        profile_route(&intake, false),
                        row.get(3)?,
                    ))
                },
            )?;
            // Visits read from the start of today, so the day's earlier ones stay
            // until they are marked done.
            let start = ts(clock.start_of_today());
            reads.read(
                VISITS,
                (&start, &tomorrow),
                |row, _| Ok(Due::at(moment(&row.get::<_, String>(4)?))),
                |row, due, clock| {
                    let visit: VisitId = row.get(0)?;
                    let route = format!(
                        "/visits?date={}&assessor={}",
                        clock.local_date(due),
                        owner.as_str()
                    );
                    Ok(self::row(
                        RowFacts::Visit,
                        (visit.to_string(), row.get(1)?),
                        row.get(2)?,
                        due,
                        row.get(5)?,
                        route,
                        row.get(3)?,
                    ))
                },
            )?;
            let Reads {
                mut rows, mut more, ..
            } = reads;
            order(&mut rows);
            if rows.len() > limit {
                more = true;
                rows.truncate(limit);
            }
            Ok(Queue {
                owner_id: owner.clone(),
                owner_name,
                today: today.to_string(),
                items: rows.into_iter().map(|row| row.item(&clock)).collect(),
                more,
                more_limit: more
                    .then(|| (limit + QUEUE_PAGE).min(QUEUE_MAX))
                    .filter(|next| *next > limit)
                    .and_then(|next| u32::try_from(next).ok()),
            })
        })
    }

    /// The query plans of a queue's reads, to show that each reads its index in order.
    pub fn explain_queue(&self, owner: &UserId) -> Result<Vec<(String, Vec<String>)>> {
        let now = ts(self.now());
        let mut plans = Vec::new();
        for (name, sql) in QUEUE_READS {
            let plan = self.explain(
                sql,
                &[
                    owner as &dyn rusqlite::ToSql,
                    &now,
                    &now,
                    &read_limit(QUEUE_PAGE) as &dyn rusqlite::ToSql,
                ],
            )?;
            plans.push((name.to_owned(), plan));
        }
        Ok(plans)
    }

    /// Adds a dated task on a client for a member of staff (the one adding it when none
    /// is named), and writes it into the client's timeline.
    pub fn add_task(
        &mut self,
        actor: &Actor,
        intake_id: &IntakeId,
        input: &TaskInput,
    ) -> Result<Task> {
        let clock = self.clock()?;
        let due = validate_task(input, &clock)?;
        let assignee = match (&input.assignee_id, &actor.user_id) {
            (Some(assignee), _) => assignee.clone(),
            (None, Some(me)) => me.clone(),
            (None, None) => {
                return Err(Error::Validation(crate::error::ValidationErrors::single(
                    "assignee_id",
                    crate::rules::queue::OWNER_NOT_STAFF,
                )));
            }
        };
        let id = TaskId::new();
        let now = clock.now();
        self.write(|tx| {
            client_exists(tx, intake_id)?;
            let assignee_name: String = super::query_row(
                tx,
                "SELECT full_name FROM users WHERE id = ?1 AND disabled = 0",
                [&assignee],
                |row| row.get(0),
            )
            .optional()?
            .ok_or_else(|| {
                Error::Validation(crate::error::ValidationErrors::single(
                    "assignee_id",
                    crate::rules::queue::OWNER_NOT_STAFF,
                ))
            })?;
            let note = input.note.trim();
            super::exec(
                tx,
                "INSERT INTO tasks (id, intake_id, assignee_id, due_date, note, created_by,
                    created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)",
                params![
                    id,
                    intake_id,
                    assignee,
                    due.to_string(),
                    note,
                    actor.user_id,
                    ts(now)
                ],
            )?;
            log_description(
                tx,
                actor,
                now,
                &Parents::of_intake(intake_id),
                &timeline::task_added(&assignee_name, due, note),
            )?;
            audit(
                tx,
                actor,
                now,
                "create",
                "task",
                id.as_str(),
                Some(intake_id.as_str()),
                &[],
            )
        })?;
        self.task(&id)
    }

    pub fn task(&self, id: &TaskId) -> Result<Task> {
        super::query_row(
            self.conn(),
            &format!("{TASK_SELECT} WHERE t.id = ?1"),
            [id],
            task_from_row,
        )
        .optional()?
        .ok_or_else(|| Error::not_found("task", id))
    }

    /// A client's tasks: open ones first by day, then the done ones, newest done first.
    pub fn client_tasks(&self, intake_id: &IntakeId) -> Result<Vec<Task>> {
        let mut statement = self.conn().prepare_cached(&format!(
            "{TASK_SELECT} WHERE t.intake_id = ?1
             ORDER BY t.done_at IS NOT NULL, t.due_date, t.id LIMIT 200"
        ))?;
        let rows = statement.query_map([intake_id], task_from_row)?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    /// Puts a queue row off to a later day with a reason: a follow-up or a task moves to
    /// that day; a reply, proposal, contract or stage alert stays out of the queue until
    /// then. Written into the client's timeline.
    pub fn snooze_queue_row(&mut self, actor: &Actor, input: &SnoozeInput) -> Result<()> {
        let clock = self.clock()?;
        let (kind, until) = validate_snooze(input, &clock)?;
        let now = clock.now();
        let reason = input.reason.trim();
        let id = input.id.trim();
        self.write(|tx| {
            let intake_id = match kind {
                QueueKind::FollowUp => {
                    let intake_id = IntakeId::from(id);
                    let mut form = stored_form(tx, &intake_id)?;
                    form.next_follow_up_date = until.to_string();
                    if form.next_follow_up_time.trim().is_empty() {
                        form.next_follow_up_time = SNOOZED_FOLLOW_UP_TIME.to_owned();
                    }
                    let moment = follow_up_timestamp(
                        &form.next_follow_up_date,
                        &form.next_follow_up_time,
                        &clock,
                    )
                    .unwrap_or_else(|| clock.start_of_day(until));
                    write_follow_up(tx, &intake_id, &form, Some(moment), &clock)?;
                    intake_id
                }
                QueueKind::Task => {
                    let task = TaskId::from(id);
                    let intake_id = open_task(tx, &task)?;
                    super::exec(
                        tx,
                        "UPDATE tasks SET due_date = ?2, updated_at = ?3, version = version + 1
                         WHERE id = ?1",
                        params![task, until.to_string(), ts(now)],
                    )?;
                    intake_id
                }
                _ => {
                    let intake_id = IntakeId::from(id);
                    client_exists(tx, &intake_id)?;
                    super::exec(
                        tx,
                        "INSERT INTO queue_snoozes (intake_id, kind, until, reason, created_by, created_at)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                         ON CONFLICT (intake_id, kind) DO UPDATE SET until = excluded.until,
                            reason = excluded.reason, created_by = excluded.created_by,
                            created_at = excluded.created_at",
                        params![
                            intake_id,
                            kind.as_str(),
                            ts(clock.start_of_day(until)),
                            reason,
                            actor.user_id,
                            ts(now)
                        ],
                    )?;
                    intake_id
                }
            };
            log_description(
                tx,
                actor,
                now,
                &Parents::of_intake(&intake_id),
                &timeline::snoozed(kind, until, reason),
            )?;
            let entity = if kind == QueueKind::Task { "task" } else { "intake" };
            audit(tx, actor, now, "snooze", entity, id, Some(intake_id.as_str()), &[])
        })
    }

    /// Marks a queue row done: a follow-up is cleared, a task completed, a visit held,
    /// a client's replies read. Written into the client's timeline.
    pub fn mark_queue_row_done(&mut self, actor: &Actor, input: &QueueDoneInput) -> Result<()> {
        let kind = validate_done(input.kind, &input.id)?;
        let id = input.id.trim();
        if kind == QueueKind::Visit {
            let visit = self.visit(&VisitId::from(id))?;
            self.mark_visit_done(actor, &visit.id, visit.version)?;
            return Ok(());
        }
        if kind == QueueKind::Reply {
            self.mark_replies_read(actor, &IntakeId::from(id))?;
            return Ok(());
        }
        let clock = self.clock()?;
        let now = clock.now();
        self.write(|tx| match kind {
            QueueKind::FollowUp => {
                let intake_id = IntakeId::from(id);
                let mut form = stored_form(tx, &intake_id)?;
                form.next_follow_up_date.clear();
                form.next_follow_up_time.clear();
                write_follow_up(tx, &intake_id, &form, None, &clock)?;
                log_description(
                    tx,
                    actor,
                    now,
                    &Parents::of_intake(&intake_id),
                    timeline::FOLLOW_UP_DONE,
                )?;
                audit(
                    tx,
                    actor,
                    now,
                    "follow_up_done",
                    "intake",
                    id,
                    Some(id),
                    &["nextFollowUpDate"],
                )
            }
            _ => {
                let task = TaskId::from(id);
                let intake_id = open_task(tx, &task)?;
                let note: String =
                    super::query_row(tx, "SELECT note FROM tasks WHERE id = ?1", [&task], |row| {
                        row.get(0)
                    })?;
                super::exec(
                    tx,
                    "UPDATE tasks SET done_at = ?2, done_by = ?3, updated_at = ?2,
                        version = version + 1 WHERE id = ?1",
                    params![task, ts(now), actor.user_id],
                )?;
                log_description(
                    tx,
                    actor,
                    now,
                    &Parents::of_intake(&intake_id),
                    &timeline::task_done(&note),
                )?;
                audit(
                    tx,
                    actor,
                    now,
                    "done",
                    "task",
                    id,
                    Some(intake_id.as_str()),
                    &[],
                )
            }
        })
    }

    /// Marks a client's unread replies read (staff opened its communications). Answers
    /// how many were unread; reading none writes nothing.
    pub fn mark_replies_read(&mut self, actor: &Actor, intake_id: &IntakeId) -> Result<usize> {
        let now = self.now();
        self.write(|tx| {
            client_exists(tx, intake_id)?;
            let n = super::exec(
                tx,
                "UPDATE communications SET read_at = ?2
                 WHERE intake_id = ?1 AND direction = 'inbound' AND read_at IS NULL",
                params![intake_id, ts(now)],
            )?;
            if n > 0 {
                super::exec(
                    tx,
                    "DELETE FROM queue_snoozes WHERE intake_id = ?1 AND kind = 'reply'",
                    [intake_id],
                )?;
                log_description(
                    tx,
                    actor,
                    now,
                    &Parents::of_intake(intake_id),
                    &timeline::replies_read(n),
                )?;
                audit(
                    tx,
                    actor,
                    now,
                    "read",
                    "communication",
                    intake_id.as_str(),
                    Some(intake_id.as_str()),
                    &["read_at"],
                )?;
            }
            Ok(n)
        })
    }
}

const TASK_SELECT: &str = "SELECT t.id, t.version, t.intake_id, t.assignee_id, a.full_name,
        t.due_date, t.note, c.full_name, t.created_at, t.done_at
    FROM tasks t JOIN users a ON a.id = t.assignee_id LEFT JOIN users c ON c.id = t.created_by";

fn task_from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Task> {
    Ok(Task {
        id: row.get(0)?,
        version: row.get(1)?,
        intake_id: row.get(2)?,
        assignee_id: row.get(3)?,
        assignee_name: row.get(4)?,
        due_date: row.get(5)?,
        note: row.get(6)?,
        created_by_name: row.get(7)?,
        created_at: row.get(8)?,
        done_at: row.get(9)?,
    })
}

fn client_exists(tx: &Connection, intake_id: &IntakeId) -> Result<()> {
    let exists: bool = super::query_row(
        tx,
        "SELECT EXISTS (SELECT 1 FROM intakes WHERE id = ?1 AND deleted_at IS NULL)",
        [intake_id],
        |row| row.get(0),
    )?;
    if exists {
        Ok(())
    } else {
        Err(Error::not_found("client", intake_id))
    }
}

/// An open task's client; a task done already is refused.
fn open_task(tx: &Connection, task: &TaskId) -> Result<IntakeId> {
    let (intake_id, done): (IntakeId, Option<String>) = super::query_row(
        tx,
        "SELECT intake_id, done_at FROM tasks WHERE id = ?1",
        [task],
        |row| Ok((row.get(0)?, row.get(1)?)),
    )
    .optional()?
    .ok_or_else(|| Error::not_found("task", task))?;
    if done.is_some() {
        return Err(Error::Rejected(
            crate::rules::queue::TASK_ALREADY_DONE.to_owned(),
        ));
    }
    Ok(intake_id)
}

fn stored_form(tx: &Connection, intake_id: &IntakeId) -> Result<IntakeForm> {
    client_exists(tx, intake_id)?;
    let form_data: String = super::query_row(
        tx,
        "SELECT form_data FROM intake_forms WHERE intake_seq = (SELECT seq FROM intakes WHERE id = ?1)",
        [intake_id],
        |row| row.get(0),
    )?;
    Ok(serde_json::from_str(&form_data)?)
}

/// Writes a client's next follow-up (the form's fields and the column the lists read)
/// and moves its overdue moment with it.
fn write_follow_up(
    tx: &Connection,
    intake_id: &IntakeId,
    form: &IntakeForm,
    moment: Option<Timestamp>,
    clock: &AgencyClock,
) -> Result<()> {
    super::exec(
        tx,
        "UPDATE intakes SET next_follow_up_date = ?2, updated_at = ?3, version = version + 1
         WHERE id = ?1",
        params![intake_id, moment.map(ts), ts(clock.now())],
    )?;
    super::exec(
        tx,
        "UPDATE intake_forms SET form_data = ?2
         WHERE intake_seq = (SELECT seq FROM intakes WHERE id = ?1)",
        params![intake_id, super::intakes::stored_form(form)?],
    )?;
    super::position::refresh(tx, intake_id, clock)
}

#[cfg(test)]
mod tests {
    use rusqlite::StatementStatus;

    use super::{QUEUE_READS, read_limit};
    use crate::model::UserId;
    use crate::store::Store;

    #[test]
    fn each_queue_read_is_a_range_of_an_owner_s_index_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("queue.db")).unwrap();
        let expected = [
            ("follow_up", "intakes_owner_follow_up"),
            ("visit", "assessment_visits_by_assessor"),
            ("reply", "intakes_owner_unread"),
            ("proposal", "intakes_owner_proposal"),
            ("contract", "intakes_owner_contract"),
            ("stage_alert", "intakes_owner_stage_alert"),
            ("task", "tasks_open"),
        ];
        let plans = store.explain_queue(&UserId::from("someone")).unwrap();
        assert_eq!(plans.len(), expected.len());
        for ((name, plan), (expected_name, index)) in plans.iter().zip(expected) {
            assert_eq!(name, expected_name);
            let plan = plan.join("\n");
            assert!(plan.contains(index), "{name}: {plan}");
            // A full scan or a sort would make the queue grow with the agency.
            assert!(!plan.contains("TEMP B-TREE"), "{name}: {plan}");
            for line in plan.lines() {
                assert!(
                    !line.contains("SCAN")
                        || line.contains("SUBQUERY")
                        || line.contains("json_each"),
                    "{name}: {plan}"
                );
            }
        }
    }

    #[test]
    fn the_queue_reads_are_planned_once_however_the_day_moves_and_the_queue_grows() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("queue.db")).unwrap();
        for (name, sql) in QUEUE_READS {
            let mut statement = store.conn().prepare_cached(sql).unwrap();
            // A new day, and "Show more" asking for a longer queue.
            for (day, shown) in [("2026-11-26", 25), ("2026-11-27", 50), ("2026-11-28", 75)] {
                let moment = format!("{day}T12:00:00.000Z");
                let limit = read_limit(shown);
                let rows = statement
                    .query_map(rusqlite::params!["someone", moment, moment, limit], |_| {
                        Ok(())
                    })
                    .unwrap();
                assert_eq!(rows.count(), 0);
            }
            assert_eq!(
                statement.get_status(StatementStatus::RePrepare),
                0,
                "{name} was prepared again for new values"
            );
        }
    }
}
