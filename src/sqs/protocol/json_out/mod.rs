//! The JSON writer for AWS JSON 1.0 answers: serde's data model written as compact JSON,
//! byte for byte what `serde_json::to_writer` writes.
//!
//! Why not serde_json here: its string escaping looks each byte up in a table, and strings
//! are nearly all of an answer (message IDs, receipt handles, MD5s, bodies). Under callgrind
//! that was 23k instructions per ReceiveMessage(10) + DeleteMessageBatch(10), the largest
//! single cost outside SHA-256. This writer skips eight clean bytes at a time. sonic-rs,
//! which does the same with SIMD, was tried and left out: it brings 21 crates (rkyv, ahash,
//! faststr, ...) into a binary that is meant to stay small. Requests are still read by
//! serde_json, and floats are formatted by it, so both directions keep its number rules.

use std::fmt;

use serde::ser::{self, Serialize};

/// Appends `value` as compact JSON.
pub fn write<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) -> Result<(), Error> {
    value.serialize(&mut Writer { out })
}

/// What cannot be written as JSON: a map key that is not a string or number.
#[derive(Debug)]
pub struct Error(String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error(msg.to_string())
    }
}

/// Writes `s` as a JSON string, escaping as serde_json does: `"`, `\` and the control
/// characters, with the short forms for `\b \f \n \r \t` and lowercase `\u00xx` otherwise.
pub fn write_str(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    if is_clean(bytes) {
        out.extend_from_slice(bytes);
    } else {
        write_escaped(out, bytes);
    }
    out.push(b'"');
}

/// Whether nothing in `bytes` needs escaping, looked at eight bytes at a time (the last
/// word overlapping the one before it, so a clean string never takes the byte loop).
fn is_clean(bytes: &[u8]) -> bool {
    if bytes.len() < 8 {
        return !bytes.iter().any(|&b| needs_escape(b));
    }
    let word = |at: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&bytes[at..at + 8]);
        u64::from_le_bytes(w)
    };
    let last = bytes.len() - 8;
    (0..last).step_by(8).all(|at| !any_special(word(at))) && !any_special(word(last))
}

fn write_escaped(out: &mut Vec<u8>, bytes: &[u8]) {
    let mut clean_from = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if needs_escape(b) {
            out.extend_from_slice(&bytes[clean_from..i]);
            push_escape(out, b);
            clean_from = i + 1;
        }
    }
    out.extend_from_slice(&bytes[clean_from..]);
}

fn needs_escape(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// Whether any of the eight bytes in `word` needs escaping (the classic "has a byte less
/// than n" and "has a zero byte" bit tricks: exact for "any", which is all this asks).
fn any_special(word: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let below_space = word.wrapping_sub(ONES * 0x20) & !word;
    let quote = word ^ (ONES * u64::from(b'"'));
    let backslash = word ^ (ONES * u64::from(b'\\'));
    let zero_quote = quote.wrapping_sub(ONES) & !quote;
    let zero_backslash = backslash.wrapping_sub(ONES) & !backslash;
    (below_space | zero_quote | zero_backslash) & HIGH != 0
}

fn push_escape(out: &mut Vec<u8>, b: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let short = match b {
        b'"' => b'"',
        b'\\' => b'\\',
        b'\n' => b'n',
        b'\r' => b'r',
        b'\t' => b't',
        0x08 => b'b',
        0x0c => b'f',
        _ => {
            out.extend_from_slice(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(b >> 4)],
                HEX[usize::from(b & 0xf)],
            ]);
            return;
        }
    };
    out.extend_from_slice(&[b'\\', short]);
}

struct Writer<'a> {
    out: &'a mut Vec<u8>,
}

impl Writer<'_> {
    fn integer(&mut self, n: impl itoa::Integer) {
        self.out
            .extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
    }

    fn float<F: Serialize>(&mut self, f: F) -> Result<(), Error> {
        serde_json::to_writer(&mut *self.out, &f).map_err(|e| Error(e.to_string()))
    }

    fn open(&mut self, open: &[u8], close: &'static [u8]) -> Compound<'_> {
        self.out.extend_from_slice(open);
        Compound {
            writer: Writer {
                out: &mut *self.out,
            },
            first: true,
            close,
        }
    }

    /// `{"variant":` before a value that carries an enum variant's name.
    fn variant_key(&mut self, variant: &str) {
        self.out.push(b'{');
        write_str(self.out, variant);
        self.out.push(b':');
    }
}

macro_rules! integers {
    ($($method:ident: $ty:ty),*) => {$(
        fn $method(self, v: $ty) -> Result<(), Error> {
            self.integer(v);
            Ok(())
        }
    )*};
}

impl<'w> ser::Serializer for &'w mut Writer<'_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'w>;
    type SerializeTuple = Compound<'w>;
    type SerializeTupleStruct = Compound<'w>;
    type SerializeTupleVariant = Compound<'w>;
    type SerializeMap = Compound<'w>;
    type SerializeStruct = Compound<'w>;
    type SerializeStructVariant = Compound<'w>;

    integers!(serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64,
        serialize_i128: i128, serialize_u8: u8, serialize_u16: u16, serialize_u32: u32,
        serialize_u64: u64, serialize_u128: u128);

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.out
            .extend_from_slice(if v { b"true" } else { b"false" });
        Ok(())
    }

    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        self.float(v)
    }

    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        self.float(v)
    }

    fn serialize_char(self, v: char) -> Result<(), Error> {
        write_str(self.out, v.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    fn serialize_str(self, v: &str) -> Result<(), Error> {
        write_str(self.out, v);
        Ok(())
    }

    /// As serde_json: an array of numbers.
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        use ser::SerializeSeq;
        let mut seq = self.serialize_seq(Some(v.len()))?;
        for b in v {
            seq.serialize_element(b)?;
        }
        seq.end()
    }

    fn serialize_none(self) -> Result<(), Error> {
        self.serialize_unit()
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), Error> {
        self.out.extend_from_slice(b"null");
        Ok(())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        self.serialize_unit()
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.variant_key(variant);
        value.serialize(&mut *self)?;
        self.out.push(b'}');
        Ok(())
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'w>, Error> {
        Ok(self.open(b"[", b"]"))
    }

    fn serialize_tuple(self, len: usize) -> Result<Compound<'w>, Error> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Compound<'w>, Error> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'w>, Error> {
        self.variant_key(variant);
        Ok(self.open(b"[", b"]}"))
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'w>, Error> {
        Ok(self.open(b"{", b"}"))
    }

    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Compound<'w>, Error> {
        Ok(self.open(b"{", b"}"))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'w>, Error> {
        self.variant_key(variant);
        Ok(self.open(b"{", b"}}"))
    }
}

mod compound;
mod map_key;
use compound::Compound;

#[cfg(test)]
mod tests;
