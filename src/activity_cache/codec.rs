//! A compact binary serde format for the Activity cache's entries: the same data model as the
//! JSON records (every field, every float bit-exact), without the text.
//!
//! # Why
//! A record of a gated run holds thousands of small histograms; parsing its 2–6 MB of JSON is
//! most of what a warm `optimize` run spends. This format reads several times faster and takes
//! about a third of the bytes, so that the cache can keep the encoded records of a search's
//! working set in memory and decode them on each use.
//!
//! # Encoding (not self-describing: the reader must know the type)
//! - unsigned integers: LEB128 varints; signed: zig-zag, then LEB128; `f32`/`f64`: their IEEE
//!   bits, little-endian; `bool`: one byte 0 or 1; `char`: its scalar value as a varint;
//! - strings and byte strings: a varint length, then the bytes (UTF-8 checked on reading);
//! - `Option`: a byte 0 (none) or 1 followed by the value;
//! - sequences and maps: a varint count, then the elements (maps: key, value);
//!   tuples and fixed-size arrays: the elements only;
//! - structs: a varint count of the fields written, then per field its name and value. Field
//!   names are interned per record: a varint 0 followed by the name the first time, then
//!   `1 + its index` in order of first appearance. Writing names keeps fields that serde skips
//!   (`skip_serializing_if`) readable: the reader falls back to their defaults as from JSON;
//! - enums: the variant index as a varint, then the variant's content as above.
//!
//! A reader never trusts a count: every read is bounds-checked, a sequence longer than the
//! bytes left is refused, trailing bytes are an error, and `deserialize_any` (what a
//! self-describing format needs) is refused. The integrity of a whole entry (a truncated or
//! corrupted file) is checked by the cache's header ([`super`]), not here.

use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};
use serde::ser::{self, Serialize};
use std::collections::HashMap;
use std::fmt;

/// Why a value could not be encoded or decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodecError(pub String);

impl fmt::Display for CodecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CodecError {}

impl ser::Error for CodecError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        CodecError(msg.to_string())
    }
}

impl de::Error for CodecError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        CodecError(msg.to_string())
    }
}

type Result<T> = std::result::Result<T, CodecError>;

fn err<T>(msg: impl Into<String>) -> Result<T> {
    Err(CodecError(msg.into()))
}

/// Encodes `value`.
pub fn to_bytes<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>> {
    let mut enc = Encoder {
        out: Vec::with_capacity(1 << 16),
        keys: HashMap::new(),
    };
    value.serialize(&mut enc)?;
    Ok(enc.out)
}

/// Decodes a `T` from all of `bytes` (bytes left over are an error).
pub fn from_bytes<'de, T: de::Deserialize<'de>>(bytes: &'de [u8]) -> Result<T> {
    let mut d = Decoder {
        inp: bytes,
        pos: 0,
        keys: Vec::new(),
    };
    let v = T::deserialize(&mut d)?;
    if d.pos != bytes.len() {
        return err(format!(
            "{} bytes left after the value (of {})",
            bytes.len() - d.pos,
            bytes.len()
        ));
    }
    Ok(v)
}

// ------------------------------------------------------------------------------------------
// Encoder

struct Encoder {
    out: Vec<u8>,
    /// Field names written so far and their index.
    keys: HashMap<&'static str, u64>,
}

impl Encoder {
    fn varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.out.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.out.push(v as u8);
    }

    fn signed(&mut self, v: i64) {
        self.varint(((v << 1) ^ (v >> 63)) as u64);
    }

    fn bytes(&mut self, b: &[u8]) {
        self.varint(b.len() as u64);
        self.out.extend_from_slice(b);
    }

    fn key(&mut self, k: &'static str) {
        match self.keys.get(k) {
            Some(&i) => self.varint(i + 1),
            None => {
                let i = self.keys.len() as u64;
                self.keys.insert(k, i);
                self.varint(0);
                self.bytes(k.as_bytes());
            }
        }
    }
}

/// A sequence, map or struct being written: counts its elements against the count written
/// up front (`None`: no count was written, as for tuples).
struct Compound<'a> {
    enc: &'a mut Encoder,
    expected: Option<usize>,
    written: usize,
}

impl Compound<'_> {
    fn done(self) -> Result<()> {
        match self.expected {
            Some(n) if n != self.written => err(format!(
                "{} elements written where {n} were announced",
                self.written
            )),
            _ => Ok(()),
        }
    }
}

/// An integer serializer: the value widened to `$wide` and written by the encoder's `$how`
/// (zig-zag varint for signed, varint for unsigned), the inverse of `de_signed`/`de_unsigned`.
macro_rules! ser_int {
    ($name:ident, $t:ty, $how:ident, $wide:ty) => {
        fn $name(self, v: $t) -> Result<()> {
            self.$how(v as $wide);
            Ok(())
        }
    };
}

impl<'a> ser::Serializer for &'a mut Encoder {
    type Ok = ();
    type Error = CodecError;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn serialize_bool(self, v: bool) -> Result<()> {
        self.out.push(v as u8);
        Ok(())
    }
    ser_int!(serialize_i8, i8, signed, i64);
    ser_int!(serialize_i16, i16, signed, i64);
    ser_int!(serialize_i32, i32, signed, i64);
    ser_int!(serialize_i64, i64, signed, i64);
    ser_int!(serialize_u8, u8, varint, u64);
    ser_int!(serialize_u16, u16, varint, u64);
    ser_int!(serialize_u32, u32, varint, u64);
    ser_int!(serialize_u64, u64, varint, u64);
    fn serialize_f32(self, v: f32) -> Result<()> {
        self.out.extend_from_slice(&v.to_bits().to_le_bytes());
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> Result<()> {
        self.out.extend_from_slice(&v.to_bits().to_le_bytes());
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<()> {
        self.varint(v as u64);
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<()> {
        self.bytes(v.as_bytes());
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        self.bytes(v);
        Ok(())
    }
    fn serialize_none(self) -> Result<()> {
        self.out.push(0);
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<()> {
        self.out.push(1);
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<()> {
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        Ok(())
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        index: u32,
        _v: &'static str,
    ) -> Result<()> {
        self.varint(index as u64);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        index: u32,
        _v: &'static str,
        value: &T,
    ) -> Result<()> {
        self.varint(index as u64);
        value.serialize(self)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'a>> {
        let Some(n) = len else {
            return err("a sequence of unknown length");
        };
        self.varint(n as u64);
        Ok(Compound {
            enc: self,
            expected: Some(n),
            written: 0,
        })
    }
    fn serialize_tuple(self, _len: usize) -> Result<Compound<'a>> {
        Ok(Compound {
            enc: self,
            expected: None,
            written: 0,
        })
    }
    fn serialize_tuple_struct(self, _name: &'static str, _len: usize) -> Result<Compound<'a>> {
        self.serialize_tuple(_len)
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        index: u32,
        _v: &'static str,
        len: usize,
    ) -> Result<Compound<'a>> {
        self.varint(index as u64);
        self.serialize_tuple(len)
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Compound<'a>> {
        let Some(n) = len else {
            return err("a map of unknown length");
        };
        self.varint(n as u64);
        Ok(Compound {
            enc: self,
            expected: Some(n),
            written: 0,
        })
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a>> {
        self.varint(len as u64);
        Ok(Compound {
            enc: self,
            expected: Some(len),
            written: 0,
        })
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        index: u32,
        _v: &'static str,
        len: usize,
    ) -> Result<Compound<'a>> {
        self.varint(index as u64);
        self.serialize_struct(_name, len)
    }
    fn is_human_readable(&self) -> bool {
        false
    }
}

impl ser::SerializeSeq for Compound<'_> {
    type Ok = ();
    type Error = CodecError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.written += 1;
        value.serialize(&mut *self.enc)
    }
    fn end(self) -> Result<()> {
        self.done()
    }
}

/// Tuples, tuple structs and tuple variants: the elements only, no count (the type fixes it).
macro_rules! elements_only {
    ($($tr:ident :: $f:ident),*) => {$(
        impl ser::$tr for Compound<'_> {
            type Ok = ();
            type Error = CodecError;
            fn $f<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
                value.serialize(&mut *self.enc)
            }
            fn end(self) -> Result<()> {
                Ok(())
            }
        }
    )*};
}
elements_only!(
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = CodecError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        self.written += 1;
        key.serialize(&mut *self.enc)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        value.serialize(&mut *self.enc)
    }
    fn end(self) -> Result<()> {
        self.done()
    }
}

/// Structs and struct variants: a count, then each field's interned name and value.
macro_rules! named_fields {
    ($($tr:ident),*) => {$(
        impl ser::$tr for Compound<'_> {
            type Ok = ();
            type Error = CodecError;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<()> {
                self.written += 1;
                self.enc.key(key);
                value.serialize(&mut *self.enc)
            }
            fn end(self) -> Result<()> {
                self.done()
            }
        }
    )*};
}
named_fields!(SerializeStruct, SerializeStructVariant);

// ------------------------------------------------------------------------------------------
// Decoder

struct Decoder<'de> {
    inp: &'de [u8],
    pos: usize,
    /// Field names in order of first appearance.
    keys: Vec<&'de str>,
}

impl<'de> Decoder<'de> {
    fn left(&self) -> usize {
        self.inp.len() - self.pos
    }

    #[inline]
    fn byte(&mut self) -> Result<u8> {
        match self.inp.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => err(format!("truncated at byte {}", self.pos)),
        }
    }

    fn take(&mut self, n: usize) -> Result<&'de [u8]> {
        if n > self.left() {
            return err(format!(
                "{n} bytes wanted at byte {}, {} left",
                self.pos,
                self.left()
            ));
        }
        let s = &self.inp[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    /// A varint; one-byte values (most counters of a record) take the fast path.
    #[inline]
    fn varint(&mut self) -> Result<u64> {
        match self.inp.get(self.pos) {
            Some(&b) if b < 0x80 => {
                self.pos += 1;
                Ok(b as u64)
            }
            _ => self.varint_long(),
        }
    }

    #[inline(never)]
    fn varint_long(&mut self) -> Result<u64> {
        let mut v: u64 = 0;
        let mut shift = 0;
        loop {
            let b = self.byte()?;
            let part = (b & 0x7f) as u64;
            if shift == 63 && part > 1 {
                return err(format!("a varint overflows 64 bits at byte {}", self.pos));
            }
            v |= part << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
            shift += 7;
            if shift > 63 {
                return err(format!(
                    "a varint longer than 10 bytes at byte {}",
                    self.pos
                ));
            }
        }
    }

    fn signed(&mut self) -> Result<i64> {
        let u = self.varint()?;
        Ok(((u >> 1) as i64) ^ -((u & 1) as i64))
    }

    #[inline]
    fn unsigned<T: TryFrom<u64>>(&mut self, what: &str) -> Result<T> {
        let v = self.varint()?;
        T::try_from(v).or_else(|_| err(format!("{v} does not fit a {what}")))
    }

    fn signed_as<T: TryFrom<i64>>(&mut self, what: &str) -> Result<T> {
        let v = self.signed()?;
        T::try_from(v).or_else(|_| err(format!("{v} does not fit a {what}")))
    }

    /// A count of elements that each take at least one byte: never more than the bytes left.
    #[inline]
    fn count(&mut self) -> Result<usize> {
        let n = self.varint()?;
        if n > self.left() as u64 {
            return err(format!(
                "a count of {n} at byte {} with {} bytes left",
                self.pos,
                self.left()
            ));
        }
        Ok(n as usize)
    }

    fn str(&mut self) -> Result<&'de str> {
        let n = self.count()?;
        let b = self.take(n)?;
        std::str::from_utf8(b).or_else(|e| err(format!("a string that is not UTF-8: {e}")))
    }

    fn key(&mut self) -> Result<&'de str> {
        let k = self.varint()?;
        if k == 0 {
            let s = self.str()?;
            self.keys.push(s);
            return Ok(s);
        }
        match self.keys.get((k - 1) as usize) {
            Some(s) => Ok(s),
            None => err(format!("field name #{k} before it was defined")),
        }
    }
}

macro_rules! de_unsigned {
    ($name:ident, $visit:ident, $t:ty) => {
        #[inline]
        fn $name<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            visitor.$visit(self.unsigned::<$t>(stringify!($t))?)
        }
    };
}

macro_rules! de_signed {
    ($name:ident, $visit:ident, $t:ty) => {
        fn $name<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            visitor.$visit(self.signed_as::<$t>(stringify!($t))?)
        }
    };
}

impl<'de> de::Deserializer<'de> for &mut Decoder<'de> {
    type Error = CodecError;

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value> {
        err("the binary format is not self-describing (a type that needs deserialize_any)")
    }
    fn deserialize_ignored_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value> {
        err("an unknown field (the record was written by another layout)")
    }
    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.byte()? {
            0 => visitor.visit_bool(false),
            1 => visitor.visit_bool(true),
            b => err(format!("a bool byte {b}")),
        }
    }
    de_signed!(deserialize_i8, visit_i8, i8);
    de_signed!(deserialize_i16, visit_i16, i16);
    de_signed!(deserialize_i32, visit_i32, i32);
    de_signed!(deserialize_i64, visit_i64, i64);
    de_unsigned!(deserialize_u8, visit_u8, u8);
    de_unsigned!(deserialize_u16, visit_u16, u16);
    de_unsigned!(deserialize_u32, visit_u32, u32);
    de_unsigned!(deserialize_u64, visit_u64, u64);
    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let b = self.take(4)?;
        visitor.visit_f32(f32::from_bits(u32::from_le_bytes([b[0], b[1], b[2], b[3]])))
    }
    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        visitor.visit_f64(f64::from_bits(u64::from_le_bytes(a)))
    }
    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let v: u32 = self.unsigned("char")?;
        match char::from_u32(v) {
            Some(c) => visitor.visit_char(c),
            None => err(format!("{v} is not a char")),
        }
    }
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_borrowed_str(self.str()?)
    }
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }
    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let n = self.count()?;
        visitor.visit_borrowed_bytes(self.take(n)?)
    }
    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_bytes(visitor)
    }
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.byte()? {
            0 => visitor.visit_none(),
            1 => visitor.visit_some(self),
            b => err(format!("an option tag {b}")),
        }
    }
    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_unit()
    }
    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_unit()
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let n = self.count()?;
        let mut acc = Access { de: self, left: n };
        let v = visitor.visit_seq(&mut acc)?;
        if acc.left != 0 {
            return err(format!("{} elements of a sequence left unread", acc.left));
        }
        Ok(v)
    }
    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        let mut acc = Access {
            de: self,
            left: len,
        };
        let v = visitor.visit_seq(&mut acc)?;
        if acc.left != 0 {
            return err(format!("{} elements of a tuple left unread", acc.left));
        }
        Ok(v)
    }
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_tuple(len, visitor)
    }
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let n = self.count()?;
        let mut acc = Access { de: self, left: n };
        let v = visitor.visit_map(&mut acc)?;
        if acc.left != 0 {
            return err(format!("{} entries of a map left unread", acc.left));
        }
        Ok(v)
    }
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let n = self.count()?;
        let mut acc = Fields { de: self, left: n };
        let v = visitor.visit_map(&mut acc)?;
        if acc.left != 0 {
            return err(format!("{} fields of a struct left unread", acc.left));
        }
        Ok(v)
    }
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_enum(self)
    }
    fn deserialize_identifier<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value> {
        err("an identifier outside a struct")
    }
    fn is_human_readable(&self) -> bool {
        false
    }
}

/// The elements of a sequence, tuple or map.
struct Access<'a, 'de> {
    de: &'a mut Decoder<'de>,
    left: usize,
}

impl<'de> de::SeqAccess<'de> for Access<'_, 'de> {
    type Error = CodecError;
    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(&mut *self.de).map(Some)
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

impl<'de> de::MapAccess<'de> for Access<'_, 'de> {
    type Error = CodecError;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(&mut *self.de).map(Some)
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        seed.deserialize(&mut *self.de)
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

/// The fields of a struct: interned names and values.
struct Fields<'a, 'de> {
    de: &'a mut Decoder<'de>,
    left: usize,
}

impl<'de> de::MapAccess<'de> for Fields<'_, 'de> {
    type Error = CodecError;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        let name = self.de.key()?;
        seed.deserialize(de::value::BorrowedStrDeserializer::<CodecError>::new(name))
            .map(Some)
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        seed.deserialize(&mut *self.de)
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

impl<'de> de::EnumAccess<'de> for &mut Decoder<'de> {
    type Error = CodecError;
    type Variant = Self;
    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let idx: u32 = self.unsigned("variant index")?;
        let v = seed.deserialize(idx.into_deserializer())?;
        Ok((v, self))
    }
}

impl<'de> de::VariantAccess<'de> for &mut Decoder<'de> {
    type Error = CodecError;
    fn unit_variant(self) -> Result<()> {
        Ok(())
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        seed.deserialize(self)
    }
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_tuple(self, len, visitor)
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_struct(self, "", fields, visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::{Deserialize, Serialize};
    use std::collections::BTreeMap;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    enum Kind {
        Plain,
        Count(u32),
        Pair(i8, bool),
        Named { x: f32 },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Inner {
        name: String,
        v: Vec<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        opt: Option<Box<Inner>>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Outer {
        a: u64,
        b: i64,
        c: f64,
        d: [u64; 3],
        e: BTreeMap<String, u64>,
        f: Vec<Inner>,
        g: Option<u8>,
        h: char,
        k: Vec<Kind>,
        t: (u16, String),
    }

    fn sample() -> Outer {
        Outer {
            a: u64::MAX,
            b: i64::MIN,
            c: 0.1 + 0.2,
            d: [0, 127, 128],
            e: [("on_busy".to_string(), 5), ("gated".to_string(), 1 << 40)]
                .into_iter()
                .collect(),
            f: vec![
                Inner {
                    name: "sp0".into(),
                    v: vec![1, 2, 3],
                    opt: None,
                },
                Inner {
                    name: "ü".into(),
                    v: vec![],
                    opt: Some(Box::new(Inner {
                        name: String::new(),
                        v: vec![u64::MAX],
                        opt: None,
                    })),
                },
            ],
            g: Some(7),
            h: '∑',
            k: vec![
                Kind::Plain,
                Kind::Count(9),
                Kind::Pair(-3, true),
                Kind::Named { x: -0.5 },
            ],
            t: (65535, "x".into()),
        }
    }

    #[test]
    fn values_round_trip_bit_exact_with_skipped_fields() {
        let v = sample();
        let b = to_bytes(&v).unwrap();
        let back: Outer = from_bytes(&b).unwrap();
        assert_eq!(back, v);
        assert_eq!(back.c.to_bits(), (0.1f64 + 0.2).to_bits());
        // interned names: "name" and "v" are written once although three Inners carry them
        let text = String::from_utf8_lossy(&b);
        assert_eq!(text.matches("name").count(), 1, "{text}");
    }

    #[test]
    fn damaged_input_is_an_error_never_a_panic() {
        let b = to_bytes(&sample()).unwrap();
        // every truncation fails
        for n in 0..b.len() {
            assert!(from_bytes::<Outer>(&b[..n]).is_err(), "prefix {n}");
        }
        // trailing bytes fail
        let mut long = b.clone();
        long.push(0);
        assert!(from_bytes::<Outer>(&long).is_err());
        // single-byte changes either fail or decode to some value; none panics
        for i in 0..b.len() {
            for x in [0x00u8, 0x01, 0x7f, 0x80, 0xff] {
                let mut c = b.clone();
                c[i] = x;
                let _ = from_bytes::<Outer>(&c);
            }
        }
        // a huge count is refused before any allocation
        let mut huge = Vec::new();
        let mut enc = Encoder {
            out: Vec::new(),
            keys: HashMap::new(),
        };
        enc.varint(u64::MAX);
        huge.extend(enc.out);
        assert!(from_bytes::<Vec<u64>>(&huge).is_err());
        // values out of range for their type
        let big = to_bytes(&300u64).unwrap();
        assert!(from_bytes::<u8>(&big).is_err());
        assert!(from_bytes::<bool>(&[2]).is_err());
        assert!(from_bytes::<Option<u8>>(&[2, 0]).is_err());
        assert!(from_bytes::<String>(&[2, 0xff, 0xfe]).is_err());
        // an eleven-byte varint
        assert!(from_bytes::<u64>(&[0xff; 11]).is_err());
    }

    #[test]
    fn self_describing_reads_are_refused() {
        let b = to_bytes(&5u64).unwrap();
        assert!(from_bytes::<serde_json::Value>(&b).is_err());
    }
}
