//! Staff users, admin roles, invitations, sign-up and passwords. Passwords are argon2id
//! hashes; an invitation link's token is stored only as its SHA-256 hash.

use jiff::Timestamp;
use rusqlite::{OptionalExtension, params};

use super::credentials::{hash_password, new_token, password_matches, token_hash};
use super::{Store, audit, require_admin, ts};
use crate::error::{Error, Result};
use crate::model::{Actor, Channel, Profile, User, UserId};
use crate::rules::sign_in::INVITATION_LIFETIME;
use crate::rules::validation::validate_new_password;

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
            insert_user(
                tx,
                actor,
                now,
                &id,
                &email,
                &full_name,
                password_hash.as_deref(),
                new.is_admin,
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

    /// Re-enables a disabled user (admin only): they can sign in again with the password
    /// they had; no session or link of before comes back.
    pub fn enable_user(&mut self, actor: &Actor, user_id: &UserId) -> Result<User> {
        require_admin(actor)?;
        let now = self.now();
        self.write(|tx| {
            let n = super::exec(tx,
                "UPDATE users SET disabled = 0, updated_at = ?2, version = version + 1 WHERE id = ?1 AND disabled = 1",
                params![user_id, ts(now)],
            )?;
            if n == 0 {
                let exists: bool = super::query_row(tx, "SELECT EXISTS (SELECT 1 FROM users WHERE id = ?1)", [user_id], |row| row.get(0))?;
                // Enabling an enabled user changes nothing and says so by its answer.
                return if exists { Ok(()) } else { Err(Error::not_found("user", user_id)) };
            }
            audit(tx, actor, now, "enable", "user", user_id.as_str(), None, &["disabled"])
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
}

/// Writes a new user, with the admin role when asked, in the caller's transaction.
#[allow(clippy::too_many_arguments)]
pub(super) fn insert_user(
    tx: &rusqlite::Connection,
    actor: &Actor,
    now: Timestamp,
    id: &UserId,
    email: &str,
    full_name: &str,
    password_hash: Option<&str>,
    is_admin: bool,
) -> Result<()> {
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
    if is_admin {
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
}
