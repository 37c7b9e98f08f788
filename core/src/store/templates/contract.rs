//! The versioned contract template and its sections.

use rusqlite::{Connection, OptionalExtension, params};

use crate::error::{Error, Result};
use crate::model::{
    Actor, ContractSection, ContractTemplate, ContractTemplateId, ContractTemplateInput,
};
use crate::rules::contract_text::{default_contract_sections, next_template_version};
use crate::rules::validation::{
    MAX_CONTRACT_TEMPLATE_VERSIONS, TOO_MANY_TEMPLATE_VERSIONS, validate_contract_template,
};
use crate::store::{Store, audit, ts};

impl Store {
    /// The current contract template; the built-in default (version 1.0) until one is saved.
    pub fn current_contract_template(&self) -> Result<ContractTemplate> {
        let id: Option<ContractTemplateId> = crate::store::query_row(
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
        let (version, template_version, name, created_at) = crate::store::query_row(self.conn(),
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
                let n = crate::store::exec(tx,
                    "UPDATE contract_templates SET name = ?3, updated_at = ?4, version = version + 1 WHERE id = ?1 AND version = ?2",
                    params![current.id, version, input.name.trim(), ts(now)],
                )?;
                if n == 0 {
                    return Err(Error::Rejected("stale".to_owned()));
                }
                crate::store::exec(tx, "DELETE FROM contract_template_sections WHERE template_id = ?1", [&current.id])?;
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
        let versions: i64 = crate::store::query_row(
            self.conn(),
            "SELECT COUNT(*) FROM contract_templates",
            [],
            |row| row.get(0),
        )?;
        if versions >= MAX_CONTRACT_TEMPLATE_VERSIONS as i64 {
            return Err(Error::Rejected(TOO_MANY_TEMPLATE_VERSIONS.to_owned()));
        }
        let latest: Option<String> = crate::store::query_row(self.conn(), "SELECT template_version FROM contract_templates ORDER BY created_at DESC, id DESC LIMIT 1", [], |row| row.get(0))
            .optional()?;
        let next = next_template_version(latest.as_deref().unwrap_or(&current.template_version));
        let now = self.now();
        let id = ContractTemplateId::new();
        self.write(|tx| {
            crate::store::exec(
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
            let exists: bool = crate::store::query_row(
                tx,
                "SELECT EXISTS (SELECT 1 FROM contract_templates WHERE id = ?1)",
                [id],
                |row| row.get(0),
            )?;
            if !exists {
                return Err(Error::not_found("contract template", id));
            }
            crate::store::exec(
                tx,
                "UPDATE contract_templates SET is_current = 0 WHERE is_current = 1",
                [],
            )?;
            crate::store::exec(
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

fn insert_template(
    tx: &Connection,
    id: &ContractTemplateId,
    template_version: &str,
    input: &ContractTemplateInput,
    now: &str,
) -> Result<()> {
    crate::store::exec(
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
        crate::store::exec(
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
