//! The one error type of core. Every operation returns it; the faces map it to an HTTP
//! status, a TUI message or an exit code.

use std::collections::BTreeMap;

use serde::Serialize;

/// Every field's message at once, plus the message to show first (the spec's toast).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ValidationErrors {
    pub message: String,
    pub fields: BTreeMap<String, String>,
}

impl ValidationErrors {
    pub fn new() -> Self {
        Self::default()
    }

    /// Records a field's message; the first message recorded becomes the headline.
    pub fn add(&mut self, field: &str, message: impl Into<String>) {
        let message = message.into();
        if self.message.is_empty() {
            self.message = message.clone();
        }
        self.fields.entry(field.to_owned()).or_insert(message);
    }

    /// A headline that is not about one field (for example the spec's toast that counts
    /// the missing fields).
    pub fn with_message(mut self, message: impl Into<String>) -> Self {
        self.message = message.into();
        self
    }

    pub fn single(field: &str, message: impl Into<String>) -> Self {
        let mut errors = Self::new();
        errors.add(field, message);
        errors
    }

    pub fn is_empty(&self) -> bool {
        self.fields.is_empty() && self.message.is_empty()
    }

    pub fn into_result(self) -> Result<(), Error> {
        if self.is_empty() {
            Ok(())
        } else {
            Err(Error::Validation(self))
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{entity} not found")]
    NotFound { entity: &'static str, id: String },

    #[error("{}", .0.message)]
    Validation(ValidationErrors),

    /// A request that breaks a rule that is not about one field ("Save First",
    /// "Care plan must be sent or approved before generating a contract.").
    #[error("{0}")]
    Rejected(String),

    #[error("{entity} cannot go from {from} to {to}")]
    InvalidTransition {
        entity: &'static str,
        from: String,
        to: String,
    },

    /// Someone saved the record after the caller read it. Carries the record as stored
    /// now, so the caller can show it instead of overwriting it.
    #[error("This {entity} was changed by someone else. Review the latest version and try again.")]
    Conflict {
        entity: &'static str,
        current: Box<serde_json::Value>,
    },

    #[error("{0}")]
    Forbidden(&'static str),

    #[error("{0}")]
    Unauthenticated(&'static str),

    /// A family link that cannot be used, whatever the reason: every bad link gets this
    /// one answer.
    #[error("{}", crate::rules::signing::LINK_UNAVAILABLE)]
    LinkUnavailable,

    /// Too many requests of one kind in a while (a family link's questions): the
    /// message says what to do, `retry_after_secs` when to try again.
    #[error("{message}")]
    TooMany {
        message: &'static str,
        retry_after_secs: u64,
    },

    #[error(
        "the database was written by a newer Carepath (schema {found}, this build knows {known}); upgrade Carepath"
    )]
    SchemaTooNew { found: i64, known: i64 },

    #[error("storage: {0}")]
    Storage(#[from] rusqlite::Error),

    #[error("{context}: {source}")]
    Io {
        context: String,
        #[source]
        source: std::io::Error,
    },

    #[error("{0}")]
    Corrupt(String),
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn not_found(entity: &'static str, id: impl std::fmt::Display) -> Self {
        Error::NotFound {
            entity,
            id: id.to_string(),
        }
    }

    pub fn conflict<T: Serialize>(entity: &'static str, current: &T) -> Self {
        Error::Conflict {
            entity,
            current: Box::new(serde_json::to_value(current).unwrap_or(serde_json::Value::Null)),
        }
    }

    pub fn io(context: impl Into<String>, source: std::io::Error) -> Self {
        Error::Io {
            context: context.into(),
            source,
        }
    }

    /// True when SQLite gave up waiting for another writer.
    pub fn is_busy(&self) -> bool {
        matches!(
            self,
            Error::Storage(rusqlite::Error::SqliteFailure(e, _))
                if e.code == rusqlite::ErrorCode::DatabaseBusy || e.code == rusqlite::ErrorCode::DatabaseLocked
        )
    }
}

impl From<serde_json::Error> for Error {
    fn from(error: serde_json::Error) -> Self {
        Error::Corrupt(format!("stored JSON is unreadable: {error}"))
    }
}
