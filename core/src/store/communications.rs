//! Communications: emails, text messages, notes, phone logs and system events, per client
//! and in the hub. Sending is the caller's job (core has adapters' traits, not their
//! transports): record pending, send, then mark sent or failed.

use std::sync::OnceLock;

use rusqlite::{Connection, OptionalExtension, params, params_from_iter};

use super::paging::{Filters, Keyset, Page, page_limit};
use super::{Store, audit, ts};
use crate::error::{Error, Result};
use crate::model::{
    Actor, CallLogInput, Channel, Communication, CommunicationId, CommunicationStatus,
    CommunicationType, Direction, EmailInput, IntakeId, NoteInput, Parents, Reply, SmsInput,
    UserId, Visibility,
};
use crate::outbound::{SendFailure, SentEmail, SentSms};
use crate::rules::events::PipelineEvent;
use crate::rules::transitions::check_communication_transition;
use crate::rules::validation::{
    validate_call_log, validate_email, validate_note, validate_reply, validate_sms,
};

/// The client-context panel lists this many.
pub const LATEST_COMMUNICATIONS: u32 = 5;
/// One client's timeline is long but bounded.
const TIMELINE_LIMIT: u32 = 500;

/// Whose communications, and which of them.
#[derive(Debug, Clone, Default)]
pub struct CommunicationFilter {
    pub parents: Parents,
    pub visibility: Option<Visibility>,
}

/// The communications hub's filters.
#[derive(Debug, Clone, Default)]
pub struct HubQuery {
    /// Only the communications of this member of staff's clients.
    pub owner: Option<UserId>,
    pub communication_type: Option<CommunicationType>,
    /// Only what came in (replies), went out, or was written inside the agency.
    pub direction: Option<Direction>,
    pub status: Option<CommunicationStatus>,
    pub search: Option<String>,
    pub cursor: Option<String>,
    pub limit: Option<u32>,
}

// Most communications tag nobody; the CASE spares their rows the tag lookup, which
// builds a temporary table per row (about 2 µs each, a tenth of a short timeline).
macro_rules! columns {
    ($client_name:literal) => {
        concat!(
            "c.id, c.version, c.intake_id, c.assessment_id, c.care_plan_id, c.contract_id, ",
            $client_name,
            ", c.communication_type, c.direction, c.subject, c.content, \
            c.recipient_email, c.recipient_phone, c.sender_user_id, u.full_name, c.status, \
            c.failure_reason, c.sent_at, c.created_at, c.visibility, c.tagged_user_ids, \
            CASE WHEN c.tagged_user_ids = '[]' THEN '[]' ELSE \
            (SELECT json_group_array(t.full_name) FROM users t WHERE t.id IN (SELECT value FROM json_each(c.tagged_user_ids))) END, \
            c.metadata, c.read_at"
        )
    };
}

pub(super) const COLUMNS: &str = columns!("i.client_full_name");

pub(super) const FROM: &str = "communications c LEFT JOIN intakes i ON i.id = c.intake_id LEFT JOIN users u ON u.id = c.sender_user_id";

/// A client's own timeline: every row is that client's, so the name is read once (a
/// subquery without a reference to the row runs once) instead of joined row by row.
const ONE_CLIENT_COLUMNS: &str =
    columns!("(SELECT i.client_full_name FROM intakes i WHERE i.id = ?1)");

const ONE_CLIENT_FROM: &str = "communications c LEFT JOIN users u ON u.id = c.sender_user_id";

pub(super) fn from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Communication> {
    // The three JSON columns are parsed straight from SQLite's text, not copied first.
    let tagged = row.get_ref(20)?.as_str()?;
    let tagged_names = row.get_ref(21)?.as_str_or_null()?;
    let metadata = row.get_ref(22)?.as_str()?;
    Ok(Communication {
        id: row.get(0)?,
        version: row.get(1)?,
        parents: Parents {
            intake_id: row.get(2)?,
            assessment_id: row.get(3)?,
            care_plan_id: row.get(4)?,
            contract_id: row.get(5)?,
        },
        client_name: row.get(6)?,
        communication_type: row.get(7)?,
        direction: row.get(8)?,
        subject: row.get(9)?,
        content: row.get(10)?,
        recipient_email: row.get(11)?,
        recipient_phone: row.get(12)?,
        sender_user_id: row.get(13)?,
        sender_name: row.get(14)?,
        status: row.get(15)?,
        failure_reason: row.get(16)?,
        sent_at: row.get(17)?,
        created_at: row.get(18)?,
        visibility: row.get(19)?,
        tagged_user_ids: list_column(tagged),
        tagged_user_names: tagged_names.map(list_column).unwrap_or_default(),
        metadata: if metadata == "{}" {
            serde_json::Value::Object(serde_json::Map::new())
        } else {
            serde_json::from_str(metadata).unwrap_or_default()
        },
        read_at: row.get(23)?,
    })
}

/// A list column read back; most rows hold `[]` there, which needs no parser.
fn list_column<T: serde::de::DeserializeOwned>(text: &str) -> Vec<T> {
    if text == "[]" {
        return Vec::new();
    }
    serde_json::from_str(text).unwrap_or_default()
}

/// A row about to be written.
pub(super) struct NewCommunication<'a> {
    pub(super) parents: &'a Parents,
    pub(super) communication_type: CommunicationType,
    pub(super) direction: Direction,
    pub(super) subject: Option<&'a str>,
    pub(super) content: &'a str,
    pub(super) recipient_email: Option<&'a str>,
    pub(super) recipient_phone: Option<&'a str>,
    pub(super) status: CommunicationStatus,
    pub(super) visibility: Visibility,
    pub(super) tagged_user_ids: &'a [UserId],
    pub(super) metadata: serde_json::Value,
}

/// The statement of a timeline and its values. A statement depends only on which
/// parents and whether a visibility are given, so each of those 32 shapes is written
/// once and kept: building it per request was a twentieth of a short timeline's work.
fn timeline_statement(filter: &CommunicationFilter) -> Result<(&'static str, Vec<String>)> {
    static STATEMENTS: [OnceLock<String>; 32] = [const { OnceLock::new() }; 32];
    let parents = &filter.parents;
    let given = [
        parents.intake_id.as_ref().map(|v| v.as_str()),
        parents.assessment_id.as_ref().map(|v| v.as_str()),
        parents.care_plan_id.as_ref().map(|v| v.as_str()),
        parents.contract_id.as_ref().map(|v| v.as_str()),
    ];
    let mut values: Vec<String> = given.iter().flatten().map(|v| (*v).to_owned()).collect();
    if values.is_empty() {
        return Err(Error::Rejected(
            "Name the client or record whose communications to list.".to_owned(),
        ));
    }
    if let Some(visibility) = filter.visibility {
        values.push(visibility.as_str().to_owned());
    }
    let shape = given
        .iter()
        .enumerate()
        .filter(|(_, value)| value.is_some())
        .fold(
            usize::from(filter.visibility.is_some()) << 4,
            |shape, (i, _)| shape | 1 << i,
        );
    let sql = STATEMENTS[shape].get_or_init(|| timeline_sql(shape));
    Ok((sql.as_str(), values))
}

/// The statement of a timeline shape: bits 0 to 3 say which parents are given (intake,
/// assessment, care plan, contract), bit 4 whether a visibility is; their values are
/// numbered in that order.
fn timeline_sql(shape: usize) -> String {
    let columns = [
        "c.intake_id",
        "c.assessment_id",
        "c.care_plan_id",
        "c.contract_id",
    ];
    let conditions: Vec<String> = columns
        .iter()
        .enumerate()
        .filter(|(i, _)| shape & 1 << i != 0)
        .enumerate()
        .map(|(n, (_, column))| format!("{column} = ?{}", n + 1))
        .collect();
    let (columns, from) = if shape & 0b1111 == 1 {
        (ONE_CLIENT_COLUMNS, ONE_CLIENT_FROM)
    } else {
        (COLUMNS, FROM)
    };
    let mut sql = format!(
        "SELECT {columns} FROM {from} WHERE ({})",
        conditions.join(" OR ")
    );
    if shape & 1 << 4 != 0 {
        sql.push_str(&format!(" AND c.visibility = ?{}", conditions.len() + 1));
    }
    sql.push_str(&format!(
        " ORDER BY c.created_at DESC, c.id DESC LIMIT {TIMELINE_LIMIT}"
    ));
    sql
}

impl Store {
    /// A client's (or a record's) timeline, newest first. One statement, so it reads one
    /// snapshot without a transaction of its own.
    pub fn communications(&self, filter: &CommunicationFilter) -> Result<Vec<Communication>> {
        let (sql, values) = timeline_statement(filter)?;
        let mut statement = self.conn().prepare_cached(sql)?;
        let rows = statement.query_map(params_from_iter(values.iter()), from_row)?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// The query plan of a timeline, to show that it reads its index in order.
    pub fn explain_communications(&self, filter: &CommunicationFilter) -> Result<Vec<String>> {
        let (sql, values) = timeline_statement(filter)?;
        let params: Vec<&dyn rusqlite::ToSql> =
            values.iter().map(|v| v as &dyn rusqlite::ToSql).collect();
        self.explain(sql, &params)
    }

    /// The 5 latest communications of a client, for the side panel.
    pub fn latest_communications(&self, intake_id: &IntakeId) -> Result<Vec<Communication>> {
        let mut statement = self.conn().prepare_cached(&format!(
            "SELECT {COLUMNS} FROM {FROM} WHERE c.intake_id = ?1
             ORDER BY c.created_at DESC, c.id DESC LIMIT {LATEST_COMMUNICATIONS}"
        ))?;
        let rows = statement.query_map([intake_id], from_row)?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// The communications hub: every communication, newest first, filtered and paged.
    pub fn communications_hub(&self, query: &HubQuery) -> Result<Page<Communication>> {
        let mut filters = Filters::new("1");
        filters.equal("i.owner_id", query.owner.as_ref().map(UserId::as_str));
        filters.equal(
            "c.communication_type",
            query.communication_type.map(CommunicationType::as_str),
        );
        filters.equal("c.status", query.status.map(CommunicationStatus::as_str));
        filters.equal("c.direction", query.direction.map(Direction::as_str));
        filters.contains(
            &[
                "i.client_full_name",
                "c.subject",
                "c.content",
                "c.recipient_email",
                "c.recipient_phone",
            ],
            query.search.as_deref(),
        );
        filters
            .page(
                &format!("SELECT {COLUMNS} FROM {FROM}"),
                Keyset::descending("c.created_at", "c.id"),
                query.cursor.as_deref(),
                page_limit(query.limit),
            )?
            .read(self.conn(), from_row, |c| (&c.created_at, c.id.as_str()))
    }

    pub fn get_communication(&self, id: &CommunicationId) -> Result<Communication> {
        super::query_row(
            self.conn(),
            &format!("SELECT {COLUMNS} FROM {FROM} WHERE c.id = ?1"),
            [id],
            from_row,
        )
        .optional()?
        .ok_or_else(|| Error::not_found("communication", id))
    }

    /// Records an email to send: pending until the sender reports back.
    pub fn record_email(&mut self, actor: &Actor, input: &EmailInput) -> Result<Communication> {
        self.record_email_with(actor, input, serde_json::json!({}))
    }

    /// Records an email with more metadata (a document email names its document).
    pub(crate) fn record_email_with(
        &mut self,
        actor: &Actor,
        input: &EmailInput,
        extra: serde_json::Value,
    ) -> Result<Communication> {
        validate_email(input)?;
        let mut metadata = serde_json::json!({ "attachments": input.attachments });
        if let (Some(target), serde_json::Value::Object(extra)) = (metadata.as_object_mut(), extra)
        {
            target.extend(extra);
        }
        self.insert_communication(
            actor,
            NewCommunication {
                parents: &input.parents,
                communication_type: CommunicationType::Email,
                direction: Direction::Outbound,
                subject: Some(input.subject.trim()),
                content: &input.body,
                recipient_email: Some(input.to.trim()),
                recipient_phone: None,
                status: CommunicationStatus::Pending,
                visibility: Visibility::Client,
                tagged_user_ids: &[],
                metadata,
            },
        )
    }

    /// Records a text message to send: pending until the sender reports back.
    pub fn record_sms(&mut self, actor: &Actor, input: &SmsInput) -> Result<Communication> {
        validate_sms(input)?;
        self.insert_communication(
            actor,
            NewCommunication {
                parents: &input.parents,
                communication_type: CommunicationType::Sms,
                direction: Direction::Outbound,
                subject: None,
                content: &input.message,
                recipient_email: None,
                recipient_phone: Some(input.to.trim()),
                status: CommunicationStatus::Pending,
                visibility: Visibility::Client,
                tagged_user_ids: &[],
                metadata: serde_json::json!({}),
            },
        )
    }

    /// Adds a note: internal unless staff switched it to client-visible.
    pub fn add_note(&mut self, actor: &Actor, input: &NoteInput) -> Result<Communication> {
        validate_note(input)?;
        let subject = input.subject.trim();
        self.insert_communication(
            actor,
            NewCommunication {
                parents: &input.parents,
                communication_type: CommunicationType::Note,
                direction: Direction::Internal,
                subject: (!subject.is_empty()).then_some(subject),
                content: input.content.trim(),
                recipient_email: None,
                recipient_phone: None,
                status: CommunicationStatus::Sent,
                visibility: if input.internal {
                    Visibility::Internal
                } else {
                    Visibility::Client
                },
                tagged_user_ids: &input.tagged_user_ids,
                metadata: serde_json::json!({}),
            },
        )
    }

    /// Keeps a reply a family texted to the agency's number: an inbound text message in
    /// the timeline of the client whose caller phone it came from (the newest open
    /// client when several share the number; no client when none does, so nothing a
    /// family sends is lost). A report the provider retries is kept once. Answers the
    /// communication and whether this report was its first.
    pub fn record_reply(&mut self, reply: &Reply) -> Result<(Communication, bool)> {
        validate_reply(reply)?;
        let digits = super::intakes::phone_digits(&reply.from);
        // "+1 217 555 0123" from the provider is "(217) 555-0123" on the intake form.
        let national = digits
            .strip_prefix('1')
            .filter(|rest| rest.len() == 10)
            .unwrap_or(&digits)
            .to_owned();
        let now = self.now();
        let kept = self.write(|tx| {
            let known: Option<CommunicationId> = super::query_row(
                tx,
                "SELECT id FROM communications
                  WHERE direction = 'inbound' AND json_extract(metadata, '$.messageSid') = ?1",
                [&reply.provider_id],
                |row| row.get(0),
            )
            .optional()?;
            if let Some(id) = known {
                return Ok((id, false));
            }
            let intake_id: Option<IntakeId> = super::query_row(
                tx,
                "SELECT id FROM intakes
                  WHERE deleted_at IS NULL AND caller_phone_digits IN (?1, ?2)
                  ORDER BY archived, created_at DESC LIMIT 1",
                params![digits, national],
                |row| row.get(0),
            )
            .optional()?;
            let parents = Parents {
                intake_id,
                ..Parents::default()
            };
            let body = reply.body.trim();
            let id = insert_communication(
                tx,
                &Actor::system(Channel::System),
                now,
                NewCommunication {
                    parents: &parents,
                    communication_type: CommunicationType::Sms,
                    direction: Direction::Inbound,
                    subject: None,
                    content: if body.is_empty() { "(no text)" } else { body },
                    recipient_email: None,
                    // The other party of the conversation: the number the family wrote from.
                    recipient_phone: Some(reply.from.trim()),
                    status: CommunicationStatus::Delivered,
                    visibility: Visibility::Client,
                    tagged_user_ids: &[],
                    metadata: serde_json::json!({ "messageSid": reply.provider_id }),
                },
            )?;
            Ok((id, true))
        })?;
        Ok((self.get_communication(&kept.0)?, kept.1))
    }

    /// Logs a phone call: client-visible unless "Internal Call Only".
    pub fn log_call(&mut self, actor: &Actor, input: &CallLogInput) -> Result<Communication> {
        validate_call_log(input)?;
        let duration = input.duration.trim();
        let metadata = if duration.is_empty() {
            serde_json::json!({})
        } else {
            serde_json::json!({ "duration": duration })
        };
        self.insert_communication(
            actor,
            NewCommunication {
                parents: &input.parents,
                communication_type: CommunicationType::PhoneLog,
                direction: Direction::Outbound,
                subject: Some("Phone call"),
                content: input.notes.trim(),
                recipient_email: None,
                recipient_phone: Some(input.phone.trim()),
                status: CommunicationStatus::Sent,
                visibility: if input.internal {
                    Visibility::Internal
                } else {
                    Visibility::Client
                },
                tagged_user_ids: &[],
                metadata,
            },
        )
    }

    /// Writes a system event into a client's timeline.
    pub fn log_system_event(
        &mut self,
        actor: &Actor,
        parents: &Parents,
        description: &str,
    ) -> Result<Communication> {
        let now = self.now();
        let id = self.write(|tx| log_description(tx, actor, now, parents, description))?;
        self.get_communication(&id)
    }

    /// The provider accepted the message: pending → sent, with its reference (email id,
    /// message sid) merged into the metadata.
    pub fn mark_communication_sent(
        &mut self,
        id: &CommunicationId,
        metadata: serde_json::Value,
    ) -> Result<Communication> {
        self.move_communication(id, CommunicationStatus::Sent, None, metadata)
    }

    /// The send failed: pending → failed, with the reason staff will see.
    pub fn mark_communication_failed(
        &mut self,
        id: &CommunicationId,
        reason: &str,
    ) -> Result<Communication> {
        self.move_communication(
            id,
            CommunicationStatus::Failed,
            Some(reason),
            serde_json::json!({}),
        )
    }

    /// Records how an email's send went: sent with the transport's id (`email_id`), or
    /// failed with the reason staff will see.
    pub fn finish_email_send(
        &mut self,
        id: &CommunicationId,
        outcome: std::result::Result<SentEmail, SendFailure>,
    ) -> Result<Communication> {
        match outcome {
            Ok(sent) => {
                self.mark_communication_sent(id, serde_json::json!({ "email_id": sent.id }))
            }
            Err(failure) => self.mark_communication_failed(id, &failure.reason),
        }
    }

    /// Records how a text message's send went: sent with the provider's `messageSid`,
    /// or failed with the reason.
    pub fn finish_sms_send(
        &mut self,
        id: &CommunicationId,
        outcome: std::result::Result<SentSms, SendFailure>,
    ) -> Result<Communication> {
        match outcome {
            Ok(sent) => {
                self.mark_communication_sent(id, serde_json::json!({ "messageSid": sent.sid }))
            }
            Err(failure) => self.mark_communication_failed(id, &failure.reason),
        }
    }

    /// Retry: failed → pending; the caller then sends it again.
    pub fn retry_communication(
        &mut self,
        actor: &Actor,
        id: &CommunicationId,
    ) -> Result<Communication> {
        let communication = self.get_communication(id)?;
        if !matches!(
            communication.communication_type,
            CommunicationType::Email | CommunicationType::Sms
        ) {
            return Err(Error::Rejected(
                "Only emails and text messages can be sent again.".to_owned(),
            ));
        }
        let now = self.now();
        self.write(|tx| {
            let status: CommunicationStatus =
                super::query_row(tx, "SELECT status FROM communications WHERE id = ?1", [id], |row| row.get(0))?;
            check_communication_transition(status, CommunicationStatus::Pending)?;
            super::exec(tx,
                "UPDATE communications SET status = 'pending', failure_reason = NULL, updated_at = ?2, version = version + 1 WHERE id = ?1",
                params![id, ts(now)],
            )?;
            audit(tx, actor, now, "retry", "communication", id.as_str(),
                communication.parents.intake_id.as_ref().map(|i| i.as_str()), &["status"])
        })?;
        self.get_communication(id)
    }

    fn move_communication(
        &mut self,
        id: &CommunicationId,
        to: CommunicationStatus,
        reason: Option<&str>,
        metadata: serde_json::Value,
    ) -> Result<Communication> {
        let now = self.now();
        self.write(|tx| move_communication(tx, now, id, to, reason, metadata))?;
        self.get_communication(id)
    }

    fn insert_communication(
        &mut self,
        actor: &Actor,
        new: NewCommunication<'_>,
    ) -> Result<Communication> {
        let now = self.now();
        let id = self.write(|tx| insert_communication(tx, actor, now, new))?;
        self.get_communication(&id)
    }
}

/// Moves a sent or failed email or text message on (pending → sent or failed, failed →
/// pending), merging `metadata` into what it holds, inside the caller's transaction.
pub(super) fn move_communication(
    tx: &Connection,
    now: jiff::Timestamp,
    id: &CommunicationId,
    to: CommunicationStatus,
    reason: Option<&str>,
    metadata: serde_json::Value,
) -> Result<()> {
    let (status, intake_id, stored): (CommunicationStatus, Option<String>, String) =
        super::query_row(
            tx,
            "SELECT status, intake_id, metadata FROM communications WHERE id = ?1",
            [id],
            |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
        )
        .optional()?
        .ok_or_else(|| Error::not_found("communication", id))?;
    check_communication_transition(status, to)?;
    let mut merged: serde_json::Value = serde_json::from_str(&stored).unwrap_or_default();
    if let (Some(target), serde_json::Value::Object(extra)) = (merged.as_object_mut(), metadata) {
        target.extend(extra);
    }
    super::exec(
        tx,
        "UPDATE communications SET status = ?2, failure_reason = ?3, metadata = ?4,
            sent_at = CASE WHEN ?2 = 'sent' THEN ?5 ELSE sent_at END,
            attempts = attempts + 1, updated_at = ?5, version = version + 1
         WHERE id = ?1",
        params![id, to, reason, merged.to_string(), ts(now)],
    )?;
    let system = Actor::system(crate::model::Channel::System);
    audit(
        tx,
        &system,
        now,
        to.as_str(),
        "communication",
        id.as_str(),
        intake_id.as_deref(),
        &["status"],
    )
}

/// Writes one communication (and its audit row) inside the caller's transaction.
pub(super) fn insert_communication(
    tx: &Connection,
    actor: &Actor,
    now: jiff::Timestamp,
    new: NewCommunication<'_>,
) -> Result<CommunicationId> {
    let id = CommunicationId::new();
    let parents = resolve_parents(tx, new.parents)?;
    let sent_at = (new.status == CommunicationStatus::Sent).then(|| ts(now));
    super::exec(tx,
        "INSERT INTO communications (id, intake_id, assessment_id, care_plan_id, contract_id,
            communication_type, direction, subject, content, recipient_email, recipient_phone,
            sender_user_id, status, sent_at, created_at, updated_at, visibility,
            tagged_user_ids, metadata)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?15, ?16, ?17, ?18)",
        params![
            id,
            parents.intake_id,
            parents.assessment_id,
            parents.care_plan_id,
            parents.contract_id,
            new.communication_type,
            new.direction,
            new.subject,
            new.content,
            new.recipient_email,
            new.recipient_phone,
            actor.user_id,
            new.status,
            sent_at,
            ts(now),
            new.visibility,
            serde_json::to_string(new.tagged_user_ids)?,
            new.metadata.to_string(),
        ],
    )?;
    // Emails, texts and calls are contact with the client; notes are not.
    if let Some(intake_id) = &parents.intake_id
        && matches!(
            new.communication_type,
            CommunicationType::Email | CommunicationType::Sms | CommunicationType::PhoneLog
        )
    {
        super::exec(
            tx,
            "UPDATE intakes SET last_contact_date = ?2 WHERE id = ?1",
            params![intake_id, ts(now)],
        )?;
    }
    audit(
        tx,
        actor,
        now,
        "create",
        "communication",
        id.as_str(),
        parents.intake_id.as_ref().map(|i| i.as_str()),
        &[new.communication_type.as_str()],
    )?;
    Ok(id)
}

/// The spec's system-event logger: a `system_event` communication, internal, sent, with
/// the description as its content. Pipeline moves call it inside their own transaction,
/// so a move and its line in the client's timeline are written together or not at all.
pub(crate) fn log_event(
    tx: &Connection,
    actor: &Actor,
    now: jiff::Timestamp,
    parents: &Parents,
    event: PipelineEvent<'_>,
) -> Result<CommunicationId> {
    log_description(tx, actor, now, parents, &event.description())
}

pub(crate) fn log_description(
    tx: &Connection,
    actor: &Actor,
    now: jiff::Timestamp,
    parents: &Parents,
    description: &str,
) -> Result<CommunicationId> {
    insert_communication(
        tx,
        actor,
        now,
        NewCommunication {
            parents,
            communication_type: CommunicationType::SystemEvent,
            direction: Direction::Internal,
            subject: None,
            content: description,
            recipient_email: None,
            recipient_phone: None,
            status: CommunicationStatus::Sent,
            visibility: Visibility::Internal,
            tagged_user_ids: &[],
            metadata: serde_json::json!({}),
        },
    )
}

/// Fills in the intake a record belongs to, so every communication shows on its client's
/// timeline, and refuses ids that do not exist.
fn resolve_parents(tx: &Connection, parents: &Parents) -> Result<Parents> {
    let mut resolved = parents.clone();
    let lookups: [(&str, &str, Option<&str>); 3] = [
        (
            "assessments",
            "assessment",
            parents.assessment_id.as_ref().map(|v| v.as_str()),
        ),
        (
            "care_plan_proposals",
            "care plan",
            parents.care_plan_id.as_ref().map(|v| v.as_str()),
        ),
        (
            "contracts",
            "contract",
            parents.contract_id.as_ref().map(|v| v.as_str()),
        ),
    ];
    for (table, entity, id) in lookups {
        let Some(id) = id else { continue };
        let intake: Option<Option<IntakeId>> = super::query_row(
            tx,
            &format!("SELECT intake_id FROM {table} WHERE id = ?1"),
            [id],
            |row| row.get(0),
        )
        .optional()?;
        match intake {
            None => return Err(Error::not_found(entity, id)),
            Some(intake) => {
                if resolved.intake_id.is_none() {
                    resolved.intake_id = intake;
                }
            }
        }
    }
    if let Some(intake_id) = &resolved.intake_id {
        let exists: bool = super::query_row(
            tx,
            "SELECT EXISTS (SELECT 1 FROM intakes WHERE id = ?1)",
            [intake_id],
            |row| row.get(0),
        )?;
        if !exists {
            return Err(Error::not_found("client", intake_id));
        }
    }
    Ok(resolved)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filter(parents: Parents, visibility: Option<Visibility>) -> CommunicationFilter {
        CommunicationFilter {
            parents,
            visibility,
        }
    }

    #[test]
    fn each_timeline_shape_numbers_its_values_in_order() {
        let (sql, values) = timeline_statement(&filter(
            Parents {
                assessment_id: Some("a".into()),
                contract_id: Some("k".into()),
                ..Parents::default()
            },
            Some(Visibility::Internal),
        ))
        .unwrap();
        assert!(
            sql.contains(
                "WHERE (c.assessment_id = ?1 OR c.contract_id = ?2) AND c.visibility = ?3"
            ),
            "{sql}"
        );
        assert_eq!(values, ["a", "k", "internal"]);
        assert!(sql.contains("LEFT JOIN intakes"), "{sql}");

        // A client's own timeline reads the name once instead of joining each row.
        let (sql, values) = timeline_statement(&filter(
            Parents {
                intake_id: Some("i".into()),
                ..Parents::default()
            },
            None,
        ))
        .unwrap();
        assert!(sql.contains("WHERE (c.intake_id = ?1) ORDER BY"), "{sql}");
        assert!(!sql.contains("LEFT JOIN intakes"), "{sql}");
        assert_eq!(values, ["i"]);

        // The same shape is the same statement, kept from the first time.
        let (again, _) = timeline_statement(&filter(
            Parents {
                intake_id: Some("j".into()),
                ..Parents::default()
            },
            None,
        ))
        .unwrap();
        assert!(std::ptr::eq(sql, again));
        assert!(timeline_statement(&filter(Parents::default(), None)).is_err());
    }
}
