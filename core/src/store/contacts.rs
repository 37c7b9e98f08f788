//! Client contacts: family, emergency and other contacts of one intake, primary first.

use rusqlite::{OptionalExtension, params};

use super::{Store, audit, require_admin, ts};
use crate::error::{Error, Result};
use crate::model::{Actor, Contact, ContactId, ContactInput, IntakeId};
use crate::rules::validation::validate_contact;

const COLUMNS: &str = "id, version, intake_id, contact_type, full_name, relationship, phone, \
    email, address, notes, is_primary, created_at";

fn from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Contact> {
    let contact_type: crate::model::ContactType = row.get(3)?;
    Ok(Contact {
        id: row.get(0)?,
        version: row.get(1)?,
        intake_id: row.get(2)?,
        contact_type,
        contact_type_label: contact_type.label().to_owned(),
        full_name: row.get(4)?,
        relationship: row.get(5)?,
        phone: row.get(6)?,
        email: row.get(7)?,
        address: row.get(8)?,
        notes: row.get(9)?,
        is_primary: row.get(10)?,
        created_at: row.get(11)?,
    })
}

fn optional(text: &str) -> Option<&str> {
    let text = text.trim();
    (!text.is_empty()).then_some(text)
}

impl Store {
    /// A client's contacts: primary first, then oldest first.
    pub fn contacts(&self, intake_id: &IntakeId) -> Result<Vec<Contact>> {
        let mut statement = self.conn().prepare_cached(&format!(
            "SELECT {COLUMNS} FROM client_contacts WHERE intake_id = ?1
             ORDER BY is_primary DESC, created_at ASC, id ASC"
        ))?;
        let rows = statement.query_map([intake_id], from_row)?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    pub fn contact_count(&self, intake_id: &IntakeId) -> Result<i64> {
        Ok(super::query_row(
            self.conn(),
            "SELECT count(*) FROM client_contacts WHERE intake_id = ?1",
            [intake_id],
            |row| row.get(0),
        )?)
    }

    pub fn get_contact(&self, id: &ContactId) -> Result<Contact> {
        super::query_row(
            self.conn(),
            &format!("SELECT {COLUMNS} FROM client_contacts WHERE id = ?1"),
            [id],
            from_row,
        )
        .optional()?
        .ok_or_else(|| Error::not_found("contact", id))
    }

    pub fn add_contact(
        &mut self,
        actor: &Actor,
        intake_id: &IntakeId,
        input: ContactInput,
    ) -> Result<Contact> {
        let input = validate_contact(&input)?;
        let now = self.now();
        let id = ContactId::new();
        self.write(|tx| {
            let exists: bool = super::query_row(tx,
                "SELECT EXISTS (SELECT 1 FROM intakes WHERE id = ?1 AND deleted_at IS NULL)",
                [intake_id],
                |row| row.get(0),
            )?;
            if !exists {
                return Err(Error::not_found("client", intake_id));
            }
            if input.is_primary {
                // One primary contact per client.
                super::exec(tx,
                    "UPDATE client_contacts SET is_primary = 0, version = version + 1 WHERE intake_id = ?1 AND is_primary = 1",
                    [intake_id],
                )?;
            }
            super::exec(tx,
                "INSERT INTO client_contacts (id, intake_id, contact_type, full_name, relationship,
                    phone, email, address, notes, is_primary, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?11)",
                params![
                    id,
                    intake_id,
                    input.contact_type,
                    input.full_name,
                    optional(&input.relationship),
                    optional(&input.phone),
                    optional(&input.email),
                    optional(&input.address),
                    optional(&input.notes),
                    input.is_primary,
                    ts(now),
                ],
            )?;
            audit(tx, actor, now, "create", "contact", id.as_str(), Some(intake_id.as_str()), &[])
        })?;
        self.get_contact(&id)
    }

    pub fn update_contact(
        &mut self,
        actor: &Actor,
        id: &ContactId,
        version: i64,
        input: ContactInput,
    ) -> Result<Contact> {
        let input = validate_contact(&input)?;
        let now = self.now();
        let updated = self.write(|tx| {
            let (stored_version, intake_id): (i64, IntakeId) = super::query_row(
                tx,
                "SELECT version, intake_id FROM client_contacts WHERE id = ?1",
                [id],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .optional()?
            .ok_or_else(|| Error::not_found("contact", id))?;
            if stored_version != version {
                return Ok(false);
            }
            if input.is_primary {
                super::exec(
                    tx,
                    "UPDATE client_contacts SET is_primary = 0, version = version + 1
                     WHERE intake_id = ?1 AND is_primary = 1 AND id <> ?2",
                    params![intake_id, id],
                )?;
            }
            super::exec(
                tx,
                "UPDATE client_contacts SET contact_type = ?3, full_name = ?4, relationship = ?5,
                    phone = ?6, email = ?7, address = ?8, notes = ?9, is_primary = ?10,
                    updated_at = ?11, version = version + 1
                 WHERE id = ?1 AND version = ?2",
                params![
                    id,
                    version,
                    input.contact_type,
                    input.full_name,
                    optional(&input.relationship),
                    optional(&input.phone),
                    optional(&input.email),
                    optional(&input.address),
                    optional(&input.notes),
                    input.is_primary,
                    ts(now),
                ],
            )?;
            audit(
                tx,
                actor,
                now,
                "update",
                "contact",
                id.as_str(),
                Some(intake_id.as_str()),
                &[
                    "contact_type",
                    "full_name",
                    "relationship",
                    "phone",
                    "email",
                    "address",
                    "notes",
                    "is_primary",
                ],
            )?;
            Ok(true)
        })?;
        if updated {
            self.get_contact(id)
        } else {
            Err(Error::conflict("contact", &self.get_contact(id)?))
        }
    }

    pub fn delete_contact(&mut self, actor: &Actor, id: &ContactId) -> Result<()> {
        // A deletion here cannot be undone, so it is an administrator's decision.
        require_admin(actor)?;
        let now = self.now();
        self.write(|tx| {
            let intake_id: IntakeId = super::query_row(
                tx,
                "SELECT intake_id FROM client_contacts WHERE id = ?1",
                [id],
                |row| row.get(0),
            )
            .optional()?
            .ok_or_else(|| Error::not_found("contact", id))?;
            super::exec(tx, "DELETE FROM client_contacts WHERE id = ?1", [id])?;
            audit(
                tx,
                actor,
                now,
                "delete",
                "contact",
                id.as_str(),
                Some(intake_id.as_str()),
                &[],
            )
        })
    }
}
