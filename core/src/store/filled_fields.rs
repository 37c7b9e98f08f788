//! A struct written as a JSON object of its filled-in fields: the empty ones (`""`,
//! `[]`, `{}`, `null`, `false`) are left out. For a struct whose fields are strings,
//! lists, booleans and optional numbers, all `#[serde(default)]`, reading the object
//! back gives the same struct, and a form of sixty-odd fields with a handful filled in
//! takes a fraction of the space. A field that can hold an empty value other than its
//! default (an `Option<bool>` holding `Some(false)`) would come back as its default;
//! the stored intake form's round-trip test fails if one is added.
//!
//! Each field is written by serde_json into a scratch buffer and kept when it is not
//! empty; nothing else is allocated per field.
//!
//! [`Template::filled_out`] goes the other way for an answer that only passes the form
//! on: the stored object with the left-out fields put back, as the whole struct would
//! serialize, without building the struct.

use serde::Serialize;
use serde::ser::{self, Impossible, SerializeStruct};

/// The filled-in fields of `value`, which must serialize as a struct.
pub(crate) fn to_string<T: Serialize>(value: &T) -> serde_json::Result<String> {
    let mut out = Vec::with_capacity(256);
    value.serialize(FilledFields {
        out: &mut out,
        scratch: Vec::with_capacity(64),
        kept: 0,
    })?;
    // serde_json writes UTF-8 only, so this never fails.
    String::from_utf8(out).map_err(ser::Error::custom)
}

struct FilledFields<'a> {
    out: &'a mut Vec<u8>,
    scratch: Vec<u8>,
    kept: usize,
}

impl SerializeStruct for FilledFields<'_> {
    type Ok = ();
    type Error = serde_json::Error;

    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> serde_json::Result<()> {
        self.scratch.clear();
        serde_json::to_writer(&mut self.scratch, value)?;
        if matches!(
            self.scratch.as_slice(),
            b"\"\"" | b"[]" | b"{}" | b"null" | b"false"
        ) {
            return Ok(());
        }
        self.out.push(if self.kept == 0 { b'{' } else { b',' });
        serde_json::to_writer(&mut *self.out, key)?;
        self.out.push(b':');
        self.out.extend_from_slice(&self.scratch);
        self.kept += 1;
        Ok(())
    }

    fn end(self) -> serde_json::Result<()> {
        if self.kept == 0 {
            self.out.push(b'{');
        }
        self.out.push(b'}');
        Ok(())
    }
}

fn not_a_struct() -> serde_json::Error {
    ser::Error::custom("only a struct is written as its filled-in fields")
}

/// Everything but a struct is refused.
macro_rules! refuse {
    ($($method:ident($($arg:ty),*)),* $(,)?) => {
        $(fn $method(self, $(_: $arg),*) -> serde_json::Result<()> {
            Err(not_a_struct())
        })*
    };
}

impl<'a> ser::Serializer for FilledFields<'a> {
    type Ok = ();
    type Error = serde_json::Error;
    type SerializeSeq = Impossible<(), serde_json::Error>;
    type SerializeTuple = Impossible<(), serde_json::Error>;
    type SerializeTupleStruct = Impossible<(), serde_json::Error>;
    type SerializeTupleVariant = Impossible<(), serde_json::Error>;
    type SerializeMap = Impossible<(), serde_json::Error>;
    type SerializeStruct = Self;
    type SerializeStructVariant = Impossible<(), serde_json::Error>;

    fn serialize_struct(self, _: &'static str, _: usize) -> serde_json::Result<Self> {
        Ok(self)
    }

    refuse! {
        serialize_bool(bool), serialize_i8(i8), serialize_i16(i16), serialize_i32(i32),
        serialize_i64(i64), serialize_u8(u8), serialize_u16(u16), serialize_u32(u32),
        serialize_u64(u64), serialize_f32(f32), serialize_f64(f64), serialize_char(char),
        serialize_str(&str), serialize_bytes(&[u8]), serialize_none(), serialize_unit(),
        serialize_unit_struct(&'static str),
        serialize_unit_variant(&'static str, u32, &'static str),
    }

    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> serde_json::Result<()> {
        Err(not_a_struct())
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: &T,
    ) -> serde_json::Result<()> {
        Err(not_a_struct())
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> serde_json::Result<()> {
        Err(not_a_struct())
    }

    fn serialize_seq(self, _: Option<usize>) -> serde_json::Result<Self::SerializeSeq> {
        Err(not_a_struct())
    }

    fn serialize_tuple(self, _: usize) -> serde_json::Result<Self::SerializeTuple> {
        Err(not_a_struct())
    }

    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> serde_json::Result<Self::SerializeTupleStruct> {
        Err(not_a_struct())
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> serde_json::Result<Self::SerializeTupleVariant> {
        Err(not_a_struct())
    }

    fn serialize_map(self, _: Option<usize>) -> serde_json::Result<Self::SerializeMap> {
        Err(not_a_struct())
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> serde_json::Result<Self::SerializeStructVariant> {
        Err(not_a_struct())
    }
}

/// What a field holds, told by its default's JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `""`
    Text,
    /// `[]`, of strings
    List,
    /// `false`
    Flag,
    /// `null`, an optional number
    Number,
}

/// A struct's fields in order, each with its default as JSON: what
/// [`Template::filled_out`] fills a stored object out with.
pub(crate) struct Template {
    fields: Vec<Field>,
}

struct Field {
    name: String,
    /// `"name":`, written before the value.
    head: String,
    kind: Kind,
    default: &'static str,
}

impl Template {
    /// The template of `T`, whose default must serialize as an object of `""`, `[]`,
    /// `false` and `null` values only (`None` otherwise).
    pub(crate) fn of<T: Default + Serialize>() -> Option<Template> {
        let json = serde_json::to_string(&T::default()).ok()?;
        let mut scan = Scan::new(&json);
        let mut fields = Vec::new();
        scan.byte(b'{')?;
        if !scan.at(b'}') {
            loop {
                let key = scan.plain_string()?;
                scan.byte(b':')?;
                let (kind, default) = if scan.word("\"\"") {
                    (Kind::Text, "\"\"")
                } else if scan.word("[]") {
                    (Kind::List, "[]")
                } else if scan.word("false") {
                    (Kind::Flag, "false")
                } else if scan.word("null") {
                    (Kind::Number, "null")
                } else {
                    return None;
                };
                fields.push(Field {
                    name: key.to_owned(),
                    head: format!("\"{key}\":"),
                    kind,
                    default,
                });
                if scan.byte(b',').is_none() {
                    break;
                }
            }
        }
        scan.byte(b'}')?;
        scan.done().then_some(Template { fields })
    }

    /// `stored` (written by [`to_string`]) as the whole struct serializes with
    /// serde_json, byte for byte, or `None` when this cannot tell without parsing: a
    /// string with an escape, white space, a key it does not know or out of order, a
    /// number written as text. The caller then parses, which also reports what is wrong.
    pub(crate) fn filled_out(&self, stored: &str) -> Option<String> {
        let mut out = String::with_capacity(stored.len() + self.fields.len() * 8);
        let mut fields = self.fields.iter();
        let mut scan = Scan::new(stored);
        scan.byte(b'{')?;
        out.push('{');
        let mut first = true;
        let mut next_field = |out: &mut String, key: Option<&str>| -> Option<Kind> {
            for field in fields.by_ref() {
                if !std::mem::take(&mut first) {
                    out.push(',');
                }
                out.push_str(&field.head);
                if key == Some(field.name.as_str()) {
                    return Some(field.kind);
                }
                out.push_str(field.default);
            }
            None
        };
        if !scan.at(b'}') {
            loop {
                let key = scan.plain_string()?;
                scan.byte(b':')?;
                let start = scan.at;
                // A number is printed again; everything else is copied as stored.
                let mut printed = None;
                match next_field(&mut out, Some(key))? {
                    Kind::Text => {
                        scan.plain_string()?;
                    }
                    Kind::List => {
                        scan.byte(b'[')?;
                        if !scan.at(b']') {
                            loop {
                                scan.plain_string()?;
                                if scan.byte(b',').is_none() {
                                    break;
                                }
                            }
                        }
                        scan.byte(b']')?;
                    }
                    Kind::Flag => {
                        if !scan.word("true") && !scan.word("false") {
                            return None;
                        }
                    }
                    Kind::Number => {
                        if !scan.word("null") {
                            let number = scan.number()?;
                            // serde_json's own parse and print, as a parsed struct gets.
                            let value: f64 = serde_json::from_str(number).ok()?;
                            printed = Some(serde_json::to_string(&value).ok()?);
                        }
                    }
                }
                out.push_str(printed.as_deref().unwrap_or(&stored[start..scan.at]));
                if scan.byte(b',').is_none() {
                    break;
                }
            }
        }
        scan.byte(b'}')?;
        if !scan.done() {
            return None;
        }
        next_field(&mut out, None);
        out.push('}');
        Some(out)
    }
}

/// A strict reader of the compact JSON [`to_string`] writes.
struct Scan<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Scan<'a> {
    fn new(text: &'a str) -> Self {
        Scan { text, at: 0 }
    }

    fn at(&self, byte: u8) -> bool {
        self.text.as_bytes().get(self.at) == Some(&byte)
    }

    fn byte(&mut self, byte: u8) -> Option<()> {
        self.at(byte).then(|| self.at += 1)
    }

    fn word(&mut self, word: &str) -> bool {
        let found = self.text[self.at..].starts_with(word);
        if found {
            self.at += word.len();
        }
        found
    }

    /// A string with nothing escaped, without its quotes.
    fn plain_string(&mut self) -> Option<&'a str> {
        self.byte(b'"')?;
        let start = self.at;
        let rest = &self.text.as_bytes()[start..];
        let length = memchr::memchr2(b'"', b'\\', rest)?;
        // A control character is never in a JSON string; folded rather than searched so
        // the check runs many bytes at a time.
        if rest[..length]
            .iter()
            .fold(false, |found, &byte| found | (byte < 0x20))
        {
            return None;
        }
        self.at = start + length;
        self.byte(b'"')?;
        Some(&self.text[start..start + length])
    }

    fn number(&mut self) -> Option<&'a str> {
        let start = self.at;
        let length = self.text.as_bytes()[start..]
            .iter()
            .position(|byte| !matches!(byte, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
            .unwrap_or(self.text.len() - start);
        self.at = start + length;
        (length > 0).then(|| &self.text[start..self.at])
    }

    fn done(&self) -> bool {
        self.at == self.text.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Sample {
        name: String,
        note: String,
        tags: Vec<String>,
        flag: bool,
        hours: Option<f64>,
    }

    #[test]
    fn empty_fields_are_left_out_and_the_rest_written_as_serde_json_writes_them() {
        let sample = Sample {
            name: "Ann \"Nan\", \\ O'Neil\nü".to_owned(),
            note: String::new(),
            tags: vec!["a,b".to_owned(), "[c]".to_owned()],
            flag: false,
            hours: Some(0.0),
        };
        assert_eq!(
            to_string(&sample).unwrap(),
            format!(
                "{{\"name\":{},\"tags\":[\"a,b\",\"[c]\"],\"hours\":0.0}}",
                serde_json::to_string(&sample.name).unwrap()
            )
        );
        let empty = Sample {
            name: String::new(),
            note: String::new(),
            tags: Vec::new(),
            flag: false,
            hours: None,
        };
        assert_eq!(to_string(&empty).unwrap(), "{}");
    }

    #[test]
    fn anything_but_a_struct_is_refused() {
        assert!(to_string(&"text").is_err());
        assert!(to_string(&vec![1, 2]).is_err());
    }
}
