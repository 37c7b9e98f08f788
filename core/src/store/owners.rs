//! A client's owner: who it goes to when it is created, changing it from the profile
//! (each change a line in the client's timeline) and the owner a profile shows.

use rusqlite::{Connection, OptionalExtension, params};

use super::communications::log_description;
use super::{Store, audit, ts};
use crate::error::{Error, Result, ValidationErrors};
use crate::model::{Actor, IntakeForm, IntakeId, Owner, OwnerInput, Parents, UserId};
use crate::rules::queue::{OWNER_NOT_STAFF, timeline};

/// An active member of staff's name, or an error on the `owner_id` field.
fn active_user_name(tx: &Connection, user_id: &UserId) -> Result<String> {
    super::query_row(
        tx,
        "SELECT full_name FROM users WHERE id = ?1 AND disabled = 0",
        [user_id],
        |row| row.get(0),
    )
    .optional()?
    .ok_or_else(|| Error::Validation(ValidationErrors::single("owner_id", OWNER_NOT_STAFF)))
}

/// The active user a coordinator name names (the first made, when two share it).
fn user_named(tx: &Connection, name: &str) -> Result<Option<UserId>> {
    let name = name.trim();
    if name.is_empty() {
        return Ok(None);
    }
    Ok(super::query_row(
        tx,
        "SELECT id FROM users WHERE full_name = ?1 AND disabled = 0 ORDER BY created_at, id LIMIT 1",
        [name],
        |row| row.get(0),
    )
    .optional()?)
}

/// Who a new client belongs to: the owner the request names (an active user), else the
/// active user the form's coordinator names (typed, or given by Settings → Workflow's
/// auto-assignment), else whoever creates it. An import has no creator to fall back on:
/// its leads are unassigned unless the file names their coordinator.
pub(crate) fn new_client_owner(
    tx: &Connection,
    named: Option<&UserId>,
    coordinator: &str,
    creator: Option<&UserId>,
) -> Result<Option<UserId>> {
    if let Some(user_id) = named {
        active_user_name(tx, user_id)?;
        return Ok(Some(user_id.clone()));
    }
    if let Some(user_id) = user_named(tx, coordinator)? {
        return Ok(Some(user_id));
    }
    Ok(creator.cloned())
}

/// A client's owner and the owner's name, deleted clients included.
fn stored_owner(tx: &Connection, intake_id: &IntakeId) -> Result<(Option<UserId>, Option<String>)> {
    super::query_row(
        tx,
        "SELECT i.owner_id, u.full_name FROM intakes i LEFT JOIN users u ON u.id = i.owner_id
         WHERE i.id = ?1 AND i.deleted_at IS NULL",
        [intake_id],
        |row| Ok((row.get(0)?, row.get(1)?)),
    )
    .optional()?
    .ok_or_else(|| Error::not_found("client", intake_id))
}

/// Moves a client to `owner` (or to nobody) and writes the move into its timeline. The
/// intake form's coordinator name follows, so the printed intake and the form agree.
/// Nothing is written when the owner stays the same.
pub(crate) fn move_client(
    tx: &Connection,
    actor: &Actor,
    now: jiff::Timestamp,
    intake_id: &IntakeId,
    owner: Option<&UserId>,
    rename_form: bool,
) -> Result<bool> {
    let (current, current_name) = stored_owner(tx, intake_id)?;
    if current.as_ref() == owner {
        return Ok(false);
    }
    let new_name = match owner {
        Some(user_id) => Some(active_user_name(tx, user_id)?),
        None => None,
    };
    super::exec(
        tx,
        "UPDATE intakes SET owner_id = ?2, updated_at = ?3 WHERE id = ?1",
        params![intake_id, owner, ts(now)],
    )?;
    if rename_form {
        let form_data: String = super::query_row(
            tx,
            "SELECT form_data FROM intake_forms WHERE intake_seq = (SELECT seq FROM intakes WHERE id = ?1)",
            [intake_id],
            |row| row.get(0),
        )?;
        let mut form: IntakeForm = serde_json::from_str(&form_data)?;
        form.assigned_coordinator = new_name.clone().unwrap_or_default();
        super::exec(
            tx,
            "UPDATE intakes SET assigned_coordinator = ?2, version = version + 1 WHERE id = ?1",
            params![intake_id, new_name],
        )?;
        super::exec(
            tx,
            "UPDATE intake_forms SET form_data = ?2
             WHERE intake_seq = (SELECT seq FROM intakes WHERE id = ?1)",
            params![intake_id, super::intakes::stored_form(&form)?],
        )?;
    }
    let parents = Parents::of_intake(intake_id);
    log_description(
        tx,
        actor,
        now,
        &parents,
        &timeline::owner_changed(current_name.as_deref(), new_name.as_deref()),
    )?;
    audit(
        tx,
        actor,
        now,
        "owner",
        "intake",
        intake_id.as_str(),
        Some(intake_id.as_str()),
        &["owner_id"],
    )?;
    Ok(true)
}

/// After a form update: when its coordinator name changed to an active user's, the
/// client moves to them (a name nobody has changes nothing but the text).
pub(crate) fn follow_coordinator_name(
    tx: &Connection,
    actor: &Actor,
    now: jiff::Timestamp,
    intake_id: &IntakeId,
    before: &str,
    after: &str,
) -> Result<()> {
    if before.trim() == after.trim() {
        return Ok(());
    }
    if let Some(user_id) = user_named(tx, after)? {
        move_client(tx, actor, now, intake_id, Some(&user_id), false)?;
    }
    Ok(())
}

impl Store {
    /// Gives a client to another member of staff (or to nobody), from the profile.
    pub fn set_client_owner(
        &mut self,
        actor: &Actor,
        intake_id: &IntakeId,
        input: &OwnerInput,
    ) -> Result<()> {
        let now = self.now();
        self.write(|tx| {
            // Asked for by name, a disabled owner is refused even when it is the current one.
            if let Some(user_id) = input.owner_id.as_ref() {
                active_user_name(tx, user_id)?;
            }
            move_client(tx, actor, now, intake_id, input.owner_id.as_ref(), true)
        })?;
        Ok(())
    }

    /// A client's owner with their name; a disabled user is still named.
    pub fn client_owner(&self, intake_id: &IntakeId) -> Result<Option<Owner>> {
        Ok(super::query_row(
            self.conn(),
            "SELECT u.id, u.full_name, u.disabled FROM intakes i JOIN users u ON u.id = i.owner_id
             WHERE i.id = ?1",
            [intake_id],
            |row| {
                Ok(Owner {
                    id: row.get(0)?,
                    full_name: row.get(1)?,
                    disabled: row.get(2)?,
                })
            },
        )
        .optional()?)
    }
}
