//! The installed app and the assessor's offline copy: the web app manifest a browser
//! installs from (the agency's name, its logo when it has one), and which visits a device
//! takes offline.

use serde::Serialize;
use serde_json::{Value, json};

use crate::model::{LogoInfo, Settings};
use crate::secrets::SecretKey;

/// The app's theme colour (the primary colour of the web UI's stylesheet).
pub const THEME_COLOUR: &str = "#0f766e";

/// The icons every build ships beside its page, for an agency without a logo and for
/// the sizes an installed app needs.
const BUILT_IN_ICONS: [(&str, &str); 2] =
    [("/icon-192.png", "192x192"), ("/icon-512.png", "512x512")];

/// How many days ahead of today a device takes the assessor's visits offline.
pub const OFFLINE_VISIT_DAYS: u32 = 7;

/// What a signed-in user's device needs to keep an offline copy: the secret its copy's
/// key is wrapped with (never stored by the device, so without a signed-in session the
/// copy opens nothing), how long the copy may be kept, and how far ahead it reaches.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OfflineAccess {
    /// 32 bytes as 64 hex digits: the input of the device's key derivation (HKDF).
    pub device_key_secret: String,
    /// Days the device keeps what it took offline (Settings, administrators only).
    pub retention_days: u32,
    /// Days from today whose visits the device takes offline.
    pub visit_days: u32,
}

/// The user's [`OfflineAccess`] under the agency's secret key and Settings.
pub fn offline_access(key: &SecretKey, user_id: &str, settings: &Settings) -> OfflineAccess {
    let secret = key.device_key_secret(user_id);
    OfflineAccess {
        device_key_secret: secret.iter().map(|byte| format!("{byte:02x}")).collect(),
        retention_days: settings.workflow.offline_retention_days,
        visit_days: OFFLINE_VISIT_DAYS,
    }
}

/// The web app manifest: named for the agency; its logo (the address that changes with
/// the file) comes first among the icons, so an installed app shows it, with the built-in
/// square icons after it for the sizes a launcher requires.
pub fn web_manifest(agency_name: &str, logo: Option<&LogoInfo>) -> Value {
    let name = match agency_name.trim() {
        "" => "Carepath",
        name => name,
    };
    let short_name: String = name.chars().take(12).collect();
    let mut icons = Vec::new();
    if let Some(logo) = logo {
        icons.push(json!({
            "src": logo.url,
            "sizes": format!("{}x{}", logo.width, logo.height),
            "type": logo.content_type,
            "purpose": "any",
        }));
    }
    for (src, sizes) in BUILT_IN_ICONS {
        icons.push(json!({ "src": src, "sizes": sizes, "type": "image/png", "purpose": "any" }));
    }
    json!({
        "id": "/",
        "name": name,
        "short_name": short_name.trim_end(),
        "description": "The agency's back office: intakes, assessments, care plans and contracts.",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": THEME_COLOUR,
        "icons": icons,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn logo() -> LogoInfo {
        LogoInfo {
            content_type: "image/png".into(),
            width: 300,
            height: 100,
            size: 1000,
            sha256: "ab".repeat(32),
            updated_at: "2026-01-01T00:00:00Z".into(),
            url: "/api/public/logo?v=abababababababab".into(),
        }
    }

    #[test]
    fn the_manifest_names_the_agency_and_puts_its_logo_first() {
        let manifest = web_manifest("Sunrise Home Care Services", Some(&logo()));
        assert_eq!(manifest["name"], "Sunrise Home Care Services");
        assert_eq!(manifest["short_name"], "Sunrise Home");
        assert_eq!(manifest["theme_color"], THEME_COLOUR);
        assert_eq!(
            manifest["icons"][0]["src"],
            "/api/public/logo?v=abababababababab"
        );
        assert_eq!(manifest["icons"][0]["sizes"], "300x100");
        assert_eq!(manifest["icons"].as_array().unwrap().len(), 3);
    }

    #[test]
    fn without_a_logo_or_a_name_the_built_in_icons_and_name_serve() {
        let manifest = web_manifest("  ", None);
        assert_eq!(manifest["name"], "Carepath");
        assert_eq!(manifest["icons"][0]["src"], "/icon-192.png");
        assert_eq!(manifest["icons"][1]["sizes"], "512x512");
    }
}
