//! Sign-in (with its throttle on failed passwords), browser sessions and single-use
//! sign-in tokens. Session and link tokens are random and stored only as SHA-256 hashes,
//! so a copy of the database signs nobody in. This bookkeeping changes no record, so it
//! writes no audit row.

use jiff::{SignedDuration, Timestamp};
use rusqlite::{OptionalExtension, params};
use serde::Serialize;

use super::credentials::{new_token, password_matches, token_hash};
use super::{Store, ts};
use crate::error::Result;
use crate::model::{Actor, Channel, User, UserId};
use crate::rules::clock::parse_timestamp;
use crate::rules::sign_in::{FAILURE_MEMORY, retry_after};

/// The message for any failed sign-in: it never says whether the email exists.
pub const INVALID_CREDENTIALS: &str = "Invalid login credentials";
pub use crate::rules::sign_in::FREE_FAILURES;

/// Why a sign-in was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignInFailure {
    /// Wrong email or password (one answer for both).
    Invalid,
    /// Too many failures: try again after this many seconds.
    Throttled { retry_after_secs: u64 },
}

/// Where a session was opened from, as the request told: its User-Agent and address.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionOrigin {
    pub user_agent: String,
    pub address: String,
}

/// One of a user's live sessions, as their account page lists it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ActiveSession {
    /// Names the session to end it; not its token.
    pub id: String,
    /// The browser and system, shortened from the User-Agent ("Chrome on Linux").
    pub device: String,
    /// The client address it was opened from; empty when unknown.
    pub address: String,
    pub created_at: String,
    pub last_seen_at: String,
    /// The session of the request that asked.
    pub current: bool,
}

/// How often a session's last-seen time is written while it is used.
const TOUCH_EVERY: SignedDuration = SignedDuration::from_secs(30);

/// The user behind a live session.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SessionUser {
    pub id: UserId,
    pub email: String,
    pub full_name: String,
    pub is_admin: bool,
    /// The administrators' setting asks this user for a second factor and they have
    /// none: until they set one up, only that and signing out are open to them.
    pub needs_second_factor: bool,
}

impl SessionUser {
    pub fn actor(&self, channel: Channel) -> Actor {
        Actor::user(self.id.clone(), channel, self.is_admin)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthTokenPurpose {
    MagicLink,
    Recovery,
}

impl AuthTokenPurpose {
    fn as_str(self) -> &'static str {
        match self {
            AuthTokenPurpose::MagicLink => "magic_link",
            AuthTokenPurpose::Recovery => "recovery",
        }
    }
}

impl Store {
    /// Checks an email and password. Failures are counted per email and client address
    /// (`client`, any stable text for where the attempt came from) whether or not the
    /// email has an account, so the answers are the same for both; after five, each
    /// further attempt from there must wait longer.
    pub fn verify_sign_in(
        &mut self,
        email: &str,
        password: &str,
        client: &str,
    ) -> Result<std::result::Result<SessionUser, SignInFailure>> {
        let email = email.trim().to_lowercase();
        let key = self.sign_in_failure_key(&email, client);
        let counted = self.sign_in_failures(&key)?;
        if let Some(wait) = self.sign_in_wait(&key)? {
            return Ok(Err(SignInFailure::Throttled {
                retry_after_secs: wait,
            }));
        }
        let row: Option<(UserId, Option<String>, bool)> = super::query_row(
            self.conn(),
            "SELECT id, password_hash, disabled FROM users WHERE email = ?1",
            [&email],
            |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
        )
        .optional()?;
        let signed_in = match &row {
            Some((_, hash, disabled)) => password_matches(password, hash.as_deref()) && !disabled,
            None => password_matches(password, None),
        };
        if !signed_in {
            self.count_sign_in_failure(&key)?;
            return Ok(Err(SignInFailure::Invalid));
        }
        let Some((user_id, _, _)) = row else {
            return Ok(Err(SignInFailure::Invalid));
        };
        if counted.is_some() {
            self.forget_sign_in_failures(&key)?;
        }
        self.session_user_by_id(&user_id).map(Ok)
    }

    /// What failed sign-ins of an email from a client address are counted under.
    pub(crate) fn sign_in_failure_key(&self, email: &str, client: &str) -> String {
        token_hash(&format!("{}\n{client}", email.trim().to_lowercase()))
    }

    fn sign_in_failures(&self, key: &str) -> Result<Option<(i64, String)>> {
        Ok(super::query_row(
            self.conn(),
            "SELECT failures, last_failed_at FROM sign_in_failures WHERE key = ?1",
            [key],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .optional()?)
    }

    /// The seconds an attempt under `key` must still wait, if any.
    pub(crate) fn sign_in_wait(&self, key: &str) -> Result<Option<u64>> {
        let now = self.now();
        Ok(self.sign_in_failures(key)?.and_then(|(failures, last)| {
            parse_timestamp(&last).and_then(|last| retry_after(failures, last, now))
        }))
    }

    /// Counts a failed password or second-factor code under `key`.
    pub(crate) fn count_sign_in_failure(&mut self, key: &str) -> Result<()> {
        let now = self.now();
        let forget_before = ts(now.checked_sub(FAILURE_MEMORY).unwrap_or(Timestamp::MIN));
        self.write(|tx| {
            super::exec(
                tx,
                "INSERT INTO sign_in_failures (key, failures, last_failed_at) VALUES (?1, 1, ?2)
                 ON CONFLICT (key) DO UPDATE SET failures = failures + 1, last_failed_at = ?2",
                params![key, ts(now)],
            )?;
            super::exec(
                tx,
                "DELETE FROM sign_in_failures WHERE last_failed_at < ?1",
                [&forget_before],
            )?;
            Ok(())
        })
    }

    pub(crate) fn forget_sign_in_failures(&mut self, key: &str) -> Result<()> {
        self.write(|tx| {
            super::exec(tx, "DELETE FROM sign_in_failures WHERE key = ?1", [key])?;
            Ok(())
        })
    }

    /// The signed-in face of a user, with whether they must set up a second factor.
    pub fn session_user_by_id(&self, user_id: &UserId) -> Result<SessionUser> {
        let user = self.get_user(user_id)?;
        Ok(SessionUser {
            needs_second_factor: self.needs_second_factor(&user.id, user.is_admin)?,
            id: user.id,
            email: user.email,
            full_name: user.full_name,
            is_admin: user.is_admin,
        })
    }

    /// Starts a browser session; returns the token for the cookie (only its hash is kept).
    pub fn create_session(&mut self, user_id: &UserId, lifetime: SignedDuration) -> Result<String> {
        self.create_session_from(user_id, lifetime, &SessionOrigin::default())
    }

    /// Starts a browser session opened from `origin` (shown in the user's session list).
    pub fn create_session_from(
        &mut self,
        user_id: &UserId,
        lifetime: SignedDuration,
        origin: &SessionOrigin,
    ) -> Result<String> {
        let token = new_token();
        let id = new_token()[..32].to_owned();
        let now = self.now();
        let expires = now.checked_add(lifetime).unwrap_or(Timestamp::MAX);
        // Bounded, so a hostile header cannot fill the row.
        let user_agent: String = origin.user_agent.chars().take(512).collect();
        let address: String = origin.address.chars().take(64).collect();
        self.write(|tx| {
            super::exec(tx,
                "INSERT INTO sessions (token_hash, user_id, created_at, last_seen_at, expires_at, id, user_agent, address)
                 VALUES (?1, ?2, ?3, ?3, ?4, ?5, ?6, ?7)",
                params![token_hash(&token), user_id, ts(now), ts(expires), id, user_agent, address],
            )?;
            // Not a change to the user's record: no version bump, no audit row.
            super::exec(tx, "UPDATE users SET last_sign_in_at = ?2 WHERE id = ?1", params![user_id, ts(now)])?;
            // Sweep this user's dead sessions while we hold the write lock anyway.
            super::exec(tx, "DELETE FROM sessions WHERE user_id = ?1 AND expires_at < ?2", params![user_id, ts(now)])?;
            Ok(())
        })?;
        Ok(token)
    }

    /// The user of a live session, touching it; None when unknown, expired, idle too long
    /// or the user is disabled.
    pub fn session_user(
        &mut self,
        token: &str,
        idle_timeout: SignedDuration,
    ) -> Result<Option<SessionUser>> {
        Ok(self
            .session_user_until(token, idle_timeout)?
            .map(|(user, _)| user))
    }

    /// Whether a session still holds (not ended, expired, idle too long, or of a
    /// disabled account), without touching it: an open event stream asks this, and a
    /// stream alone must not keep a session from going idle.
    pub fn session_live(&self, token: &str, idle_timeout: SignedDuration) -> Result<bool> {
        let now = self.now();
        let row: Option<(String, String, bool)> = super::query_row(
            self.conn(),
            "SELECT s.last_seen_at, s.expires_at, u.disabled FROM sessions s
               JOIN users u ON u.id = s.user_id WHERE s.token_hash = ?1",
            [token_hash(token)],
            |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
        )
        .optional()?;
        let Some((last_seen, expires, disabled)) = row else {
            return Ok(false);
        };
        let last_seen = parse_timestamp(&last_seen).unwrap_or(Timestamp::MIN);
        let expires = parse_timestamp(&expires).unwrap_or(Timestamp::MIN);
        let idle_deadline = last_seen
            .checked_add(idle_timeout)
            .unwrap_or(Timestamp::MAX);
        Ok(!disabled && now < expires && now < idle_deadline)
    }

    /// Like [`Store::session_user`], with the moment until which the answer holds if
    /// nothing is written meanwhile: the session's end (absolute or idle), or when its
    /// last-seen time is due to be touched again, whichever comes first. A server may
    /// keep the answer until then as long as it notices every write (`data_version`).
    pub fn session_user_until(
        &mut self,
        token: &str,
        idle_timeout: SignedDuration,
    ) -> Result<Option<(SessionUser, Timestamp)>> {
        let hash = token_hash(token);
        let now = self.now();
        let row: Option<(UserId, String, String, bool)> = super::query_row(self.conn(),
                "SELECT s.user_id, s.last_seen_at, s.expires_at, u.disabled FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ?1",
                [&hash],
                |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)),
            )
            .optional()?;
        let Some((user_id, last_seen, expires, disabled)) = row else {
            return Ok(None);
        };
        let last_seen = parse_timestamp(&last_seen).unwrap_or(Timestamp::MIN);
        let expires = parse_timestamp(&expires).unwrap_or(Timestamp::MIN);
        let idle_deadline = last_seen
            .checked_add(idle_timeout)
            .unwrap_or(Timestamp::MAX);
        if disabled || now >= expires || now >= idle_deadline {
            self.write(|tx| {
                super::exec(tx, "DELETE FROM sessions WHERE token_hash = ?1", [&hash])?;
                Ok(())
            })?;
            return Ok(None);
        }
        // Touch at most every 30 seconds: a read-heavy page should not write on every call.
        let mut seen = last_seen;
        if now.duration_since(last_seen) > TOUCH_EVERY {
            self.write(|tx| {
                super::exec(
                    tx,
                    "UPDATE sessions SET last_seen_at = ?2 WHERE token_hash = ?1",
                    params![hash, ts(now)],
                )?;
                Ok(())
            })?;
            seen = now;
        }
        let until = [
            expires,
            seen.checked_add(idle_timeout).unwrap_or(Timestamp::MAX),
            seen.checked_add(TOUCH_EVERY).unwrap_or(Timestamp::MAX),
        ]
        .into_iter()
        .min()
        .unwrap_or(now);
        let user = self.session_user_by_id(&user_id)?;
        Ok(Some((user, until)))
    }

    pub fn end_session(&mut self, token: &str) -> Result<()> {
        let hash = token_hash(token);
        self.write(|tx| {
            super::exec(tx, "DELETE FROM sessions WHERE token_hash = ?1", [&hash])?;
            Ok(())
        })
    }

    /// The user's live sessions, the newest first; `current_token` marks the asking one.
    /// Sessions past their end or idle too long are not listed (they end on next use).
    pub fn active_sessions(
        &self,
        user_id: &UserId,
        current_token: &str,
        idle_timeout: SignedDuration,
    ) -> Result<Vec<ActiveSession>> {
        let now = self.now();
        let idle_since = ts(now.checked_sub(idle_timeout).unwrap_or(Timestamp::MIN));
        let current = token_hash(current_token);
        let mut statement = self.conn().prepare_cached(
            "SELECT id, user_agent, address, created_at, last_seen_at, token_hash = ?2 FROM sessions
              WHERE user_id = ?1 AND expires_at > ?3 AND last_seen_at > ?4
              ORDER BY created_at DESC, id",
        )?;
        let rows = statement.query_map(params![user_id, current, ts(now), idle_since], |row| {
            let user_agent: String = row.get(1)?;
            Ok(ActiveSession {
                id: row.get::<_, Option<String>>(0)?.unwrap_or_default(),
                device: crate::rules::sign_in::device_name(&user_agent),
                address: row.get(2)?,
                created_at: row.get(3)?,
                last_seen_at: row.get(4)?,
                current: row.get(5)?,
            })
        })?;
        Ok(rows.collect::<std::result::Result<Vec<_>, _>>()?)
    }

    /// Ends one of the user's own sessions by its id, at once (the same delete as a
    /// sign-out). Another user's session id is "not found", like an ended one.
    pub fn end_session_by_id(&mut self, user_id: &UserId, session_id: &str) -> Result<()> {
        self.write(|tx| {
            let ended = super::exec(
                tx,
                "DELETE FROM sessions WHERE id = ?1 AND user_id = ?2",
                params![session_id, user_id],
            )?;
            if ended == 0 {
                return Err(crate::error::Error::not_found("session", session_id));
            }
            Ok(())
        })
    }

    pub fn end_all_sessions(&mut self, user_id: &UserId) -> Result<()> {
        self.write(|tx| {
            super::exec(tx, "DELETE FROM sessions WHERE user_id = ?1", [user_id])?;
            Ok(())
        })
    }

    /// A single-use sign-in token for a magic link or a password recovery link. None when
    /// the email has no active account (the caller answers the same either way).
    pub fn create_auth_token(
        &mut self,
        email: &str,
        purpose: AuthTokenPurpose,
        lifetime: SignedDuration,
    ) -> Result<Option<(String, User)>> {
        let Ok(user) = self.user_by_email(email) else {
            return Ok(None);
        };
        if user.disabled {
            return Ok(None);
        }
        let token = new_token();
        let now = self.now();
        let expires = now.checked_add(lifetime).unwrap_or(Timestamp::MAX);
        self.write(|tx| {
            super::exec(tx,
                "INSERT INTO auth_tokens (token_hash, user_id, purpose, created_at, expires_at) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![token_hash(&token), user.id, purpose.as_str(), ts(now), ts(expires)],
            )?;
            super::exec(tx, "DELETE FROM auth_tokens WHERE user_id = ?1 AND expires_at < ?2", params![user.id, ts(now)])?;
            Ok(())
        })?;
        Ok(Some((token, user)))
    }

    /// Uses a sign-in token once; None when unknown, used, expired or for another purpose.
    pub fn consume_auth_token(
        &mut self,
        token: &str,
        purpose: AuthTokenPurpose,
    ) -> Result<Option<SessionUser>> {
        let hash = token_hash(token);
        let now = self.now();
        let user_id: Option<UserId> = self.write(|tx| {
            let user_id: Option<UserId> = super::query_row(tx,
                    "SELECT user_id FROM auth_tokens WHERE token_hash = ?1 AND purpose = ?2 AND used_at IS NULL AND expires_at > ?3",
                    params![hash, purpose.as_str(), ts(now)],
                    |row| row.get(0),
                )
                .optional()?;
            if user_id.is_some() {
                super::exec(tx, "UPDATE auth_tokens SET used_at = ?2 WHERE token_hash = ?1", params![hash, ts(now)])?;
            }
            Ok(user_id)
        })?;
        match user_id {
            Some(user_id) => self.session_user_by_id(&user_id).map(Some),
            None => Ok(None),
        }
    }
}
