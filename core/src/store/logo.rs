//! The agency's logo: one row, replaced or removed by an administrator, read by the
//! PDFs, the Settings screen and the family's pages.

use rusqlite::{OptionalExtension, params};

use super::{Store, audit, exec, query_row, ts};
use crate::error::{Error, Result};
use crate::model::{Actor, LogoInfo, Settings};
use crate::rules::logo::check_logo;
use crate::rules::signing::sha256_hex;

/// Only an administrator changes the logo every document prints.
pub const LOGO_ADMIN_ONLY: &str = "Only an administrator can change the agency's logo.";

/// The stored logo file with what Settings show of it.
#[derive(Debug, Clone, PartialEq)]
pub struct LogoFile {
    pub info: LogoInfo,
    pub bytes: Vec<u8>,
}

fn info_from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<LogoInfo> {
    let sha256: String = row.get(3)?;
    Ok(LogoInfo {
        content_type: row.get(0)?,
        width: row.get(1)?,
        height: row.get(2)?,
        url: LogoInfo::url_for(&sha256),
        sha256,
        updated_at: row.get(4)?,
        size: u64::try_from(row.get::<_, i64>(5)?).unwrap_or_default(),
    })
}

impl Store {
    /// What Settings show of the logo, without its bytes.
    pub fn logo_info(&self) -> Result<Option<LogoInfo>> {
        Ok(query_row(
            self.conn(),
            "SELECT content_type, width, height, sha256, updated_at, length(bytes)
             FROM agency_logo WHERE id = 1",
            [],
            info_from_row,
        )
        .optional()?)
    }

    /// The logo file, if there is one.
    pub fn logo_file(&self) -> Result<Option<LogoFile>> {
        Ok(query_row(
            self.conn(),
            "SELECT content_type, width, height, sha256, updated_at, length(bytes), bytes
             FROM agency_logo WHERE id = 1",
            [],
            |row| {
                Ok(LogoFile {
                    info: info_from_row(row)?,
                    bytes: row.get(6)?,
                })
            },
        )
        .optional()?)
    }

    /// Stores `bytes` as the agency's logo, replacing any earlier one, once it passed
    /// [`check_logo`]. Administrators only.
    pub fn set_logo(&mut self, actor: &Actor, bytes: &[u8]) -> Result<Settings> {
        if !actor.is_admin {
            return Err(Error::Forbidden(LOGO_ADMIN_ONLY));
        }
        let checked = check_logo(bytes)?;
        let sha = sha256_hex(bytes);
        let now = self.now();
        self.write(|tx| {
            exec(
                tx,
                "INSERT INTO agency_logo (id, content_type, bytes, width, height, sha256, updated_at)
                 VALUES (1, ?1, ?2, ?3, ?4, ?5, ?6)
                 ON CONFLICT (id) DO UPDATE SET content_type = ?1, bytes = ?2, width = ?3,
                     height = ?4, sha256 = ?5, updated_at = ?6",
                params![
                    checked.content_type,
                    bytes,
                    checked.width,
                    checked.height,
                    sha,
                    ts(now)
                ],
            )?;
            audit(tx, actor, now, "update", "settings", "logo", None, &["logo"])
        })?;
        self.settings()
    }

    /// Removes the logo (documents print the agency's name alone). Administrators only.
    pub fn remove_logo(&mut self, actor: &Actor) -> Result<Settings> {
        if !actor.is_admin {
            return Err(Error::Forbidden(LOGO_ADMIN_ONLY));
        }
        let now = self.now();
        self.write(|tx| {
            if exec(tx, "DELETE FROM agency_logo WHERE id = 1", [])? > 0 {
                audit(
                    tx,
                    actor,
                    now,
                    "delete",
                    "settings",
                    "logo",
                    None,
                    &["logo"],
                )?;
            }
            Ok(())
        })?;
        self.settings()
    }
}
