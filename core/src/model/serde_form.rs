//! Lenient readers for form numbers: browsers and spreadsheets send `""`, `"12.5"` or `12.5`.

use serde::{Deserialize, Deserializer};

/// Reads a number that may arrive as a JSON number, a numeric string, an empty string or
/// null. Text that is not a number is kept as NaN so validation can report it; it is never
/// silently dropped.
pub fn lenient_number<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<f64>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        Number(f64),
        Text(String),
    }
    Ok(match Option::<Raw>::deserialize(deserializer)? {
        None => None,
        Some(Raw::Number(n)) => Some(n),
        Some(Raw::Text(text)) => {
            let text = text.trim();
            if text.is_empty() {
                None
            } else {
                Some(text.parse::<f64>().unwrap_or(f64::NAN))
            }
        }
    })
}
