//! Message templates: the prompts AI drafting starts from, by type and pipeline stage.

use rusqlite::{OptionalExtension, params};

use crate::error::{Error, Result};
use crate::model::{
    Actor, IntakeId, MessageTemplate, MessageTemplateId, MessageTemplateInput, Stage,
};
use crate::outbound::{DraftKind, chosen_template, offered_templates};
use crate::rules::validation::validate_message_template;
use crate::store::{Store, audit, require_admin, ts};

const MESSAGE_COLUMNS: &str = "id, version, name, message_type, stage, subject_template, ai_prompt_template, is_active, created_at";

fn message_from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<MessageTemplate> {
    Ok(MessageTemplate {
        id: row.get(0)?,
        version: row.get(1)?,
        name: row.get(2)?,
        message_type: row.get(3)?,
        stage: row.get(4)?,
        subject_template: row.get(5)?,
        ai_prompt_template: row.get(6)?,
        is_active: row.get(7)?,
        created_at: row.get(8)?,
    })
}

fn subject_for(input: &MessageTemplateInput) -> Option<String> {
    let subject = input.subject_template.trim();
    (input.message_type == crate::model::MessageType::Email && !subject.is_empty())
        .then(|| subject.to_owned())
}

impl Store {
    /// Message templates, newest first.
    pub fn message_templates(&self) -> Result<Vec<MessageTemplate>> {
        let mut statement = self.conn().prepare_cached(&format!(
            "SELECT {MESSAGE_COLUMNS} FROM message_templates ORDER BY created_at DESC, id DESC"
        ))?;
        let rows = statement.query_map([], message_from_row)?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// The message templates a send dialog offers for a client (the active ones of the
    /// client's pipeline stage, then the general ones; see
    /// [`crate::outbound::offered_templates`]). No client: the general ones.
    pub fn offered_message_templates(
        &self,
        kind: DraftKind,
        intake_id: Option<&IntakeId>,
    ) -> Result<Vec<MessageTemplate>> {
        let stage = self.draft_stage(intake_id)?;
        Ok(offered_templates(kind, stage, &self.message_templates()?))
    }

    /// The template staff chose for a draft, refused unless the dialog offers it.
    pub fn chosen_message_template(
        &self,
        kind: DraftKind,
        intake_id: Option<&IntakeId>,
        id: &MessageTemplateId,
    ) -> Result<MessageTemplate> {
        let stage = self.draft_stage(intake_id)?;
        chosen_template(kind, stage, id, &self.message_templates()?)
    }

    fn draft_stage(&self, intake_id: Option<&IntakeId>) -> Result<Option<Stage>> {
        intake_id
            .map(|id| Ok(self.get_intake_summary(id)?.position.stage))
            .transpose()
    }

    pub fn get_message_template(&self, id: &MessageTemplateId) -> Result<MessageTemplate> {
        crate::store::query_row(
            self.conn(),
            &format!("SELECT {MESSAGE_COLUMNS} FROM message_templates WHERE id = ?1"),
            [id],
            message_from_row,
        )
        .optional()?
        .ok_or_else(|| Error::not_found("template", id))
    }

    pub fn create_message_template(
        &mut self,
        actor: &Actor,
        input: MessageTemplateInput,
    ) -> Result<MessageTemplate> {
        validate_message_template(&input)?;
        let now = self.now();
        let id = MessageTemplateId::new();
        self.write(|tx| {
            crate::store::exec(tx,
                "INSERT INTO message_templates (id, name, message_type, stage, subject_template, ai_prompt_template, is_active, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8)",
                params![id, input.name.trim(), input.message_type, input.stage, subject_for(&input), input.ai_prompt_template.trim(), input.is_active, ts(now)],
            )?;
            audit(tx, actor, now, "create", "message_template", id.as_str(), None, &[])
        })?;
        self.get_message_template(&id)
    }

    pub fn update_message_template(
        &mut self,
        actor: &Actor,
        id: &MessageTemplateId,
        version: i64,
        input: MessageTemplateInput,
    ) -> Result<MessageTemplate> {
        validate_message_template(&input)?;
        let now = self.now();
        let n = self.write(|tx| {
            let n = crate::store::exec(tx,
                "UPDATE message_templates SET name = ?3, message_type = ?4, stage = ?5, subject_template = ?6,
                    ai_prompt_template = ?7, is_active = ?8, updated_at = ?9, version = version + 1
                 WHERE id = ?1 AND version = ?2",
                params![id, version, input.name.trim(), input.message_type, input.stage, subject_for(&input), input.ai_prompt_template.trim(), input.is_active, ts(now)],
            )?;
            if n == 1 {
                audit(tx, actor, now, "update", "message_template", id.as_str(), None, &["name", "message_type", "stage", "subject_template", "ai_prompt_template", "is_active"])?;
            }
            Ok(n)
        })?;
        let current = self.get_message_template(id)?;
        if n == 1 {
            Ok(current)
        } else {
            Err(Error::conflict("template", &current))
        }
    }

    pub fn delete_message_template(&mut self, actor: &Actor, id: &MessageTemplateId) -> Result<()> {
        // A deletion here cannot be undone, so it is an administrator's decision.
        require_admin(actor)?;
        let now = self.now();
        self.write(|tx| {
            if crate::store::exec(tx, "DELETE FROM message_templates WHERE id = ?1", [id])? == 0 {
                return Err(Error::not_found("template", id));
            }
            audit(
                tx,
                actor,
                now,
                "delete",
                "message_template",
                id.as_str(),
                None,
                &[],
            )
        })
    }
}
