//! Pricing templates (one of them the default) and the holiday policy they price with.

use jiff::Timestamp;
use rusqlite::{Connection, OptionalExtension, params};

use crate::error::{Error, Result};
use crate::model::{
    Actor, Holiday, HolidayPolicy, Premiums, PricingTemplate, PricingTemplateId,
    PricingTemplateInput,
};
use crate::rules::pricing::default_pricing_templates;
use crate::rules::validation::validate_pricing_template;
use crate::store::{Store, audit, require_admin, ts};

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

impl Store {
    /// Pricing templates: the default first, then by name.
    pub fn pricing_templates(&self) -> Result<Vec<PricingTemplate>> {
        let mut statement = self.conn().prepare_cached(&format!(
            "SELECT {PRICING_COLUMNS} FROM pricing_templates ORDER BY is_default DESC, name"
        ))?;
        let rows = statement.query_map([], pricing_from_row)?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    pub fn get_pricing_template(&self, id: &PricingTemplateId) -> Result<PricingTemplate> {
        crate::store::query_row(
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
        self.write(|tx| insert_pricing(tx, actor, now, &id, &input))?;
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
                crate::store::exec(tx, "UPDATE pricing_templates SET is_default = 0, version = version + 1 WHERE is_default = 1 AND id <> ?1", [id])?;
            }
            let n = crate::store::exec(tx,
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
            if crate::store::exec(tx, "DELETE FROM pricing_templates WHERE id = ?1", [id])? == 0 {
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
                crate::store::query_row(tx, "SELECT count(*) FROM pricing_templates", [], |row| {
                    row.get(0)
                })?;
            if existing > 0 {
                return Ok(0);
            }
            let defaults = default_pricing_templates();
            for input in &defaults {
                insert_pricing(tx, actor, now, &PricingTemplateId::new(), input)?;
            }
            Ok(defaults.len())
        })
    }
}

fn notes(text: &str) -> Option<&str> {
    let text = text.trim();
    (!text.is_empty()).then_some(text)
}

/// Adds a pricing template and the audit row of its creation.
fn insert_pricing(
    tx: &Connection,
    actor: &Actor,
    now: Timestamp,
    id: &PricingTemplateId,
    input: &PricingTemplateInput,
) -> Result<()> {
    if input.is_default {
        crate::store::exec(
            tx,
            "UPDATE pricing_templates SET is_default = 0, version = version + 1 WHERE is_default = 1",
            [],
        )?;
    }
    crate::store::exec(tx,
        "INSERT INTO pricing_templates (id, name, base_rate, weekend_premium, evening_premium, overnight_premium,
            holiday_multiplier, notes, is_active, is_default, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?11)",
        params![
            id, input.name.trim(), input.base_rate.unwrap_or_default(), input.premiums.weekend,
            input.premiums.evening, input.premiums.overnight, input.premiums.holiday_multiplier,
            notes(&input.notes), input.is_active, input.is_default, ts(now),
        ],
    )?;
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
}
