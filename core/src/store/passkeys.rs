//! Staff passkeys (WebAuthn): adding one from Your Account (a challenge, then the
//! browser's answer), listing and removing them, and using one at the code step of a
//! sign-in instead of a code. A passkey is a second factor on its own; the
//! administrator's reset removes passkeys with the rest (`second_factor.rs`). Each
//! ceremony's state waits in the database between its two requests and is used once.

use rusqlite::{OptionalExtension, params};
use serde::Serialize;

use super::second_factor::{SecondFactorFailure, replace_recovery_codes};
use super::sessions::SessionUser;
use super::{Store, audit, ts};
use crate::error::{Error, Result};
use crate::model::{Actor, UserId};
use crate::rules::clock::parse_timestamp;
use crate::rules::passkeys::{
    ALREADY_REGISTERED, ANSWER_MALFORMED, CEREMONY_LIFETIME, CreationChallengeResponse,
    LAST_REQUIRED_FACTOR, NO_PASSKEY, PASSKEYS_MAX, Passkey, PasskeyAuthentication,
    PasskeyRegistration, PublicKeyCredential, REGISTRATION_NOT_STARTED, REGISTRATION_REFUSED,
    RegisterPublicKeyCredential, RelyingParty, RequestChallengeResponse, TOO_MANY, passkey_name,
    user_handle,
};
use crate::rules::second_factor::{must_have_second_factor, new_recovery_codes};

/// A passkey as Your Account lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PasskeySummary {
    pub id: String,
    pub name: String,
    pub created_at: String,
    /// The last sign-in it was used for; None until then.
    pub last_used_at: Option<String>,
}

/// What the browser passes to `navigator.credentials.create()` or `.get()`: WebAuthn's
/// options as JSON, every byte string in base64url.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PasskeyChallenge {
    /// `PublicKeyCredentialCreationOptionsJSON` or `PublicKeyCredentialRequestOptionsJSON`.
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub public_key: serde_json::Value,
}

/// A passkey just added, and the recovery codes made with it when the user had none left
/// (empty otherwise); they are shown this once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PasskeyAdded {
    pub passkey: PasskeySummary,
    pub recovery_codes: Vec<String>,
}

fn corrupt(what: &str) -> impl FnOnce(webauthn_rs::prelude::WebauthnError) -> Error + '_ {
    move |error| Error::Corrupt(format!("cannot {what}: {error}"))
}

fn options_json<T: Serialize>(challenge: &T) -> Result<PasskeyChallenge> {
    let mut json = serde_json::to_value(challenge)?;
    Ok(PasskeyChallenge {
        public_key: json
            .get_mut("publicKey")
            .map(serde_json::Value::take)
            .unwrap_or_default(),
    })
}

impl Store {
    /// The user's passkeys, oldest first.
    pub fn passkeys(&self, user_id: &UserId) -> Result<Vec<PasskeySummary>> {
        let mut statement = self.conn().prepare_cached(
            "SELECT id, name, created_at, last_used_at FROM passkeys
              WHERE user_id = ?1 ORDER BY created_at, id",
        )?;
        let rows = statement.query_map([user_id], |row| {
            Ok(PasskeySummary {
                id: row.get(0)?,
                name: row.get(1)?,
                created_at: row.get(2)?,
                last_used_at: row.get(3)?,
            })
        })?;
        Ok(rows.collect::<std::result::Result<Vec<_>, _>>()?)
    }

    /// The user's passkeys as webauthn-rs records, with their row ids.
    fn passkey_records(&self, user_id: &UserId) -> Result<Vec<(String, Passkey)>> {
        let mut statement = self.conn().prepare_cached(
            "SELECT id, passkey FROM passkeys WHERE user_id = ?1 ORDER BY created_at, id",
        )?;
        let rows = statement.query_map([user_id], |row| {
            Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?))
        })?;
        let mut records = Vec::new();
        for row in rows {
            let (id, json) = row?;
            records.push((id, serde_json::from_str::<Passkey>(&json)?));
        }
        Ok(records)
    }

    /// Starts adding a passkey named `name`: the challenge for the browser. Its state
    /// waits a few minutes for the answer; starting again replaces it.
    pub fn start_passkey_registration(
        &mut self,
        rp: &RelyingParty,
        user: &SessionUser,
        name: &str,
    ) -> Result<PasskeyChallenge> {
        let name = passkey_name(name)?;
        let existing = self.passkey_records(&user.id)?;
        if existing.len() >= PASSKEYS_MAX {
            return Err(Error::Rejected(TOO_MANY.to_owned()));
        }
        // The browser refuses an authenticator that already holds one of these.
        let exclude = existing
            .iter()
            .map(|(_, passkey)| passkey.cred_id().clone())
            .collect();
        let display_name = if user.full_name.trim().is_empty() {
            &user.email
        } else {
            &user.full_name
        };
        let (challenge, state): (CreationChallengeResponse, PasskeyRegistration) = rp
            .webauthn()
            .start_passkey_registration(
                user_handle(user.id.as_str()),
                &user.email,
                display_name,
                Some(exclude),
            )
            .map_err(corrupt("start adding a passkey"))?;
        let state = serde_json::to_string(&state)?;
        let now = self.now();
        let expires = now
            .checked_add(CEREMONY_LIFETIME)
            .unwrap_or(jiff::Timestamp::MAX);
        self.write(|tx| {
            super::exec(
                tx,
                "DELETE FROM passkey_registrations WHERE expires_at < ?1",
                [ts(now)],
            )?;
            super::exec(
                tx,
                "INSERT INTO passkey_registrations (user_id, name, state, expires_at) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (user_id) DO UPDATE SET name = ?2, state = ?3, expires_at = ?4",
                params![user.id, name, state, ts(expires)],
            )?;
            Ok(())
        })?;
        options_json(&challenge)
    }

    /// Finishes adding a passkey with the browser's answer (`RegistrationResponseJSON`).
    /// The started ceremony is used up whatever the answer. A user who had no unused
    /// recovery code gets ten with it.
    pub fn finish_passkey_registration(
        &mut self,
        rp: &RelyingParty,
        actor: &Actor,
        user: &SessionUser,
        answer: &serde_json::Value,
    ) -> Result<PasskeyAdded> {
        let now = self.now();
        let started: Option<(String, String, String)> = self.write(|tx| {
            let started = super::query_row(
                tx,
                "SELECT name, state, expires_at FROM passkey_registrations WHERE user_id = ?1",
                [&user.id],
                |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
            )
            .optional()?;
            super::exec(
                tx,
                "DELETE FROM passkey_registrations WHERE user_id = ?1",
                [&user.id],
            )?;
            Ok(started)
        })?;
        let Some((name, state)) = started
            .filter(|(_, _, expires)| parse_timestamp(expires).is_some_and(|at| now < at))
            .map(|(name, state, _)| (name, state))
        else {
            return Err(Error::Rejected(REGISTRATION_NOT_STARTED.to_owned()));
        };
        let credential: RegisterPublicKeyCredential = serde_json::from_value(answer.clone())
            .map_err(|_| Error::Rejected(ANSWER_MALFORMED.to_owned()))?;
        let state: PasskeyRegistration = serde_json::from_str(&state)?;
        let passkey = rp
            .webauthn()
            .finish_passkey_registration(&credential, &state)
            .map_err(|_| Error::Rejected(REGISTRATION_REFUSED.to_owned()))?;
        let credential_id = passkey.cred_id().clone();
        let record = serde_json::to_string(&passkey)?;
        let summary = PasskeySummary {
            id: uuid::Uuid::now_v7().to_string(),
            name,
            created_at: ts(now),
            last_used_at: None,
        };
        let fresh_codes = new_recovery_codes();
        let recovery_codes = self.write(|tx| {
            let taken: bool = super::query_row(
                tx,
                "SELECT EXISTS (SELECT 1 FROM passkeys WHERE credential_id = ?1)",
                [&credential_id],
                |row| row.get(0),
            )?;
            if taken {
                return Err(Error::Rejected(ALREADY_REGISTERED.to_owned()));
            }
            let count: i64 = super::query_row(
                tx,
                "SELECT count(*) FROM passkeys WHERE user_id = ?1",
                [&user.id],
                |row| row.get(0),
            )?;
            if usize::try_from(count).unwrap_or(usize::MAX) >= PASSKEYS_MAX {
                return Err(Error::Rejected(TOO_MANY.to_owned()));
            }
            super::exec(
                tx,
                "INSERT INTO passkeys (id, user_id, name, credential_id, passkey, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![
                    summary.id,
                    user.id,
                    summary.name,
                    credential_id,
                    record,
                    summary.created_at
                ],
            )?;
            let has_codes: bool = super::query_row(
                tx,
                "SELECT EXISTS (SELECT 1 FROM recovery_codes WHERE user_id = ?1 AND used_at IS NULL)",
                [&user.id],
                |row| row.get(0),
            )?;
            let codes = if has_codes {
                Vec::new()
            } else {
                replace_recovery_codes(tx, &user.id, &fresh_codes)?;
                fresh_codes
            };
            audit(
                tx,
                actor,
                now,
                "add_passkey",
                "user",
                user.id.as_str(),
                None,
                &["passkeys"],
            )?;
            Ok(codes)
        })?;
        Ok(PasskeyAdded {
            passkey: summary,
            recovery_codes,
        })
    }

    /// Removes one of the user's own passkeys. The last second factor of a user the
    /// agency requires to have one stays.
    pub fn remove_passkey(&mut self, actor: &Actor, user: &SessionUser, id: &str) -> Result<()> {
        let required = must_have_second_factor(self.second_factor_policy()?, user.is_admin)
            && !self.has_totp(&user.id)?;
        let now = self.now();
        self.write(|tx| {
            let count: i64 = super::query_row(
                tx,
                "SELECT count(*) FROM passkeys WHERE user_id = ?1",
                [&user.id],
                |row| row.get(0),
            )?;
            let mine: bool = super::query_row(
                tx,
                "SELECT EXISTS (SELECT 1 FROM passkeys WHERE id = ?1 AND user_id = ?2)",
                params![id, user.id],
                |row| row.get(0),
            )?;
            if !mine {
                return Err(Error::not_found("passkey", id));
            }
            if required && count <= 1 {
                return Err(Error::Rejected(LAST_REQUIRED_FACTOR.to_owned()));
            }
            super::exec(
                tx,
                "DELETE FROM passkeys WHERE id = ?1 AND user_id = ?2",
                params![id, user.id],
            )?;
            audit(
                tx,
                actor,
                now,
                "remove_passkey",
                "user",
                user.id.as_str(),
                None,
                &["passkeys"],
            )
        })
    }

    /// The code step of a sign-in with a passkey, first half: the challenge the browser
    /// signs with one of the user's passkeys. Asking again replaces the challenge.
    pub fn start_passkey_sign_in(
        &mut self,
        rp: &RelyingParty,
        token: &str,
        client: &str,
    ) -> Result<std::result::Result<PasskeyChallenge, SecondFactorFailure>> {
        let pending = match self.live_pending_sign_in(token, client)? {
            Ok(pending) => pending,
            Err(failure) => return Ok(Err(failure)),
        };
        let passkeys: Vec<Passkey> = self
            .passkey_records(&pending.user_id)?
            .into_iter()
            .map(|(_, passkey)| passkey)
            .collect();
        if passkeys.is_empty() {
            return Err(Error::Rejected(NO_PASSKEY.to_owned()));
        }
        let (challenge, state): (RequestChallengeResponse, PasskeyAuthentication) = rp
            .webauthn()
            .start_passkey_authentication(&passkeys)
            .map_err(corrupt("start signing in with a passkey"))?;
        let state = serde_json::to_string(&state)?;
        self.write(|tx| {
            super::exec(
                tx,
                "UPDATE pending_sign_ins SET passkey_state = ?2 WHERE token_hash = ?1",
                params![pending.hash, state],
            )?;
            Ok(())
        })?;
        Ok(Ok(options_json(&challenge)?))
    }

    /// The code step with a passkey, second half: the browser's signed answer
    /// (`AuthenticationResponseJSON`). The challenge is used once; a refused answer counts
    /// like a wrong code. The passkey's signature counter is kept, and an answer whose
    /// counter did not move past it (a cloned authenticator) is refused by webauthn-rs.
    pub fn finish_passkey_sign_in(
        &mut self,
        rp: &RelyingParty,
        token: &str,
        answer: &serde_json::Value,
        client: &str,
    ) -> Result<std::result::Result<SessionUser, SecondFactorFailure>> {
        let pending = match self.live_pending_sign_in(token, client)? {
            Ok(pending) => pending,
            Err(failure) => return Ok(Err(failure)),
        };
        let state: Option<String> = super::query_row(
            self.conn(),
            "SELECT passkey_state FROM pending_sign_ins WHERE token_hash = ?1",
            [&pending.hash],
            |row| row.get(0),
        )
        .optional()?
        .flatten();
        let verified = state.as_deref().and_then(|state| {
            let credential: PublicKeyCredential = serde_json::from_value(answer.clone()).ok()?;
            let state: PasskeyAuthentication = serde_json::from_str(state).ok()?;
            rp.webauthn()
                .finish_passkey_authentication(&credential, &state)
                .ok()
        });
        let used = verified.and_then(|result| {
            let records = self.passkey_records(&pending.user_id).ok()?;
            records
                .into_iter()
                .find(|(_, passkey)| passkey.cred_id() == result.cred_id())
                .map(|(id, mut passkey)| {
                    passkey.update_credential(&result);
                    (id, passkey)
                })
        });
        let (Some(state), Some((id, passkey))) = (state, used) else {
            self.pending_sign_in_failed(&pending)?;
            return Ok(Err(SecondFactorFailure::PasskeyRefused));
        };
        let record = serde_json::to_string(&passkey)?;
        let now = self.now();
        let accepted = self.write(|tx| {
            // Only the challenge verified above: two requests racing with one answer
            // cannot both pass.
            let taken = super::exec(
                tx,
                "DELETE FROM pending_sign_ins WHERE token_hash = ?1 AND passkey_state = ?2",
                params![pending.hash, state],
            )?;
            if taken != 1 {
                return Ok(false);
            }
            super::exec(
                tx,
                "UPDATE passkeys SET passkey = ?2, last_used_at = ?3 WHERE id = ?1",
                params![id, record, ts(now)],
            )?;
            Ok(true)
        })?;
        if !accepted {
            return Ok(Err(SecondFactorFailure::Expired));
        }
        Ok(Ok(self.pending_sign_in_passed(&pending)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Channel;
    use crate::store::NewUser;

    /// A stored passkey as webauthn-rs writes it (its own test credential: a P-256 key).
    const STORED: &str = r#"{"cred":{"cred_id":"uZcVDBVS68E_MtAgeQpElJxldF_6cY9sSvbWqx_qRh8wiu42lyRBRmh5yFeD_r9k130dMbFHBHI9RTFgdJQIzQ","cred":{"type_":"ES256","key":{"EC_EC2":{"curve":"SECP256R1","x":[194,126,127,109,252,23,131,21,252,6,223,99,44,254,140,27,230,17,94,5,133,28,104,41,144,69,171,149,161,26,200,243],"y":[143,123,183,156,24,178,21,248,117,159,162,69,171,52,188,252,26,59,6,47,103,92,19,58,117,103,249,0,219,8,95,196]}}},"counter":2,"user_verified":true,"backup_eligible":false,"backup_state":false,"registration_policy":"required","extensions":{"cred_protect":"NotRequested","hmac_create_secret":"NotRequested"},"attestation":{"data":"None","metadata":"None"},"attestation_format":"None"}}"#;

    fn store_with_user() -> (tempfile::TempDir, Store, SessionUser) {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path().join("passkeys.db")).unwrap();
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
        (dir, store, user)
    }

    fn plant_passkey(store: &mut Store, user: &SessionUser) -> Passkey {
        let passkey: Passkey = serde_json::from_str(STORED).unwrap();
        store
            .write(|tx| {
                super::super::exec(
                    tx,
                    "INSERT INTO passkeys (id, user_id, name, credential_id, passkey, created_at)
                     VALUES ('p1', ?1, 'Blue key', ?2, ?3, '2026-01-01T00:00:00.000Z')",
                    params![user.id, passkey.cred_id().clone(), STORED],
                )?;
                Ok(())
            })
            .unwrap();
        passkey
    }

    fn rp() -> RelyingParty {
        RelyingParty::from_public_url("http://localhost:8080").unwrap()
    }

    fn rejected(result: Result<impl std::fmt::Debug>) -> String {
        match result {
            Err(Error::Rejected(message)) => message,
            other => panic!("not rejected: {other:?}"),
        }
    }

    #[test]
    fn a_passkey_is_a_second_factor_until_the_reset() {
        let (_dir, mut store, user) = store_with_user();
        assert!(!store.has_second_factor(&user.id).unwrap());
        plant_passkey(&mut store, &user);
        assert!(store.has_second_factor(&user.id).unwrap());
        let status = store.second_factor_status(&user).unwrap();
        assert_eq!((status.totp, status.passkeys), (false, 1));
        assert_eq!(store.passkeys(&user.id).unwrap()[0].name, "Blue key");

        let admin = Actor::system(Channel::Cli);
        store.reset_second_factor(&admin, &user.id).unwrap();
        assert!(!store.has_second_factor(&user.id).unwrap());
        assert!(store.passkeys(&user.id).unwrap().is_empty());
    }

    #[test]
    fn the_code_step_challenges_the_users_passkeys_and_refuses_a_bad_answer_once() {
        let (_dir, mut store, user) = store_with_user();
        let token = store.begin_pending_sign_in(&user.id, "127.0.0.1").unwrap();
        // No passkey: said plainly.
        assert_eq!(
            rejected(store.start_passkey_sign_in(&rp(), &token, "127.0.0.1")),
            NO_PASSKEY
        );
        plant_passkey(&mut store, &user);
        let challenge = store
            .start_passkey_sign_in(&rp(), &token, "127.0.0.1")
            .unwrap()
            .unwrap();
        assert_eq!(challenge.public_key["rpId"], "localhost");
        assert_eq!(
            challenge.public_key["allowCredentials"][0]["id"],
            "uZcVDBVS68E_MtAgeQpElJxldF_6cY9sSvbWqx_qRh8wiu42lyRBRmh5yFeD_r9k130dMbFHBHI9RTFgdJQIzQ"
        );
        assert_eq!(challenge.public_key["userVerification"], "required");

        // Garbage, then a well-formed answer to a challenge already spent: both refused,
        // each counted against the pending sign-in.
        for answer in [
            serde_json::json!({"nonsense": true}),
            serde_json::json!({"id": "x", "rawId": "eA", "type": "public-key",
                "response": {"authenticatorData": "AA", "clientDataJSON": "AA", "signature": "AA"}}),
        ] {
            assert_eq!(
                store
                    .finish_passkey_sign_in(&rp(), &token, &answer, "127.0.0.1")
                    .unwrap(),
                Err(SecondFactorFailure::PasskeyRefused)
            );
        }
        let failures: i64 = super::super::query_row(
            store.conn(),
            "SELECT failures FROM pending_sign_ins",
            [],
            |row| row.get(0),
        )
        .unwrap();
        assert_eq!(failures, 2);
        // Five failures end the pending sign-in.
        for _ in 0..3 {
            store
                .finish_passkey_sign_in(&rp(), &token, &serde_json::json!({}), "127.0.0.1")
                .unwrap()
                .unwrap_err();
        }
        assert_eq!(
            store
                .start_passkey_sign_in(&rp(), &token, "127.0.0.1")
                .unwrap()
                .unwrap_err(),
            SecondFactorFailure::Expired
        );
    }

    #[test]
    fn adding_a_passkey_takes_a_named_started_ceremony_once() {
        let (_dir, mut store, user) = store_with_user();
        let actor = user.actor(Channel::Web);
        let answer = serde_json::json!({"id": "x"});
        assert_eq!(
            rejected(store.finish_passkey_registration(&rp(), &actor, &user, &answer)),
            REGISTRATION_NOT_STARTED
        );
        match store.start_passkey_registration(&rp(), &user, "  ") {
            Err(Error::Validation(errors)) => assert!(errors.fields.contains_key("name")),
            other => panic!("{other:?}"),
        }
        let challenge = store
            .start_passkey_registration(&rp(), &user, "Work laptop")
            .unwrap();
        assert_eq!(challenge.public_key["rp"]["id"], "localhost");
        assert_eq!(challenge.public_key["user"]["name"], "sam@agency.test");
        assert_eq!(challenge.public_key["user"]["displayName"], "Sam Staff");
        assert_eq!(
            rejected(store.finish_passkey_registration(&rp(), &actor, &user, &answer)),
            ANSWER_MALFORMED
        );
        // The ceremony was used by that answer.
        assert_eq!(
            rejected(store.finish_passkey_registration(&rp(), &actor, &user, &answer)),
            REGISTRATION_NOT_STARTED
        );
        // A known passkey is excluded from a new ceremony.
        plant_passkey(&mut store, &user);
        let challenge = store
            .start_passkey_registration(&rp(), &user, "Phone")
            .unwrap();
        assert_eq!(
            challenge.public_key["excludeCredentials"]
                .as_array()
                .map(Vec::len),
            Some(1)
        );
    }

    #[test]
    fn removing_a_passkey_is_the_owners_and_keeps_a_required_last_factor() {
        let (_dir, mut store, user) = store_with_user();
        plant_passkey(&mut store, &user);
        let actor = user.actor(Channel::Web);
        assert!(matches!(
            store.remove_passkey(&actor, &user, "nope"),
            Err(Error::NotFound { .. })
        ));
        let mut settings = store.settings().unwrap();
        settings.workflow.second_factor_required = crate::model::SecondFactorPolicy::Everyone;
        store
            .write(|tx| {
                super::super::exec(
                    tx,
                    "INSERT INTO settings (tab, value, updated_at)
                     VALUES ('workflow', ?1, '2026-01-01T00:00:00.000Z')
                     ON CONFLICT (tab) DO UPDATE SET value = ?1",
                    [serde_json::to_string(&settings.workflow)?],
                )?;
                Ok(())
            })
            .unwrap();
        assert_eq!(
            rejected(store.remove_passkey(&actor, &user, "p1")),
            LAST_REQUIRED_FACTOR
        );
        store
            .write(|tx| {
                super::super::exec(tx, "DELETE FROM settings WHERE tab = 'workflow'", [])?;
                Ok(())
            })
            .unwrap();
        store.remove_passkey(&actor, &user, "p1").unwrap();
        assert!(!store.has_second_factor(&user.id).unwrap());
    }
}
