//! The second factor of staff sign-in: who must have one (the administrators' setting),
//! TOTP codes (RFC 6238: SHA-1, six digits, 30-second steps, one step of drift either
//! way, each step accepted once) and the single-use recovery codes, with their messages.

use rand::Rng;
use totp_rs::{Builder, Secret, Totp};

use crate::model::SecondFactorPolicy;

/// The issuer an authenticator app shows beside the account.
pub const ISSUER: &str = "Carepath";
/// Recovery codes made at enrolment; each works once.
pub const RECOVERY_CODES: usize = 10;
/// A password accepted, the code awaited: this long, then sign in again.
pub const PENDING_LIFETIME: jiff::SignedDuration = jiff::SignedDuration::from_mins(5);
/// Wrong codes after which the pending sign-in ends (the password is asked again).
pub const PENDING_ATTEMPTS: i64 = 5;

/// A wrong, used or stale code (one answer for all).
pub const CODE_INVALID: &str = "That code is not valid. Enter the current code from your authenticator app, or an unused recovery code.";
/// The pending sign-in is unknown, over or spent.
pub const PENDING_EXPIRED: &str = "Your sign-in has expired. Please sign in again.";
/// A user who must have a second factor and has none reaches only enrolment.
pub const SECOND_FACTOR_REQUIRED: &str =
    "Set up a second factor on Your Account before you continue.";
/// Enrolling a second authenticator while one is active.
pub const ALREADY_ENROLLED: &str =
    "An authenticator app is already set up. Ask an administrator to reset it first.";
/// Confirming without starting enrolment first.
pub const NOT_ENROLLING: &str = "Start setting up an authenticator app first.";
/// The sealed TOTP secret cannot be opened: the key beside the database is gone or
/// another one.
pub const TOTP_KEY_UNREADABLE: &str = "Your authenticator app cannot be checked: the server's secret key is missing or not the one it was saved with. Use a recovery code or a passkey, or ask an administrator to reset your second factor.";
/// What a sealed TOTP secret is bound to (the key's other secrets cannot pass for it).
pub const TOTP_SEAL_PURPOSE: &str = "totp";

/// Whether a user must have a second factor under `policy`.
pub fn must_have_second_factor(policy: SecondFactorPolicy, is_admin: bool) -> bool {
    match policy {
        SecondFactorPolicy::Nobody => false,
        SecondFactorPolicy::Administrators => is_admin,
        SecondFactorPolicy::Everyone => true,
    }
}

/// A new random TOTP secret (160 bits, as RFC 4226 recommends), base32.
pub fn new_totp_secret() -> String {
    Secret::generate().to_base32()
}

fn totp(secret: &str, account: &str) -> Option<Totp> {
    let secret = Secret::try_from_base32(secret).ok()?;
    Builder::new()
        .with_secret(secret)
        .with_account_name(account.replace(':', " "))
        .with_issuer(Some(ISSUER))
        .build()
        .ok()
}

/// The `otpauth://` address an authenticator app scans (the QR code's content).
pub fn otpauth_url(secret: &str, account: &str) -> Option<String> {
    totp(secret, account)?.to_url().ok()
}

/// The QR code of `text` as an SVG document.
pub fn qr_svg(text: &str) -> Option<String> {
    let code = qrcode::QrCode::new(text.as_bytes()).ok()?;
    Some(
        code.render::<qrcode::render::svg::Color<'_>>()
            .min_dimensions(200, 200)
            .quiet_zone(true)
            .build(),
    )
}

/// The time step a TOTP `code` is valid for at `unix_seconds` (one step of drift either
/// way), if it is later than `last_step`: an accepted step is never accepted again, so
/// a code seen over a shoulder or replayed within its window is refused.
pub fn accept_totp(secret: &str, code: &str, unix_seconds: u64, last_step: u64) -> Option<u64> {
    let code: String = code.chars().filter(|c| !c.is_whitespace()).collect();
    if code.len() != 6 || !code.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let totp = totp(secret, "user")?;
    totp.check(&code, unix_seconds)
        .filter(|step| *step > last_step)
}

/// The code an authenticator app with `secret` shows at `unix_seconds` (what a person
/// types; the tests and the terminal's checks compute it the same way).
pub fn totp_code(secret: &str, unix_seconds: u64) -> Option<String> {
    Some(totp(secret, "user")?.generate(unix_seconds).to_string())
}

/// The letters of a recovery code: no 0/o, 1/l/i, so it is read back without doubt.
const RECOVERY_ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";

/// Ten new recovery codes, `xxxxx-xxxxx` (about 49 bits each).
pub fn new_recovery_codes() -> Vec<String> {
    let mut rng = rand::rng();
    (0..RECOVERY_CODES)
        .map(|_| {
            let mut code = String::with_capacity(11);
            for index in 0..10 {
                if index == 5 {
                    code.push('-');
                }
                let pick = rng.random_range(0..RECOVERY_ALPHABET.len());
                code.push(char::from(RECOVERY_ALPHABET[pick]));
            }
            code
        })
        .collect()
}

/// A recovery code as typed, in the form it is hashed: lower case, no spaces or dashes.
pub fn normalize_recovery_code(code: &str) -> String {
    code.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    // RFC 6238 appendix B's SHA-1 key, "12345678901234567890", in base32.
    const RFC_SECRET: &str = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";

    #[test]
    fn codes_follow_rfc_6238_and_each_step_is_accepted_once() {
        // Appendix B: T = 59 gives 94287082; six digits are its last six.
        assert_eq!(accept_totp(RFC_SECRET, "287082", 59, 0), Some(1));
        assert_eq!(accept_totp(RFC_SECRET, "287 082", 59, 0), Some(1));
        // The same step again, or an older one, is a replay.
        assert_eq!(accept_totp(RFC_SECRET, "287082", 59, 1), None);
        // T = 1111111109 gives 07081804.
        assert_eq!(
            accept_totp(RFC_SECRET, "081804", 1_111_111_109, 0),
            Some(37_037_036)
        );
        // One step of drift either way, not two.
        assert!(accept_totp(RFC_SECRET, "081804", 1_111_111_109 + 30, 0).is_some());
        assert!(accept_totp(RFC_SECRET, "081804", 1_111_111_109 + 61, 0).is_none());
        assert_eq!(totp_code(RFC_SECRET, 59).as_deref(), Some("287082"));
        for bad in ["", "28708", "2870822", "abcdef", "28708x"] {
            assert_eq!(accept_totp(RFC_SECRET, bad, 59, 0), None, "{bad}");
        }
    }

    #[test]
    fn the_enrolment_address_names_the_issuer_and_account() {
        let secret = new_totp_secret();
        let url = otpauth_url(&secret, "sam@agency.test").unwrap();
        assert!(
            url.starts_with("otpauth://totp/Carepath:sam%40agency.test?"),
            "{url}"
        );
        assert!(url.contains(&format!("secret={secret}")), "{url}");
        let svg = qr_svg(&url).unwrap();
        assert!(svg.starts_with("<?xml") && svg.contains("<svg"), "{svg}");
    }

    #[test]
    fn recovery_codes_are_ten_distinct_and_typed_back_in_any_case() {
        let codes = new_recovery_codes();
        assert_eq!(codes.len(), RECOVERY_CODES);
        let mut unique = codes.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), RECOVERY_CODES);
        assert!(
            codes
                .iter()
                .all(|code| code.len() == 11 && code.as_bytes()[5] == b'-')
        );
        assert_eq!(normalize_recovery_code(" ABCDE-fghjk "), "abcdefghjk");
    }

    #[test]
    fn the_policy_names_who_must_have_a_second_factor() {
        use SecondFactorPolicy::*;
        for (policy, admin, staff) in [
            (Nobody, false, false),
            (Administrators, true, false),
            (Everyone, true, true),
        ] {
            assert_eq!(must_have_second_factor(policy, true), admin);
            assert_eq!(must_have_second_factor(policy, false), staff);
        }
    }
}
