//! The API's JSON writer: serde_json's output, byte for byte, with a faster string path.
//!
//! serde_json looks at every byte of every string and key on its own to find the few that
//! need escaping; for a page of fifty clients that was a quarter of the answer's
//! instructions. This writer looks at eight bytes at a time and copies the runs that need
//! nothing in one go. Numbers go through serde_json's own formatter, so they print the
//! same. A test compares the two writers on every kind of value.

use serde::ser::{self, Serialize};
use serde_json::ser::{CompactFormatter, Formatter};

/// A value could not be written: a map key that is not a string or number, or an error a
/// `Serialize` impl raised itself.
#[derive(Debug)]
pub struct Error(String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: std::fmt::Display>(message: T) -> Self {
        Error(message.to_string())
    }
}

type Result<T = ()> = std::result::Result<T, Error>;

/// Appends `value` as compact JSON to `out`. On error `out` holds a partial answer.
pub fn write<T: ?Sized + Serialize>(out: &mut Vec<u8>, value: &T) -> Result {
    value.serialize(&mut Writer { out })
}

struct Writer<'a> {
    out: &'a mut Vec<u8>,
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Whether any of the eight bytes is a control character, a quote or a backslash.
#[inline]
fn needs_escape(chunk: u64) -> bool {
    // The classic zero-byte test (x - 0x01..) & !x & 0x80.. applied to the byte itself
    // for "below 0x20" and to its xor with '"' and '\\' for equality. Bytes of 0x80 and
    // above (UTF-8) never match: `!x` clears their high bit.
    let below_space = chunk.wrapping_sub(ONES * 0x20) & !chunk;
    let quote = chunk ^ (ONES * u64::from(b'"'));
    let quote = quote.wrapping_sub(ONES) & !quote;
    let backslash = chunk ^ (ONES * u64::from(b'\\'));
    let backslash = backslash.wrapping_sub(ONES) & !backslash;
    (below_space | quote | backslash) & HIGHS != 0
}

const HEX: &[u8; 16] = b"0123456789abcdef";

fn escape_byte(out: &mut Vec<u8>, byte: u8) {
    let short = match byte {
        b'"' => b'"',
        b'\\' => b'\\',
        b'\n' => b'n',
        b'\r' => b'r',
        b'\t' => b't',
        0x08 => b'b',
        0x0C => b'f',
        _ => {
            out.extend_from_slice(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(byte >> 4)],
                HEX[usize::from(byte & 0xF)],
            ]);
            return;
        }
    };
    out.extend_from_slice(&[b'\\', short]);
}

fn word(eight: &[u8]) -> u64 {
    let mut word = [0; 8];
    word.copy_from_slice(eight);
    u64::from_le_bytes(word)
}

/// Whether any byte of `bytes` needs escaping, eight at a time. The last word overlaps
/// the one before rather than being padded: assembling a padded word byte by byte in
/// memory and reading it whole stalls the read.
#[inline]
fn any_escape(bytes: &[u8]) -> bool {
    if bytes.len() < 8 {
        return bytes
            .iter()
            .any(|&byte| byte < 0x20 || byte == b'"' || byte == b'\\');
    }
    let mut chunks = bytes.chunks_exact(8);
    if chunks.any(|chunk| needs_escape(word(chunk))) {
        return true;
    }
    !chunks.remainder().is_empty() && needs_escape(word(&bytes[bytes.len() - 8..]))
}

fn write_str(out: &mut Vec<u8>, text: &str) {
    let bytes = text.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    if any_escape(bytes) {
        let mut start = 0;
        for (at, &byte) in bytes.iter().enumerate() {
            if byte < 0x20 || byte == b'"' || byte == b'\\' {
                out.extend_from_slice(&bytes[start..at]);
                escape_byte(out, byte);
                start = at + 1;
            }
        }
        out.extend_from_slice(&bytes[start..]);
    } else {
        out.extend_from_slice(bytes);
    }
    out.push(b'"');
}

macro_rules! numbers {
    ($($method:ident: $ty:ty => $format:ident),* $(,)?) => {
        $(fn $method(self, value: $ty) -> Result {
            CompactFormatter.$format(self.out, value).map_err(ser::Error::custom)
        })*
    };
}

impl<'a, 'b> ser::Serializer for &'a mut Writer<'b> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a, 'b>;
    type SerializeTuple = Compound<'a, 'b>;
    type SerializeTupleStruct = Compound<'a, 'b>;
    type SerializeTupleVariant = Compound<'a, 'b>;
    type SerializeMap = Compound<'a, 'b>;
    type SerializeStruct = Compound<'a, 'b>;
    type SerializeStructVariant = Compound<'a, 'b>;

    numbers! {
        serialize_i8: i8 => write_i8,
        serialize_i16: i16 => write_i16,
        serialize_i32: i32 => write_i32,
        serialize_i64: i64 => write_i64,
        serialize_i128: i128 => write_i128,
        serialize_u8: u8 => write_u8,
        serialize_u16: u16 => write_u16,
        serialize_u32: u32 => write_u32,
        serialize_u64: u64 => write_u64,
        serialize_u128: u128 => write_u128,
    }

    fn serialize_bool(self, value: bool) -> Result {
        self.out
            .extend_from_slice(if value { b"true" } else { b"false" });
        Ok(())
    }

    fn serialize_f32(self, value: f32) -> Result {
        if value.is_finite() {
            CompactFormatter
                .write_f32(self.out, value)
                .map_err(ser::Error::custom)
        } else {
            self.serialize_unit()
        }
    }

    fn serialize_f64(self, value: f64) -> Result {
        if value.is_finite() {
            CompactFormatter
                .write_f64(self.out, value)
                .map_err(ser::Error::custom)
        } else {
            self.serialize_unit()
        }
    }

    fn serialize_char(self, value: char) -> Result {
        write_str(self.out, value.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    fn serialize_str(self, value: &str) -> Result {
        write_str(self.out, value);
        Ok(())
    }

    fn serialize_bytes(self, value: &[u8]) -> Result {
        use ser::SerializeSeq;
        let mut seq = self.serialize_seq(Some(value.len()))?;
        for byte in value {
            seq.serialize_element(byte)?;
        }
        seq.end()
    }

    fn serialize_none(self) -> Result {
        self.serialize_unit()
    }

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result {
        self.out.extend_from_slice(b"null");
        Ok(())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result {
        self.serialize_unit()
    }

    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result {
        self.out.push(b'{');
        write_str(self.out, variant);
        self.out.push(b':');
        value.serialize(&mut *self)?;
        self.out.push(b'}');
        Ok(())
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'a, 'b>> {
        self.out.push(b'[');
        Ok(Compound::open(self, len, b"]"))
    }

    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, 'b>> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Compound<'a, 'b>> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a, 'b>> {
        self.out.push(b'{');
        write_str(self.out, variant);
        self.out.extend_from_slice(b":[");
        Ok(Compound::open(self, Some(len), b"]}"))
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Compound<'a, 'b>> {
        self.out.push(b'{');
        Ok(Compound::open(self, len, b"}"))
    }

    fn serialize_struct(self, name: &'static str, len: usize) -> Result<Compound<'a, 'b>> {
        if name == RAW_VALUE {
            return Ok(Compound {
                writer: self,
                first: true,
                close: b"",
                raw: true,
            });
        }
        self.serialize_map(Some(len))
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a, 'b>> {
        self.out.push(b'{');
        write_str(self.out, variant);
        self.out.extend_from_slice(b":{");
        Ok(Compound::open(self, Some(len), b"}}"))
    }
}

/// An array or object being written: whether a comma is due, and how it closes.
pub struct Compound<'a, 'b> {
    writer: &'a mut Writer<'b>,
    first: bool,
    close: &'static [u8],
    /// A `serde_json::value::RawValue`: its one field is JSON text, written as it is.
    raw: bool,
}

/// The struct name serde_json's `RawValue` serializes under.
const RAW_VALUE: &str = "$serde_json::private::RawValue";

impl<'a, 'b> Compound<'a, 'b> {
    fn open(writer: &'a mut Writer<'b>, _len: Option<usize>, close: &'static [u8]) -> Self {
        Compound {
            writer,
            first: true,
            close,
            raw: false,
        }
    }

    fn comma(&mut self) {
        if !std::mem::take(&mut self.first) {
            self.writer.out.push(b',');
        }
    }

    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result {
        self.comma();
        value.serialize(&mut *self.writer)
    }

    fn field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result {
        if self.raw {
            return value.serialize(RawText(self.writer.out));
        }
        self.comma();
        write_str(self.writer.out, key);
        self.writer.out.push(b':');
        value.serialize(&mut *self.writer)
    }

    fn close(self) -> Result {
        self.writer.out.extend_from_slice(self.close);
        Ok(())
    }
}

/// Arrays and tuples all write their elements the same way.
macro_rules! elements {
    ($($trait:ident::$method:ident),* $(,)?) => {
        $(impl ser::$trait for Compound<'_, '_> {
            type Ok = ();
            type Error = Error;
            fn $method<T: ?Sized + Serialize>(&mut self, value: &T) -> Result {
                self.element(value)
            }
            fn end(self) -> Result {
                self.close()
            }
        })*
    };
}

elements! {
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field,
}

impl ser::SerializeMap for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result {
        self.comma();
        key.serialize(MapKey(self.writer.out))
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result {
        self.writer.out.push(b':');
        value.serialize(&mut *self.writer)
    }
    fn end(self) -> Result {
        self.close()
    }
}

/// Structs and struct variants write their fields the same way.
macro_rules! fields {
    ($($trait:ident),*) => {
        $(impl ser::$trait for Compound<'_, '_> {
            type Ok = ();
            type Error = Error;
            fn serialize_field<T: ?Sized + Serialize>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result {
                self.field(key, value)
            }
            fn end(self) -> Result {
                self.close()
            }
        })*
    };
}

fields!(SerializeStruct, SerializeStructVariant);

/// A serializer of one kind of scalar refuses every list, map, struct and variant with
/// `$error`.
macro_rules! no_compounds {
    ($error:ident) => {
        type SerializeSeq = ser::Impossible<(), Error>;
        type SerializeTuple = ser::Impossible<(), Error>;
        type SerializeTupleStruct = ser::Impossible<(), Error>;
        type SerializeTupleVariant = ser::Impossible<(), Error>;
        type SerializeMap = ser::Impossible<(), Error>;
        type SerializeStruct = ser::Impossible<(), Error>;
        type SerializeStructVariant = ser::Impossible<(), Error>;

        fn serialize_newtype_variant<T: ?Sized + Serialize>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: &T,
        ) -> Result {
            Err($error())
        }
        fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq> {
            Err($error())
        }
        fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple> {
            Err($error())
        }
        fn serialize_tuple_struct(
            self,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleStruct> {
            Err($error())
        }
        fn serialize_tuple_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleVariant> {
            Err($error())
        }
        fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap> {
            Err($error())
        }
        fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct> {
            Err($error())
        }
        fn serialize_struct_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeStructVariant> {
            Err($error())
        }
    };
}

/// An object key: a string as is, a number or bool quoted, as serde_json writes them.
struct MapKey<'a>(&'a mut Vec<u8>);

fn key_must_be_a_string() -> Error {
    Error("key must be a string".to_owned())
}

macro_rules! quoted_numbers {
    ($($method:ident: $ty:ty => $format:ident),* $(,)?) => {
        $(fn $method(self, value: $ty) -> Result {
            self.0.push(b'"');
            CompactFormatter.$format(self.0, value).map_err(ser::Error::custom)?;
            self.0.push(b'"');
            Ok(())
        })*
    };
}

impl ser::Serializer for MapKey<'_> {
    type Ok = ();
    type Error = Error;

    quoted_numbers! {
        serialize_i8: i8 => write_i8,
        serialize_i16: i16 => write_i16,
        serialize_i32: i32 => write_i32,
        serialize_i64: i64 => write_i64,
        serialize_i128: i128 => write_i128,
        serialize_u8: u8 => write_u8,
        serialize_u16: u16 => write_u16,
        serialize_u32: u32 => write_u32,
        serialize_u64: u64 => write_u64,
        serialize_u128: u128 => write_u128,
    }

    fn serialize_bool(self, value: bool) -> Result {
        self.0
            .extend_from_slice(if value { b"\"true\"" } else { b"\"false\"" });
        Ok(())
    }
    fn serialize_f32(self, _: f32) -> Result {
        Err(key_must_be_a_string())
    }
    fn serialize_f64(self, _: f64) -> Result {
        Err(key_must_be_a_string())
    }
    fn serialize_char(self, value: char) -> Result {
        write_str(self.0, value.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, value: &str) -> Result {
        write_str(self.0, value);
        Ok(())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result {
        Err(key_must_be_a_string())
    }
    fn serialize_none(self) -> Result {
        Err(key_must_be_a_string())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result {
        Err(key_must_be_a_string())
    }
    fn serialize_unit(self) -> Result {
        Err(key_must_be_a_string())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result {
        Err(key_must_be_a_string())
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result {
        write_str(self.0, variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _: &'static str, value: &T) -> Result {
        value.serialize(self)
    }
    no_compounds!(key_must_be_a_string);
}

/// The JSON text inside a `RawValue`, which serializes it as a string.
struct RawText<'a>(&'a mut Vec<u8>);

fn not_raw_text() -> Error {
    Error("a raw JSON value holds text".to_owned())
}

/// Everything but a string is refused.
macro_rules! not_raw {
    ($($method:ident($($arg:ty),*)),* $(,)?) => {
        $(fn $method(self, $(_: $arg),*) -> Result {
            Err(not_raw_text())
        })*
    };
}

impl ser::Serializer for RawText<'_> {
    type Ok = ();
    type Error = Error;

    fn serialize_str(self, value: &str) -> Result {
        self.0.extend_from_slice(value.as_bytes());
        Ok(())
    }

    not_raw! {
        serialize_bool(bool), serialize_i8(i8), serialize_i16(i16), serialize_i32(i32),
        serialize_i64(i64), serialize_u8(u8), serialize_u16(u16), serialize_u32(u32),
        serialize_u64(u64), serialize_f32(f32), serialize_f64(f64), serialize_char(char),
        serialize_bytes(&[u8]), serialize_none(), serialize_unit(),
        serialize_unit_struct(&'static str),
        serialize_unit_variant(&'static str, u32, &'static str),
    }

    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result {
        Err(not_raw_text())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _: &'static str, _: &T) -> Result {
        Err(not_raw_text())
    }
    no_compounds!(not_raw_text);
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Serialize;
    use serde_json::json;

    fn ours<T: Serialize>(value: &T) -> String {
        let mut out = Vec::new();
        super::write(&mut out, value).expect("writes");
        String::from_utf8(out).expect("UTF-8")
    }

    fn same<T: Serialize>(value: &T) {
        assert_eq!(
            ours(value),
            serde_json::to_string(value).expect("serde_json writes")
        );
    }

    #[test]
    fn every_string_is_escaped_as_serde_json_escapes_it() {
        let mut texts: Vec<String> = vec![
            String::new(),
            "plain ascii that runs past eight bytes".into(),
            "quote \" backslash \\ slash / tab \t new line \n return \r".into(),
            "\u{8}\u{c}\u{0}\u{1f}\u{7f} controls".into(),
            "Zoë Ångström — 日本語 🙂 accents and wide characters".into(),
            "\"".into(),
            "\\\\\\\\\\\\\\\\\\".into(),
        ];
        // Every byte below 0x80 at every position of a word, to catch a SWAR slip.
        for byte in 0u8..0x80 {
            for at in 0..17 {
                let mut text = "abcdefghijklmnopq".to_owned().into_bytes();
                text[at] = byte;
                texts.push(String::from_utf8(text).expect("ASCII"));
            }
        }
        for text in &texts {
            same(text);
            same(&BTreeMap::from([(text.clone(), 1)]));
        }
    }

    #[derive(Serialize)]
    #[serde(rename_all = "snake_case")]
    enum Kind {
        Unit,
        Newtype(u8),
        Tuple(i32, String),
        Struct { a: Option<bool>, b: Vec<f64> },
    }

    #[derive(Serialize)]
    struct Inner {
        x: i64,
    }

    #[derive(Serialize)]
    struct Outer {
        id: &'static str,
        #[serde(flatten)]
        inner: Inner,
        kinds: Vec<Kind>,
        missing: Option<String>,
        tuple: (u8, char, bool),
        floats: [f64; 5],
        bytes: serde_bytes_like::Bytes,
        keys: BTreeMap<i32, &'static str>,
    }

    mod serde_bytes_like {
        /// Serializes as bytes, the way serde_bytes would.
        pub struct Bytes(pub Vec<u8>);
        impl serde::Serialize for Bytes {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_bytes(&self.0)
            }
        }
    }

    #[test]
    fn every_shape_of_value_is_written_as_serde_json_writes_it() {
        same(&Outer {
            id: "01a2",
            inner: Inner { x: -42 },
            kinds: vec![
                Kind::Unit,
                Kind::Newtype(7),
                Kind::Tuple(-1, "t".into()),
                Kind::Struct {
                    a: None,
                    b: vec![1.5, -0.0, 1e300],
                },
            ],
            missing: None,
            tuple: (255, 'é', true),
            floats: [0.1, f64::NAN, f64::INFINITY, 3.0, -2.5e-8],
            bytes: serde_bytes_like::Bytes(vec![0, 1, 255]),
            keys: BTreeMap::from([(-3, "minus"), (10, "ten")]),
        });
        same(
            &json!({"nested": [1, 2.5, null, true, {"k": "v\u{1}"}], "big": u64::MAX, "neg": i64::MIN}),
        );
        same(&i128::MIN);
        same(&u128::MAX);
        same(&1.0f32);
        same(&());
    }

    /// JSON text written under serde_json's raw value name, as the intake answer's form.
    struct Raw(&'static str);

    impl Serialize for Raw {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeStruct;
            let mut raw = serializer.serialize_struct(super::RAW_VALUE, 1)?;
            raw.serialize_field(super::RAW_VALUE, self.0)?;
            raw.end()
        }
    }

    #[test]
    fn raw_json_text_is_written_as_it_is() {
        #[derive(Serialize)]
        struct Answer {
            id: u8,
            form: Raw,
            after: Vec<Raw>,
        }
        let answer = Answer {
            id: 1,
            form: Raw(r#"{"a":"x \" y","b":[1,2],"c":null}"#),
            after: vec![Raw("true"), Raw(r#""s""#)],
        };
        same(&answer);
        assert_eq!(
            ours(&answer),
            r#"{"id":1,"form":{"a":"x \" y","b":[1,2],"c":null},"after":[true,"s"]}"#
        );
        // Anything but text under that name is an error, not a panic or a guess.
        struct NotText;
        impl Serialize for NotText {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                use serde::ser::SerializeStruct;
                let mut raw = serializer.serialize_struct(super::RAW_VALUE, 1)?;
                raw.serialize_field(super::RAW_VALUE, &1)?;
                raw.end()
            }
        }
        assert!(super::write(&mut Vec::new(), &NotText).is_err());
    }

    #[test]
    fn a_key_that_is_not_a_string_or_number_is_an_error_not_a_panic() {
        let mut out = Vec::new();
        let map = BTreeMap::from([(vec![1], 2)]);
        assert!(super::write(&mut out, &map).is_err());
    }
}
