//! Staff second factors: enrolling an authenticator app (TOTP) with ten single-use
//! recovery codes, the pending sign-in between a right password and a right code, and
//! an administrator's reset. Recovery codes and pending sign-in tokens are kept only as
//! SHA-256 hashes; a TOTP secret is answered once, when enrolment starts.

use jiff::Timestamp;
use rusqlite::{OptionalExtension, params};
use serde::Serialize;

use super::credentials::{new_token, token_hash};
use super::sessions::SessionUser;
use super::{Store, audit, require_admin, ts};
use crate::error::{Error, Result};
use crate::model::{Actor, SecondFactorPolicy, User, UserId, WorkflowSettings};
use crate::rules::clock::parse_timestamp;
use crate::rules::second_factor::{
    ALREADY_ENROLLED, CODE_INVALID, NOT_ENROLLING, PENDING_ATTEMPTS, PENDING_LIFETIME, accept_totp,
    must_have_second_factor, new_recovery_codes, new_totp_secret, normalize_recovery_code,
    otpauth_url, qr_svg,
};

/// What the account page shows of the user's second factor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SecondFactorStatus {
    /// An authenticator app is set up and confirmed.
    pub totp: bool,
    /// Recovery codes not used yet.
    pub recovery_codes_left: i64,
    /// The administrators' setting asks this user to have a second factor.
    pub required: bool,
}

/// A started enrolment: the secret to type into the app (shown once) and the address
/// its QR code holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TotpEnrolment {
    pub secret: String,
    pub otpauth_url: String,
}

/// The recovery codes, shown once right after they are made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RecoveryCodes {
    pub codes: Vec<String>,
}

/// Why a second-factor code was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SecondFactorFailure {
    /// The pending sign-in is unknown, over or spent: sign in again.
    Expired,
    /// A wrong, used or stale code.
    Invalid,
    /// Too many failures from there: wait this many seconds.
    Throttled { retry_after_secs: u64 },
}

fn unix_seconds(moment: Timestamp) -> u64 {
    u64::try_from(moment.as_second()).unwrap_or(0)
}

impl Store {
    /// The administrators' setting of who must have a second factor.
    pub(crate) fn second_factor_policy(&self) -> Result<SecondFactorPolicy> {
        let stored: Option<String> = super::query_row(
            self.conn(),
            "SELECT value FROM settings WHERE tab = 'workflow'",
            [],
            |row| row.get(0),
        )
        .optional()?;
        Ok(match stored {
            Some(value) => serde_json::from_str::<WorkflowSettings>(&value)?.second_factor_required,
            None => SecondFactorPolicy::default(),
        })
    }

    /// Whether the user has a confirmed second factor.
    pub fn has_second_factor(&self, user_id: &UserId) -> Result<bool> {
        Ok(super::query_row(
            self.conn(),
            "SELECT EXISTS (SELECT 1 FROM totp_factors WHERE user_id = ?1 AND confirmed_at IS NOT NULL)",
            [user_id],
            |row| row.get(0),
        )?)
    }

    /// Whether the user must set up a second factor before anything else: the setting
    /// asks for one and they have none.
    pub(crate) fn needs_second_factor(&self, user_id: &UserId, is_admin: bool) -> Result<bool> {
        Ok(
            must_have_second_factor(self.second_factor_policy()?, is_admin)
                && !self.has_second_factor(user_id)?,
        )
    }

    pub fn second_factor_status(&self, user: &SessionUser) -> Result<SecondFactorStatus> {
        let recovery_codes_left: i64 = super::query_row(
            self.conn(),
            "SELECT count(*) FROM recovery_codes WHERE user_id = ?1 AND used_at IS NULL",
            [&user.id],
            |row| row.get(0),
        )?;
        Ok(SecondFactorStatus {
            totp: self.has_second_factor(&user.id)?,
            recovery_codes_left,
            required: must_have_second_factor(self.second_factor_policy()?, user.is_admin),
        })
    }

    /// Starts enrolling an authenticator app: a new secret, replacing any unconfirmed one.
    pub fn start_totp_enrolment(&mut self, user: &SessionUser) -> Result<TotpEnrolment> {
        if self.has_second_factor(&user.id)? {
            return Err(Error::Rejected(ALREADY_ENROLLED.to_owned()));
        }
        let secret = new_totp_secret();
        let url = otpauth_url(&secret, &user.email)
            .ok_or_else(|| Error::Corrupt("cannot write the otpauth address".to_owned()))?;
        let now = self.now();
        self.write(|tx| {
            super::exec(
                tx,
                "INSERT INTO totp_factors (user_id, secret, created_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT (user_id) DO UPDATE SET secret = ?2, created_at = ?3, last_step = 0
                 WHERE confirmed_at IS NULL",
                params![user.id, secret, ts(now)],
            )?;
            Ok(())
        })?;
        Ok(TotpEnrolment {
            secret,
            otpauth_url: url,
        })
    }

    /// The QR code (SVG) of the enrolment in progress; None when none is.
    pub fn totp_enrolment_qr(&self, user: &SessionUser) -> Result<Option<String>> {
        let secret: Option<String> = super::query_row(
            self.conn(),
            "SELECT secret FROM totp_factors WHERE user_id = ?1 AND confirmed_at IS NULL",
            [&user.id],
            |row| row.get(0),
        )
        .optional()?;
        Ok(secret
            .and_then(|secret| otpauth_url(&secret, &user.email))
            .and_then(|url| qr_svg(&url)))
    }

    /// Confirms the enrolment with a first code from the app; answers the ten recovery
    /// codes (only their hashes are kept).
    pub fn confirm_totp(
        &mut self,
        actor: &Actor,
        user: &SessionUser,
        code: &str,
    ) -> Result<RecoveryCodes> {
        let pending: Option<String> = super::query_row(
            self.conn(),
            "SELECT secret FROM totp_factors WHERE user_id = ?1 AND confirmed_at IS NULL",
            [&user.id],
            |row| row.get(0),
        )
        .optional()?;
        let Some(secret) = pending else {
            return Err(Error::Rejected(NOT_ENROLLING.to_owned()));
        };
        let now = self.now();
        let Some(step) = accept_totp(&secret, code, unix_seconds(now), 0) else {
            return Err(Error::Validation(crate::ValidationErrors::single(
                "code",
                CODE_INVALID,
            )));
        };
        let codes = new_recovery_codes();
        self.write(|tx| {
            super::exec(
                tx,
                "UPDATE totp_factors SET confirmed_at = ?2, last_step = ?3 WHERE user_id = ?1",
                params![user.id, ts(now), step as i64],
            )?;
            replace_recovery_codes(tx, &user.id, &codes)?;
            audit(
                tx,
                actor,
                now,
                "enrol_second_factor",
                "user",
                user.id.as_str(),
                None,
                &["second_factor"],
            )
        })?;
        Ok(RecoveryCodes { codes })
    }

    /// Removes a user's second factor and recovery codes (administrator only); they sign
    /// in with their password alone until they enrol again.
    pub fn reset_second_factor(&mut self, actor: &Actor, user_id: &UserId) -> Result<User> {
        require_admin(actor)?;
        let user = self.get_user(user_id)?;
        let now = self.now();
        self.write(|tx| {
            super::exec(tx, "DELETE FROM totp_factors WHERE user_id = ?1", [user_id])?;
            super::exec(
                tx,
                "DELETE FROM recovery_codes WHERE user_id = ?1",
                [user_id],
            )?;
            super::exec(
                tx,
                "DELETE FROM pending_sign_ins WHERE user_id = ?1",
                [user_id],
            )?;
            audit(
                tx,
                actor,
                now,
                "reset_second_factor",
                "user",
                user_id.as_str(),
                None,
                &["second_factor"],
            )
        })?;
        Ok(user)
    }

    /// After a right password: a pending sign-in awaiting the code (not a session).
    /// Returns its token, for a short-lived cookie.
    pub fn begin_pending_sign_in(&mut self, user_id: &UserId, client: &str) -> Result<String> {
        let token = new_token();
        let now = self.now();
        let expires = now.checked_add(PENDING_LIFETIME).unwrap_or(Timestamp::MAX);
        self.write(|tx| {
            super::exec(
                tx,
                "DELETE FROM pending_sign_ins WHERE expires_at < ?1",
                [ts(now)],
            )?;
            super::exec(
                tx,
                "INSERT INTO pending_sign_ins (token_hash, user_id, client, created_at, expires_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![token_hash(&token), user_id, client, ts(now), ts(expires)],
            )?;
            Ok(())
        })?;
        Ok(token)
    }

    /// The code step of a sign-in: a TOTP code (each time step once) or an unused
    /// recovery code (spent by this). Wrong codes count with wrong passwords for the
    /// account and address, so the sign-in throttle covers both steps; a few end the
    /// pending sign-in.
    pub fn finish_pending_sign_in(
        &mut self,
        token: &str,
        code: &str,
        client: &str,
    ) -> Result<std::result::Result<SessionUser, SecondFactorFailure>> {
        let hash = token_hash(token);
        let now = self.now();
        let pending: Option<(UserId, String, i64, String)> = super::query_row(
            self.conn(),
            "SELECT p.user_id, u.email, p.failures, p.expires_at FROM pending_sign_ins p
               JOIN users u ON u.id = p.user_id WHERE p.token_hash = ?1 AND u.disabled = 0",
            [&hash],
            |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)),
        )
        .optional()?;
        let Some((user_id, email, failures, expires)) = pending else {
            return Ok(Err(SecondFactorFailure::Expired));
        };
        let expired = parse_timestamp(&expires).is_none_or(|expires| now >= expires);
        if expired || failures >= PENDING_ATTEMPTS {
            self.write(|tx| {
                super::exec(
                    tx,
                    "DELETE FROM pending_sign_ins WHERE token_hash = ?1",
                    [&hash],
                )?;
                Ok(())
            })?;
            return Ok(Err(SecondFactorFailure::Expired));
        }
        let key = self.sign_in_failure_key(&email, client);
        if let Some(wait) = self.sign_in_wait(&key)? {
            return Ok(Err(SecondFactorFailure::Throttled {
                retry_after_secs: wait,
            }));
        }
        let factor: Option<(String, i64)> = super::query_row(
            self.conn(),
            "SELECT secret, last_step FROM totp_factors WHERE user_id = ?1 AND confirmed_at IS NOT NULL",
            [&user_id],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .optional()?;
        let step = factor.as_ref().and_then(|(secret, last)| {
            accept_totp(
                secret,
                code,
                unix_seconds(now),
                u64::try_from(*last).unwrap_or(0),
            )
        });
        let recovery = normalize_recovery_code(code);
        let accepted = self.write(|tx| {
            if let Some(step) = step {
                // Only a later step than the stored one: two requests racing with one
                // code cannot both pass.
                let taken = super::exec(
                    tx,
                    "UPDATE totp_factors SET last_step = ?2 WHERE user_id = ?1 AND last_step < ?2",
                    params![user_id, step as i64],
                )?;
                if taken == 1 {
                    super::exec(tx, "DELETE FROM pending_sign_ins WHERE token_hash = ?1", [&hash])?;
                    return Ok(true);
                }
            }
            if recovery.len() == 10 {
                let spent = super::exec(
                    tx,
                    "UPDATE recovery_codes SET used_at = ?3 WHERE user_id = ?1 AND code_hash = ?2 AND used_at IS NULL",
                    params![user_id, token_hash(&recovery), ts(now)],
                )?;
                if spent == 1 {
                    super::exec(tx, "DELETE FROM pending_sign_ins WHERE token_hash = ?1", [&hash])?;
                    return Ok(true);
                }
            }
            super::exec(
                tx,
                "UPDATE pending_sign_ins SET failures = failures + 1 WHERE token_hash = ?1",
                [&hash],
            )?;
            Ok(false)
        })?;
        if !accepted {
            self.count_sign_in_failure(&key)?;
            return Ok(Err(SecondFactorFailure::Invalid));
        }
        self.forget_sign_in_failures(&key)?;
        let user = self.get_user(&user_id)?;
        Ok(Ok(SessionUser {
            needs_second_factor: false,
            id: user.id,
            email: user.email,
            full_name: user.full_name,
            is_admin: user.is_admin,
        }))
    }
}

fn replace_recovery_codes(
    tx: &rusqlite::Connection,
    user_id: &UserId,
    codes: &[String],
) -> Result<()> {
    super::exec(
        tx,
        "DELETE FROM recovery_codes WHERE user_id = ?1",
        [user_id],
    )?;
    for code in codes {
        super::exec(
            tx,
            "INSERT INTO recovery_codes (user_id, code_hash) VALUES (?1, ?2)",
            params![user_id, token_hash(&normalize_recovery_code(code))],
        )?;
    }
    Ok(())
}
