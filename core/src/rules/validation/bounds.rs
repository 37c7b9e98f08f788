//! Upper bounds on everything staff can type: every text field has a maximum length and
//! every number a range, so no input can make a page, a search or a PDF slow or broken.
//!
//! Text bounds are applied to whole inputs by walking their serialized fields, so a field
//! added to a form later is bounded without anyone remembering to: its name decides
//! whether it is a one-line field, an address or a free-text field.

use std::fmt::Write as _;

use serde::Serialize;
use serde_json::Value;

use crate::error::{Error, ValidationErrors};

/// A one-line field: a name, a phone number, an email address, a choice.
pub const SHORT_TEXT_MAX: usize = 200;
/// An address, which may run over a few lines.
pub const ADDRESS_TEXT_MAX: usize = 500;
/// Notes, comments, messages, template text.
pub const LONG_TEXT_MAX: usize = 20_000;
/// A whole contract's text.
pub const DOCUMENT_TEXT_MAX: usize = 200_000;
/// How many entries a list field (services, copies, tagged users) may hold.
pub const LIST_ENTRIES_MAX: usize = 100;
/// A search term: longer than any name, phone number or email address.
pub const SEARCH_TERM_MAX: usize = 100;

/// The highest hourly rate, premium or cost input: far above any agency's rate, low
/// enough that no weekly or monthly cost overflows what a PDF or a CSV can show.
pub const MAX_MONEY: f64 = 10_000.0;
/// The highest holiday multiplier.
pub const MAX_HOLIDAY_MULTIPLIER: f64 = 10.0;
/// Hours in one day of a schedule.
pub const MAX_HOURS_PER_DAY: f64 = 24.0;
/// Hours in one week.
pub const MAX_HOURS_PER_WEEK: f64 = 168.0;
/// The idle timeout's range, in minutes: five minutes to one day.
pub const IDLE_TIMEOUT_MINUTES: (u32, u32) = (5, 1440);
/// The stage alert's range, in days.
pub const STAGE_ALERT_DAYS: (u32, u32) = (1, 365);
/// Days a device keeps what it took offline: at least a day, at most a month.
pub const OFFLINE_RETENTION_DAYS: (u32, u32) = (1, 30);

pub const TOO_MANY_ENTRIES: &str = "This list can hold at most 100 entries.";

/// "This field must be at most 200 characters."
pub fn text_too_long(max: usize) -> String {
    format!("This field must be at most {max} characters.")
}

/// "Must be between 5 and 1440."
pub fn out_of_range(low: impl std::fmt::Display, high: impl std::fmt::Display) -> String {
    format!("Must be between {low} and {high}.")
}

/// Words in a field name that make it free text rather than a one-line field.
const LONG_FIELD_WORDS: &[&str] = &[
    "notes",
    "comment",
    "content",
    "body",
    "message",
    "goals",
    "observation",
    "concerns",
    "requests",
    "history",
    "circumstances",
    "hobbies",
    "preferences",
    "signature",
    "prompt",
    "instructions",
    "needs",
    "reason",
    "diagnosis",
    "details",
    "description",
    "involvement",
    "text",
    "question",
];

/// The longest text a field of this name may hold.
pub fn text_limit(field: &str) -> usize {
    let name = field.to_ascii_lowercase().replace('_', "");
    if name.contains("contractcontent") {
        DOCUMENT_TEXT_MAX
    } else if LONG_FIELD_WORDS.iter().any(|word| name.contains(word)) {
        LONG_TEXT_MAX
    } else if name.contains("address") && !name.contains("email") {
        ADDRESS_TEXT_MAX
    } else {
        SHORT_TEXT_MAX
    }
}

/// Checks every text field of an input against its field's limit, and every list
/// against [`LIST_ENTRIES_MAX`]. Field keys are the serialized names (`sections.2.content`).
pub fn check_text_bounds<T: Serialize + ?Sized>(input: &T) -> Result<(), Error> {
    let mut errors = ValidationErrors::new();
    add_text_bound_errors(input, &mut errors);
    errors.into_result()
}

/// Adds the bound errors of one value to `errors` (for checks that gather more).
pub fn add_text_bound_errors<T: Serialize + ?Sized>(input: &T, errors: &mut ValidationErrors) {
    // Nearly every form is within bounds everywhere, which its JSON text shows without
    // building the tree of values the field-by-field walk needs (a lead import checks
    // every row).
    if within_every_bound(input) {
        return;
    }
    // An input that cannot be serialized has no text to bound.
    if let Ok(value) = serde_json::to_value(input) {
        walk(&value, &mut String::new(), "", errors);
    }
}

/// True when no string of a value is longer than [`SHORT_TEXT_MAX`] bytes and no list
/// has more than [`LIST_ENTRIES_MAX`] entries, so no bound can be broken: no field's limit
/// is below that many characters. Any doubt answers false and the walk decides. The
/// value is visited as it serializes, without writing it anywhere.
fn within_every_bound<T: Serialize + ?Sized>(value: &T) -> bool {
    value.serialize(ShortBounds).is_ok()
}

/// Serializes nothing: fails at the first string or list past the short bounds.
#[derive(Clone, Copy)]
struct ShortBounds;

/// What stopped [`ShortBounds`]: a long string, a long list, or the value's own error.
#[derive(Debug)]
struct PastBounds;

impl std::fmt::Display for PastBounds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("past the short bounds")
    }
}

impl std::error::Error for PastBounds {}

impl serde::ser::Error for PastBounds {
    fn custom<M: std::fmt::Display>(_: M) -> Self {
        PastBounds
    }
}

fn short(text: &str) -> Result<(), PastBounds> {
    if text.len() > SHORT_TEXT_MAX {
        Err(PastBounds)
    } else {
        Ok(())
    }
}

/// A list, map or struct being visited: its entries so far.
struct Entries(usize);

impl Entries {
    fn entry<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), PastBounds> {
        self.0 += 1;
        if self.0 > LIST_ENTRIES_MAX {
            return Err(PastBounds);
        }
        value.serialize(ShortBounds)
    }
}

macro_rules! fine {
    ($($method:ident($($arg:ty),*)),* $(,)?) => {
        $(fn $method(self, $(_: $arg),*) -> Result<(), PastBounds> {
            Ok(())
        })*
    };
}

impl serde::Serializer for ShortBounds {
    type Ok = ();
    type Error = PastBounds;
    type SerializeSeq = Entries;
    type SerializeTuple = Entries;
    type SerializeTupleStruct = Entries;
    type SerializeTupleVariant = Entries;
    type SerializeMap = Entries;
    type SerializeStruct = Entries;
    type SerializeStructVariant = Entries;

    fine! {
        serialize_bool(bool), serialize_i8(i8), serialize_i16(i16), serialize_i32(i32),
        serialize_i64(i64), serialize_u8(u8), serialize_u16(u16), serialize_u32(u32),
        serialize_u64(u64), serialize_f32(f32), serialize_f64(f64), serialize_char(char),
        serialize_none(), serialize_unit(), serialize_unit_struct(&'static str),
    }

    fn serialize_str(self, value: &str) -> Result<(), PastBounds> {
        short(value)
    }
    fn serialize_bytes(self, value: &[u8]) -> Result<(), PastBounds> {
        // Written as a list of numbers.
        if value.len() > LIST_ENTRIES_MAX {
            Err(PastBounds)
        } else {
            Ok(())
        }
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), PastBounds> {
        short(variant)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), PastBounds> {
        value.serialize(self)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), PastBounds> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        value: &T,
    ) -> Result<(), PastBounds> {
        value.serialize(self)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Entries, PastBounds> {
        Ok(Entries(0))
    }
    fn serialize_tuple(self, _: usize) -> Result<Entries, PastBounds> {
        Ok(Entries(0))
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Entries, PastBounds> {
        Ok(Entries(0))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Entries, PastBounds> {
        Ok(Entries(0))
    }
    // Objects have no bound on their number of fields; `Entries` counts lists only.
    fn serialize_map(self, _: Option<usize>) -> Result<Entries, PastBounds> {
        Ok(Entries(0))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Entries, PastBounds> {
        Ok(Entries(0))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Entries, PastBounds> {
        Ok(Entries(0))
    }
}

/// Lists count their entries.
macro_rules! list {
    ($($trait:ident::$method:ident),* $(,)?) => {
        $(impl serde::ser::$trait for Entries {
            type Ok = ();
            type Error = PastBounds;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), PastBounds> {
                self.entry(value)
            }
            fn end(self) -> Result<(), PastBounds> {
                Ok(())
            }
        })*
    };
}

list! {
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field,
}

/// Objects only look at their values (and a map's keys, which JSON writes as strings).
macro_rules! object {
    ($($trait:ident),*) => {
        $(impl serde::ser::$trait for Entries {
            type Ok = ();
            type Error = PastBounds;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                _: &'static str,
                value: &T,
            ) -> Result<(), PastBounds> {
                value.serialize(ShortBounds)
            }
            fn end(self) -> Result<(), PastBounds> {
                Ok(())
            }
        })*
    };
}

object!(SerializeStruct, SerializeStructVariant);

impl serde::ser::SerializeMap for Entries {
    type Ok = ();
    type Error = PastBounds;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), PastBounds> {
        key.serialize(ShortBounds)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), PastBounds> {
        value.serialize(ShortBounds)
    }
    fn end(self) -> Result<(), PastBounds> {
        Ok(())
    }
}

/// `path` is the field's key so far (`sections.2.content`); it grows and shrinks in place,
/// so walking a form allocates nothing per field.
fn walk(value: &Value, path: &mut String, field: &str, errors: &mut ValidationErrors) {
    match value {
        // No field's limit is below SHORT_TEXT_MAX characters, and a character is at least
        // one byte: a short text needs no look at its field's name (an import checks
        // every field of every row, so this is most of the work).
        Value::String(text) if text.len() <= SHORT_TEXT_MAX => {}
        Value::String(text) => {
            let limit = text_limit(field);
            // Counting stops at the limit: a huge text costs no more than a long one.
            if text.chars().nth(limit).is_some() {
                errors.add(path.as_str(), text_too_long(limit));
            }
        }
        Value::Array(items) => {
            if items.len() > LIST_ENTRIES_MAX {
                errors.add(path.as_str(), TOO_MANY_ENTRIES);
                return;
            }
            for (index, item) in items.iter().enumerate() {
                let len = path.len();
                // Writing to a String cannot fail.
                let _ = write!(path, ".{index}");
                walk(item, path, field, errors);
                path.truncate(len);
            }
        }
        Value::Object(fields) => {
            for (key, item) in fields {
                let len = path.len();
                if len > 0 {
                    path.push('.');
                }
                path.push_str(key);
                walk(item, path, key, errors);
                path.truncate(len);
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

/// Checks one text field against its name's limit.
pub fn check_text(errors: &mut ValidationErrors, field: &str, value: &str) {
    let limit = text_limit(field);
    if value.chars().nth(limit).is_some() {
        errors.add(field, text_too_long(limit));
    }
}

/// Checks one text field on its own (a contract's text, a marketing email).
pub fn check_field_text(field: &str, value: &str) -> Result<(), Error> {
    let mut errors = ValidationErrors::new();
    check_text(&mut errors, field, value);
    errors.into_result()
}

/// The part of a search term that is searched: trimmed, without control characters (a
/// NUL or a line break can match nothing a person typed), and at most
/// [`SEARCH_TERM_MAX`] characters, longer than any name, phone number or email, so no
/// term can make a search slow or its pattern too large.
pub fn bounded_search_term(term: &str) -> String {
    term.trim()
        .chars()
        .filter(|c| !c.is_control())
        .take(SEARCH_TERM_MAX)
        .collect()
}

/// Adds `message` for `field` when `value` is not a finite number in `low..=high`.
pub fn check_range(errors: &mut ValidationErrors, field: &str, value: f64, low: f64, high: f64) {
    if !(value.is_finite() && (low..=high).contains(&value)) {
        errors.add(field, out_of_range(low, high));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Form {
        client_full_name: String,
        additional_comments: String,
        client_address: String,
        caller_email: String,
        services: Vec<String>,
        sections: Vec<Section>,
    }

    #[derive(Serialize)]
    struct Section {
        title: String,
        content: String,
    }

    fn form() -> Form {
        Form {
            client_full_name: "Ellen Ames".into(),
            additional_comments: "Prefers mornings.".into(),
            client_address: "12 Elm St".into(),
            caller_email: "ellen@example.com".into(),
            services: vec!["Personal Care".into()],
            sections: vec![Section {
                title: "Services".into(),
                content: "x".repeat(LONG_TEXT_MAX),
            }],
        }
    }

    fn fields(result: Result<(), Error>) -> Vec<(String, String)> {
        match result {
            Ok(()) => Vec::new(),
            Err(Error::Validation(errors)) => errors.fields.into_iter().collect(),
            Err(other) => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn the_json_pre_check_passes_only_what_the_walk_passes() {
        let walk_finds = |value: &Value| {
            let mut errors = ValidationErrors::new();
            walk(value, &mut String::new(), "", &mut errors);
            !errors.fields.is_empty()
        };
        let cases = [
            serde_json::json!({"clientFullName": "a".repeat(SHORT_TEXT_MAX)}),
            serde_json::json!({"clientFullName": "a".repeat(SHORT_TEXT_MAX + 1)}),
            serde_json::json!({"clientFullName": "é".repeat(SHORT_TEXT_MAX / 2 + 1)}),
            serde_json::json!({"clientFullName": format!("\"{}\\", "a".repeat(SHORT_TEXT_MAX - 2))}),
            serde_json::json!({"services": vec!["x"; LIST_ENTRIES_MAX]}),
            serde_json::json!({"services": vec!["x"; LIST_ENTRIES_MAX + 1]}),
            serde_json::json!({"sections": [{"items": vec![1; LIST_ENTRIES_MAX + 1]}, []]}),
            serde_json::json!({"a": [[1, 2], [3]], "b": "[,,]", "c": "\\\""}),
        ];
        let mut refused = 0;
        for value in cases {
            if within_every_bound(&value) {
                assert!(!walk_finds(&value), "{value}");
            } else {
                refused += 1;
            }
            assert_eq!(
                walk_finds(&value),
                check_text_bounds(&value).is_err(),
                "{value}"
            );
        }
        assert!(refused >= 4, "the long texts and lists go to the walk");
        // The usual form passes without the walk.
        let usual = serde_json::json!({
            "clientFullName": "Ellen Ames", "services": ["Companionship"], "hours": 8
        });
        assert!(within_every_bound(&usual));
        assert!(within_every_bound(&form().sections[0].title));
        assert!(!within_every_bound(&form()), "a long text goes to the walk");
    }

    #[test]
    fn field_names_choose_their_limits() {
        for (field, limit) in [
            ("clientFullName", SHORT_TEXT_MAX),
            ("caller_phone", SHORT_TEXT_MAX),
            ("callerEmail", SHORT_TEXT_MAX),
            ("clientAddress", ADDRESS_TEXT_MAX),
            ("postal_address", ADDRESS_TEXT_MAX),
            ("additionalComments", LONG_TEXT_MAX),
            ("follow_up_notes", LONG_TEXT_MAX),
            ("ai_prompt_template", LONG_TEXT_MAX),
            ("primaryReasonCareNeeded", LONG_TEXT_MAX),
            ("contract_content", DOCUMENT_TEXT_MAX),
        ] {
            assert_eq!(text_limit(field), limit, "{field}");
        }
    }

    #[test]
    fn texts_at_their_limit_pass_and_one_more_character_fails() {
        assert!(fields(check_text_bounds(&form())).is_empty());

        let mut long_name = form();
        long_name.client_full_name = "é".repeat(SHORT_TEXT_MAX + 1);
        assert_eq!(
            fields(check_text_bounds(&long_name)),
            [(
                "clientFullName".to_owned(),
                "This field must be at most 200 characters.".to_owned()
            )]
        );

        let mut long_section = form();
        long_section.sections[0].content.push('x');
        long_section.sections[0].title = "t".repeat(201);
        assert_eq!(
            fields(check_text_bounds(&long_section)),
            [
                (
                    "sections.0.content".to_owned(),
                    "This field must be at most 20000 characters.".to_owned()
                ),
                (
                    "sections.0.title".to_owned(),
                    "This field must be at most 200 characters.".to_owned()
                ),
            ]
        );
    }

    #[test]
    fn a_list_with_too_many_entries_is_refused_whole() {
        let mut many = form();
        many.services = vec!["x".into(); LIST_ENTRIES_MAX + 1];
        assert_eq!(
            fields(check_text_bounds(&many)),
            [("services".to_owned(), TOO_MANY_ENTRIES.to_owned())]
        );
    }

    #[test]
    fn search_terms_are_bounded_and_plain() {
        assert_eq!(bounded_search_term(" Ellen "), "Ellen");
        assert_eq!(bounded_search_term("a\u{0}b\r\n"), "ab");
        assert_eq!(
            bounded_search_term(&"é".repeat(SEARCH_TERM_MAX + 50)),
            "é".repeat(SEARCH_TERM_MAX)
        );
    }

    #[test]
    fn ranges_refuse_non_finite_and_outside_values() {
        for (value, ok) in [
            (1.0, true),
            (MAX_MONEY, true),
            (MAX_MONEY + 0.01, false),
            (f64::INFINITY, false),
            (f64::NAN, false),
            (1e308, false),
            (-1.0, false),
        ] {
            let mut errors = ValidationErrors::new();
            check_range(&mut errors, "hourly_rate", value, 0.0, MAX_MONEY);
            assert_eq!(errors.is_empty(), ok, "{value}");
        }
    }
}
