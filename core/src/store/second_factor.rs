//! Staff second factors: enrolling an authenticator app (TOTP) with ten single-use
//! recovery codes, the pending sign-in between a right password and a right code, and
//! an administrator's reset (which removes passkeys too). Recovery codes and pending
//! sign-in tokens are kept only as SHA-256 hashes; a TOTP secret is answered once, when
//! enrolment starts, and kept sealed with the key outside the database (`secrets.rs`).

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
    ALREADY_ENROLLED, CODE_INVALID, NOT_ENROLLING, PENDING_ATTEMPTS, PENDING_LIFETIME,
    TOTP_KEY_UNREADABLE, TOTP_SEAL_PURPOSE, accept_totp, must_have_second_factor,
    new_recovery_codes, new_totp_secret, normalize_recovery_code, otpauth_url, qr_svg,
};
use crate::secrets::SecretKeySource;

/// What the account page shows of the user's second factor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SecondFactorStatus {
    /// An authenticator app is set up and confirmed.
    pub totp: bool,
    /// Recovery codes not used yet.
    pub recovery_codes_left: i64,
    /// Passkeys set up (each is a second factor on its own).
    pub passkeys: i64,
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
    /// A passkey answer that did not verify (or no passkey was asked for).
    PasskeyRefused,
    /// Too many failures from there: wait this many seconds.
    Throttled { retry_after_secs: u64 },
}

fn unix_seconds(moment: Timestamp) -> u64 {
    u64::try_from(moment.as_second()).unwrap_or(0)
}

/// A pending sign-in that may still take its second factor.
pub(super) struct Pending {
    pub hash: String,
    pub user_id: UserId,
    /// The per-account and per-address key of the sign-in throttle.
    pub failure_key: String,
}

/// A TOTP secret as stored: sealed, or (before the server first sealed it) plain.
fn open_totp_secret(
    keys: &SecretKeySource,
    plain: String,
    sealed: Option<Vec<u8>>,
) -> Result<String> {
    let Some(sealed) = sealed else {
        return Ok(plain);
    };
    let unreadable = || Error::Rejected(TOTP_KEY_UNREADABLE.to_owned());
    let key = keys.load(false)?.ok_or_else(unreadable)?;
    key.open(TOTP_SEAL_PURPOSE, &sealed)
        .map_err(|_| unreadable())
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

    /// Whether the user has a confirmed second factor: an authenticator app or a passkey.
    pub fn has_second_factor(&self, user_id: &UserId) -> Result<bool> {
        Ok(super::query_row(
            self.conn(),
            "SELECT EXISTS (SELECT 1 FROM totp_factors WHERE user_id = ?1 AND confirmed_at IS NOT NULL)
                 OR EXISTS (SELECT 1 FROM passkeys WHERE user_id = ?1)",
            [user_id],
            |row| row.get(0),
        )?)
    }

    /// Whether the user has a confirmed authenticator app.
    pub(super) fn has_totp(&self, user_id: &UserId) -> Result<bool> {
        Ok(super::query_row(
            self.conn(),
            "SELECT EXISTS (SELECT 1 FROM totp_factors WHERE user_id = ?1 AND confirmed_at IS NOT NULL)",
            [user_id],
            |row| row.get(0),
        )?)
    }

    /// Seals every TOTP secret still kept in plain text (from before secrets were
    /// sealed); the server does this as it starts. Creates the key file only when there
    /// is something to seal. Answers how many were sealed.
    pub fn seal_totp_secrets(&mut self, keys: &SecretKeySource) -> Result<usize> {
        let mut statement = self.conn().prepare(
            "SELECT user_id, secret FROM totp_factors WHERE sealed_secret IS NULL AND secret != ''",
        )?;
        let plain: Vec<(UserId, String)> = statement
            .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
            .collect::<std::result::Result<_, _>>()?;
        drop(statement);
        if plain.is_empty() {
            return Ok(0);
        }
        let key = keys
            .load(true)?
            .ok_or_else(|| Error::Corrupt("no secret key".to_owned()))?;
        self.write(|tx| {
            for (user_id, secret) in &plain {
                // Only the secret read above: an enrolment started meanwhile is its own.
                super::exec(
                    tx,
                    "UPDATE totp_factors SET sealed_secret = ?3, secret = ''
                      WHERE user_id = ?1 AND secret = ?2 AND sealed_secret IS NULL",
                    params![user_id, secret, key.seal(TOTP_SEAL_PURPOSE, secret)],
                )?;
            }
            Ok(())
        })?;
        Ok(plain.len())
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
        let passkeys: i64 = super::query_row(
            self.conn(),
            "SELECT count(*) FROM passkeys WHERE user_id = ?1",
            [&user.id],
            |row| row.get(0),
        )?;
        Ok(SecondFactorStatus {
            totp: self.has_totp(&user.id)?,
            recovery_codes_left,
            passkeys,
            required: must_have_second_factor(self.second_factor_policy()?, user.is_admin),
        })
    }

    /// Starts enrolling an authenticator app: a new secret (sealed before it is stored),
    /// replacing any unconfirmed one.
    pub fn start_totp_enrolment(
        &mut self,
        keys: &SecretKeySource,
        user: &SessionUser,
    ) -> Result<TotpEnrolment> {
        if self.has_totp(&user.id)? {
            return Err(Error::Rejected(ALREADY_ENROLLED.to_owned()));
        }
        let secret = new_totp_secret();
        let url = otpauth_url(&secret, &user.email)
            .ok_or_else(|| Error::Corrupt("cannot write the otpauth address".to_owned()))?;
        let key = keys
            .load(true)?
            .ok_or_else(|| Error::Corrupt("no secret key".to_owned()))?;
        let sealed = key.seal(TOTP_SEAL_PURPOSE, &secret);
        let now = self.now();
        self.write(|tx| {
            super::exec(
                tx,
                "INSERT INTO totp_factors (user_id, secret, sealed_secret, created_at) VALUES (?1, '', ?2, ?3)
                 ON CONFLICT (user_id) DO UPDATE SET secret = '', sealed_secret = ?2, created_at = ?3, last_step = 0
                 WHERE confirmed_at IS NULL",
                params![user.id, sealed, ts(now)],
            )?;
            Ok(())
        })?;
        Ok(TotpEnrolment {
            secret,
            otpauth_url: url,
        })
    }

    /// The secret of the enrolment in progress, opened.
    fn unconfirmed_totp_secret(
        &self,
        keys: &SecretKeySource,
        user_id: &UserId,
    ) -> Result<Option<String>> {
        let stored: Option<(String, Option<Vec<u8>>)> = super::query_row(
            self.conn(),
            "SELECT secret, sealed_secret FROM totp_factors WHERE user_id = ?1 AND confirmed_at IS NULL",
            [user_id],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .optional()?;
        stored
            .map(|(plain, sealed)| open_totp_secret(keys, plain, sealed))
            .transpose()
    }

    /// The QR code (SVG) of the enrolment in progress; None when none is.
    pub fn totp_enrolment_qr(
        &self,
        keys: &SecretKeySource,
        user: &SessionUser,
    ) -> Result<Option<String>> {
        let secret = self.unconfirmed_totp_secret(keys, &user.id)?;
        Ok(secret
            .and_then(|secret| otpauth_url(&secret, &user.email))
            .and_then(|url| qr_svg(&url)))
    }

    /// Confirms the enrolment with a first code from the app; answers the ten recovery
    /// codes (only their hashes are kept).
    pub fn confirm_totp(
        &mut self,
        keys: &SecretKeySource,
        actor: &Actor,
        user: &SessionUser,
        code: &str,
    ) -> Result<RecoveryCodes> {
        let Some(secret) = self.unconfirmed_totp_secret(keys, &user.id)? else {
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

    /// Removes a user's second factors (authenticator app and passkeys) and recovery
    /// codes (administrator only); they sign in with their password alone until they
    /// enrol again.
    pub fn reset_second_factor(&mut self, actor: &Actor, user_id: &UserId) -> Result<User> {
        require_admin(actor)?;
        let user = self.get_user(user_id)?;
        let now = self.now();
        self.write(|tx| {
            super::exec(tx, "DELETE FROM totp_factors WHERE user_id = ?1", [user_id])?;
            super::exec(tx, "DELETE FROM passkeys WHERE user_id = ?1", [user_id])?;
            super::exec(
                tx,
                "DELETE FROM passkey_registrations WHERE user_id = ?1",
                [user_id],
            )?;
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

    /// The pending sign-in of `token` if it may still take a second factor; an expired or
    /// spent one is removed. `Err` is the answer to give instead.
    pub(super) fn live_pending_sign_in(
        &mut self,
        token: &str,
        client: &str,
    ) -> Result<std::result::Result<Pending, SecondFactorFailure>> {
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
        let failure_key = self.sign_in_failure_key(&email, client);
        if let Some(wait) = self.sign_in_wait(&failure_key)? {
            return Ok(Err(SecondFactorFailure::Throttled {
                retry_after_secs: wait,
            }));
        }
        Ok(Ok(Pending {
            hash,
            user_id,
            failure_key,
        }))
    }

    /// A wrong answer at the code step: it counts against the pending sign-in and with
    /// wrong passwords for the account and address.
    pub(super) fn pending_sign_in_failed(&mut self, pending: &Pending) -> Result<()> {
        self.write(|tx| {
            super::exec(
                tx,
                "UPDATE pending_sign_ins SET failures = failures + 1, passkey_state = NULL WHERE token_hash = ?1",
                [&pending.hash],
            )?;
            Ok(())
        })?;
        self.count_sign_in_failure(&pending.failure_key)
    }

    /// The user a right second factor signs in (the pending sign-in is already spent).
    pub(super) fn pending_sign_in_passed(&mut self, pending: &Pending) -> Result<SessionUser> {
        self.forget_sign_in_failures(&pending.failure_key)?;
        let user = self.get_user(&pending.user_id)?;
        Ok(SessionUser {
            needs_second_factor: false,
            id: user.id,
            email: user.email,
            full_name: user.full_name,
            is_admin: user.is_admin,
        })
    }

    /// The code step of a sign-in: a TOTP code (each time step once) or an unused
    /// recovery code (spent by this). Wrong codes count with wrong passwords for the
    /// account and address, so the sign-in throttle covers both steps; a few end the
    /// pending sign-in.
    pub fn finish_pending_sign_in(
        &mut self,
        keys: &SecretKeySource,
        token: &str,
        code: &str,
        client: &str,
    ) -> Result<std::result::Result<SessionUser, SecondFactorFailure>> {
        let pending = match self.live_pending_sign_in(token, client)? {
            Ok(pending) => pending,
            Err(failure) => return Ok(Err(failure)),
        };
        let now = self.now();
        let user_id = pending.user_id.clone();
        let hash = pending.hash.clone();
        let factor: Option<(String, Option<Vec<u8>>, i64)> = super::query_row(
            self.conn(),
            "SELECT secret, sealed_secret, last_step FROM totp_factors WHERE user_id = ?1 AND confirmed_at IS NOT NULL",
            [&user_id],
            |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
        )
        .optional()?;
        // A secret that cannot be opened checks no code; a recovery code still works.
        let mut unreadable = false;
        let step = factor.and_then(|(plain, sealed, last)| {
            let secret = open_totp_secret(keys, plain, sealed)
                .inspect_err(|_| unreadable = true)
                .ok()?;
            accept_totp(
                &secret,
                code,
                unix_seconds(now),
                u64::try_from(last).unwrap_or(0),
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
            Ok(false)
        })?;
        if !accepted {
            self.pending_sign_in_failed(&pending)?;
            if unreadable {
                return Err(Error::Rejected(TOTP_KEY_UNREADABLE.to_owned()));
            }
            return Ok(Err(SecondFactorFailure::Invalid));
        }
        Ok(Ok(self.pending_sign_in_passed(&pending)?))
    }
}

pub(super) fn replace_recovery_codes(
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Channel;
    use crate::rules::second_factor::totp_code;
    use crate::store::NewUser;

    fn store_with_user() -> (tempfile::TempDir, Store, SessionUser, SecretKeySource) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("factors.db");
        let mut store = Store::open(&path).unwrap();
        let user = store
            .create_user(
                &Actor::system(Channel::Cli),
                NewUser {
                    email: "sam@agency.test".into(),
                    full_name: "Sam Staff".into(),
                    password: Some("a long enough password".into()),
                    is_admin: false,
                },
            )
            .unwrap();
        let user = store.session_user_by_id(&user.id).unwrap();
        let keys = SecretKeySource::for_database(&path, None);
        (dir, store, user, keys)
    }

    fn stored(store: &Store) -> (String, Option<Vec<u8>>) {
        super::super::query_row(
            store.conn(),
            "SELECT secret, sealed_secret FROM totp_factors",
            [],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .unwrap()
    }

    #[test]
    fn the_totp_key_is_kept_sealed_and_old_plain_keys_are_sealed_at_start() {
        let (_dir, mut store, user, keys) = store_with_user();
        let enrolment = store.start_totp_enrolment(&keys, &user).unwrap();
        let (plain, sealed) = stored(&store);
        assert_eq!(plain, "");
        let sealed = sealed.unwrap();
        assert!(!String::from_utf8_lossy(&sealed).contains(&enrolment.secret));
        assert!(store.totp_enrolment_qr(&keys, &user).unwrap().is_some());
        let now = unix_seconds(store.now());
        let code = totp_code(&enrolment.secret, now).unwrap();
        let actor = user.actor(Channel::Web);
        store.confirm_totp(&keys, &actor, &user, &code).unwrap();

        // A key saved in plain text before sealing is sealed once, and still checks codes.
        store
            .write(|tx| {
                super::super::exec(
                    tx,
                    "UPDATE totp_factors SET secret = ?1, sealed_secret = NULL, last_step = 0",
                    [&enrolment.secret],
                )?;
                Ok(())
            })
            .unwrap();
        assert_eq!(store.seal_totp_secrets(&keys).unwrap(), 1);
        assert_eq!(store.seal_totp_secrets(&keys).unwrap(), 0);
        assert_eq!(stored(&store).0, "");
        let token = store.begin_pending_sign_in(&user.id, "127.0.0.1").unwrap();
        let signed_in = store
            .finish_pending_sign_in(&keys, &token, &code, "127.0.0.1")
            .unwrap();
        assert!(signed_in.is_ok(), "{signed_in:?}");

        // Another key opens nothing: the code step says why instead of "not valid".
        let other = SecretKeySource::for_database(
            std::path::Path::new("/nonexistent/other.db"),
            Some("11".repeat(32)),
        );
        let token = store.begin_pending_sign_in(&user.id, "127.0.0.1").unwrap();
        let next = totp_code(&enrolment.secret, now + 30).unwrap();
        match store.finish_pending_sign_in(&other, &token, &next, "127.0.0.1") {
            Err(Error::Rejected(message)) => assert_eq!(message, TOTP_KEY_UNREADABLE),
            other => panic!("{other:?}"),
        }
    }
}
