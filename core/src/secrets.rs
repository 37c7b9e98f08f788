//! The key that seals the outbound accounts' secrets (the SMTP password, the SMS auth
//! token) before they are stored, so the database file, its backups and its exports
//! never hold them in plain text. The key lives outside the database: in
//! `CAREPATH_SECRET_KEY` (64 hex digits) or in a key file beside it, created readable by
//! its owner alone the first time a secret is saved.

use std::path::{Path, PathBuf};

use rand::RngCore;
use ring::aead::{Aad, CHACHA20_POLY1305, LessSafeKey, NONCE_LEN, Nonce, UnboundKey};

use crate::error::{Error, Result};

/// The environment variable that holds the key instead of the key file.
pub const SECRET_KEY_ENV: &str = "CAREPATH_SECRET_KEY";

/// A stored secret cannot be opened with the key at hand.
pub const SECRET_KEY_WRONG: &str = "A saved password cannot be read: the secret key is missing or not the one it was saved with. Enter the password again.";
/// `CAREPATH_SECRET_KEY` is not 64 hex digits.
pub const SECRET_KEY_MALFORMED: &str = "CAREPATH_SECRET_KEY must be 64 hexadecimal digits (32 random bytes, e.g. `openssl rand -hex 32`).";

const KEY_LEN: usize = 32;

/// Where the key comes from: the environment wins over the file.
#[derive(Debug, Clone)]
pub struct SecretKeySource {
    env: Option<String>,
    file: PathBuf,
}

impl SecretKeySource {
    /// The key of a database: `env` (the value of [`SECRET_KEY_ENV`], if set) or the file
    /// `<database>.key` beside it.
    pub fn for_database(db_path: &Path, env: Option<String>) -> Self {
        let mut name = db_path.file_name().unwrap_or_default().to_os_string();
        name.push(".key");
        Self {
            env: env.filter(|value| !value.trim().is_empty()),
            file: db_path.with_file_name(name),
        }
    }

    /// The key file's path (whether or not it exists yet).
    pub fn file(&self) -> &Path {
        &self.file
    }

    /// A form's change to a stored secret, sealed: `Some(non-empty)` is sealed anew
    /// (`Some(Some(..))`, creating the key if there is none), `Some("")` removes it
    /// (`Some(None)`), None keeps the stored one (None).
    pub fn seal_change(
        &self,
        purpose: &str,
        secret: Option<&str>,
    ) -> Result<Option<Option<Vec<u8>>>> {
        Ok(match secret {
            Some(secret) if !secret.is_empty() => {
                let key = self.load(true)?.expect("a key is created when missing");
                Some(Some(key.seal(purpose, secret)))
            }
            Some(_) => Some(None),
            None => None,
        })
    }

    /// A stored secret opened (None when none is stored), or [`SECRET_KEY_WRONG`] when
    /// the key at hand is not the one it was sealed with.
    pub fn open_stored(&self, purpose: &str, sealed: Option<&[u8]>) -> Result<Option<String>> {
        let Some(sealed) = sealed else {
            return Ok(None);
        };
        let key = self
            .load(false)?
            .ok_or_else(|| Error::Rejected(SECRET_KEY_WRONG.to_owned()))?;
        key.open(purpose, sealed).map(Some)
    }

    /// The key, or None when there is none yet and `create` is false.
    pub fn load(&self, create: bool) -> Result<Option<SecretKey>> {
        if let Some(text) = &self.env {
            return parse_hex(text.trim())
                .map(|bytes| Some(SecretKey(bytes)))
                .ok_or_else(|| Error::Rejected(SECRET_KEY_MALFORMED.to_owned()));
        }
        match std::fs::read_to_string(&self.file) {
            Ok(text) => parse_hex(text.trim())
                .map(|bytes| Some(SecretKey(bytes)))
                .ok_or_else(|| {
                    Error::Corrupt(format!(
                        "the secret key file {} is damaged",
                        self.file.display()
                    ))
                }),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                if create {
                    self.create().map(Some)
                } else {
                    Ok(None)
                }
            }
            Err(error) => Err(Error::io(
                format!("cannot read {}", self.file.display()),
                error,
            )),
        }
    }

    fn create(&self) -> Result<SecretKey> {
        let mut bytes = [0u8; KEY_LEN];
        rand::rng().fill_bytes(&mut bytes);
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let written = options.open(&self.file).and_then(|mut file| {
            use std::io::Write as _;
            file.write_all(format!("{}\n", hex(&bytes)).as_bytes())?;
            file.sync_all()
        });
        match written {
            Ok(()) => Ok(SecretKey(bytes)),
            // Another process made it first: use theirs.
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => self
                .load(false)?
                .ok_or_else(|| Error::Corrupt("the secret key file vanished".to_owned())),
            Err(error) => Err(Error::io(
                format!("cannot create {}", self.file.display()),
                error,
            )),
        }
    }
}

/// 256 random bits. Never printed: its `Debug` names nothing.
#[derive(Clone)]
pub struct SecretKey([u8; KEY_LEN]);

impl std::fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SecretKey(..)")
    }
}

impl SecretKey {
    fn aead(&self) -> LessSafeKey {
        LessSafeKey::new(UnboundKey::new(&CHACHA20_POLY1305, &self.0).expect("a 32-byte key"))
    }

    /// `secret` sealed: a fresh random nonce, then the ciphertext and its tag. `purpose`
    /// is bound in as associated data, so an SMS token cannot be passed off as the SMTP
    /// password.
    pub fn seal(&self, purpose: &str, secret: &str) -> Vec<u8> {
        let mut nonce = [0u8; NONCE_LEN];
        rand::rng().fill_bytes(&mut nonce);
        let mut sealed = secret.as_bytes().to_vec();
        self.aead()
            .seal_in_place_append_tag(
                Nonce::assume_unique_for_key(nonce),
                Aad::from(purpose.as_bytes()),
                &mut sealed,
            )
            .expect("a message far below ChaCha20's limit");
        let mut out = nonce.to_vec();
        out.extend_from_slice(&sealed);
        out
    }

    /// The secret `seal` was given, or [`SECRET_KEY_WRONG`].
    pub fn open(&self, purpose: &str, sealed: &[u8]) -> Result<String> {
        let wrong = || Error::Rejected(SECRET_KEY_WRONG.to_owned());
        if sealed.len() < NONCE_LEN {
            return Err(wrong());
        }
        let (nonce, body) = sealed.split_at(NONCE_LEN);
        let nonce = Nonce::try_assume_unique_for_key(nonce).map_err(|_| wrong())?;
        let mut body = body.to_vec();
        let plain = self
            .aead()
            .open_in_place(nonce, Aad::from(purpose.as_bytes()), &mut body)
            .map_err(|_| wrong())?;
        String::from_utf8(plain.to_vec()).map_err(|_| wrong())
    }

    /// The secret a signed-in user's devices wrap their offline copy's key with: an
    /// HMAC-SHA256 of the user's id under this key, so it is the same on every request,
    /// differs per user, is never stored, and changes for everyone when the key does
    /// (their devices' copies then open nothing and are refetched).
    pub fn device_key_secret(&self, user_id: &str) -> [u8; 32] {
        let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, &self.0);
        let mut message = b"carepath device key\0".to_vec();
        message.extend_from_slice(user_id.as_bytes());
        let tag = ring::hmac::sign(&key, &message);
        let mut out = [0u8; 32];
        out.copy_from_slice(tag.as_ref());
        out
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn parse_hex(text: &str) -> Option<[u8; KEY_LEN]> {
    if text.len() != KEY_LEN * 2 || !text.is_ascii() {
        return None;
    }
    let mut bytes = [0u8; KEY_LEN];
    for (index, byte) in bytes.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[index * 2..index * 2 + 2], 16).ok()?;
    }
    Some(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_key_secret_is_stable_per_user_and_key() {
        let one = SecretKey([7; KEY_LEN]);
        let other = SecretKey([8; KEY_LEN]);
        assert_eq!(one.device_key_secret("u1"), one.device_key_secret("u1"));
        assert_ne!(one.device_key_secret("u1"), one.device_key_secret("u2"));
        assert_ne!(one.device_key_secret("u1"), other.device_key_secret("u1"));
    }

    #[test]
    fn a_sealed_secret_opens_with_its_key_and_purpose_only() {
        let dir = tempfile::tempdir().unwrap();
        let source = SecretKeySource::for_database(&dir.path().join("carepath.db"), None);
        assert!(
            source.load(false).unwrap().is_none(),
            "no key until one is needed"
        );
        let key = source.load(true).unwrap().unwrap();
        assert_eq!(source.file(), dir.path().join("carepath.db.key"));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(source.file())
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let sealed = key.seal("email", "hunter2-password");
        assert!(!String::from_utf8_lossy(&sealed).contains("hunter2"));
        assert_eq!(key.open("email", &sealed).unwrap(), "hunter2-password");
        assert!(key.open("sms", &sealed).is_err());
        let again = source.load(false).unwrap().unwrap();
        assert_eq!(again.open("email", &sealed).unwrap(), "hunter2-password");
        let other =
            SecretKeySource::for_database(&dir.path().join("carepath.db"), Some("00".repeat(32)))
                .load(false)
                .unwrap()
                .unwrap();
        assert!(other.open("email", &sealed).is_err());
        assert!(
            SecretKeySource::for_database(&dir.path().join("x.db"), Some("zz".into()))
                .load(false)
                .is_err()
        );
    }
}
