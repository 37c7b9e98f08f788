//! Text message length as an SMS provider bills it: the counter under the SMS box.
//!
//! A message that only uses the GSM-7 alphabet travels in 7-bit units (septets): 160 fit
//! in one segment, and a longer message is split into segments of 153 (each carries a
//! 7-septet header that joins them again). The extension characters (`€`, `[`, `{`, …)
//! take two septets, an escape and the character. A single character outside that
//! alphabet (an emoji, a curly quote, `ł`) sends the whole message as UCS-2: UTF-16
//! units, 70 in one segment, 67 per segment of a longer message; an emoji outside the
//! Basic Multilingual Plane takes two of them.
//!
//! The web's counter counts with the same tables: the OpenAPI document carries them as
//! enum schemas ([`openapi_schemas`]) from which the web's options file is generated, and
//! both sides test against the cases in `fixtures/sms-segments.json`.

use serde::{Deserialize, Serialize};

/// The GSM 03.38 basic alphabet, one septet each (the escape at 0x1B is left out: it
/// only introduces an extension character).
pub const GSM7_BASIC: &str = "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?\
¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";

/// The GSM 03.38 extension table: two septets each (escape, then the character).
pub const GSM7_EXTENSION: &str = "\u{c}^{}\\[~]|€";

/// Septets in a GSM-7 message of one segment, then in each segment of a longer one.
pub const GSM7_SEGMENT_LIMITS: [usize; 2] = [160, 153];

/// UTF-16 units in a UCS-2 message of one segment, then in each segment of a longer one.
pub const UCS2_SEGMENT_LIMITS: [usize; 2] = [70, 67];

/// How a message is encoded for sending.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SmsEncoding {
    Gsm7,
    Ucs2,
}

/// What the counter shows, and what the provider bills.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SmsCount {
    /// Characters as a person counts them (Unicode scalar values).
    pub characters: usize,
    pub encoding: SmsEncoding,
    /// Septets (GSM-7) or UTF-16 units (UCS-2).
    pub units: usize,
    pub segments: usize,
}

impl SmsCount {
    /// The units one segment holds for this encoding: past it, the message is split.
    pub fn single_segment_limit(&self) -> usize {
        match self.encoding {
            SmsEncoding::Gsm7 => GSM7_SEGMENT_LIMITS[0],
            SmsEncoding::Ucs2 => UCS2_SEGMENT_LIMITS[0],
        }
    }
}

/// Septets a character takes in GSM-7, or `None` when GSM-7 cannot carry it.
fn gsm7_septets(character: char) -> Option<usize> {
    if GSM7_BASIC.contains(character) {
        Some(1)
    } else if GSM7_EXTENSION.contains(character) {
        Some(2)
    } else {
        None
    }
}

fn segments(units: usize, [single, multipart]: [usize; 2]) -> usize {
    match units {
        0 => 0,
        units if units <= single => 1,
        units => units.div_ceil(multipart),
    }
}

/// Counts a message as a provider bills it.
pub fn count_sms(message: &str) -> SmsCount {
    let characters = message.chars().count();
    let septets: Option<usize> = message.chars().map(gsm7_septets).sum();
    match septets {
        Some(units) => SmsCount {
            characters,
            encoding: SmsEncoding::Gsm7,
            units,
            segments: segments(units, GSM7_SEGMENT_LIMITS),
        },
        None => {
            let units = message.encode_utf16().count();
            SmsCount {
                characters,
                encoding: SmsEncoding::Ucs2,
                units,
                segments: segments(units, UCS2_SEGMENT_LIMITS),
            }
        }
    }
}

/// Segments a message takes when sent.
pub fn sms_segments(message: &str) -> usize {
    count_sms(message).segments
}

/// The tables above as named enum schemas of the OpenAPI document, so the web generates
/// its counter's alphabet and limits from them instead of typing them again.
#[cfg(feature = "openapi")]
pub fn openapi_schemas() -> Vec<(
    String,
    utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
)> {
    use crate::model::options::enum_schema;
    use utoipa::openapi::schema::Type;

    let characters = |table: &str, description: &str| {
        let values: Vec<String> = table.chars().map(String::from).collect();
        enum_schema(Type::String, values, description)
    };
    let limits = |limits: [usize; 2], description: &str| {
        enum_schema(Type::Integer, limits.to_vec(), description)
    };
    vec![
        (
            "SmsGsm7Character".to_owned(),
            characters(GSM7_BASIC, "A character GSM-7 sends in one septet."),
        ),
        (
            "SmsGsm7ExtensionCharacter".to_owned(),
            characters(
                GSM7_EXTENSION,
                "A character GSM-7 sends in two septets (escape, character).",
            ),
        ),
        (
            "SmsGsm7SegmentLimit".to_owned(),
            limits(
                GSM7_SEGMENT_LIMITS,
                "Septets in a GSM-7 message of one segment, then per segment of a longer one.",
            ),
        ),
        (
            "SmsUcs2SegmentLimit".to_owned(),
            limits(
                UCS2_SEGMENT_LIMITS,
                "UTF-16 units in a UCS-2 message of one segment, then per segment of a longer one.",
            ),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One case of `fixtures/sms-segments.json`: the message is its parts, each a text
    /// repeated a number of times.
    #[derive(Deserialize)]
    struct Case {
        name: String,
        parts: Vec<(String, usize)>,
        characters: usize,
        encoding: SmsEncoding,
        segments: usize,
    }

    #[test]
    fn the_shared_cases_count_as_a_provider_bills() {
        let cases: Vec<Case> =
            serde_json::from_str(include_str!("../../../fixtures/sms-segments.json")).unwrap();
        assert!(cases.len() >= 10, "the shared cases are read");
        for case in cases {
            let message: String = case
                .parts
                .iter()
                .map(|(text, times)| text.repeat(*times))
                .collect();
            let count = count_sms(&message);
            assert_eq!(
                (count.characters, count.encoding, count.segments),
                (case.characters, case.encoding, case.segments),
                "{}",
                case.name
            );
        }
    }

    #[test]
    fn the_basic_alphabet_has_127_characters_and_the_extension_10() {
        assert_eq!(GSM7_BASIC.chars().count(), 127);
        assert_eq!(GSM7_EXTENSION.chars().count(), 10);
        assert!(!GSM7_BASIC.chars().any(|c| GSM7_EXTENSION.contains(c)));
    }

    #[test]
    fn a_euro_sign_takes_two_septets() {
        let count = count_sms(&"€".repeat(80));
        assert_eq!((count.units, count.segments), (160, 1));
        assert_eq!(count_sms(&format!("a{}", "€".repeat(80))).segments, 2);
    }

    #[test]
    fn an_emoji_takes_two_utf16_units_and_switches_the_message_to_ucs2() {
        let count = count_sms("Hi 👋");
        assert_eq!(
            (count.encoding, count.characters, count.units),
            (SmsEncoding::Ucs2, 4, 5)
        );
        assert_eq!(count.single_segment_limit(), 70);
    }
}
