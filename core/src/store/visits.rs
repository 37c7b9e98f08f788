//! Assessment visits: booking, moving, cancelling and holding a home visit, and the day
//! and week lists. Every move writes the client's timeline and the audit log in its own
//! transaction and keeps the intake's scheduled date, which the derived status reads
//! ("Assessment Scheduled").

use jiff::Timestamp;
use rusqlite::{Connection, OptionalExtension, params};

use super::communications::log_description;
use super::paging::{Filters, Keyset, Page, page_limit};
use super::{Store, audit, ts};
use crate::error::{Error, Result, ValidationErrors};
use crate::model::{
    Actor, AssessmentVisit, IntakeId, Parents, UserId, VisitAnswer, VisitId, VisitInput,
    VisitStatus,
};
use crate::outbound::{
    EmailAttachment, EmailMessage, InvitationFacts, InvitationMethod, Invitee, compose_email,
    visit_invitation, visits_feed,
};
use crate::rules::clock::{AgencyClock, parse_date, parse_timestamp};
use crate::rules::validation::{SHORT_TEXT_MAX, looks_like_email};
use crate::rules::visits::{
    PlannedVisit, VISIT_ASSESSOR_UNKNOWN, VISIT_NOT_SCHEDULED, VisitEvent, business_hours_warning,
    display_when, double_booking_warning, validate_cancel_reason, validate_visit,
};

const COLUMNS: &str = "v.id, v.version, v.sequence, v.intake_id, i.client_full_name, \
    v.starts_at, v.ends_at, v.duration_minutes, v.place, v.assessor_id, u.full_name, u.email, \
    v.notes, v.status, v.cancel_reason, v.created_at, v.updated_at";

const FROM: &str = "FROM assessment_visits v JOIN intakes i ON i.id = v.intake_id \
    JOIN users u ON u.id = v.assessor_id";

/// Which visits a list shows: a range of the agency's local dates (both ends included),
/// one assessor, one status; keyset-paged by start time.
#[derive(Debug, Clone, Default)]
pub struct VisitQuery {
    /// First day, YYYY-MM-DD (agency's zone).
    pub from: Option<String>,
    /// Last day, YYYY-MM-DD (agency's zone), included.
    pub to: Option<String>,
    pub assessor_id: Option<String>,
    pub status: Option<VisitStatus>,
    pub cursor: Option<String>,
    pub limit: Option<u32>,
}

fn from_row(row: &rusqlite::Row<'_>, clock: &AgencyClock) -> rusqlite::Result<AssessmentVisit> {
    let starts_at: String = row.get(5)?;
    let ends_at: String = row.get(6)?;
    let start = parse_timestamp(&starts_at).unwrap_or(Timestamp::UNIX_EPOCH);
    let end = parse_timestamp(&ends_at).unwrap_or(start);
    let local_start = start.to_zoned(clock.tz().clone());
    let local_end = end.to_zoned(clock.tz().clone());
    let status: VisitStatus = row.get(13)?;
    Ok(AssessmentVisit {
        id: row.get(0)?,
        version: row.get(1)?,
        sequence: row.get(2)?,
        intake_id: row.get(3)?,
        client_name: row.get(4)?,
        starts_at,
        ends_at,
        local_date: local_start.date().to_string(),
        local_start_time: local_start.strftime("%H:%M").to_string(),
        local_end_time: local_end.strftime("%H:%M").to_string(),
        duration_minutes: row.get(7)?,
        place: row.get(8)?,
        assessor_id: row.get(9)?,
        assessor_name: row.get(10)?,
        assessor_email: row.get(11)?,
        notes: row.get(12)?,
        status,
        status_label: status.label().to_owned(),
        cancel_reason: row.get(14)?,
        created_at: row.get(15)?,
        updated_at: row.get(16)?,
    })
}

fn read_visit(conn: &Connection, id: &VisitId, clock: &AgencyClock) -> Result<AssessmentVisit> {
    super::query_row(
        conn,
        &format!("SELECT {COLUMNS} {FROM} WHERE v.id = ?1"),
        [id],
        |row| from_row(row, clock),
    )
    .optional()?
    .ok_or_else(|| Error::not_found("visit", id))
}

/// The assessor's name, refusing anyone who is not an active staff user.
fn assessor_name(tx: &Connection, assessor: &UserId) -> Result<String> {
    super::query_row(
        tx,
        "SELECT full_name FROM users WHERE id = ?1 AND disabled = 0",
        [assessor],
        |row| row.get(0),
    )
    .optional()?
    .ok_or_else(|| {
        Error::Validation(ValidationErrors::single(
            "assessor_id",
            VISIT_ASSESSOR_UNKNOWN,
        ))
    })
}

/// What staff should know about a booking: outside business hours, the assessor's other
/// visits at an overlapping time.
fn warnings(
    tx: &Connection,
    planned: &PlannedVisit,
    assessor: &UserId,
    assessor_name: &str,
    except: Option<&VisitId>,
    clock: &AgencyClock,
) -> Result<Vec<String>> {
    let mut warnings = Vec::new();
    let business_hours: Option<String> = super::query_row(
        tx,
        "SELECT json_extract(value, '$.business_hours') FROM settings WHERE tab = 'general'",
        [],
        |row| row.get(0),
    )
    .optional()?
    .flatten();
    let business_hours =
        business_hours.unwrap_or_else(|| crate::model::GeneralSettings::default().business_hours);
    warnings.extend(business_hours_warning(
        &business_hours,
        planned.starts_at,
        planned.ends_at,
        clock,
    ));
    // The index on (assessor, start) bounds this: no visit is longer than a day, so one
    // that overlaps starts at most a day before this one ends.
    let earliest = planned
        .starts_at
        .checked_sub(jiff::SignedDuration::from_hours(24))
        .unwrap_or(planned.starts_at);
    let mut statement = tx.prepare_cached(
        "SELECT i.client_full_name, v.starts_at, v.ends_at
         FROM assessment_visits v JOIN intakes i ON i.id = v.intake_id
         WHERE v.assessor_id = ?1 AND v.starts_at >= ?2 AND v.starts_at < ?3
           AND v.ends_at > ?4 AND v.status = 'scheduled' AND v.id IS NOT ?5
         ORDER BY v.starts_at",
    )?;
    let others = statement
        .query_map(
            params![
                assessor,
                ts(earliest),
                ts(planned.ends_at),
                ts(planned.starts_at),
                except
            ],
            |row| {
                Ok((
                    row.get::<_, String>(0)?,
                    row.get::<_, String>(1)?,
                    row.get::<_, String>(2)?,
                ))
            },
        )?
        .collect::<Result<Vec<_>, _>>()?;
    for (client, start, end) in others {
        if let (Some(start), Some(end)) = (parse_timestamp(&start), parse_timestamp(&end)) {
            warnings.push(double_booking_warning(
                assessor_name,
                &client,
                start,
                end,
                clock,
            ));
        }
    }
    Ok(warnings)
}

/// Keeps the intake's scheduled date on its next scheduled visit, which the derived
/// status reads. An intake with an assessment keeps the assessment's date. When the
/// last visit is called off, the date it set is cleared; a date typed on the intake form
/// that no visit set stays.
fn sync_intake(
    tx: &Connection,
    actor: &Actor,
    intake_id: &IntakeId,
    dropped: Option<Timestamp>,
    clock: &AgencyClock,
) -> Result<()> {
    let (has_assessment, stored): (bool, Option<String>) = super::query_row(
        tx,
        "SELECT latest_assessment_id IS NOT NULL, assessment_scheduled_date FROM intakes WHERE id = ?1",
        [intake_id],
        |row| Ok((row.get(0)?, row.get(1)?)),
    )?;
    if has_assessment {
        return Ok(());
    }
    let next: Option<String> = super::query_row(
        tx,
        "SELECT min(starts_at) FROM assessment_visits WHERE intake_id = ?1 AND status = 'scheduled'",
        [intake_id],
        |row| row.get(0),
    )?;
    let wanted = match next.as_deref().and_then(parse_timestamp) {
        Some(start) => Some(clock.local_date(start).to_string()),
        None => {
            let dropped_date = dropped.map(|moment| clock.local_date(moment));
            if stored.as_deref().and_then(parse_date) == dropped_date {
                None
            } else {
                stored.clone()
            }
        }
    };
    if wanted != stored {
        super::exec(
            tx,
            "UPDATE intakes SET assessment_scheduled_date = ?2, updated_at = ?3,
                version = version + 1
             WHERE id = ?1",
            params![intake_id, wanted, ts(clock.now())],
        )?;
        audit(
            tx,
            actor,
            clock.now(),
            "update",
            "intake",
            intake_id.as_str(),
            Some(intake_id.as_str()),
            &["assessment_scheduled_date"],
        )?;
    }
    Ok(())
}

fn log_visit(
    tx: &Connection,
    actor: &Actor,
    now: Timestamp,
    intake_id: &IntakeId,
    event: VisitEvent<'_>,
) -> Result<()> {
    let parents = Parents::of_intake(intake_id);
    log_description(tx, actor, now, &parents, &event.description())?;
    Ok(())
}

/// The stored version, intake, status and start of a visit.
fn stored(tx: &Connection, id: &VisitId) -> Result<(i64, IntakeId, VisitStatus, String)> {
    super::query_row(
        tx,
        "SELECT version, intake_id, status, starts_at FROM assessment_visits WHERE id = ?1",
        [id],
        |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)),
    )
    .optional()?
    .ok_or_else(|| Error::not_found("visit", id))
}

impl Store {
    pub fn visit(&self, id: &VisitId) -> Result<AssessmentVisit> {
        read_visit(self.conn(), id, &self.clock()?)
    }

    /// Books a visit for a client; the client moves to "Assessment Scheduled".
    pub fn schedule_visit(
        &mut self,
        actor: &Actor,
        intake_id: &IntakeId,
        input: &VisitInput,
    ) -> Result<VisitAnswer> {
        let clock = self.clock()?;
        let planned = validate_visit(input, &clock)?;
        let id = VisitId::new();
        let warnings = self.write(|tx| {
            let exists: bool = super::query_row(
                tx,
                "SELECT EXISTS (SELECT 1 FROM intakes WHERE id = ?1 AND deleted_at IS NULL)",
                [intake_id],
                |row| row.get(0),
            )?;
            if !exists {
                return Err(Error::not_found("client", intake_id));
            }
            let assessor = assessor_name(tx, &input.assessor_id)?;
            let warnings = warnings(tx, &planned, &input.assessor_id, &assessor, None, &clock)?;
            let now = ts(clock.now());
            super::exec(
                tx,
                "INSERT INTO assessment_visits (id, intake_id, starts_at, ends_at,
                    duration_minutes, place, assessor_id, notes, status, created_by,
                    created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 'scheduled', ?9, ?10, ?10)",
                params![
                    id,
                    intake_id,
                    ts(planned.starts_at),
                    ts(planned.ends_at),
                    planned.duration_minutes,
                    planned.place,
                    input.assessor_id,
                    planned.notes,
                    actor.user_id,
                    now,
                ],
            )?;
            let when = display_when(planned.starts_at, &clock);
            log_visit(
                tx,
                actor,
                clock.now(),
                intake_id,
                VisitEvent::Scheduled {
                    when: &when,
                    assessor: &assessor,
                },
            )?;
            audit(
                tx,
                actor,
                clock.now(),
                "schedule",
                "assessment_visit",
                id.as_str(),
                Some(intake_id.as_str()),
                &[],
            )?;
            sync_intake(tx, actor, intake_id, None, &clock)?;
            Ok(warnings)
        })?;
        Ok(VisitAnswer {
            visit: read_visit(self.conn(), &id, &clock)?,
            warnings,
        })
    }

    /// Moves a scheduled visit (time, length, place, assessor or notes). The calendar
    /// sequence goes up, so invitations already sent are replaced.
    pub fn reschedule_visit(
        &mut self,
        actor: &Actor,
        id: &VisitId,
        version: i64,
        input: &VisitInput,
    ) -> Result<VisitAnswer> {
        let clock = self.clock()?;
        let planned = validate_visit(input, &clock)?;
        let outcome = self.write(|tx| {
            let (stored_version, intake_id, status, _) = stored(tx, id)?;
            if stored_version != version {
                return Ok(None);
            }
            if status != VisitStatus::Scheduled {
                return Err(Error::Rejected(VISIT_NOT_SCHEDULED.to_owned()));
            }
            let assessor = assessor_name(tx, &input.assessor_id)?;
            let warnings = warnings(
                tx,
                &planned,
                &input.assessor_id,
                &assessor,
                Some(id),
                &clock,
            )?;
            super::exec(
                tx,
                "UPDATE assessment_visits SET starts_at = ?2, ends_at = ?3, duration_minutes = ?4,
                    place = ?5, assessor_id = ?6, notes = ?7, updated_at = ?8,
                    version = version + 1, sequence = sequence + 1
                 WHERE id = ?1",
                params![
                    id,
                    ts(planned.starts_at),
                    ts(planned.ends_at),
                    planned.duration_minutes,
                    planned.place,
                    input.assessor_id,
                    planned.notes,
                    ts(clock.now()),
                ],
            )?;
            let when = display_when(planned.starts_at, &clock);
            log_visit(
                tx,
                actor,
                clock.now(),
                &intake_id,
                VisitEvent::Rescheduled {
                    when: &when,
                    assessor: &assessor,
                },
            )?;
            audit(
                tx,
                actor,
                clock.now(),
                "reschedule",
                "assessment_visit",
                id.as_str(),
                Some(intake_id.as_str()),
                &[
                    "starts_at",
                    "duration_minutes",
                    "place",
                    "assessor_id",
                    "notes",
                ],
            )?;
            sync_intake(tx, actor, &intake_id, None, &clock)?;
            Ok(Some(warnings))
        })?;
        let visit = read_visit(self.conn(), id, &clock)?;
        match outcome {
            Some(warnings) => Ok(VisitAnswer { visit, warnings }),
            None => Err(Error::conflict("visit", &visit)),
        }
    }

    /// Calls off a scheduled visit with a reason.
    pub fn cancel_visit(
        &mut self,
        actor: &Actor,
        id: &VisitId,
        version: i64,
        reason: &str,
    ) -> Result<AssessmentVisit> {
        let reason = validate_cancel_reason(reason)?;
        self.end_visit(actor, id, version, VisitStatus::Cancelled, Some(&reason))
    }

    /// Records that a scheduled visit took place.
    pub fn mark_visit_done(
        &mut self,
        actor: &Actor,
        id: &VisitId,
        version: i64,
    ) -> Result<AssessmentVisit> {
        self.end_visit(actor, id, version, VisitStatus::Done, None)
    }

    fn end_visit(
        &mut self,
        actor: &Actor,
        id: &VisitId,
        version: i64,
        to: VisitStatus,
        reason: Option<&str>,
    ) -> Result<AssessmentVisit> {
        let clock = self.clock()?;
        let changed = self.write(|tx| {
            let (stored_version, intake_id, status, starts_at) = stored(tx, id)?;
            if stored_version != version {
                return Ok(false);
            }
            if status != VisitStatus::Scheduled {
                return Err(Error::Rejected(VISIT_NOT_SCHEDULED.to_owned()));
            }
            // A cancellation is announced to the calendars (a new SEQUENCE); holding the
            // visit changes nothing in them.
            let bump = i64::from(to == VisitStatus::Cancelled);
            super::exec(
                tx,
                "UPDATE assessment_visits SET status = ?2, cancel_reason = ?3, updated_at = ?4,
                    version = version + 1, sequence = sequence + ?5
                 WHERE id = ?1",
                params![id, to, reason, ts(clock.now()), bump],
            )?;
            let start = parse_timestamp(&starts_at).unwrap_or(clock.now());
            let when = display_when(start, &clock);
            let event = match reason {
                Some(reason) => VisitEvent::Cancelled {
                    when: &when,
                    reason,
                },
                None => VisitEvent::Done { when: &when },
            };
            log_visit(tx, actor, clock.now(), &intake_id, event)?;
            let action = if to == VisitStatus::Cancelled {
                "cancel"
            } else {
                "done"
            };
            audit(
                tx,
                actor,
                clock.now(),
                action,
                "assessment_visit",
                id.as_str(),
                Some(intake_id.as_str()),
                &["status"],
            )?;
            // A visit held keeps the date it set: the assessment is due from then on.
            if to == VisitStatus::Cancelled {
                sync_intake(tx, actor, &intake_id, Some(start), &clock)?;
            }
            Ok(true)
        })?;
        let visit = read_visit(self.conn(), id, &clock)?;
        if changed {
            Ok(visit)
        } else {
            Err(Error::conflict("visit", &visit))
        }
    }

    /// Visits in a range of days, soonest first, optionally one assessor's or one status'.
    pub fn visits(&self, query: &VisitQuery) -> Result<Page<AssessmentVisit>> {
        let clock = self.clock()?;
        let mut filters = Filters::new("i.deleted_at IS NULL");
        if let Some(from) = query.from.as_deref() {
            let date = parse_date(from).ok_or_else(|| bad_range("from"))?;
            let p = filters.bind(ts(clock.start_of_day(date)));
            filters.push(format!("v.starts_at >= {p}"));
        }
        if let Some(to) = query.to.as_deref() {
            let date = parse_date(to).ok_or_else(|| bad_range("to"))?;
            let next = date.tomorrow().map_err(|_| bad_range("to"))?;
            let p = filters.bind(ts(clock.start_of_day(next)));
            filters.push(format!("v.starts_at < {p}"));
        }
        filters.equal(
            "v.assessor_id",
            query.assessor_id.as_deref().filter(|id| !id.is_empty()),
        );
        filters.equal("v.status", query.status.map(VisitStatus::as_str));
        filters
            .page(
                &format!("SELECT {COLUMNS} {FROM}"),
                Keyset::ascending("v.starts_at", "v.id"),
                query.cursor.as_deref(),
                page_limit(query.limit),
            )?
            .read(
                self.conn(),
                |row| from_row(row, &clock),
                |v| (&v.starts_at, v.id.as_str()),
            )
    }

    /// A client's visits, newest first.
    pub fn intake_visits(&self, intake_id: &IntakeId) -> Result<Vec<AssessmentVisit>> {
        let clock = self.clock()?;
        let mut statement = self.conn().prepare_cached(&format!(
            "SELECT {COLUMNS} {FROM} WHERE v.intake_id = ?1
             ORDER BY v.starts_at DESC, v.id DESC LIMIT 200"
        ))?;
        let rows = statement.query_map([intake_id], |row| from_row(row, &clock))?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }
}

fn bad_range(field: &str) -> Error {
    Error::Validation(ValidationErrors::single(
        field,
        crate::rules::validation::INVALID_DATE,
    ))
}

/// The subject of an invitation: one line, whatever the client's name holds.
fn invitation_subject(method: InvitationMethod, client: &str, when: &str) -> String {
    let client: String = client
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(SHORT_TEXT_MAX)
        .collect();
    match method {
        InvitationMethod::Request => format!("Home assessment visit: {} on {when}", client.trim()),
        InvitationMethod::Cancel => {
            format!(
                "Cancelled: home assessment visit: {} on {when}",
                client.trim()
            )
        }
    }
}

impl Store {
    /// The calendar invitations a visit's latest move sends: one email to the family
    /// contact (the intake's caller) and one to the assessor, each with the same
    /// text/calendar attachment. A booked or moved visit is a REQUEST, a cancelled one a
    /// CANCEL; a visit held sends nothing. A recipient without a usable address is left
    /// out.
    pub fn visit_invitations(
        &self,
        id: &VisitId,
        fallback_from: &str,
    ) -> Result<Vec<EmailMessage>> {
        let clock = self.clock()?;
        let visit = read_visit(self.conn(), id, &clock)?;
        let method = match visit.status {
            VisitStatus::Scheduled => InvitationMethod::Request,
            VisitStatus::Cancelled => InvitationMethod::Cancel,
            VisitStatus::Done => return Ok(Vec::new()),
        };
        let (caller_name, caller_email): (String, String) = super::query_row(
            self.conn(),
            "SELECT caller_name, caller_email FROM intakes WHERE id = ?1",
            [&visit.intake_id],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )?;
        let settings = self.settings()?;
        let agency = settings.general.company_name.trim().to_owned();
        let from = if settings.email.default_from.trim().is_empty() {
            fallback_from.trim().to_owned()
        } else {
            settings.email.default_from.trim().to_owned()
        };
        let organizer = Invitee {
            name: agency.clone(),
            email: from.clone(),
        };
        let mut attendees = Vec::new();
        if looks_like_email(&caller_email) {
            attendees.push(Invitee {
                name: caller_name,
                email: caller_email.trim().to_owned(),
            });
        }
        if looks_like_email(&visit.assessor_email) {
            attendees.push(Invitee {
                name: visit.assessor_name.clone(),
                email: visit.assessor_email.trim().to_owned(),
            });
        }
        let calendar = visit_invitation(
            &visit,
            &InvitationFacts {
                method,
                organizer: &organizer,
                attendees: &attendees,
                agency_name: &agency,
                zone: clock.tz(),
                now: clock.now(),
            },
        );
        let start = parse_timestamp(&visit.starts_at).unwrap_or(clock.now());
        let when = display_when(start, &clock);
        let subject = invitation_subject(method, &visit.client_name, &when);
        let body = match method {
            InvitationMethod::Request => format!(
                "{agency} will visit for the home assessment on {when}.\n\nWhere: {}\nAssessor: {}\nExpected length: {} minutes\n\nThe attached invitation adds the visit to your calendar.\n",
                visit.place, visit.assessor_name, visit.duration_minutes
            ),
            InvitationMethod::Cancel => format!(
                "The home assessment visit of {when} is cancelled.\n\nReason: {}\n\nThe attached notice removes the visit from your calendar.\n",
                visit.cancel_reason.as_deref().unwrap_or_default()
            ),
        };
        let attachment = EmailAttachment {
            file_name: "invite.ics".to_owned(),
            content_type: format!("text/calendar; charset=utf-8; method={}", method.as_str()),
            bytes: calendar.into_bytes(),
        };
        Ok(attendees
            .iter()
            .map(|attendee| {
                // Each recipient alone: the family never sees Settings' blind copies'
                // addresses and staff do not get every family's mail.
                let mut email =
                    compose_email(&settings.email, &from, &attendee.email, &subject, &body);
                email.cc.clear();
                email.bcc.clear();
                email.attachments = vec![attachment.clone()];
                email
            })
            .collect())
    }
}

/// How far back and ahead a calendar feed reaches: last month's visits stay visible.
const FEED_PAST_DAYS: i64 = 31;
const FEED_FUTURE_DAYS: i64 = 366;
/// The most visits one feed lists.
const FEED_VISITS_MAX: u32 = 2_000;

impl Store {
    /// Makes (or replaces) the signed-in user's calendar feed and returns its secret
    /// token, shown to them once; only its hash is kept.
    pub fn create_calendar_feed(&mut self, actor: &Actor) -> Result<String> {
        let user_id = actor
            .user_id
            .clone()
            .ok_or(Error::Unauthenticated("Please sign in"))?;
        let token = super::new_token();
        let now = self.now();
        self.write(|tx| {
            super::exec(
                tx,
                "INSERT INTO calendar_feeds (user_id, token_hash, created_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT (user_id) DO UPDATE SET token_hash = ?2, created_at = ?3",
                params![user_id, super::token_hash(&token), ts(now)],
            )?;
            audit(
                tx,
                actor,
                now,
                "create",
                "calendar_feed",
                user_id.as_str(),
                None,
                &[],
            )
        })?;
        Ok(token)
    }

    /// Revokes the signed-in user's calendar feed: its address stops working.
    pub fn revoke_calendar_feed(&mut self, actor: &Actor) -> Result<()> {
        let user_id = actor
            .user_id
            .clone()
            .ok_or(Error::Unauthenticated("Please sign in"))?;
        let now = self.now();
        self.write(|tx| {
            let removed = super::exec(
                tx,
                "DELETE FROM calendar_feeds WHERE user_id = ?1",
                [&user_id],
            )?;
            if removed > 0 {
                audit(
                    tx,
                    actor,
                    now,
                    "revoke",
                    "calendar_feed",
                    user_id.as_str(),
                    None,
                    &[],
                )?;
            }
            Ok(())
        })
    }

    /// Whether the user has a calendar feed (when it was made), never its token.
    pub fn calendar_feed_created_at(&self, user_id: &UserId) -> Result<Option<String>> {
        Ok(super::query_row(
            self.conn(),
            "SELECT created_at FROM calendar_feeds WHERE user_id = ?1",
            [user_id],
            |row| row.get(0),
        )
        .optional()?)
    }

    /// The calendar a feed's token opens: its owner's visits as assessor, from a month ago
    /// to a year ahead. An unknown or revoked token, or a disabled user, is
    /// [`Error::LinkUnavailable`].
    pub fn calendar_feed(&self, token: &str) -> Result<String> {
        let clock = self.clock()?;
        let user_id: UserId = super::query_row(
            self.conn(),
            "SELECT f.user_id FROM calendar_feeds f JOIN users u ON u.id = f.user_id
             WHERE f.token_hash = ?1 AND u.disabled = 0",
            [super::token_hash(token.trim())],
            |row| row.get(0),
        )
        .optional()?
        .ok_or(Error::LinkUnavailable)?;
        let from = clock.today() - jiff::Span::new().days(FEED_PAST_DAYS);
        let to = clock.today() + jiff::Span::new().days(FEED_FUTURE_DAYS);
        let mut statement = self.conn().prepare_cached(&format!(
            "SELECT {COLUMNS} {FROM}
             WHERE v.assessor_id = ?1 AND v.starts_at >= ?2 AND v.starts_at < ?3
               AND i.deleted_at IS NULL
             ORDER BY v.starts_at, v.id LIMIT {FEED_VISITS_MAX}"
        ))?;
        let visits = statement
            .query_map(
                params![
                    user_id,
                    ts(clock.start_of_day(from)),
                    ts(clock.start_of_day(to))
                ],
                |row| from_row(row, &clock),
            )?
            .collect::<Result<Vec<_>, _>>()?;
        let agency = self.settings()?.general.company_name.trim().to_owned();
        Ok(visits_feed(&visits, &agency, clock.tz(), clock.now()))
    }
}

/// The reason a failed invitation is not sent again: the visit moved, was cancelled or
/// held since, and a newer invitation (or none) stands for it.
pub const INVITATION_OUT_OF_DATE: &str =
    "The visit has changed since this invitation; the newer invitation stands for it.";

/// How long after it was first tried a failed invitation is still tried again on its own,
/// and how long the scheduler waits between tries.
const INVITATION_RETRY_WINDOW: jiff::SignedDuration = jiff::SignedDuration::from_hours(24);
const INVITATION_RETRY_PAUSE: jiff::SignedDuration = jiff::SignedDuration::from_mins(5);

impl Store {
    /// The calendar invitations of a visit's latest move ([`Store::visit_invitations`]),
    /// each recorded pending in the client's timeline as an email (the assessor's copy
    /// internal), with the visit and its SEQUENCE in the metadata so a retry can tell
    /// whether it is still current. Answers each with its communication.
    pub fn record_visit_invitations(
        &mut self,
        actor: &Actor,
        id: &VisitId,
        fallback_from: &str,
    ) -> Result<Vec<(crate::model::CommunicationId, EmailMessage)>> {
        let emails = self.visit_invitations(id, fallback_from)?;
        if emails.is_empty() {
            return Ok(Vec::new());
        }
        let clock = self.clock()?;
        let visit = read_visit(self.conn(), id, &clock)?;
        let now = clock.now();
        self.write(|tx| {
            let parents = Parents::of_intake(&visit.intake_id);
            let mut recorded = Vec::new();
            for email in emails {
                let to = email.to.join(", ");
                let to_assessor = to.eq_ignore_ascii_case(visit.assessor_email.trim());
                let size = email
                    .attachments
                    .iter()
                    .map(|a| a.bytes.len() as u64)
                    .sum::<u64>();
                let communication = super::communications::insert_communication(
                    tx,
                    actor,
                    now,
                    super::communications::NewCommunication {
                        parents: &parents,
                        communication_type: crate::model::CommunicationType::Email,
                        direction: crate::model::Direction::Outbound,
                        subject: Some(&email.subject),
                        content: &email.body,
                        recipient_email: Some(&to),
                        recipient_phone: None,
                        status: crate::model::CommunicationStatus::Pending,
                        visibility: if to_assessor {
                            crate::model::Visibility::Internal
                        } else {
                            crate::model::Visibility::Client
                        },
                        tagged_user_ids: &[],
                        metadata: serde_json::json!({
                            "attachments": [{ "name": "invite.ics", "size": size }],
                            "visit_invitation": visit.id.as_str(),
                            "sequence": visit.sequence,
                        }),
                    },
                )?;
                recorded.push((communication, email));
            }
            Ok(recorded)
        })
    }

    /// The email a recorded calendar invitation sends again, with its calendar attached:
    /// `Ok(None)` when the communication is no invitation, `Ok(Some(Err(reason)))` when
    /// the visit changed since and the invitation is not to be sent again.
    pub fn invitation_to_resend(
        &self,
        communication: &crate::model::Communication,
        fallback_from: &str,
    ) -> Result<Option<std::result::Result<EmailMessage, String>>> {
        let Some(visit_id) = communication.metadata["visit_invitation"].as_str() else {
            return Ok(None);
        };
        let clock = self.clock()?;
        let visit = read_visit(self.conn(), &VisitId::from(visit_id), &clock)?;
        if Some(visit.sequence) != communication.metadata["sequence"].as_i64() {
            return Ok(Some(Err(INVITATION_OUT_OF_DATE.to_owned())));
        }
        let to = communication.recipient_email.as_deref().unwrap_or_default();
        let email = self
            .visit_invitations(&visit.id, fallback_from)?
            .into_iter()
            .find(|email| email.to.join(", ").eq_ignore_ascii_case(to));
        Ok(Some(email.ok_or_else(|| INVITATION_OUT_OF_DATE.to_owned())))
    }

    /// Takes failed calendar invitations back to pending for the scheduler to send
    /// again: those first tried within the last day, with fewer than
    /// [`MAX_ATTEMPTS`](crate::rules::reminders::MAX_ATTEMPTS) tries, and none tried in
    /// the last five minutes. Taking one is a write that only one process wins.
    pub fn claim_failed_invitations(&mut self) -> Result<Vec<crate::model::Communication>> {
        let now = self.now();
        let since = now.checked_sub(INVITATION_RETRY_WINDOW).unwrap_or(now);
        let quiet = now.checked_sub(INVITATION_RETRY_PAUSE).unwrap_or(now);
        let ids = self.write(|tx| {
            let mut statement = tx.prepare_cached(
                "SELECT id FROM communications
                 WHERE status = 'failed' AND created_at >= ?1
                   AND communication_type = 'email' AND attempts < ?2 AND updated_at <= ?3
                   AND json_extract(metadata, '$.visit_invitation') IS NOT NULL",
            )?;
            let ids = statement
                .query_map(
                    params![ts(since), crate::rules::reminders::MAX_ATTEMPTS, ts(quiet)],
                    |row| row.get::<_, crate::model::CommunicationId>(0),
                )?
                .collect::<Result<Vec<_>, _>>()?;
            for id in &ids {
                super::exec(
                    tx,
                    "UPDATE communications SET status = 'pending', failure_reason = NULL,
                        updated_at = ?2, version = version + 1
                     WHERE id = ?1 AND status = 'failed'",
                    params![id, ts(now)],
                )?;
            }
            Ok(ids)
        })?;
        ids.iter().map(|id| self.get_communication(id)).collect()
    }
}
