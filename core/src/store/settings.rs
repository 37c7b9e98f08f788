//! Agency settings, one JSON document per tab, shared by all staff.

use rusqlite::{OptionalExtension, params};

use super::{Store, audit, position, ts};
use crate::error::{Error, Result};
use crate::model::{Actor, Settings, SettingsTab};
use crate::rules::validation::{
    SETTINGS_ADMIN_ONLY, admin_only_changes, describe_settings, validate_settings,
};

impl Store {
    /// All settings; tabs never saved have their defaults (version 0).
    pub fn settings(&self) -> Result<Settings> {
        let mut settings = Settings::default();
        let mut statement = self
            .conn()
            .prepare_cached("SELECT tab, value, version FROM settings")?;
        let rows = statement.query_map([], |row| {
            Ok((
                row.get::<_, String>(0)?,
                row.get::<_, String>(1)?,
                row.get::<_, i64>(2)?,
            ))
        })?;
        for row in rows {
            let (tab, value, version) = row?;
            // A tab stored by an older build may lack newer fields: defaults fill them.
            match tab.as_str() {
                "general" => settings.general = serde_json::from_str(&value)?,
                "email" => settings.email = serde_json::from_str(&value)?,
                "sms" => settings.sms = serde_json::from_str(&value)?,
                "notifications" => settings.notifications = serde_json::from_str(&value)?,
                "workflow" => settings.workflow = serde_json::from_str(&value)?,
                _ => continue,
            }
            settings.versions.insert(tab, version);
        }
        for tab in ["general", "email", "sms", "notifications", "workflow"] {
            settings.versions.entry(tab.to_owned()).or_insert(0);
        }
        describe_settings(&mut settings);
        settings.logo = self.logo_info()?;
        Ok(settings)
    }

    /// Saves one tab. `version` is the tab's version as read (0 for never saved).
    pub fn update_settings(
        &mut self,
        actor: &Actor,
        version: i64,
        mut tab: SettingsTab,
    ) -> Result<Settings> {
        validate_settings(&tab)?;
        if let SettingsTab::Workflow(workflow) = &mut tab {
            for item in &mut workflow.start_of_care_checklist {
                *item = item.trim().to_owned();
            }
        }
        if !actor.is_admin && !admin_only_changes(&self.settings()?, &tab).is_empty() {
            return Err(Error::Forbidden(SETTINGS_ADMIN_ONLY));
        }
        let name = tab.name();
        let value = match &tab {
            SettingsTab::General(v) => serde_json::to_string(v)?,
            SettingsTab::Email(v) => serde_json::to_string(v)?,
            SettingsTab::Sms(v) => serde_json::to_string(v)?,
            SettingsTab::Notifications(v) => serde_json::to_string(v)?,
            SettingsTab::Workflow(v) => serde_json::to_string(v)?,
        };
        let now = self.now();
        let zone_before = self.clock()?.tz().iana_name().map(str::to_owned);
        let saved = self.write(|tx| {
            let stored: Option<i64> = super::query_row(tx, "SELECT version FROM settings WHERE tab = ?1", [name], |row| row.get(0))
                .optional()?;
            if stored.unwrap_or(0) != version {
                return Ok(false);
            }
            super::exec(tx,
                "INSERT INTO settings (tab, value, updated_at, version) VALUES (?1, ?2, ?3, 1)
                 ON CONFLICT (tab) DO UPDATE SET value = ?2, updated_at = ?3, version = version + 1",
                params![name, value, ts(now)],
            )?;
            audit(tx, actor, now, "update", "settings", name, None, &[name])?;
            Ok(true)
        })?;
        if !saved {
            return Err(Error::conflict("settings", &self.settings()?));
        }
        // Day boundaries move with the time zone: recompute who is overdue when.
        let clock = self.clock()?;
        if clock.tz().iana_name().map(str::to_owned) != zone_before {
            self.write(|tx| position::refresh_all_overdue(tx, &clock).map(|_| ()))?;
        }
        self.settings()
    }
}
