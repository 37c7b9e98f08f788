//! Password hashes and random tokens: what users, invitations, sessions and sign-in links
//! keep instead of the secret itself. Passwords are argon2id hashes; tokens are 256 random
//! bits kept only as their SHA-256 hash, so a copy of the database signs nobody in.

use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use rand::RngCore;
use sha2::{Digest, Sha256};

use crate::error::{Error, Result};

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

pub(crate) fn hash_password(password: &str) -> Result<String> {
    Argon2::default()
        .hash_password(password.as_bytes())
        .map(|hash| hash.to_string())
        .map_err(|e| Error::Corrupt(format!("cannot hash password: {e}")))
}

pub(crate) fn password_matches(password: &str, stored: Option<&str>) -> bool {
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
