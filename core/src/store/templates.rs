//! Message templates, pricing templates (one default) and the versioned contract template.

use rusqlite::{Connection, OptionalExtension, params};

use super::{Store, audit, require_admin, ts};
use crate::error::{Error, Result};
use crate::model::{
    Actor, ContractSection, ContractTemplate, ContractTemplateId, ContractTemplateInput, Holiday,
    HolidayPolicy, IntakeId, MessageTemplate, MessageTemplateId, MessageTemplateInput, Premiums,
    PricingTemplate, PricingTemplateId, PricingTemplateInput, Stage,
};
use crate::outbound::{DraftKind, chosen_template, offered_templates};
use crate::rules::contract_text::{default_contract_sections, next_template_version};
use crate::rules::pricing::default_pricing_templates;
use crate::rules::validation::{
    validate_contract_template, validate_message_template, validate_pricing_template,
};

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

const PRICING_COLUMNS: &str = "id, version, name, base_rate, weekend_premium, evening_premium, \
    overnight_premium, holiday_multiplier, is_active, is_default, notes, created_at";

fn pricing_from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<PricingTemplate> {
    Ok(PricingTemplate {
        id: row.get(0)?,
        version: row.get(1)?,
        name: row.get(2)?,
        base_rate: row.get(3)?,
        premiums: Premiums {
            weekend: row.get(4)?,
            evening: row.get(5)?,
            overnight: row.get(6)?,
            holiday_multiplier: row.get(7)?,
        },
        is_active: row.get(8)?,
        is_default: row.get(9)?,
        notes: row.get(10)?,
        created_at: row.get(11)?,
    })
}

fn subject_for(input: &MessageTemplateInput) -> Option<String> {
    let subject = input.subject_template.trim();
    (input.message_type == crate::model::MessageType::Email && !subject.is_empty())
        .then(|| subject.to_owned())
}

impl Store {
    // ----- message templates -----

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
        super::query_row(
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
            super::exec(tx,
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
            let n = super::exec(tx,
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
            if super::exec(tx, "DELETE FROM message_templates WHERE id = ?1", [id])? == 0 {
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

    // ----- pricing templates -----

    /// Pricing templates: the default first, then by name.
    pub fn pricing_templates(&self) -> Result<Vec<PricingTemplate>> {
        let mut statement = self.conn().prepare_cached(&format!(
            "SELECT {PRICING_COLUMNS} FROM pricing_templates ORDER BY is_default DESC, name"
        ))?;
        let rows = statement.query_map([], pricing_from_row)?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    pub fn get_pricing_template(&self, id: &PricingTemplateId) -> Result<PricingTemplate> {
        super::query_row(
            self.conn(),
            &format!("SELECT {PRICING_COLUMNS} FROM pricing_templates WHERE id = ?1"),
            [id],
            pricing_from_row,
        )
        .optional()?
        .ok_or_else(|| Error::not_found("pricing template", id))
    }

    pub fn create_pricing_template(
        &mut self,
        actor: &Actor,
        input: PricingTemplateInput,
    ) -> Result<PricingTemplate> {
        validate_pricing_template(&input)?;
        let now = self.now();
        let id = PricingTemplateId::new();
        self.write(|tx| {
            insert_pricing(tx, &id, &input, &ts(now))?;
            audit(
                tx,
                actor,
                now,
                "create",
                "pricing_template",
                id.as_str(),
                None,
                &[],
            )
        })?;
        self.get_pricing_template(&id)
    }

    pub fn update_pricing_template(
        &mut self,
        actor: &Actor,
        id: &PricingTemplateId,
        version: i64,
        input: PricingTemplateInput,
    ) -> Result<PricingTemplate> {
        validate_pricing_template(&input)?;
        let now = self.now();
        let n = self.write(|tx| {
            if input.is_default {
                // Setting one as default clears the others.
                super::exec(tx, "UPDATE pricing_templates SET is_default = 0, version = version + 1 WHERE is_default = 1 AND id <> ?1", [id])?;
            }
            let n = super::exec(tx,
                "UPDATE pricing_templates SET name = ?3, base_rate = ?4, weekend_premium = ?5, evening_premium = ?6,
                    overnight_premium = ?7, holiday_multiplier = ?8, notes = ?9, is_active = ?10, is_default = ?11,
                    updated_at = ?12, version = version + 1
                 WHERE id = ?1 AND version = ?2",
                params![
                    id, version, input.name.trim(), input.base_rate.unwrap_or_default(),
                    input.premiums.weekend, input.premiums.evening, input.premiums.overnight,
                    input.premiums.holiday_multiplier, notes(&input.notes), input.is_active, input.is_default, ts(now),
                ],
            )?;
            if n == 0 {
                // Undo the default switch: the whole transaction rolls back.
                return Err(Error::Rejected(String::new()));
            }
            audit(tx, actor, now, "update", "pricing_template", id.as_str(), None, &["name", "base_rate", "premiums", "notes", "is_active", "is_default"])?;
            Ok(n)
        });
        match n {
            Ok(_) => self.get_pricing_template(id),
            Err(Error::Rejected(message)) if message.is_empty() => Err(Error::conflict(
                "pricing template",
                &self.get_pricing_template(id)?,
            )),
            Err(e) => Err(e),
        }
    }

    pub fn delete_pricing_template(&mut self, actor: &Actor, id: &PricingTemplateId) -> Result<()> {
        // A deletion here cannot be undone, so it is an administrator's decision.
        require_admin(actor)?;
        let now = self.now();
        self.write(|tx| {
            if super::exec(tx, "DELETE FROM pricing_templates WHERE id = ?1", [id])? == 0 {
                return Err(Error::not_found("pricing template", id));
            }
            audit(
                tx,
                actor,
                now,
                "delete",
                "pricing_template",
                id.as_str(),
                None,
                &[],
            )
        })
    }

    /// The holiday policy with this year's dates (the year of "today" in the agency's
    /// time zone).
    pub fn holiday_policy(&self) -> Result<HolidayPolicy> {
        let year = self.clock()?.today().year();
        Ok(HolidayPolicy {
            year,
            multiplier: crate::rules::costs::DEFAULT_HOLIDAY_MULTIPLIER,
            holidays: crate::rules::holidays::holidays(year)
                .into_iter()
                .map(|(name, date)| Holiday {
                    name: name.to_owned(),
                    date: date.to_string(),
                })
                .collect(),
        })
    }

    /// Adds the spec's three default pricing templates when there are none.
    pub fn seed_pricing_templates(&mut self, actor: &Actor) -> Result<usize> {
        let now = self.now();
        self.write(|tx| {
            let existing: i64 =
                super::query_row(tx, "SELECT count(*) FROM pricing_templates", [], |row| {
                    row.get(0)
                })?;
            if existing > 0 {
                return Ok(0);
            }
            let defaults = default_pricing_templates();
            for input in &defaults {
                let id = PricingTemplateId::new();
                insert_pricing(tx, &id, input, &ts(now))?;
                audit(
                    tx,
                    actor,
                    now,
                    "create",
                    "pricing_template",
                    id.as_str(),
                    None,
                    &[],
                )?;
            }
            Ok(defaults.len())
        })
    }

    // ----- contract template -----

    /// The current contract template; the built-in default (version 1.0) until one is saved.
    pub fn current_contract_template(&self) -> Result<ContractTemplate> {
        let id: Option<ContractTemplateId> = super::query_row(
            self.conn(),
            "SELECT id FROM contract_templates WHERE is_current = 1",
            [],
            |row| row.get(0),
        )
        .optional()?;
        match id {
            Some(id) => self.contract_template(&id),
            None => Ok(ContractTemplate {
                id: ContractTemplateId::from("default"),
                version: 0,
                template_version: "1.0".to_owned(),
                name: "Home Care Service Agreement".to_owned(),
                sections: default_contract_sections(),
                created_at: crate::rules::clock::format_timestamp(self.now()),
            }),
        }
    }

    pub fn contract_template(&self, id: &ContractTemplateId) -> Result<ContractTemplate> {
        let (version, template_version, name, created_at) = super::query_row(self.conn(),
                "SELECT version, template_version, name, created_at FROM contract_templates WHERE id = ?1",
                [id],
                |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)),
            )
            .optional()?
            .ok_or_else(|| Error::not_found("contract template", id))?;
        let mut statement = self.conn().prepare_cached(
            "SELECT section_id, title, content, position, required FROM contract_template_sections WHERE template_id = ?1 ORDER BY position",
        )?;
        let sections = statement
            .query_map([id], |row| {
                Ok(ContractSection {
                    id: row.get(0)?,
                    title: row.get(1)?,
                    content: row.get(2)?,
                    order: row.get(3)?,
                    required: row.get(4)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ContractTemplate {
            id: id.clone(),
            version,
            template_version,
            name,
            sections,
            created_at,
        })
    }

    /// Every saved version, newest first.
    pub fn contract_template_versions(&self) -> Result<Vec<ContractTemplate>> {
        let mut statement = self.conn().prepare_cached(
            "SELECT id FROM contract_templates ORDER BY created_at DESC, id DESC",
        )?;
        let ids = statement
            .query_map([], |row| row.get::<_, ContractTemplateId>(0))?
            .collect::<Result<Vec<_>, _>>()?;
        ids.iter().map(|id| self.contract_template(id)).collect()
    }

    /// Save Changes: writes the current version in place. Required sections of the stored
    /// template cannot be dropped. `version` 0 saves over the built-in default.
    pub fn save_contract_template(
        &mut self,
        actor: &Actor,
        version: i64,
        input: ContractTemplateInput,
    ) -> Result<ContractTemplate> {
        validate_contract_template(&input)?;
        let current = self.current_contract_template()?;
        ensure_required_kept(&current.sections, &input.sections)?;
        if current.version != version {
            return Err(Error::conflict("contract template", &current));
        }
        let now = self.now();
        let id = self.write(|tx| {
            let id = if current.version == 0 {
                let id = ContractTemplateId::new();
                insert_template(tx, &id, &current.template_version, &input, &ts(now))?;
                id
            } else {
                let n = super::exec(tx,
                    "UPDATE contract_templates SET name = ?3, updated_at = ?4, version = version + 1 WHERE id = ?1 AND version = ?2",
                    params![current.id, version, input.name.trim(), ts(now)],
                )?;
                if n == 0 {
                    return Err(Error::Rejected("stale".to_owned()));
                }
                super::exec(tx, "DELETE FROM contract_template_sections WHERE template_id = ?1", [&current.id])?;
                insert_sections(tx, &current.id, &input.sections)?;
                current.id.clone()
            };
            audit(tx, actor, now, "update", "contract_template", id.as_str(), None, &["name", "sections"])?;
            Ok(id)
        });
        match id {
            Ok(id) => self.contract_template(&id),
            Err(Error::Rejected(message)) if message == "stale" => Err(Error::conflict(
                "contract template",
                &self.current_contract_template()?,
            )),
            Err(e) => Err(e),
        }
    }

    /// Create New Version: a copy of `input` as version current + 0.1, made current.
    pub fn create_contract_template_version(
        &mut self,
        actor: &Actor,
        input: ContractTemplateInput,
    ) -> Result<ContractTemplate> {
        validate_contract_template(&input)?;
        let current = self.current_contract_template()?;
        ensure_required_kept(&current.sections, &input.sections)?;
        let latest: Option<String> = super::query_row(self.conn(), "SELECT template_version FROM contract_templates ORDER BY created_at DESC, id DESC LIMIT 1", [], |row| row.get(0))
            .optional()?;
        let next = next_template_version(latest.as_deref().unwrap_or(&current.template_version));
        let now = self.now();
        let id = ContractTemplateId::new();
        self.write(|tx| {
            super::exec(
                tx,
                "UPDATE contract_templates SET is_current = 0 WHERE is_current = 1",
                [],
            )?;
            insert_template(tx, &id, &next, &input, &ts(now))?;
            audit(
                tx,
                actor,
                now,
                "create_version",
                "contract_template",
                id.as_str(),
                None,
                &["template_version"],
            )
        })?;
        self.contract_template(&id)
    }

    /// Loads an older version: it becomes the current template.
    pub fn use_contract_template_version(
        &mut self,
        actor: &Actor,
        id: &ContractTemplateId,
    ) -> Result<ContractTemplate> {
        let now = self.now();
        self.write(|tx| {
            let exists: bool = super::query_row(
                tx,
                "SELECT EXISTS (SELECT 1 FROM contract_templates WHERE id = ?1)",
                [id],
                |row| row.get(0),
            )?;
            if !exists {
                return Err(Error::not_found("contract template", id));
            }
            super::exec(
                tx,
                "UPDATE contract_templates SET is_current = 0 WHERE is_current = 1",
                [],
            )?;
            super::exec(
                tx,
                "UPDATE contract_templates SET is_current = 1, version = version + 1 WHERE id = ?1",
                [id],
            )?;
            audit(
                tx,
                actor,
                now,
                "use_version",
                "contract_template",
                id.as_str(),
                None,
                &["is_current"],
            )
        })?;
        self.contract_template(id)
    }
}

fn notes(text: &str) -> Option<&str> {
    let text = text.trim();
    (!text.is_empty()).then_some(text)
}

fn insert_pricing(
    tx: &Connection,
    id: &PricingTemplateId,
    input: &PricingTemplateInput,
    now: &str,
) -> Result<()> {
    if input.is_default {
        super::exec(
            tx,
            "UPDATE pricing_templates SET is_default = 0, version = version + 1 WHERE is_default = 1",
            [],
        )?;
    }
    super::exec(tx,
        "INSERT INTO pricing_templates (id, name, base_rate, weekend_premium, evening_premium, overnight_premium,
            holiday_multiplier, notes, is_active, is_default, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?11)",
        params![
            id, input.name.trim(), input.base_rate.unwrap_or_default(), input.premiums.weekend,
            input.premiums.evening, input.premiums.overnight, input.premiums.holiday_multiplier,
            notes(&input.notes), input.is_active, input.is_default, now,
        ],
    )?;
    Ok(())
}

fn insert_template(
    tx: &Connection,
    id: &ContractTemplateId,
    template_version: &str,
    input: &ContractTemplateInput,
    now: &str,
) -> Result<()> {
    super::exec(
        tx,
        "INSERT INTO contract_templates (id, template_version, name, is_current, created_at, updated_at) VALUES (?1, ?2, ?3, 1, ?4, ?4)",
        params![id, template_version, input.name.trim(), now],
    )?;
    insert_sections(tx, id, &input.sections)
}

fn insert_sections(
    tx: &Connection,
    id: &ContractTemplateId,
    sections: &[ContractSection],
) -> Result<()> {
    let mut ordered: Vec<&ContractSection> = sections.iter().collect();
    ordered.sort_by_key(|section| section.order);
    for (position, section) in ordered.into_iter().enumerate() {
        super::exec(
            tx,
            "INSERT INTO contract_template_sections (template_id, position, section_id, title, content, required) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                id,
                position as i64 + 1,
                section.id,
                section.title.trim(),
                section.content,
                section.required
            ],
        )?;
    }
    Ok(())
}

/// Required sections of the stored template must survive a save.
fn ensure_required_kept(stored: &[ContractSection], incoming: &[ContractSection]) -> Result<()> {
    for section in stored.iter().filter(|s| s.required) {
        match incoming.iter().find(|s| s.id == section.id) {
            Some(kept) if kept.required => {}
            _ => {
                return Err(Error::Rejected(
                    "This is a required section and cannot be removed.".to_owned(),
                ));
            }
        }
    }
    Ok(())
}
