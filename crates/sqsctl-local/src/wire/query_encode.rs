//! The Query protocol's answers: a serde serializer that writes a handler's output straight into
//! the XML of API version 2012-11-05, guided by the action's shapes (see [`crate::wire::query_shapes`]),
//! so that no intermediate JSON value is built per answer.
//!
//! It knows element names and escaping only; what goes into an answer is decided by the handlers,
//! which serialize the same output types for both protocols.

use std::fmt::{self, Display};
use std::io::Write as _;

use serde::Serialize;
use serde::ser::{self, Impossible};

use crate::error::ErrorKind;
use crate::wire::query_shapes::{Member, Shape};

/// A value that could not be written (a tuple or an enum variant with fields).
#[derive(Debug)]
pub struct EncodeError;

impl Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the answer could not be encoded as XML")
    }
}

impl std::error::Error for EncodeError {}

impl ser::Error for EncodeError {
    fn custom<T: Display>(_: T) -> Self {
        EncodeError
    }
}

type Result<T = ()> = std::result::Result<T, EncodeError>;

/// Appends text content: markup characters as entities, carriage returns as `&#xD;` (so that a
/// body and its MD5 survive), and characters XML 1.0 cannot carry (controls, U+FFFE, U+FFFF) as
/// U+FFFD. It works on bytes: every character it replaces is ASCII or starts with 0xEF in UTF-8.
pub fn push_text(out: &mut Vec<u8>, text: &str) {
    let bytes = text.as_bytes();
    let mut plain_from = 0;
    let mut at = 0;
    while at < bytes.len() {
        let (replacement, width): (&[u8], usize) = match bytes[at] {
            b'&' => (b"&amp;", 1),
            b'<' => (b"&lt;", 1),
            b'>' => (b"&gt;", 1),
            b'\r' => (b"&#xD;", 1),
            b'\t' | b'\n' => {
                at += 1;
                continue;
            }
            0..0x20 => ("\u{FFFD}".as_bytes(), 1),
            0xEF if matches!(bytes.get(at + 1..at + 3), Some([0xBF, 0xBE | 0xBF])) => {
                ("\u{FFFD}".as_bytes(), 3)
            }
            _ => {
                at += 1;
                continue;
            }
        };
        out.extend_from_slice(&bytes[plain_from..at]);
        out.extend_from_slice(replacement);
        at += width;
        plain_from = at;
    }
    out.extend_from_slice(&bytes[plain_from..]);
}

pub fn open(out: &mut Vec<u8>, name: &str) {
    out.push(b'<');
    out.extend_from_slice(name.as_bytes());
    out.push(b'>');
}

pub fn close(out: &mut Vec<u8>, name: &str) {
    out.extend_from_slice(b"</");
    out.extend_from_slice(name.as_bytes());
    out.push(b'>');
}

pub fn text_element(out: &mut Vec<u8>, name: &str, text: &str) {
    open(out, name);
    push_text(out, text);
    close(out, name);
}

/// Writes `value` as the element `name` of shape `shape`. A value whose kind does not fit its shape
/// writes nothing, as a JSON member the Query API does not have.
pub fn write<T: Serialize + ?Sized>(
    out: &mut Vec<u8>,
    name: &str,
    shape: &Shape,
    value: &T,
) -> Result {
    value.serialize(Element { out, name, shape })
}

/// The serializer of one element.
struct Element<'s> {
    out: &'s mut Vec<u8>,
    name: &'s str,
    shape: &'s Shape,
}

impl Element<'_> {
    fn is_scalar(&self) -> bool {
        matches!(self.shape, Shape::Str | Shape::Int | Shape::Bool)
    }

    fn scalar(self, text: &str) -> Result {
        if !self.is_scalar() {
            return Ok(());
        }
        // Batch entries carry the error's JSON shape name; Query clients expect its Query code.
        let text = match self.name {
            "Code" => ErrorKind::query_code_of_shape(text).unwrap_or(text),
            _ => text,
        };
        text_element(self.out, self.name, text);
        Ok(())
    }

    fn number(self, number: impl Display) -> Result {
        if self.is_scalar() {
            open(self.out, self.name);
            write!(self.out, "{number}").map_err(|_| EncodeError)?;
            close(self.out, self.name);
        }
        Ok(())
    }
}

/// What a structure, list or map is being written as.
enum Compound<'s> {
    /// A structure's members, in the order they are serialized.
    Struct {
        out: &'s mut Vec<u8>,
        name: &'s str,
        members: &'s [Member],
    },
    /// A structure given as a map (a JSON value): each member is written aside and they are put
    /// in the shape's order at the end.
    StructFromMap {
        out: &'s mut Vec<u8>,
        name: &'s str,
        members: &'s [Member],
        written: Vec<Vec<u8>>,
        member: Option<usize>,
    },
    /// A flattened list: the element repeated.
    List {
        out: &'s mut Vec<u8>,
        name: &'s str,
        of: &'s Shape,
    },
    /// A flattened map: `<name><key>k</key><value>...</value></name>` per entry.
    Map {
        out: &'s mut Vec<u8>,
        name: &'s str,
        key: &'s str,
        value: &'s str,
        of: &'s Shape,
    },
    /// Something the shape has no place for.
    Skip,
}

impl Compound<'_> {
    fn member(&mut self, json: &str, value: &(impl Serialize + ?Sized)) -> Result {
        match self {
            Compound::Struct { out, members, .. } => {
                match members.iter().find(|m| m.json == json) {
                    Some(member) => write(out, member.query, &member.shape, value),
                    None => Ok(()),
                }
            }
            _ => Ok(()),
        }
    }

    fn element(&mut self, value: &(impl Serialize + ?Sized)) -> Result {
        match self {
            Compound::List { out, name, of } => write(out, name, of, value),
            _ => Ok(()),
        }
    }

    fn finish(self) -> Result {
        match self {
            Compound::Struct { out, name, .. } => close(out, name),
            Compound::StructFromMap {
                out, name, written, ..
            } => {
                open(out, name);
                for member in written {
                    out.extend_from_slice(&member);
                }
                close(out, name);
            }
            Compound::List { .. } | Compound::Map { .. } | Compound::Skip => {}
        }
        Ok(())
    }
}

/// The serializer methods of numbers, which are all written as text the same way.
macro_rules! numbers {
    ($($method:ident: $type:ty),*) => {
        $(fn $method(self, v: $type) -> Result {
            self.number(v)
        })*
    };
}

impl<'s> ser::Serializer for Element<'s> {
    type Ok = ();
    type Error = EncodeError;
    type SerializeSeq = Compound<'s>;
    // Tuples and enum variants with fields have no place in the Query API's shapes, and no
    // output type has them.
    type SerializeTuple = Impossible<(), EncodeError>;
    type SerializeTupleStruct = Impossible<(), EncodeError>;
    type SerializeTupleVariant = Impossible<(), EncodeError>;
    type SerializeMap = Compound<'s>;
    type SerializeStruct = Compound<'s>;
    type SerializeStructVariant = Impossible<(), EncodeError>;

    fn serialize_bool(self, v: bool) -> Result {
        self.scalar(if v { "true" } else { "false" })
    }

    numbers! {
        serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64,
        serialize_u8: u8, serialize_u16: u16, serialize_u32: u32, serialize_u64: u64,
        serialize_f32: f32, serialize_f64: f64
    }

    fn serialize_char(self, v: char) -> Result {
        self.scalar(v.encode_utf8(&mut [0; 4]))
    }

    fn serialize_str(self, v: &str) -> Result {
        self.scalar(v)
    }

    fn serialize_bytes(self, _: &[u8]) -> Result {
        Ok(())
    }

    fn serialize_none(self) -> Result {
        Ok(())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result {
        Ok(())
    }

    fn serialize_unit_struct(self, _: &'static str) -> Result {
        Ok(())
    }

    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result {
        self.scalar(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Result {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result {
        Ok(())
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'s>> {
        Ok(match self.shape {
            Shape::List(of) => Compound::List {
                out: self.out,
                name: self.name,
                of,
            },
            _ => Compound::Skip,
        })
    }

    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple> {
        Err(EncodeError)
    }

    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        Err(EncodeError)
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(EncodeError)
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'s>> {
        Ok(match self.shape {
            Shape::Struct(members) => Compound::StructFromMap {
                out: self.out,
                name: self.name,
                members,
                written: members.iter().map(|_| Vec::new()).collect(),
                member: None,
            },
            Shape::Map { key, value, of } => Compound::Map {
                out: self.out,
                name: self.name,
                key,
                value,
                of,
            },
            _ => Compound::Skip,
        })
    }

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Compound<'s>> {
        Ok(match self.shape {
            Shape::Struct(members) => {
                open(self.out, self.name);
                Compound::Struct {
                    out: self.out,
                    name: self.name,
                    members,
                }
            }
            _ => Compound::Skip,
        })
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(EncodeError)
    }
}

impl ser::SerializeSeq for Compound<'_> {
    type Ok = ();
    type Error = EncodeError;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        self.element(value)
    }

    fn end(self) -> Result {
        self.finish()
    }
}

impl ser::SerializeStruct for Compound<'_> {
    type Ok = ();
    type Error = EncodeError;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result {
        self.member(key, value)
    }

    fn end(self) -> Result {
        self.finish()
    }
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = EncodeError;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result {
        match self {
            Compound::StructFromMap {
                members, member, ..
            } => {
                // Only JSON values take this way, which are not on any hot path.
                *member = match serde_json::to_value(key) {
                    Ok(serde_json::Value::String(key)) => {
                        members.iter().position(|m| m.json == key)
                    }
                    _ => None,
                };
                Ok(())
            }
            Compound::Map {
                out,
                name,
                key: key_name,
                ..
            } => {
                open(out, name);
                write(out, key_name, &Shape::Str, key)
            }
            _ => Ok(()),
        }
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        match self {
            Compound::StructFromMap {
                members,
                written,
                member: Some(index),
                ..
            } => {
                let (Some(member), Some(out)) = (members.get(*index), written.get_mut(*index))
                else {
                    return Ok(());
                };
                out.clear();
                write(out, member.query, &member.shape, value)
            }
            Compound::Map {
                out,
                name,
                value: value_name,
                of,
                ..
            } => {
                write(out, value_name, of, value)?;
                close(out, name);
                Ok(())
            }
            _ => Ok(()),
        }
    }

    fn end(self) -> Result {
        self.finish()
    }
}
