//! Passkeys (WebAuthn) as a staff member's second factor: the relying party derived from
//! the server's public address, a passkey's name, and the messages of the two ceremonies
//! (adding a passkey on Your Account, using one at the code step of sign-in). The
//! ceremonies themselves are the `webauthn-rs` crate's.

use sha2::{Digest, Sha256};
use webauthn_rs::prelude::{Url, Uuid, Webauthn, WebauthnBuilder};

use crate::error::{Error, Result, ValidationErrors};

pub use webauthn_rs::prelude::{
    CreationChallengeResponse, Passkey, PasskeyAuthentication, PasskeyRegistration,
    PublicKeyCredential, RegisterPublicKeyCredential, RequestChallengeResponse,
};

/// The name the browser shows for the site beside a passkey.
pub const RP_NAME: &str = "Carepath";
/// A started ceremony (adding a passkey, or signing in with one) lasts this long.
pub const CEREMONY_LIFETIME: jiff::SignedDuration = jiff::SignedDuration::from_mins(5);
/// The longest name of a passkey, in characters.
pub const NAME_MAX: usize = 60;
/// Passkeys one user may have at once.
pub const PASSKEYS_MAX: usize = 10;

pub const NAME_REQUIRED: &str = "Name this passkey, for example \u{201c}Work laptop\u{201d} or \u{201c}Blue security key\u{201d}.";
pub const NAME_TOO_LONG: &str = "A passkey's name can be at most 60 characters.";
pub const NAME_UNPRINTABLE: &str =
    "A passkey's name cannot contain line breaks or control characters.";
pub const TOO_MANY: &str =
    "You already have 10 passkeys. Remove one you no longer use before adding another.";
/// Finishing an addition that was not started, or started too long ago.
pub const REGISTRATION_NOT_STARTED: &str =
    "Adding the passkey took too long or was not started. Please try again.";
/// The browser's answer to adding a passkey did not verify.
pub const REGISTRATION_REFUSED: &str =
    "The passkey could not be added: your browser's answer was not valid. Please try again.";
/// The credential is already registered (to this account or another).
pub const ALREADY_REGISTERED: &str = "This passkey is already set up.";
/// The code step asked for a passkey by a user who has none.
pub const NO_PASSKEY: &str = "No passkey is set up for this account. Enter a code from your authenticator app or a recovery code.";
/// A passkey answer at the code step that did not verify (one answer for all).
pub const PASSKEY_REFUSED: &str = "That passkey was not accepted. Try again, or enter a code from your authenticator app or a recovery code.";
/// Removing the last second factor of a user the agency requires to have one.
pub const LAST_REQUIRED_FACTOR: &str = "Your agency requires a second factor. Add another passkey or an authenticator app before you remove this one.";
/// The browser's answer is not shaped like a WebAuthn credential at all.
pub const ANSWER_MALFORMED: &str =
    "Your browser's passkey answer could not be read. Please try again.";

/// The relying party of this server: its id is the public address's host, and only the
/// public address's origin is accepted, so a passkey made here works nowhere else.
#[derive(Debug)]
pub struct RelyingParty {
    webauthn: Webauthn,
}

/// Why passkeys cannot be used with `public_url`, in words for an administrator.
pub fn public_url_unusable(public_url: &str) -> String {
    format!(
        "Passkeys cannot be used: the server's public address ({public_url}) must be https:// with a domain name, or http://localhost. Set it with --public-url."
    )
}

impl RelyingParty {
    /// The relying party of the server whose people open `public_url`. Browsers allow
    /// WebAuthn only on a secure origin named by a domain: https, or http on localhost
    /// (an IP address is never a relying party id).
    pub fn from_public_url(public_url: &str) -> Result<Self> {
        let unusable = || Error::Rejected(public_url_unusable(public_url));
        let url = Url::parse(public_url).map_err(|_| unusable())?;
        let host = url.domain().ok_or_else(unusable)?.to_ascii_lowercase();
        let local = host == "localhost" || host.ends_with(".localhost");
        match url.scheme() {
            "https" => {}
            "http" if local => {}
            _ => return Err(unusable()),
        }
        let origin = Url::parse(&url.origin().ascii_serialization()).map_err(|_| unusable())?;
        let webauthn = WebauthnBuilder::new(&host, &origin)
            .and_then(|builder| builder.rp_name(RP_NAME).build())
            .map_err(|_| unusable())?;
        Ok(Self { webauthn })
    }

    pub fn webauthn(&self) -> &Webauthn {
        &self.webauthn
    }
}

/// The WebAuthn user handle of a user: stable, opaque, and not their email (authenticators
/// may show or sync it).
pub fn user_handle(user_id: &str) -> Uuid {
    let digest = Sha256::digest(format!("carepath user handle {user_id}").as_bytes());
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&digest[..16]);
    Uuid::from_bytes(bytes)
}

/// A passkey's name as it is kept: trimmed, 1 to 60 characters, one line.
pub fn passkey_name(name: &str) -> Result<String> {
    let name = name.trim();
    let problem = if name.is_empty() {
        Some(NAME_REQUIRED)
    } else if name.chars().count() > NAME_MAX {
        Some(NAME_TOO_LONG)
    } else if name.chars().any(char::is_control) {
        Some(NAME_UNPRINTABLE)
    } else {
        None
    };
    match problem {
        Some(message) => Err(Error::Validation(ValidationErrors::single("name", message))),
        None => Ok(name.to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_relying_party_comes_from_a_secure_domain_address_only() {
        for good in [
            "https://care.example.org",
            "https://care.example.org/app",
            "https://care.example.org:8443",
            "http://localhost:8080",
            "http://carepath.localhost",
        ] {
            assert!(RelyingParty::from_public_url(good).is_ok(), "{good}");
        }
        for bad in [
            "http://127.0.0.1:8080",
            "https://192.168.1.10",
            "http://care.example.org",
            "https://[::1]:8443",
            "care.example.org",
            "",
        ] {
            match RelyingParty::from_public_url(bad) {
                Err(Error::Rejected(message)) => {
                    assert!(message.contains("--public-url"), "{message}")
                }
                other => panic!("{bad}: {other:?}"),
            }
        }
    }

    #[test]
    fn a_ceremony_names_the_host_as_relying_party() {
        let rp = RelyingParty::from_public_url("http://localhost:8080").unwrap();
        let (challenge, _state) = rp
            .webauthn()
            .start_passkey_registration(user_handle("u1"), "sam@agency.test", "Sam", None)
            .unwrap();
        let json = serde_json::to_value(&challenge).unwrap();
        assert_eq!(json["publicKey"]["rp"]["id"], "localhost");
        assert_eq!(json["publicKey"]["user"]["name"], "sam@agency.test");
    }

    #[test]
    fn names_are_one_line_of_1_to_60_characters() {
        assert_eq!(passkey_name("  Work laptop ").unwrap(), "Work laptop");
        assert_eq!(passkey_name(&"é".repeat(60)).unwrap().chars().count(), 60);
        for (bad, message) in [
            ("", NAME_REQUIRED),
            ("   ", NAME_REQUIRED),
            (&"x".repeat(61)[..], NAME_TOO_LONG),
            ("two\nlines", NAME_UNPRINTABLE),
        ] {
            match passkey_name(bad) {
                Err(Error::Validation(errors)) => assert_eq!(errors.fields["name"], message),
                other => panic!("{bad:?}: {other:?}"),
            }
        }
    }

    #[test]
    fn a_user_handle_is_stable_and_not_the_id() {
        assert_eq!(user_handle("u1"), user_handle("u1"));
        assert_ne!(user_handle("u1"), user_handle("u2"));
        assert!(!user_handle("u1").to_string().contains("u1"));
    }
}
