//! Visit reminders (migration 15): which of the family's day-before reminders and the
//! assessors' morning summaries are due at the store's "now", claimed in one write
//! transaction before anything is sent, then marked sent or failed. The row a claim
//! writes is unique per visit and start (or per assessor and day), so a second process,
//! a restart or a cron run beside the server cannot send one twice; a claim whose
//! process died before it reported back stays claimed and is never sent again.

use jiff::Timestamp;
use jiff::civil::Date;
use rusqlite::{Connection, OptionalExtension, params};

use super::communications::{NewCommunication, insert_communication, move_communication};
use super::{Store, ts};
use crate::error::{Error, Result};
use crate::model::{
    Actor, Channel, CommunicationId, CommunicationStatus, CommunicationType, Direction, IntakeId,
    Parents, Settings, UserId, Visibility, VisitId,
};
use crate::outbound::{EmailMessage, compose_email};
use crate::rules::clock::{AgencyClock, parse_date, parse_timestamp};
use crate::rules::reminders::{
    DEFAULT_ASSESSOR_SUMMARY_TIME, DEFAULT_VISIT_REMINDER_TIME, Dueness, FAMILY_LOOKAHEAD,
    FamilyReminder, MAX_ATTEMPTS, SKIPPED_BOOKED_LATE, SKIPPED_NO_ASSESSOR_EMAIL,
    SKIPPED_NO_CONTACT, SKIPPED_TOO_LATE, SummaryVisit, dueness, family_reminder_due, setting_time,
    skipped_event, summary_body, summary_due, summary_event, summary_subject,
};
use crate::rules::validation::looks_like_email;

/// Which reminder a row is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReminderKind {
    /// The family's reminder the day before a visit.
    Family,
    /// An assessor's morning summary of their day's visits.
    AssessorSummary,
}

impl ReminderKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ReminderKind::Family => "family",
            ReminderKind::AssessorSummary => "assessor_summary",
        }
    }

    fn parse(text: &str) -> Self {
        if text == "family" {
            ReminderKind::Family
        } else {
            ReminderKind::AssessorSummary
        }
    }
}

/// What a claimed reminder sends. A text message's sender number is the server's to
/// choose (Settings' SMS tab, else its configured one).
#[derive(Debug, Clone, PartialEq)]
pub enum ReminderMessage {
    Email(EmailMessage),
    Sms { to: String, body: String },
}

/// A reminder this process claimed: send it, then report with
/// [`Store::finish_reminder`].
#[derive(Debug, Clone, PartialEq)]
pub struct ClaimedReminder {
    pub id: String,
    pub kind: ReminderKind,
    pub message: ReminderMessage,
}

/// A stored reminder, for tests and the operator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReminderRecord {
    pub id: String,
    pub kind: String,
    /// The visit (family) or the assessor (summary).
    pub subject: String,
    /// The visit's start (family) or the summary's local day.
    pub slot: String,
    pub due_at: String,
    /// claimed, sent, failed or skipped.
    pub status: String,
    pub attempts: i64,
    pub channel: Option<String>,
    pub recipient: Option<String>,
    pub communication_id: Option<CommunicationId>,
    pub failure_reason: Option<String>,
}

struct FamilyRow {
    visit_id: VisitId,
    starts_at: String,
    place: String,
    intake_id: IntakeId,
    client: String,
    caller_name: String,
    caller_phone: String,
    caller_email: String,
    assessor: String,
    updated_at: String,
}

/// A reminder row as its outcome is recorded: kind, subject, slot, status, its
/// communication and (for a summary) the assessor's name.
type ClaimRow = (
    String,
    String,
    String,
    String,
    Option<CommunicationId>,
    Option<String>,
);

struct Stored {
    id: String,
    status: String,
    attempts: i64,
    communication_id: Option<CommunicationId>,
}

fn stored(
    tx: &Connection,
    kind: ReminderKind,
    subject: &str,
    slot: &str,
) -> Result<Option<Stored>> {
    Ok(super::query_row(
        tx,
        "SELECT id, status, attempts, communication_id FROM visit_reminders
         WHERE kind = ?1 AND subject = ?2 AND slot = ?3",
        params![kind.as_str(), subject, slot],
        |row| {
            Ok(Stored {
                id: row.get(0)?,
                status: row.get(1)?,
                attempts: row.get(2)?,
                communication_id: row.get(3)?,
            })
        },
    )
    .optional()?)
}

/// A new row; `claimed` rows have their first attempt counted.
#[allow(clippy::too_many_arguments)]
fn insert(
    tx: &Connection,
    kind: ReminderKind,
    subject: &str,
    slot: &str,
    due: Timestamp,
    status: &str,
    channel: Option<&str>,
    recipient: Option<&str>,
    communication_id: Option<&CommunicationId>,
    reason: Option<&str>,
    now: Timestamp,
) -> Result<String> {
    let id = uuid::Uuid::now_v7().to_string();
    super::exec(
        tx,
        "INSERT INTO visit_reminders (id, kind, subject, slot, due_at, status, attempts,
            channel, recipient, communication_id, failure_reason, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?12)",
        params![
            id,
            kind.as_str(),
            subject,
            slot,
            ts(due),
            status,
            i64::from(status == "claimed"),
            channel,
            recipient,
            communication_id,
            reason,
            ts(now)
        ],
    )?;
    Ok(id)
}

/// A failed reminder taken again: one more attempt, its communication pending again.
fn reclaim(tx: &Connection, row: &Stored, now: Timestamp) -> Result<bool> {
    if row.status != "failed" || row.attempts >= MAX_ATTEMPTS {
        return Ok(false);
    }
    super::exec(
        tx,
        "UPDATE visit_reminders SET status = 'claimed', attempts = attempts + 1,
            failure_reason = NULL, updated_at = ?2
         WHERE id = ?1 AND status = 'failed'",
        params![row.id, ts(now)],
    )?;
    if let Some(communication) = &row.communication_id {
        super::exec(
            tx,
            "UPDATE communications SET status = 'pending', failure_reason = NULL,
                updated_at = ?2, version = version + 1
             WHERE id = ?1 AND status = 'failed'",
            params![communication, ts(now)],
        )?;
    }
    Ok(true)
}

/// The message a recorded family reminder carries, read back from its communication.
fn recorded_message(
    tx: &Connection,
    communication: &CommunicationId,
    settings: &Settings,
    fallback_from: &str,
) -> Result<ReminderMessage> {
    let (kind, subject, content, email, phone): (
        CommunicationType,
        Option<String>,
        String,
        Option<String>,
        Option<String>,
    ) = super::query_row(
        tx,
        "SELECT communication_type, subject, content, recipient_email, recipient_phone
         FROM communications WHERE id = ?1",
        [communication],
        |row| {
            Ok((
                row.get(0)?,
                row.get(1)?,
                row.get(2)?,
                row.get(3)?,
                row.get(4)?,
            ))
        },
    )?;
    Ok(match kind {
        CommunicationType::Sms => ReminderMessage::Sms {
            to: phone.unwrap_or_default(),
            body: content,
        },
        _ => ReminderMessage::Email(family_email(
            settings,
            fallback_from,
            &email.unwrap_or_default(),
            subject.as_deref().unwrap_or_default(),
            &content,
        )),
    })
}

/// An email to one family: Settings' sender and reply-to, without the copies that
/// proposals and contracts carry.
fn family_email(
    settings: &Settings,
    fallback_from: &str,
    to: &str,
    subject: &str,
    body: &str,
) -> EmailMessage {
    let mut email = compose_email(&settings.email, fallback_from, to, subject, body);
    email.cc.clear();
    email.bcc.clear();
    email
}

fn usable_phone(phone: &str) -> bool {
    super::intakes::phone_digits(phone).len() >= 7
}

fn family_rows(tx: &Connection, now: Timestamp) -> Result<Vec<FamilyRow>> {
    let until = now.checked_add(FAMILY_LOOKAHEAD).unwrap_or(now);
    let mut statement = tx.prepare_cached(
        "SELECT v.id, v.starts_at, v.place, i.id, i.client_full_name, i.caller_name,
                i.caller_phone, i.caller_email, u.full_name, v.updated_at
         FROM assessment_visits v JOIN intakes i ON i.id = v.intake_id
              JOIN users u ON u.id = v.assessor_id
         WHERE v.status = 'scheduled' AND i.deleted_at IS NULL
           AND v.starts_at > ?1 AND v.starts_at <= ?2
         ORDER BY v.starts_at, v.id",
    )?;
    let rows = statement
        .query_map(params![ts(now), ts(until)], |row| {
            Ok(FamilyRow {
                visit_id: row.get(0)?,
                starts_at: row.get(1)?,
                place: row.get(2)?,
                intake_id: row.get(3)?,
                client: row.get(4)?,
                caller_name: row.get(5)?,
                caller_phone: row.get(6)?,
                caller_email: row.get(7)?,
                assessor: row.get(8)?,
                updated_at: row.get(9)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

/// One assessor's scheduled visits of a local day, soonest first, with their clients.
fn day_visits(
    tx: &Connection,
    assessor: &UserId,
    day: Date,
    clock: &AgencyClock,
) -> Result<Vec<(IntakeId, SummaryVisit)>> {
    let from = clock.start_of_day(day);
    let to = clock.start_of_day(day.tomorrow().unwrap_or(day));
    let mut statement = tx.prepare_cached(
        "SELECT i.id, v.starts_at, v.ends_at, i.client_full_name, v.place, v.notes
         FROM assessment_visits v JOIN intakes i ON i.id = v.intake_id
         WHERE v.assessor_id = ?1 AND v.starts_at >= ?2 AND v.starts_at < ?3
           AND v.status = 'scheduled' AND i.deleted_at IS NULL
         ORDER BY v.starts_at, v.id",
    )?;
    let rows = statement
        .query_map(params![assessor, ts(from), ts(to)], |row| {
            Ok((
                row.get::<_, IntakeId>(0)?,
                row.get::<_, String>(1)?,
                row.get::<_, String>(2)?,
                row.get::<_, String>(3)?,
                row.get::<_, String>(4)?,
                row.get::<_, Option<String>>(5)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows
        .into_iter()
        .filter_map(|(intake, start, end, client, place, notes)| {
            let starts_at = parse_timestamp(&start)?;
            let ends_at = parse_timestamp(&end).unwrap_or(starts_at);
            Some((
                intake,
                SummaryVisit {
                    starts_at,
                    ends_at,
                    client,
                    place,
                    notes,
                },
            ))
        })
        .collect())
}

impl Store {
    /// Claims every reminder due at the store's now and answers what to send: the
    /// family's reminder the day before each scheduled visit at Settings' reminder time
    /// (a text to the family contact's phone, else an email), recorded pending in the
    /// client's timeline; and each assessor's summary of the day's visits at the summary
    /// time. A reminder whose moment passed more than [`CATCH_UP`] ago, or whose visit
    /// has begun, is recorded as skipped; a cancelled visit has none; a visit moved to
    /// another time gets a fresh one. A failed reminder still due is claimed again, up
    /// to [`MAX_ATTEMPTS`] tries. `fallback_from` is the sender when Settings name none.
    ///
    /// [`CATCH_UP`]: crate::rules::reminders::CATCH_UP
    pub fn claim_due_reminders(&mut self, fallback_from: &str) -> Result<Vec<ClaimedReminder>> {
        let clock = self.clock()?;
        let settings = self.settings()?;
        let now = clock.now();
        let reminder_time = setting_time(
            &settings.notifications.visit_reminder_time,
            DEFAULT_VISIT_REMINDER_TIME,
        );
        let summary_time = setting_time(
            &settings.notifications.assessor_summary_time,
            DEFAULT_ASSESSOR_SUMMARY_TIME,
        );
        let system = Actor::system(Channel::System);
        self.write(|tx| {
            let mut claimed = Vec::new();
            for visit in family_rows(tx, now)? {
                let Some(start) = parse_timestamp(&visit.starts_at) else {
                    continue;
                };
                let due = family_reminder_due(start, reminder_time, &clock);
                let state = dueness(due, start, now);
                if state == Dueness::NotYet {
                    continue;
                }
                let subject = visit.visit_id.as_str();
                let parents = Parents::of_intake(&visit.intake_id);
                if let Some(row) = stored(tx, ReminderKind::Family, subject, &visit.starts_at)? {
                    if state == Dueness::Due && reclaim(tx, &row, now)? {
                        let communication = row.communication_id.clone().ok_or_else(|| {
                            Error::Rejected("A reminder lost its message.".to_owned())
                        })?;
                        claimed.push(ClaimedReminder {
                            id: row.id,
                            kind: ReminderKind::Family,
                            message: recorded_message(
                                tx,
                                &communication,
                                &settings,
                                fallback_from,
                            )?,
                        });
                    }
                    continue;
                }
                let reminder = FamilyReminder {
                    agency: &settings.general.company_name,
                    agency_phone: &settings.general.contact_phone,
                    contact_name: &visit.caller_name,
                    client: &visit.client,
                    visit_start: start,
                    place: &visit.place,
                    assessor: &visit.assessor,
                };
                // Booked (or moved) after its moment: nothing was missed, so nothing is
                // said in the timeline.
                let booked_late = parse_timestamp(&visit.updated_at).is_some_and(|at| at > due);
                let skip = if state == Dueness::Missed && booked_late {
                    Some(SKIPPED_BOOKED_LATE)
                } else if state == Dueness::Missed {
                    Some(SKIPPED_TOO_LATE)
                } else if !usable_phone(&visit.caller_phone)
                    && !looks_like_email(&visit.caller_email)
                {
                    Some(SKIPPED_NO_CONTACT)
                } else {
                    None
                };
                if let Some(reason) = skip {
                    insert(
                        tx,
                        ReminderKind::Family,
                        subject,
                        &visit.starts_at,
                        due,
                        "skipped",
                        None,
                        None,
                        None,
                        Some(reason),
                        now,
                    )?;
                    if reason != SKIPPED_BOOKED_LATE {
                        super::communications::log_description(
                            tx,
                            &system,
                            now,
                            &parents,
                            &skipped_event(start, reason, &clock),
                        )?;
                    }
                    continue;
                }
                let metadata = serde_json::json!({ "visit_reminder": subject });
                let (channel, recipient, message, communication) =
                    if usable_phone(&visit.caller_phone) {
                        let to = visit.caller_phone.trim().to_owned();
                        let body = reminder.sms(&clock);
                        let communication = insert_communication(
                            tx,
                            &system,
                            now,
                            NewCommunication {
                                parents: &parents,
                                communication_type: CommunicationType::Sms,
                                direction: Direction::Outbound,
                                subject: None,
                                content: &body,
                                recipient_email: None,
                                recipient_phone: Some(&to),
                                status: CommunicationStatus::Pending,
                                visibility: Visibility::Client,
                                tagged_user_ids: &[],
                                metadata,
                            },
                        )?;
                        (
                            "sms",
                            to.clone(),
                            ReminderMessage::Sms { to, body },
                            communication,
                        )
                    } else {
                        let to = visit.caller_email.trim().to_owned();
                        let subject_line = reminder.email_subject(&clock);
                        let body = reminder.email_body(&clock);
                        let communication = insert_communication(
                            tx,
                            &system,
                            now,
                            NewCommunication {
                                parents: &parents,
                                communication_type: CommunicationType::Email,
                                direction: Direction::Outbound,
                                subject: Some(&subject_line),
                                content: &body,
                                recipient_email: Some(&to),
                                recipient_phone: None,
                                status: CommunicationStatus::Pending,
                                visibility: Visibility::Client,
                                tagged_user_ids: &[],
                                metadata,
                            },
                        )?;
                        let email =
                            family_email(&settings, fallback_from, &to, &subject_line, &body);
                        ("email", to, ReminderMessage::Email(email), communication)
                    };
                let id = insert(
                    tx,
                    ReminderKind::Family,
                    subject,
                    &visit.starts_at,
                    due,
                    "claimed",
                    Some(channel),
                    Some(&recipient),
                    Some(&communication),
                    None,
                    now,
                )?;
                claimed.push(ClaimedReminder {
                    id,
                    kind: ReminderKind::Family,
                    message,
                });
            }
            // Yesterday's summary too, so one missed while the server was down is
            // recorded as skipped rather than forgotten.
            let today = clock.today();
            for day in [today.yesterday().unwrap_or(today), today] {
                let due = summary_due(day, summary_time, &clock);
                let end = clock.start_of_day(day.tomorrow().unwrap_or(day));
                let state = dueness(due, end, now);
                if state == Dueness::NotYet {
                    continue;
                }
                let slot = day.to_string();
                let mut statement = tx.prepare_cached(
                    "SELECT DISTINCT u.id, u.full_name, u.email
                     FROM assessment_visits v JOIN users u ON u.id = v.assessor_id
                          JOIN intakes i ON i.id = v.intake_id
                     WHERE v.starts_at >= ?1 AND v.starts_at < ?2 AND v.status = 'scheduled'
                       AND u.disabled = 0 AND i.deleted_at IS NULL
                     ORDER BY u.id",
                )?;
                let assessors = statement
                    .query_map(params![ts(clock.start_of_day(day)), ts(end)], |row| {
                        Ok((
                            row.get::<_, UserId>(0)?,
                            row.get::<_, String>(1)?,
                            row.get::<_, String>(2)?,
                        ))
                    })?
                    .collect::<Result<Vec<_>, _>>()?;
                for (assessor, name, email) in assessors {
                    let existing =
                        stored(tx, ReminderKind::AssessorSummary, assessor.as_str(), &slot)?;
                    let retry = match &existing {
                        Some(row) => {
                            if state == Dueness::Due && reclaim(tx, row, now)? {
                                Some(row.id.clone())
                            } else {
                                continue;
                            }
                        }
                        None => None,
                    };
                    let skip = if state == Dueness::Missed {
                        Some(SKIPPED_TOO_LATE)
                    } else if !looks_like_email(&email) {
                        Some(SKIPPED_NO_ASSESSOR_EMAIL)
                    } else {
                        None
                    };
                    if let Some(reason) = skip {
                        if retry.is_none() {
                            insert(
                                tx,
                                ReminderKind::AssessorSummary,
                                assessor.as_str(),
                                &slot,
                                due,
                                "skipped",
                                None,
                                None,
                                None,
                                Some(reason),
                                now,
                            )?;
                        }
                        continue;
                    }
                    let visits: Vec<SummaryVisit> = day_visits(tx, &assessor, day, &clock)?
                        .into_iter()
                        .map(|(_, visit)| visit)
                        .collect();
                    let to = email.trim().to_owned();
                    let subject = summary_subject(day, visits.len());
                    let body = summary_body(&name, day, &visits, &clock);
                    // Staff mail: to the assessor alone, without the families' copies.
                    let message = family_email(&settings, fallback_from, &to, &subject, &body);
                    let id = match retry {
                        Some(id) => id,
                        None => insert(
                            tx,
                            ReminderKind::AssessorSummary,
                            assessor.as_str(),
                            &slot,
                            due,
                            "claimed",
                            Some("email"),
                            Some(&to),
                            None,
                            None,
                            now,
                        )?,
                    };
                    claimed.push(ClaimedReminder {
                        id,
                        kind: ReminderKind::AssessorSummary,
                        message: ReminderMessage::Email(message),
                    });
                }
            }
            Ok(claimed)
        })
    }

    /// Reports how a claimed reminder's send went: `Ok` with the provider's reference
    /// (email id, message sid), or `Err` with the reason staff will see. The family's
    /// communication moves with it; a summary sent writes a line in the timeline of
    /// each client it listed. A reminder no longer claimed is left as it is.
    pub fn finish_reminder(
        &mut self,
        id: &str,
        outcome: std::result::Result<String, String>,
    ) -> Result<()> {
        let clock = self.clock()?;
        let now = clock.now();
        let system = Actor::system(Channel::System);
        self.write(|tx| {
            let row: Option<ClaimRow> = super::query_row(
                tx,
                "SELECT r.kind, r.subject, r.slot, r.status, r.communication_id, u.full_name
                     FROM visit_reminders r LEFT JOIN users u ON u.id = r.subject
                     WHERE r.id = ?1",
                [id],
                |row| {
                    Ok((
                        row.get(0)?,
                        row.get(1)?,
                        row.get(2)?,
                        row.get(3)?,
                        row.get(4)?,
                        row.get(5)?,
                    ))
                },
            )
            .optional()?;
            let Some((kind, subject, slot, status, communication, assessor_name)) = row else {
                return Err(Error::not_found("reminder", id));
            };
            if status != "claimed" {
                return Ok(());
            }
            let (to, reason) = match &outcome {
                Ok(_) => ("sent", None),
                Err(reason) => ("failed", Some(reason.as_str())),
            };
            super::exec(
                tx,
                "UPDATE visit_reminders SET status = ?2, failure_reason = ?3, updated_at = ?4
                 WHERE id = ?1",
                params![id, to, reason, ts(now)],
            )?;
            if let Some(communication) = communication {
                let (status, metadata) = match &outcome {
                    Ok(reference) => (
                        CommunicationStatus::Sent,
                        serde_json::json!({ "reference": reference }),
                    ),
                    Err(_) => (CommunicationStatus::Failed, serde_json::json!({})),
                };
                move_communication(tx, now, &communication, status, reason, metadata)?;
            }
            if ReminderKind::parse(&kind) == ReminderKind::AssessorSummary
                && outcome.is_ok()
                && let Some(day) = parse_date(&slot)
            {
                let assessor = UserId::from(subject.as_str());
                let name = assessor_name.unwrap_or_default();
                let mut intakes: Vec<IntakeId> = Vec::new();
                for (intake, _) in day_visits(tx, &assessor, day, &clock)? {
                    if !intakes.contains(&intake) {
                        intakes.push(intake);
                    }
                }
                for intake in intakes {
                    let parents = Parents {
                        intake_id: Some(intake),
                        ..Parents::default()
                    };
                    super::communications::log_description(
                        tx,
                        &system,
                        now,
                        &parents,
                        &summary_event(&name, day),
                    )?;
                }
            }
            Ok(())
        })
    }

    /// Every stored reminder, oldest due first (tests, the operator's checks).
    pub fn visit_reminders(&self) -> Result<Vec<ReminderRecord>> {
        let mut statement = self.conn().prepare_cached(
            "SELECT id, kind, subject, slot, due_at, status, attempts, channel, recipient,
                    communication_id, failure_reason
             FROM visit_reminders ORDER BY due_at, id",
        )?;
        let rows = statement
            .query_map([], |row| {
                Ok(ReminderRecord {
                    id: row.get(0)?,
                    kind: row.get(1)?,
                    subject: row.get(2)?,
                    slot: row.get(3)?,
                    due_at: row.get(4)?,
                    status: row.get(5)?,
                    attempts: row.get(6)?,
                    channel: row.get(7)?,
                    recipient: row.get(8)?,
                    communication_id: row.get(9)?,
                    failure_reason: row.get(10)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }
}
