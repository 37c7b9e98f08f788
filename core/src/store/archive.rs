//! Losing a lead: staff mark a client declined or not interested with a reason, and can
//! reopen it. The intake carries the archived status (the spec's declined list), so the
//! client leaves the active counts and lists through the same position columns.

use rusqlite::{OptionalExtension, params};

use super::{Store, audit, log_event, position, ts};
use crate::error::{Error, Result};
use crate::model::{Actor, ArchiveInput, IntakeId, IntakeStatus, Parents};
use crate::rules::events::PipelineEvent;
use crate::rules::validation::{ALREADY_ARCHIVED, NOT_ARCHIVED, validate_archive};

/// Intake statuses staff can reopen from: the archived ones an intake can carry.
fn is_archived_status(status: IntakeStatus) -> bool {
    crate::model::ARCHIVED_STATUSES.contains(&status.as_str())
}

impl Store {
    /// Marks a client declined or not interested, keeping the reason and the status to
    /// return to; the timeline gets a line saying so.
    pub fn archive_client(
        &mut self,
        actor: &Actor,
        id: &IntakeId,
        input: &ArchiveInput,
    ) -> Result<()> {
        validate_archive(input)?;
        let reason = input.reason.trim();
        let clock = self.clock()?;
        self.write(|tx| {
            let status: IntakeStatus = super::query_row(
                tx,
                "SELECT status FROM intakes WHERE id = ?1 AND deleted_at IS NULL",
                [id],
                |row| row.get(0),
            )
            .optional()?
            .ok_or_else(|| Error::not_found("client", id))?;
            if is_archived_status(status) {
                return Err(Error::Rejected(ALREADY_ARCHIVED.to_owned()));
            }
            let now = ts(clock.now());
            super::exec(
                tx,
                "UPDATE intakes SET status_before_archive = status, status = ?2,
                    archive_reason = ?3, archived_at = ?4, updated_at = ?4, version = version + 1
                 WHERE id = ?1",
                params![id, input.status.intake_status(), reason, now],
            )?;
            position::refresh(tx, id, &clock)?;
            let parents = Parents::of_intake(id);
            let event = PipelineEvent::ClientArchived {
                status: input.status,
                reason,
            };
            log_event(tx, actor, clock.now(), &parents, event)?;
            audit(
                tx,
                actor,
                clock.now(),
                "archive",
                "intake",
                id.as_str(),
                Some(id.as_str()),
                &["status", "archive_reason"],
            )
        })
    }

    /// Puts an archived client back where it was in the pipeline.
    pub fn reopen_client(&mut self, actor: &Actor, id: &IntakeId) -> Result<()> {
        let clock = self.clock()?;
        self.write(|tx| {
            let (status, before): (IntakeStatus, Option<IntakeStatus>) = super::query_row(
                tx,
                "SELECT status, status_before_archive FROM intakes WHERE id = ?1 AND deleted_at IS NULL",
                [id],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .optional()?
            .ok_or_else(|| Error::not_found("client", id))?;
            if !is_archived_status(status) {
                return Err(Error::Rejected(NOT_ARCHIVED.to_owned()));
            }
            // A client archived by other means (an import, an older version) goes back
            // to pending, the status of a live intake.
            let back = before
                .filter(|status| !is_archived_status(*status))
                .unwrap_or(IntakeStatus::Pending);
            let now = ts(clock.now());
            super::exec(
                tx,
                "UPDATE intakes SET status = ?2, status_before_archive = NULL, archive_reason = NULL,
                    archived_at = NULL, updated_at = ?3, version = version + 1
                 WHERE id = ?1",
                params![id, back, now],
            )?;
            position::refresh(tx, id, &clock)?;
            let parents = Parents::of_intake(id);
            log_event(tx, actor, clock.now(), &parents, PipelineEvent::ClientReopened)?;
            audit(
                tx,
                actor,
                clock.now(),
                "reopen",
                "intake",
                id.as_str(),
                Some(id.as_str()),
                &["status"],
            )
        })
    }
}
