//! Staff users, admin roles, invitations, sign-in, browser sessions and single-use
//! sign-in tokens. Passwords are argon2id hashes; session and link tokens are random and
//! stored only as SHA-256 hashes, so a copy of the database signs nobody in.

use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use jiff::{SignedDuration, Timestamp};
use rand::RngCore;
use rusqlite::{OptionalExtension, params};
use serde::Serialize;
use sha2::{Digest, Sha256};

use super::{Store, audit, require_admin, ts};
use crate::error::{Error, Result};
use crate::model::{Actor, Channel, Profile, User, UserId};
use crate::rules::clock::parse_timestamp;
use crate::rules::sign_in::{FAILURE_MEMORY, INVITATION_LIFETIME, throttle_delay};
use crate::rules::validation::validate_new_password;

/// The message for any failed sign-in: it never says whether the email exists.
pub const INVALID_CREDENTIALS: &str = "Invalid login credentials";
pub use crate::rules::sign_in::FREE_FAILURES;
/// The current password did not match when changing it.
pub const CURRENT_PASSWORD_WRONG: &str = "Your current password is incorrect.";
/// Sign-up without a valid invitation link.
pub const INVITATION_NEEDED: &str =
    "Sign-up is by invitation only. Ask an administrator to invite this email address.";

#[derive(Debug, Clone)]
pub struct NewUser {
    pub email: String,
    pub full_name: String,
    pub password: Option<String>,
    pub is_admin: bool,
}

/// Why a sign-in was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignInFailure {
    /// Wrong email or password (one answer for both).
    Invalid,
    /// Too many failures: try again after this many seconds.
    Throttled { retry_after_secs: u64 },
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

/// A new random token (256 bits, hex).
pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    hex(&bytes)
}

/// What the database keeps of a token.
pub fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn hash_password(password: &str) -> Result<String> {
    Argon2::default()
        .hash_password(password.as_bytes())
        .map(|hash| hash.to_string())
        .map_err(|e| Error::Corrupt(format!("cannot hash password: {e}")))
}

fn password_matches(password: &str, stored: Option<&str>) -> bool {
    match stored.map(PasswordHash::new) {
        Some(Ok(hash)) => Argon2::default()
            .verify_password(password.as_bytes(), &hash)
            .is_ok(),
        _ => {
            // Spend the same time as a real check so timing does not reveal the email.
            let _ = hash_password(password);
            false
        }
    }
}

const USER_COLUMNS: &str = "u.id, u.version, u.email, u.full_name, \
    EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id AND r.role = 'admin'), u.disabled, u.created_at, \
    u.last_sign_in_at, u.phone";

fn user_from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<User> {
    Ok(User {
        id: row.get(0)?,
        version: row.get(1)?,
        email: row.get(2)?,
        full_name: row.get(3)?,
        is_admin: row.get(4)?,
        disabled: row.get(5)?,
        created_at: row.get(6)?,
        last_sign_in_at: row.get(7)?,
        phone: row.get(8)?,
    })
}

fn normalize_email(email: &str) -> Result<String> {
    crate::rules::validation::validate_magic_link_email(email)?;
    let email = email.trim().to_lowercase();
    crate::rules::validation::check_field_text("email", &email)?;
    Ok(email)
}

impl Store {
    /// Adds a staff user (CLI `user add`, demo data, accepted invitations).
    pub fn create_user(&mut self, actor: &Actor, new: NewUser) -> Result<User> {
        let email = normalize_email(&new.email)?;
        let full_name = new.full_name.trim().to_owned();
        if full_name.is_empty() {
            return Err(Error::Validation(crate::ValidationErrors::single(
                "full_name",
                "Full name is required",
            )));
        }
        crate::rules::validation::check_field_text("full_name", &full_name)?;
        let password_hash = match &new.password {
            Some(password) => {
                validate_new_password(password, password)?;
                Some(hash_password(password)?)
            }
            None => None,
        };
        let now = self.now();
        let id = UserId::new();
        self.write(|tx| {
            let taken: bool = super::query_row(
                tx,
                "SELECT EXISTS (SELECT 1 FROM users WHERE email = ?1)",
                [&email],
                |row| row.get(0),
            )?;
            if taken {
                return Err(Error::Validation(crate::ValidationErrors::single(
                    "email",
                    "A user with this email address already exists",
                )));
            }
            super::exec(
                tx,
                "INSERT INTO users (id, email, full_name, password_hash, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?5)",
                params![id, email, full_name, password_hash, ts(now)],
            )?;
            if new.is_admin {
                super::exec(
                    tx,
                    "INSERT INTO user_roles (user_id, role, created_at) VALUES (?1, 'admin', ?2)",
                    params![id, ts(now)],
                )?;
            }
            super::exec(
                tx,
                "UPDATE invitations SET accepted_at = ?2 WHERE email = ?1 AND accepted_at IS NULL",
                params![email, ts(now)],
            )?;
            audit(
                tx,
                actor,
                now,
                "create",
                "user",
                id.as_str(),
                None,
                &["email", "full_name"],
            )
        })?;
        self.get_user(&id)
    }

    pub fn get_user(&self, id: &UserId) -> Result<User> {
        super::query_row(
            self.conn(),
            &format!("SELECT {USER_COLUMNS} FROM users u WHERE u.id = ?1"),
            [id],
            user_from_row,
        )
        .optional()?
        .ok_or_else(|| Error::not_found("user", id))
    }

    pub fn user_by_email(&self, email: &str) -> Result<User> {
        let email = email.trim().to_lowercase();
        super::query_row(
            self.conn(),
            &format!("SELECT {USER_COLUMNS} FROM users u WHERE u.email = ?1"),
            [&email],
            user_from_row,
        )
        .optional()?
        .ok_or_else(|| Error::not_found("user", &email))
    }

    pub fn users(&self) -> Result<Vec<User>> {
        let mut statement = self.conn().prepare_cached(&format!(
            "SELECT {USER_COLUMNS} FROM users u ORDER BY u.full_name, u.email"
        ))?;
        let rows = statement.query_map([], user_from_row)?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// Profiles for the team-member picker, ordered by name.
    pub fn profiles(&self) -> Result<Vec<Profile>> {
        let mut statement = self.conn().prepare_cached(
            "SELECT id, full_name, email FROM users WHERE disabled = 0 ORDER BY full_name, email",
        )?;
        let rows = statement.query_map([], |row| {
            Ok(Profile {
                id: row.get(0)?,
                full_name: row.get(1)?,
                email: row.get(2)?,
            })
        })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// Sets a password (spec rules), ends every session of the user except `keep_session`.
    pub fn set_password(
        &mut self,
        actor: &Actor,
        user_id: &UserId,
        password: &str,
        confirm: &str,
        keep_session: Option<&str>,
    ) -> Result<()> {
        validate_new_password(password, confirm)?;
        let hash = hash_password(password)?;
        let now = self.now();
        let keep = keep_session.map(token_hash);
        self.write(|tx| {
            let n = super::exec(tx,
                "UPDATE users SET password_hash = ?2, failed_sign_ins = 0, updated_at = ?3, version = version + 1 WHERE id = ?1",
                params![user_id, hash, ts(now)],
            )?;
            if n == 0 {
                return Err(Error::not_found("user", user_id));
            }
            super::exec(tx,
                "DELETE FROM sessions WHERE user_id = ?1 AND token_hash IS NOT ?2",
                params![user_id, keep],
            )?;
            // A link sent before the change must not sign in after it.
            super::exec(tx, "DELETE FROM auth_tokens WHERE user_id = ?1", [user_id])?;
            audit(tx, actor, now, "set_password", "user", user_id.as_str(), None, &["password"])
        })
    }

    pub fn set_admin(&mut self, actor: &Actor, user_id: &UserId, admin: bool) -> Result<User> {
        require_admin(actor)?;
        let now = self.now();
        self.write(|tx| {
            let exists: bool = super::query_row(tx, "SELECT EXISTS (SELECT 1 FROM users WHERE id = ?1)", [user_id], |row| row.get(0))?;
            if !exists {
                return Err(Error::not_found("user", user_id));
            }
            if admin {
                super::exec(tx,
                    "INSERT OR IGNORE INTO user_roles (user_id, role, created_at) VALUES (?1, 'admin', ?2)",
                    params![user_id, ts(now)],
                )?;
            } else {
                let admins: i64 = super::query_row(tx,
                    "SELECT count(*) FROM user_roles r JOIN users u ON u.id = r.user_id WHERE r.role = 'admin' AND u.disabled = 0 AND r.user_id <> ?1",
                    [user_id],
                    |row| row.get(0),
                )?;
                if admins == 0 {
                    return Err(Error::Rejected("Carepath needs at least one administrator.".to_owned()));
                }
                super::exec(tx, "DELETE FROM user_roles WHERE user_id = ?1 AND role = 'admin'", [user_id])?;
            }
            audit(tx, actor, now, if admin { "grant_admin" } else { "revoke_admin" }, "user", user_id.as_str(), None, &["role"])
        })?;
        self.get_user(user_id)
    }

    /// Sets a user's mobile number for texts on urgent updates (admin only); an empty
    /// number stops them. A stale `version` is a conflict.
    pub fn set_user_phone(
        &mut self,
        actor: &Actor,
        user_id: &UserId,
        phone: &str,
        version: i64,
    ) -> Result<User> {
        require_admin(actor)?;
        let phone = crate::rules::validation::staff_phone(phone)?;
        let current = self.get_user(user_id)?;
        if current.version != version {
            return Err(Error::conflict("user", &current));
        }
        let now = self.now();
        self.write(|tx| {
            let changed = super::exec(
                tx,
                "UPDATE users SET phone = ?2, updated_at = ?3, version = version + 1
                  WHERE id = ?1 AND version = ?4",
                params![user_id, phone, ts(now), version],
            )?;
            if changed == 0 {
                return Err(Error::conflict("user", &current));
            }
            audit(
                tx,
                actor,
                now,
                "update",
                "user",
                user_id.as_str(),
                None,
                &["phone"],
            )
        })?;
        self.get_user(user_id)
    }

    /// Disables a user and ends their sessions.
    pub fn disable_user(&mut self, actor: &Actor, user_id: &UserId) -> Result<User> {
        require_admin(actor)?;
        let now = self.now();
        self.write(|tx| {
            let n = super::exec(tx,
                "UPDATE users SET disabled = 1, updated_at = ?2, version = version + 1 WHERE id = ?1",
                params![user_id, ts(now)],
            )?;
            if n == 0 {
                return Err(Error::not_found("user", user_id));
            }
            super::exec(tx, "DELETE FROM sessions WHERE user_id = ?1", [user_id])?;
            super::exec(tx, "DELETE FROM auth_tokens WHERE user_id = ?1", [user_id])?;
            audit(tx, actor, now, "disable", "user", user_id.as_str(), None, &["disabled"])
        })?;
        self.get_user(user_id)
    }

    /// Invites an email address to sign up (admin only). Returns the invitation link's
    /// token (only its hash is kept); inviting again replaces the earlier link.
    pub fn invite(&mut self, actor: &Actor, email: &str, is_admin: bool) -> Result<String> {
        require_admin(actor)?;
        let email = normalize_email(email)?;
        let now = self.now();
        let token = new_token();
        let expires = now
            .checked_add(INVITATION_LIFETIME)
            .unwrap_or(Timestamp::MAX);
        self.write(|tx| {
            super::exec(tx,
                "INSERT INTO invitations (email, invited_by, is_admin, created_at, token_hash, expires_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                 ON CONFLICT (email) DO UPDATE SET invited_by = ?2, is_admin = ?3, created_at = ?4,
                    accepted_at = NULL, token_hash = ?5, expires_at = ?6",
                params![email, actor.user_id, is_admin, ts(now), token_hash(&token), ts(expires)],
            )?;
            audit(tx, actor, now, "invite", "invitation", &email, None, &["email"])
        })?;
        Ok(token)
    }

    /// Sign-up: only with a live invitation link for this email, and only once.
    pub fn sign_up(
        &mut self,
        email: &str,
        full_name: &str,
        password: &str,
        token: &str,
    ) -> Result<User> {
        let email = normalize_email(email)?;
        let now = self.now();
        let invitation: Option<bool> = super::query_row(
            self.conn(),
            "SELECT is_admin FROM invitations
             WHERE email = ?1 AND accepted_at IS NULL AND token_hash = ?2 AND expires_at > ?3",
            params![email, token_hash(token), ts(now)],
            |row| row.get(0),
        )
        .optional()?;
        let Some(is_admin) = invitation else {
            return Err(Error::Forbidden(INVITATION_NEEDED));
        };
        let full_name = if full_name.trim().is_empty() {
            email.clone()
        } else {
            full_name.to_owned()
        };
        self.create_user(
            &Actor::system(Channel::Web),
            NewUser {
                email,
                full_name,
                password: Some(password.to_owned()),
                is_admin,
            },
        )
    }

    /// Changes a password after checking the current one; the user's other sessions and
    /// every outstanding sign-in or recovery link end.
    pub fn change_password(
        &mut self,
        actor: &Actor,
        user_id: &UserId,
        current: &str,
        password: &str,
        confirm: &str,
        keep_session: Option<&str>,
    ) -> Result<()> {
        validate_new_password(password, confirm)?;
        let stored: Option<String> = super::query_row(
            self.conn(),
            "SELECT password_hash FROM users WHERE id = ?1",
            [user_id],
            |row| row.get(0),
        )
        .optional()?
        .flatten();
        if !password_matches(current, stored.as_deref()) {
            return Err(Error::Validation(crate::ValidationErrors::single(
                "current_password",
                CURRENT_PASSWORD_WRONG,
            )));
        }
        self.set_password(actor, user_id, password, confirm, keep_session)
    }

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
        let now = self.now();
        let key = token_hash(&format!("{email}\n{client}"));
        let counted: Option<(i64, String)> = super::query_row(
            self.conn(),
            "SELECT failures, last_failed_at FROM sign_in_failures WHERE key = ?1",
            [&key],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .optional()?;
        if let Some((failures, last)) = &counted
            && let (Some(delay), Some(last)) = (throttle_delay(*failures), parse_timestamp(last))
        {
            let until = last.checked_add(delay).unwrap_or(Timestamp::MAX);
            if now < until {
                let wait = until.duration_since(now).as_secs().max(1) as u64;
                return Ok(Err(SignInFailure::Throttled {
                    retry_after_secs: wait,
                }));
            }
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
        let forget_before = ts(now.checked_sub(FAILURE_MEMORY).unwrap_or(Timestamp::MIN));
        if !signed_in {
            self.write(|tx| {
                super::exec(tx,
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
            })?;
            return Ok(Err(SignInFailure::Invalid));
        }
        let Some((user_id, _, _)) = row else {
            return Ok(Err(SignInFailure::Invalid));
        };
        if counted.is_some() {
            self.write(|tx| {
                super::exec(tx, "DELETE FROM sign_in_failures WHERE key = ?1", [&key])?;
                Ok(())
            })?;
        }
        self.session_user_by_id(&user_id).map(Ok)
    }

    fn session_user_by_id(&self, user_id: &UserId) -> Result<SessionUser> {
        let user = self.get_user(user_id)?;
        Ok(SessionUser {
            id: user.id,
            email: user.email,
            full_name: user.full_name,
            is_admin: user.is_admin,
        })
    }

    /// Starts a browser session; returns the token for the cookie (only its hash is kept).
    pub fn create_session(&mut self, user_id: &UserId, lifetime: SignedDuration) -> Result<String> {
        let token = new_token();
        let now = self.now();
        let expires = now.checked_add(lifetime).unwrap_or(Timestamp::MAX);
        self.write(|tx| {
            super::exec(tx,
                "INSERT INTO sessions (token_hash, user_id, created_at, last_seen_at, expires_at) VALUES (?1, ?2, ?3, ?3, ?4)",
                params![token_hash(&token), user_id, ts(now), ts(expires)],
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
