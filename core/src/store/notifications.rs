//! What Settings → Notifications sends staff: an email to a client's assigned
//! coordinator when someone else logs a communication on that client, a daily digest of
//! each coordinator's overdue clients, a text message to the coordinator's mobile when
//! the update is urgent (the client is overdue), and an email alert when a family
//! replies. Core says who gets what; the server or the CLI sends it through the mail and
//! SMS adapters (or the outbox).

use rusqlite::OptionalExtension;

use super::{Store, ts};
use crate::error::Result;
use crate::model::{Communication, CommunicationType, Direction, ReplicationStatus};

/// One email to a member of staff. It goes to them alone: Settings' copies and blind
/// copies are for the agency's emails to families.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaffNotice {
    pub to: String,
    pub subject: String,
    pub body: String,
}

/// One text message to a member of staff's mobile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaffText {
    pub to: String,
    pub body: String,
}

/// A client's assigned coordinator, when they are an active user.
struct Coordinator {
    user_id: String,
    email: String,
    phone: String,
    client: String,
    overdue: bool,
}

/// An overdue client in a digest: name, overdue since (stored time), intake id.
type OverdueClient = (String, String, String);

/// At most this many clients are named in one digest (the count covers all).
const DIGEST_LIMIT: usize = 50;

fn type_label(kind: CommunicationType) -> &'static str {
    match kind {
        CommunicationType::Email => "an email",
        CommunicationType::Sms => "a text message",
        CommunicationType::Note => "a note",
        CommunicationType::PhoneLog => "a call",
        CommunicationType::SystemEvent => "an event",
    }
}

impl Store {
    fn coordinator_of(&self, intake_id: &crate::model::IntakeId) -> Result<Option<Coordinator>> {
        let now = ts(self.clock()?.now());
        Ok(super::query_row(
            self.conn(),
            "SELECT u.id, u.email, u.phone, i.client_full_name,
                    i.archived = 0 AND i.overdue_at < ?2
               FROM intakes i
               JOIN users u ON u.full_name = i.assigned_coordinator AND u.disabled = 0
              WHERE i.id = ?1 AND i.deleted_at IS NULL
              ORDER BY u.created_at LIMIT 1",
            rusqlite::params![intake_id, now],
            |row| {
                Ok(Coordinator {
                    user_id: row.get(0)?,
                    email: row.get(1)?,
                    phone: row.get(2)?,
                    client: row.get(3)?,
                    overdue: row.get(4)?,
                })
            },
        )
        .optional()?)
    }

    /// The text message to the client's assigned coordinator about a communication just
    /// logged or received, when the "SMS notifications for urgent updates" switch is on,
    /// the client is overdue (the pipeline's urgent flag), the coordinator gave a mobile
    /// number, and someone else logged it. Like the email, it never carries the content.
    pub fn urgent_text(
        &self,
        communication: &Communication,
        base_url: &str,
    ) -> Result<Option<StaffText>> {
        if communication.communication_type == CommunicationType::SystemEvent
            || !self.settings()?.notifications.sms_on_urgent_updates
        {
            return Ok(None);
        }
        let Some(intake_id) = &communication.parents.intake_id else {
            return Ok(None);
        };
        let Some(coordinator) = self.coordinator_of(intake_id)? else {
            return Ok(None);
        };
        let by_coordinator = communication
            .sender_user_id
            .as_ref()
            .is_some_and(|sender| sender.as_str() == coordinator.user_id);
        if !coordinator.overdue || coordinator.phone.is_empty() || by_coordinator {
            return Ok(None);
        }
        let client = &coordinator.client;
        let what = if communication.direction == Direction::Inbound {
            format!("{client}'s family replied by text")
        } else {
            let who = communication
                .sender_name
                .as_deref()
                .filter(|name| !name.trim().is_empty())
                .unwrap_or("Someone");
            format!(
                "{who} logged {} for {client}",
                type_label(communication.communication_type)
            )
        };
        Ok(Some(StaffText {
            to: coordinator.phone,
            body: format!(
                "Carepath: {what} (overdue). {base}/clients/{intake_id}",
                base = base_url.trim_end_matches('/')
            ),
        }))
    }

    /// The alerts about a reply a family texted, when the "Alerts for inbound replies"
    /// switch is on: to the client's assigned coordinator, else (no coordinator, or a
    /// number no client has) to every active administrator, so a reply is never unseen.
    /// Names the client or the number, never the reply's text.
    pub fn reply_alerts(&self, reply: &Communication, base_url: &str) -> Result<Vec<StaffNotice>> {
        if reply.direction != Direction::Inbound
            || !self.settings()?.notifications.inbound_reply_alerts
        {
            return Ok(Vec::new());
        }
        let base = base_url.trim_end_matches('/');
        let number = reply.recipient_phone.clone().unwrap_or_default();
        let coordinator = match &reply.parents.intake_id {
            Some(intake_id) => self.coordinator_of(intake_id)?,
            None => None,
        };
        let (subject, body) = match (&reply.parents.intake_id, &reply.client_name) {
            (Some(intake_id), Some(client)) => (
                format!("Reply from {client}'s family"),
                format!(
                    "{client}'s family replied by text message from {number}.\n\n\
                     Read it in Carepath: {base}/clients/{intake_id}?tab=communications\n"
                ),
            ),
            _ => (
                format!("Text message from {number}"),
                format!(
                    "A text message came from {number}, a number no client has.\n\n\
                     Read it in Carepath: {base}/communications\n"
                ),
            ),
        };
        let recipients = match coordinator {
            Some(coordinator) => vec![coordinator.email],
            None => {
                let mut statement = self.conn().prepare_cached(
                    "SELECT u.email FROM users u
                       JOIN user_roles r ON r.user_id = u.id AND r.role = 'admin'
                      WHERE u.disabled = 0 ORDER BY u.email",
                )?;
                statement
                    .query_map([], |row| row.get(0))?
                    .collect::<Result<Vec<String>, _>>()?
            }
        };
        Ok(recipients
            .into_iter()
            .map(|to| StaffNotice {
                to,
                subject: subject.clone(),
                body: body.clone(),
            })
            .collect())
    }

    /// The note to the client's assigned coordinator about a communication just logged,
    /// when the email notifications switch is on, the client has a coordinator who is an
    /// active user, and someone else logged it. Carries the client's name and what was
    /// logged, never its content.
    /// `base_url` is the address people open Carepath at (links are built from it).
    pub fn communication_notice(
        &self,
        communication: &Communication,
        base_url: &str,
    ) -> Result<Option<StaffNotice>> {
        // A family's reply has its own alert (Settings → "Alerts for inbound replies").
        if communication.communication_type == CommunicationType::SystemEvent
            || communication.direction == Direction::Inbound
        {
            return Ok(None);
        }
        if !self.settings()?.notifications.email_on_new_communication {
            return Ok(None);
        }
        let Some(intake_id) = &communication.parents.intake_id else {
            return Ok(None);
        };
        let coordinator: Option<(String, String, String)> = super::query_row(
            self.conn(),
            "SELECT u.id, u.email, i.client_full_name FROM intakes i
               JOIN users u ON u.full_name = i.assigned_coordinator AND u.disabled = 0
              WHERE i.id = ?1 AND i.deleted_at IS NULL
              ORDER BY u.created_at LIMIT 1",
            [intake_id],
            |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
        )
        .optional()?;
        let Some((user_id, email, client)) = coordinator else {
            return Ok(None);
        };
        if communication
            .sender_user_id
            .as_ref()
            .is_some_and(|sender| sender.as_str() == user_id)
        {
            return Ok(None);
        }
        let who = communication
            .sender_name
            .clone()
            .filter(|name| !name.trim().is_empty())
            .unwrap_or_else(|| "Someone".to_owned());
        let what = type_label(communication.communication_type);
        let subject_line = communication
            .subject
            .as_deref()
            .filter(|subject| !subject.trim().is_empty())
            .map(|subject| format!("\nSubject: {subject}"))
            .unwrap_or_default();
        Ok(Some(StaffNotice {
            to: email,
            subject: format!("New communication for {client}"),
            body: format!(
                "{who} logged {what} for {client}, a client assigned to you.{subject_line}\n\n\
                 Open the client in Carepath: {base}/clients/{intake_id}\n",
                base = base_url.trim_end_matches('/')
            ),
        }))
    }

    /// Today's digests: one per active user who is the assigned coordinator of overdue
    /// clients (not archived), when the email notifications switch is on.
    pub fn overdue_digests(&self, base_url: &str) -> Result<Vec<StaffNotice>> {
        let base = base_url.trim_end_matches('/');
        if !self.settings()?.notifications.email_on_new_communication {
            return Ok(Vec::new());
        }
        let clock = self.clock()?;
        let mut statement = self.conn().prepare_cached(
            "SELECT u.email, i.client_full_name, i.overdue_at, i.id FROM intakes i
               JOIN users u ON u.full_name = i.assigned_coordinator AND u.disabled = 0
              WHERE i.deleted_at IS NULL AND i.archived = 0 AND i.overdue_at < ?1
              ORDER BY u.email, i.overdue_at, i.id",
        )?;
        let rows = statement
            .query_map([ts(clock.now())], |row| {
                Ok((
                    row.get::<_, String>(0)?,
                    row.get::<_, String>(1)?,
                    row.get::<_, String>(2)?,
                    row.get::<_, String>(3)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        let mut digests: Vec<(String, Vec<OverdueClient>)> = Vec::new();
        for (email, client, overdue_at, id) in rows {
            match digests.last_mut() {
                Some((last, clients)) if *last == email => clients.push((client, overdue_at, id)),
                _ => digests.push((email, vec![(client, overdue_at, id)])),
            }
        }
        let today = clock.today();
        Ok(digests
            .into_iter()
            .map(|(email, clients)| {
                let mut body = format!(
                    "{} of your clients {} overdue as of {today}:\n\n",
                    clients.len(),
                    if clients.len() == 1 { "is" } else { "are" }
                );
                for (client, overdue_at, id) in clients.iter().take(DIGEST_LIMIT) {
                    let since = crate::rules::clock::parse_timestamp(overdue_at)
                        .map(|moment| clock.local_date(moment).to_string())
                        .unwrap_or_default();
                    body.push_str(&format!(
                        "- {client} (overdue since {since}): {base}/clients/{id}\n"
                    ));
                }
                if clients.len() > DIGEST_LIMIT {
                    body.push_str(&format!("… and {} more.\n", clients.len() - DIGEST_LIMIT));
                }
                StaffNotice {
                    to: email,
                    subject: format!("Daily digest: {} overdue clients", clients.len()),
                    body,
                }
            })
            .collect())
    }

    /// The email telling each active administrator that replication off the machine has
    /// been failing (sent once per failure by the server).
    pub fn replication_alerts(
        &self,
        status: &ReplicationStatus,
        base_url: &str,
    ) -> Result<Vec<StaffNotice>> {
        let (subject, body) = crate::rules::replication::alert_text(status, base_url);
        Ok(self
            .users()?
            .into_iter()
            .filter(|user| user.is_admin && !user.disabled)
            .map(|admin| StaffNotice {
                to: admin.email,
                subject: subject.clone(),
                body: body.clone(),
            })
            .collect())
    }
}
