//! Replies that come back: the reply-to mailbox Settings keep (its secret sealed like the
//! SMTP password, with how far it was read), each emailed reply kept once as an inbound
//! communication (matched to its client by the email it answers, else by the sender's
//! address, else left in the Unmatched list), its files, read and unread, and the
//! approval a family's plain yes offers staff.

use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};

use super::communications::{COLUMNS, FROM, NewCommunication, from_row, insert_communication};
use super::paging::{Filters, Keyset, Page, page_limit};
use super::{Store, audit, exec, query_row, ts};
use crate::error::{Error, Result, ValidationErrors};
use crate::inbound::{InboundEmail, sent_email_id};
use crate::model::{
    Actor, CarePlan, CarePlanId, CarePlanStatus, Channel, Communication, CommunicationId,
    CommunicationStatus, CommunicationType, Direction, ImapAuth, IntakeId, Parents,
    PendingAcceptance, ReplyMailbox, ReplyMailboxForm, StoredAttachment, Visibility,
};
use crate::rules::acceptance::{
    ACCEPTANCE_GONE, ACCEPTANCE_PROMPT, ReplySeen, acceptance_among, strip_quoted,
};
use crate::rules::setup::{
    MAILBOX_FOLDER_INVALID, MAILBOX_HOST_REQUIRED, MAILBOX_PORT_INVALID, MAILBOX_USER_REQUIRED,
    REPLY_ALREADY_ASSIGNED, REPLY_NOT_INBOUND,
};
use crate::secrets::SecretKeySource;

/// The purpose the mailbox's secret is sealed for (it cannot be opened as another's).
const SEALED_AS: &str = "imap";

/// Replies read for the acceptance of one proposal: the family's latest words decide.
const REPLIES_READ: u32 = 20;

/// The longest part of a reply quoted in the approval's timeline line.
const EVIDENCE_CHARS: usize = 300;

/// What the database keeps of the mailbox besides the secret.
#[derive(Serialize, Deserialize)]
struct StoredMailbox {
    enabled: bool,
    host: String,
    port: u16,
    username: String,
    auth: ImapAuth,
    folder: String,
}

/// The mailbox as the IMAP adapter needs it: the secret opened.
#[derive(Clone)]
pub struct ImapLogin {
    pub host: String,
    pub port: u16,
    pub username: String,
    pub auth: ImapAuth,
    /// The password, or the OAuth2 access token.
    pub secret: String,
    pub folder: String,
}

impl std::fmt::Debug for ImapLogin {
    // Hand-written so the secret never reaches a log line.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ImapLogin")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("auth", &self.auth)
            .field("folder", &self.folder)
            .finish_non_exhaustive()
    }
}

/// How far the mailbox was read: the folder's UIDVALIDITY then, and the highest UID
/// kept. A different UIDVALIDITY means the UIDs were renumbered: it is read again from
/// the start (each message is still kept once, by its Message-ID).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MailboxPosition {
    pub uid_validity: Option<u32>,
    pub last_uid: u32,
}

/// What became of one fetched message.
#[derive(Debug, Clone, PartialEq)]
pub struct KeptReply {
    pub communication: Communication,
    /// False when the message was kept before (fetched or delivered twice).
    pub first: bool,
}

struct MailboxRow {
    value: String,
    secret: Option<Vec<u8>>,
    uid_validity: Option<u32>,
    last_uid: u32,
    checked_at: Option<String>,
    check_ok: bool,
    check_answer: String,
    version: i64,
}

fn mailbox_row(conn: &Connection) -> Result<Option<MailboxRow>> {
    Ok(query_row(
        conn,
        "SELECT value, secret, uid_validity, last_uid, checked_at, check_ok, check_answer, version
         FROM inbound_mailbox WHERE id = 1",
        [],
        |row| {
            Ok(MailboxRow {
                value: row.get(0)?,
                secret: row.get(1)?,
                uid_validity: row.get(2)?,
                last_uid: row.get(3)?,
                checked_at: row.get(4)?,
                check_ok: row.get(5)?,
                check_answer: row.get(6)?,
                version: row.get(7)?,
            })
        },
    )
    .optional()?)
}

fn stored_mailbox(row: Option<&MailboxRow>) -> Result<StoredMailbox> {
    Ok(match row {
        Some(row) => serde_json::from_str(&row.value)?,
        None => StoredMailbox {
            enabled: false,
            host: String::new(),
            port: 993,
            username: String::new(),
            auth: ImapAuth::Password,
            folder: "INBOX".to_owned(),
        },
    })
}

impl Store {
    /// Settings → Email's reply mailbox (defaults when none was saved).
    pub fn reply_mailbox(&self) -> Result<ReplyMailbox> {
        let row = mailbox_row(self.conn())?;
        let stored = stored_mailbox(row.as_ref())?;
        Ok(ReplyMailbox {
            enabled: stored.enabled,
            host: stored.host,
            port: stored.port,
            username: stored.username,
            auth: stored.auth,
            folder: stored.folder,
            secret_set: row.as_ref().is_some_and(|row| row.secret.is_some()),
            checked_at: row.as_ref().and_then(|row| row.checked_at.clone()),
            check_ok: row.as_ref().is_some_and(|row| row.check_ok),
            check_answer: row
                .as_ref()
                .map(|row| row.check_answer.clone())
                .unwrap_or_default(),
            version: row.as_ref().map_or(0, |row| row.version),
        })
    }

    /// Saves the reply mailbox. Administrators only. The secret: `Some(non-empty)` is
    /// sealed anew, `Some("")` removes it, None keeps the stored one. Another server or
    /// account starts reading afresh (its messages are still kept once each).
    pub fn save_reply_mailbox(
        &mut self,
        actor: &Actor,
        keys: &SecretKeySource,
        form: &ReplyMailboxForm,
    ) -> Result<ReplyMailbox> {
        super::require_admin(actor)?;
        let host = form.host.trim();
        let username = form.username.trim();
        let folder = match form.folder.trim() {
            "" => "INBOX",
            folder => folder,
        };
        let mut errors = ValidationErrors::new();
        if form.enabled {
            if host.is_empty() || host.contains(char::is_whitespace) {
                errors.add("host", MAILBOX_HOST_REQUIRED);
            }
            if form.port == 0 {
                errors.add("port", MAILBOX_PORT_INVALID);
            }
            if username.is_empty() {
                errors.add("username", MAILBOX_USER_REQUIRED);
            }
        }
        // A folder name travels inside a quoted IMAP string.
        if folder
            .chars()
            .any(|c| c == '"' || c == '\\' || c.is_control())
        {
            errors.add("folder", MAILBOX_FOLDER_INVALID);
        }
        errors.into_result()?;
        crate::rules::validation::check_field_text("host", host)?;
        crate::rules::validation::check_field_text("username", username)?;
        crate::rules::validation::check_field_text("folder", folder)?;
        let value = serde_json::to_string(&StoredMailbox {
            enabled: form.enabled,
            host: host.to_owned(),
            port: form.port,
            username: username.to_owned(),
            auth: form.auth,
            folder: folder.to_owned(),
        })?;
        let sealed = match form.secret.as_deref() {
            Some(secret) if !secret.is_empty() => {
                let key = keys.load(true)?.expect("a key is created when missing");
                Some(Some(key.seal(SEALED_AS, secret)))
            }
            Some(_) => Some(None),
            None => None,
        };
        let now = self.now();
        let saved = self.write(|tx| {
            let stored = mailbox_row(tx)?;
            if stored.as_ref().map_or(0, |row| row.version) != form.version {
                return Ok(false);
            }
            let same_place = stored.as_ref().is_some_and(|row| {
                serde_json::from_str::<StoredMailbox>(&row.value).is_ok_and(|old| {
                    old.host == host && old.username == username && old.folder == folder
                })
            });
            exec(
                tx,
                "INSERT INTO inbound_mailbox (id, value, updated_at) VALUES (1, ?1, ?2)
                 ON CONFLICT (id) DO UPDATE SET value = ?1, updated_at = ?2,
                     version = version + 1, checked_at = NULL, check_ok = 0, check_answer = ''",
                params![value, ts(now)],
            )?;
            if !same_place {
                exec(
                    tx,
                    "UPDATE inbound_mailbox SET uid_validity = NULL, last_uid = 0 WHERE id = 1",
                    [],
                )?;
            }
            let mut fields = vec!["mailbox"];
            if let Some(sealed) = &sealed {
                exec(
                    tx,
                    "UPDATE inbound_mailbox SET secret = ?1 WHERE id = 1",
                    params![sealed],
                )?;
                fields.push("secret");
            }
            audit(
                tx,
                actor,
                now,
                "update",
                "reply_mailbox",
                "imap",
                None,
                &fields,
            )?;
            Ok(true)
        })?;
        let mailbox = self.reply_mailbox()?;
        if !saved {
            return Err(Error::conflict("reply mailbox", &mailbox));
        }
        Ok(mailbox)
    }

    /// The mailbox with its secret opened, for the IMAP adapter; None when replies are
    /// not fetched.
    pub fn imap_login(&self, keys: &SecretKeySource) -> Result<Option<ImapLogin>> {
        let Some(row) = mailbox_row(self.conn())? else {
            return Ok(None);
        };
        let stored: StoredMailbox = serde_json::from_str(&row.value)?;
        if !stored.enabled {
            return Ok(None);
        }
        let secret = match &row.secret {
            Some(sealed) => {
                let key = keys
                    .load(false)?
                    .ok_or_else(|| Error::Rejected(crate::secrets::SECRET_KEY_WRONG.to_owned()))?;
                key.open(SEALED_AS, sealed)?
            }
            None => String::new(),
        };
        Ok(Some(ImapLogin {
            host: stored.host,
            port: stored.port,
            username: stored.username,
            auth: stored.auth,
            secret,
            folder: stored.folder,
        }))
    }

    /// How far the mailbox was read.
    pub fn mailbox_position(&self) -> Result<MailboxPosition> {
        Ok(mailbox_row(self.conn())?
            .map(|row| MailboxPosition {
                uid_validity: row.uid_validity,
                last_uid: row.last_uid,
            })
            .unwrap_or_default())
    }

    /// The folder's UIDVALIDITY as the server answered it: when it is not the one the
    /// position was kept under, the position starts again from the first message.
    /// Bookkeeping: no audit row.
    pub fn set_mailbox_validity(&mut self, uid_validity: u32) -> Result<MailboxPosition> {
        let now = self.now();
        self.write(|tx| {
            exec(
                tx,
                "UPDATE inbound_mailbox
                    SET last_uid = CASE WHEN uid_validity IS ?1 THEN last_uid ELSE 0 END,
                        uid_validity = ?1, updated_at = ?2
                  WHERE id = 1",
                params![uid_validity, ts(now)],
            )?;
            Ok(())
        })?;
        self.mailbox_position()
    }

    /// A message that is not an email at all was read: it is passed over next time.
    pub fn advance_mailbox(&mut self, uid: u32) -> Result<()> {
        self.write(|tx| {
            exec(
                tx,
                "UPDATE inbound_mailbox SET last_uid = max(last_uid, ?1) WHERE id = 1",
                [uid],
            )?;
            Ok(())
        })
    }

    /// Remembers how the last fetch went, in words (bookkeeping: no audit row).
    pub fn record_mailbox_check(&mut self, ok: bool, answer: &str) -> Result<()> {
        let now = self.now();
        self.write(|tx| {
            exec(
                tx,
                "UPDATE inbound_mailbox SET checked_at = ?1, check_ok = ?2, check_answer = ?3
                  WHERE id = 1",
                params![ts(now), ok, answer],
            )?;
            Ok(())
        })
    }

    /// Keeps one emailed reply, once however often it is fetched or delivered: on the
    /// timeline of the client whose email it answers (by In-Reply-To, then References),
    /// else of the newest open client the sender's address belongs to (caller, contact or
    /// the proposal's family contact), else in the Unmatched list. Its files within the
    /// attachment limits are kept with it; the others are named. `uid` is the message's
    /// UID in the mailbox, recorded as read in the same transaction.
    pub fn keep_inbound_email(
        &mut self,
        email: &InboundEmail,
        uid: Option<u32>,
    ) -> Result<KeptReply> {
        let now = self.now();
        let (id, first) = self.write(|tx| {
            if let Some(uid) = uid {
                exec(
                    tx,
                    "UPDATE inbound_mailbox SET last_uid = max(last_uid, ?1) WHERE id = 1",
                    [uid],
                )?;
            }
            let known: Option<CommunicationId> = query_row(
                tx,
                "SELECT id FROM communications
                  WHERE direction = 'inbound' AND communication_type = 'email'
                    AND json_extract(metadata, '$.messageId') = ?1",
                [&email.message_id],
                |row| row.get(0),
            )
            .optional()?;
            if let Some(id) = known {
                return Ok((id, false));
            }
            let (parents, matched_by, answered) = match answered_email(tx, email)? {
                Some((parents, answered)) => (parents, Some("thread"), Some(answered)),
                None => match sender_client(tx, &email.from_address)? {
                    Some(intake_id) => (
                        Parents {
                            intake_id: Some(intake_id),
                            ..Parents::default()
                        },
                        Some("sender"),
                        None,
                    ),
                    None => (Parents::default(), None, None),
                },
            };
            let attachment_ids: Vec<String> = email
                .attachments
                .iter()
                .map(|_| uuid::Uuid::now_v7().to_string())
                .collect();
            let kept: Vec<serde_json::Value> = email
                .attachments
                .iter()
                .zip(&attachment_ids)
                .filter(|(attachment, _)| attachment.kept.is_ok())
                .map(|(attachment, id)| {
                    serde_json::json!({
                        "id": id,
                        "name": attachment.name,
                        "size": attachment.size,
                        "contentType": attachment.content_type,
                    })
                })
                .collect();
            let not_kept: Vec<serde_json::Value> = email
                .attachments
                .iter()
                .filter_map(|attachment| {
                    attachment.kept.as_ref().err().map(|reason| {
                        serde_json::json!({
                            "name": attachment.name,
                            "size": attachment.size,
                            "reason": reason,
                        })
                    })
                })
                .collect();
            let metadata = serde_json::json!({
                "messageId": email.message_id,
                "fromName": email.from_name,
                "date": email.date,
                "answers": email.answers,
                "answeredCommunicationId": answered,
                "matchedBy": matched_by,
                "attachments": kept,
                "notKept": not_kept,
            });
            let subject = email.subject.trim();
            let content = if email.text.trim().is_empty() {
                "(no text)"
            } else {
                email.text.as_str()
            };
            let id = insert_communication(
                tx,
                &Actor::system(Channel::System),
                now,
                NewCommunication {
                    parents: &parents,
                    communication_type: CommunicationType::Email,
                    direction: Direction::Inbound,
                    subject: (!subject.is_empty()).then_some(subject),
                    content,
                    // The other party of the conversation: the address the family wrote from.
                    recipient_email: Some(email.from_address.as_str()),
                    recipient_phone: None,
                    status: CommunicationStatus::Delivered,
                    visibility: Visibility::Client,
                    tagged_user_ids: &[],
                    metadata,
                },
            )?;
            for (attachment, attachment_id) in email.attachments.iter().zip(&attachment_ids) {
                if let Ok(bytes) = &attachment.kept {
                    exec(
                        tx,
                        "INSERT INTO communication_attachments
                            (id, communication_id, name, content_type, size, bytes, created_at)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                        params![
                            attachment_id,
                            id,
                            attachment.name,
                            attachment.content_type,
                            attachment.size as i64,
                            bytes,
                            ts(now)
                        ],
                    )?;
                }
            }
            Ok((id, true))
        })?;
        Ok(KeptReply {
            communication: self.get_communication(&id)?,
            first,
        })
    }

    /// Replies no client could be found for (emails and texts), newest first.
    pub fn unmatched_replies(
        &self,
        cursor: Option<&str>,
        limit: Option<u32>,
    ) -> Result<Page<Communication>> {
        Filters::new("c.direction = 'inbound' AND c.intake_id IS NULL")
            .page(
                &format!("SELECT {COLUMNS} FROM {FROM}"),
                Keyset::descending("c.created_at", "c.id"),
                cursor,
                page_limit(limit),
            )?
            .read(self.conn(), from_row, |c| (&c.created_at, c.id.as_str()))
    }

    /// An administrator says whose an unmatched reply is: it moves to that client's
    /// timeline (still unread).
    pub fn assign_reply(
        &mut self,
        actor: &Actor,
        id: &CommunicationId,
        intake_id: &IntakeId,
    ) -> Result<Communication> {
        super::require_admin(actor)?;
        let now = self.now();
        self.write(|tx| {
            let (direction, current): (Direction, Option<IntakeId>) = query_row(
                tx,
                "SELECT direction, intake_id FROM communications WHERE id = ?1",
                [id],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .optional()?
            .ok_or_else(|| Error::not_found("communication", id))?;
            if direction != Direction::Inbound {
                return Err(Error::Rejected(REPLY_NOT_INBOUND.to_owned()));
            }
            if current.is_some() {
                return Err(Error::Rejected(REPLY_ALREADY_ASSIGNED.to_owned()));
            }
            let exists: bool = query_row(
                tx,
                "SELECT EXISTS (SELECT 1 FROM intakes WHERE id = ?1 AND deleted_at IS NULL)",
                [intake_id],
                |row| row.get(0),
            )?;
            if !exists {
                return Err(Error::not_found("client", intake_id));
            }
            exec(
                tx,
                "UPDATE communications SET intake_id = ?2,
                    metadata = json_set(metadata, '$.matchedBy', 'staff'),
                    updated_at = ?3, version = version + 1
                 WHERE id = ?1",
                params![id, intake_id, ts(now)],
            )?;
            exec(
                tx,
                "UPDATE intakes SET last_contact_date = max(coalesce(last_contact_date, ''), ?2) WHERE id = ?1",
                params![intake_id, ts(now)],
            )?;
            audit(
                tx,
                actor,
                now,
                "assign",
                "communication",
                id.as_str(),
                Some(intake_id.as_str()),
                &["intake_id"],
            )
        })?;
        self.get_communication(id)
    }

    /// Staff opened a reply: it is read from now on. Only replies have a read state;
    /// opening one twice keeps the first moment. Bookkeeping: no audit row.
    pub fn mark_reply_read(&mut self, id: &CommunicationId) -> Result<Communication> {
        let now = self.now();
        self.write(|tx| {
            let direction: Direction = query_row(
                tx,
                "SELECT direction FROM communications WHERE id = ?1",
                [id],
                |row| row.get(0),
            )
            .optional()?
            .ok_or_else(|| Error::not_found("communication", id))?;
            if direction != Direction::Inbound {
                return Err(Error::Rejected(REPLY_NOT_INBOUND.to_owned()));
            }
            exec(
                tx,
                "UPDATE communications SET read_at = ?2 WHERE id = ?1 AND read_at IS NULL",
                params![id, ts(now)],
            )?;
            Ok(())
        })?;
        self.get_communication(id)
    }

    /// A file an emailed reply carried.
    pub fn reply_attachment(
        &self,
        communication_id: &CommunicationId,
        attachment_id: &str,
    ) -> Result<StoredAttachment> {
        query_row(
            self.conn(),
            "SELECT name, content_type, bytes FROM communication_attachments
              WHERE id = ?2 AND communication_id = ?1",
            params![communication_id, attachment_id],
            |row| {
                Ok(StoredAttachment {
                    name: row.get(0)?,
                    content_type: row.get(1)?,
                    bytes: row.get(2)?,
                })
            },
        )
        .optional()?
        .ok_or_else(|| Error::not_found("attachment", attachment_id))
    }

    /// The reply that offers staff the approval of a client's proposal: the family's
    /// latest email or text since the proposal was sent, when it reads as a plain yes.
    pub fn pending_acceptance(&self, intake_id: &IntakeId) -> Result<Option<PendingAcceptance>> {
        pending_acceptance(self.conn(), intake_id)
    }

    /// One staff click on "Family replied YES to the proposal — approve?": the proposal
    /// is approved as staff's Approve button does, and the family's reply is the evidence
    /// in the timeline. Refused when the reply no longer offers it (approved, changed or
    /// answered since).
    pub fn approve_proposal_from_reply(
        &mut self,
        actor: &Actor,
        communication_id: &CommunicationId,
    ) -> Result<CarePlan> {
        let clock = self.clock()?;
        let plan_id = self.write(|tx| {
            let intake_id: Option<IntakeId> = query_row(
                tx,
                "SELECT intake_id FROM communications WHERE id = ?1 AND direction = 'inbound'",
                [communication_id],
                |row| row.get(0),
            )
            .optional()?
            .ok_or_else(|| Error::not_found("reply", communication_id))?;
            let pending = match &intake_id {
                Some(intake_id) => pending_acceptance(tx, intake_id)?,
                None => None,
            };
            let Some(pending) = pending.filter(|p| &p.communication_id == communication_id) else {
                return Err(Error::Rejected(ACCEPTANCE_GONE.to_owned()));
            };
            super::care_plans::move_care_plan(
                tx,
                actor,
                &clock,
                &pending.care_plan_id,
                CarePlanStatus::Approved,
            )?;
            let staff: String = match &actor.user_id {
                Some(user_id) => query_row(
                    tx,
                    "SELECT full_name FROM users WHERE id = ?1",
                    [user_id],
                    |row| row.get(0),
                )
                .optional()?
                .unwrap_or_default(),
                None => String::new(),
            };
            let channel = if pending.communication_type == CommunicationType::Sms {
                "text message"
            } else {
                "email"
            };
            let mut quoted: String = pending.text.chars().take(EVIDENCE_CHARS).collect();
            if pending.text.chars().count() > EVIDENCE_CHARS {
                quoted.push('…');
            }
            let by = if staff.is_empty() {
                "staff".to_owned()
            } else {
                staff
            };
            let description =
                format!("Proposal approved by {by} on the family's {channel} reply: “{quoted}”");
            let parents = Parents {
                intake_id: Some(pending.intake_id.clone()),
                care_plan_id: Some(pending.care_plan_id.clone()),
                ..Parents::default()
            };
            insert_communication(
                tx,
                actor,
                clock.now(),
                NewCommunication {
                    parents: &parents,
                    communication_type: CommunicationType::SystemEvent,
                    direction: Direction::Internal,
                    subject: None,
                    content: &description,
                    recipient_email: None,
                    recipient_phone: None,
                    status: CommunicationStatus::Sent,
                    visibility: Visibility::Internal,
                    tagged_user_ids: &[],
                    metadata: serde_json::json!({
                        "evidenceCommunicationId": communication_id,
                        "evidence": pending.text,
                    }),
                },
            )?;
            exec(
                tx,
                "UPDATE communications SET read_at = coalesce(read_at, ?2) WHERE id = ?1",
                params![communication_id, ts(clock.now())],
            )?;
            Ok(pending.care_plan_id)
        })?;
        self.get_care_plan(&plan_id)
    }
}

/// The email a reply answers, by the ids it names (In-Reply-To first): one Carepath
/// sent, or an earlier reply already on a client's timeline. Its records, and its id.
fn answered_email(
    tx: &Connection,
    email: &InboundEmail,
) -> Result<Option<(Parents, CommunicationId)>> {
    for answer in &email.answers {
        let found = match sent_email_id(answer) {
            Some(sent) => query_row(
                tx,
                "SELECT id, intake_id, assessment_id, care_plan_id, contract_id FROM communications
                  WHERE direction = 'outbound' AND communication_type = 'email'
                    AND json_extract(metadata, '$.email_id') = ?1 AND intake_id IS NOT NULL",
                [sent],
                parents_row,
            )
            .optional()?,
            None => query_row(
                tx,
                "SELECT id, intake_id, assessment_id, care_plan_id, contract_id FROM communications
                  WHERE direction = 'inbound' AND communication_type = 'email'
                    AND json_extract(metadata, '$.messageId') = ?1 AND intake_id IS NOT NULL",
                [answer],
                parents_row,
            )
            .optional()?,
        };
        if let Some(found) = found {
            return Ok(Some(found));
        }
    }
    Ok(None)
}

fn parents_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<(Parents, CommunicationId)> {
    Ok((
        Parents {
            intake_id: row.get(1)?,
            assessment_id: row.get(2)?,
            care_plan_id: row.get(3)?,
            contract_id: row.get(4)?,
        },
        row.get(0)?,
    ))
}

/// The newest open client the address belongs to: the caller's, a contact's or the
/// family contact a proposal went to.
fn sender_client(tx: &Connection, address: &str) -> Result<Option<IntakeId>> {
    let address = address.trim();
    if address.is_empty() {
        return Ok(None);
    }
    Ok(query_row(
        tx,
        "SELECT id FROM intakes
          WHERE deleted_at IS NULL
            AND (caller_email = ?1
                 OR id IN (SELECT intake_id FROM client_contacts
                            WHERE email = ?1 COLLATE NOCASE AND email <> '')
                 OR id IN (SELECT intake_id FROM care_plan_proposals
                            WHERE lower(family_contact_email) = lower(?1) AND deleted_at IS NULL))
          ORDER BY archived, created_at DESC LIMIT 1",
        [address],
        |row| row.get(0),
    )
    .optional()?)
}

fn pending_acceptance(
    conn: &Connection,
    intake_id: &IntakeId,
) -> Result<Option<PendingAcceptance>> {
    let plan: Option<(CarePlanId, String, Option<String>)> = query_row(
        conn,
        "SELECT cp.id, cp.sent_at, i.client_full_name FROM care_plan_proposals cp
           JOIN intakes i ON i.id = cp.intake_id
          WHERE cp.intake_id = ?1 AND cp.status = 'sent' AND cp.deleted_at IS NULL
            AND cp.sent_at IS NOT NULL AND i.deleted_at IS NULL
          ORDER BY cp.sent_at DESC LIMIT 1",
        [intake_id],
        |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
    )
    .optional()?;
    let Some((care_plan_id, sent_at, client_name)) = plan else {
        return Ok(None);
    };
    let mut statement = conn.prepare_cached(&format!(
        "SELECT id, communication_type, content, created_at FROM communications
          WHERE intake_id = ?1 AND direction = 'inbound' AND created_at >= ?2
          ORDER BY created_at DESC, id DESC LIMIT {REPLIES_READ}"
    ))?;
    let replies: Vec<(CommunicationId, CommunicationType, String, String)> = statement
        .query_map(params![intake_id, sent_at], |row| {
            Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?))
        })?
        .collect::<rusqlite::Result<_>>()?;
    let seen: Vec<ReplySeen<'_>> = replies
        .iter()
        .map(|(_, _, content, created_at)| ReplySeen {
            content,
            created_at,
        })
        .collect();
    let Some(index) = acceptance_among(&sent_at, &seen) else {
        return Ok(None);
    };
    let (id, communication_type, content, created_at) = &replies[index];
    Ok(Some(PendingAcceptance {
        intake_id: intake_id.clone(),
        client_name,
        care_plan_id,
        communication_id: id.clone(),
        communication_type: *communication_type,
        text: strip_quoted(content),
        received_at: created_at.clone(),
        prompt: ACCEPTANCE_PROMPT.to_owned(),
    }))
}
