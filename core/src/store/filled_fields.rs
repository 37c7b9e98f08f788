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
