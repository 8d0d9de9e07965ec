//! The Query protocol's requests: form parameters (`Action=SendMessage&MessageAttribute.1.Name=...`,
//! in the body or the URL) read as a tree, and a serde deserializer that hands that tree to the
//! handlers' input types as if it were the JSON body of AWS JSON 1.0, guided by the action's shapes
//! (see [`crate::wire::query_shapes`]). Strings borrow from the request until the input type takes them.
//!
//! Lists and maps are read flattened (`AttributeName.1`, `Attribute.1.Name`), with `member` (lists)
//! or `entry` (maps) between name and number, and under the member's JSON name as well as its Query
//! name, as serializers that do not flatten spell them (`Attributes.entry.1.key`).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::{self, Display};

use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};

use crate::error::{ErrorKind, SqsError, excerpt};
use crate::wire::query_shapes::{Member, Shape};

/// Form parameters as a tree on the dots of their names: `Attribute.1.Name=x` is
/// `Attribute` → `1` → `Name` = `x`. Names and values borrow from the request where they need no
/// decoding.
#[derive(Debug, Default)]
pub struct Params<'a> {
    value: Option<Cow<'a, str>>,
    children: BTreeMap<Cow<'a, str>, Params<'a>>,
}

impl<'a> Params<'a> {
    /// Reads the parameters of a URL query string and a form-encoded body, the body's last.
    ///
    /// Text that is not UTF-8 once decoded is refused, as the JSON protocol refuses it, instead of
    /// being stored as U+FFFD. A name given twice is refused too: which of its values counts would
    /// be a guess, and a page that can append `&Action=DeleteQueue` to a harmless request would
    /// decide it.
    pub fn parse(
        query: Option<&'a str>,
        body: &'a [u8],
    ) -> std::result::Result<Params<'a>, SqsError> {
        let query = query.unwrap_or_default().as_bytes();
        for part in [query, body] {
            check_utf8(part)?;
        }
        let mut root = Params::default();
        let pairs = form_urlencoded::parse(query).chain(form_urlencoded::parse(body));
        for (name, value) in pairs {
            let node = match &name {
                Cow::Borrowed(name) => root.path(name.split('.').map(Cow::Borrowed)),
                Cow::Owned(name) => root.path(name.split('.').map(|p| Cow::Owned(p.to_string()))),
            };
            if node.value.is_some() {
                return Err(SqsError::new(
                    ErrorKind::AccessDenied,
                    format!(
                        "The parameter {} is given more than once; requests that repeat a parameter are refused.",
                        excerpt(&name)
                    ),
                ));
            }
            node.value = Some(value);
        }
        Ok(root)
    }

    fn path(&mut self, parts: impl Iterator<Item = Cow<'a, str>>) -> &mut Params<'a> {
        let mut node = self;
        for part in parts {
            node = node.children.entry(part).or_default();
        }
        node
    }

    /// The value of a top-level parameter.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.children.get(name).and_then(|p| p.value.as_deref())
    }

    pub fn set(&mut self, name: &'a str, value: String) {
        self.children.entry(Cow::Borrowed(name)).or_default().value = Some(Cow::Owned(value));
    }

    /// Takes out the first of `names` that is present.
    fn take_any(&mut self, names: &[&str]) -> Option<Params<'a>> {
        names.iter().find_map(|name| self.children.remove(*name))
    }

    /// The numbered children (`1`, `2`, ...; also under `member` and, for maps that are not
    /// flattened, `entry`), in the order of their numbers.
    fn indexed(self) -> Vec<Params<'a>> {
        fn numbered<'a>(node: Params<'a>, items: &mut Vec<(u64, Params<'a>)>) {
            for (key, child) in node.children {
                match key.as_ref() {
                    "member" | "entry" => numbered(child, items),
                    key => {
                        if let Ok(index) = key.parse::<u64>() {
                            items.push((index, child));
                        }
                    }
                }
            }
        }
        let mut items = Vec::new();
        numbered(self, &mut items);
        items.sort_by_key(|(index, _)| *index);
        items.into_iter().map(|(_, child)| child).collect()
    }

    /// Whether this node holds a value of `shape`: scalars need a value, lists, maps and
    /// structures are there as soon as their name is.
    fn holds(&self, shape: &Shape) -> bool {
        match shape {
            Shape::Str | Shape::Int | Shape::Bool => self.value.is_some(),
            Shape::List(_) | Shape::Map { .. } | Shape::Struct(_) => true,
        }
    }
}

/// Refuses form-encoded text whose bytes, percent-decoded, are not UTF-8. Decoding the whole
/// input at once is the same check as decoding each name and value: `&`, `=` and `+` are ASCII, so
/// no character can span them.
fn check_utf8(form: &[u8]) -> std::result::Result<(), SqsError> {
    if form.is_ascii() && !form.contains(&b'%') {
        return Ok(());
    }
    match percent_encoding::percent_decode(form).decode_utf8() {
        Ok(_) => Ok(()),
        Err(err) => Err(SqsError::new(
            ErrorKind::SerializationError,
            format!("The request parameters could not be read: they are not valid UTF-8 ({err})."),
        )),
    }
}

/// Why parameters could not be read, as the SQS error to answer with.
#[derive(Debug)]
pub struct DecodeError(pub SqsError);

impl Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.message)
    }
}

impl std::error::Error for DecodeError {}

impl de::Error for DecodeError {
    fn custom<T: Display>(msg: T) -> Self {
        DecodeError(SqsError::new(
            ErrorKind::SerializationError,
            format!("The request parameters could not be read: {msg}"),
        ))
    }
}

type Result<T> = std::result::Result<T, DecodeError>;

/// The names a member may be sent under: its Query name, and its JSON name as some serializers
/// spell lists and maps that are not flattened (`Attributes.entry.1.key`, `Tags.entry.1.key`).
fn spellings(member: &Member) -> [&'static str; 3] {
    // CreateQueue's `tags` is `Tags` in every other action.
    let capitalized = if member.json == "tags" {
        "Tags"
    } else {
        member.json
    };
    [member.query, member.json, capitalized]
}

/// The parameters of a structure, read as the input type `T` of its action.
pub fn decode<'de, T: de::Deserialize<'de>>(
    members: &'static [Member],
    params: Params<'_>,
) -> std::result::Result<T, SqsError> {
    T::deserialize(Node {
        name: "",
        shape: &Shape::Struct(members),
        params,
    })
    .map_err(|DecodeError(err)| err)
}

/// One parameter (and what is below it) read as a value of its shape.
struct Node<'s, 'a> {
    /// The parameter's Query name, for errors.
    name: &'s str,
    shape: &'s Shape,
    params: Params<'a>,
}

impl<'de> de::Deserializer<'de> for Node<'_, '_> {
    type Error = DecodeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let Node {
            name,
            shape,
            mut params,
        } = self;
        match shape {
            Shape::Str => match params.value {
                Some(Cow::Borrowed(text)) => visitor.visit_str(text),
                Some(Cow::Owned(text)) => visitor.visit_string(text),
                None => visitor.visit_unit(),
            },
            Shape::Int => {
                let text = params.value.as_deref().unwrap_or_default();
                let number = text.trim().parse::<i64>().map_err(|_| {
                    DecodeError(SqsError::invalid_value(
                        name,
                        excerpt(text),
                        "The value must be an integer.",
                    ))
                })?;
                visitor.visit_i64(number)
            }
            Shape::Bool => visitor.visit_bool(
                params
                    .value
                    .as_deref()
                    .is_some_and(|text| text.eq_ignore_ascii_case("true")),
            ),
            Shape::Struct(members) => {
                let present = members
                    .iter()
                    .filter_map(|member| {
                        let node = params.take_any(&spellings(member))?;
                        node.holds(&member.shape).then_some((member, node))
                    })
                    .collect::<Vec<_>>();
                visitor.visit_map(StructAccess {
                    members: present.into_iter(),
                    next: None,
                })
            }
            Shape::List(of) => {
                let items = params
                    .indexed()
                    .into_iter()
                    .filter(|item| item.holds(of))
                    .collect::<Vec<_>>();
                visitor.visit_seq(ListAccess {
                    name,
                    of,
                    items: items.into_iter(),
                })
            }
            Shape::Map { key, value, of } => visitor.visit_map(MapAccess {
                name,
                key,
                value,
                of,
                entries: params.indexed().into_iter(),
                next: None,
            }),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        // A node exists only for a parameter that was sent.
        visitor.visit_some(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit
        unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

struct StructAccess<'a> {
    members: std::vec::IntoIter<(&'static Member, Params<'a>)>,
    next: Option<(&'static Member, Params<'a>)>,
}

impl<'de> de::MapAccess<'de> for StructAccess<'_> {
    type Error = DecodeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let Some((member, params)) = self.members.next() else {
            return Ok(None);
        };
        self.next = Some((member, params));
        seed.deserialize(member.json.into_deserializer()).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let Some((member, params)) = self.next.take() else {
            return Err(de::Error::custom("a value without a name"));
        };
        seed.deserialize(Node {
            name: member.query,
            shape: &member.shape,
            params,
        })
    }
}

struct ListAccess<'s, 'a> {
    name: &'s str,
    of: &'s Shape,
    items: std::vec::IntoIter<Params<'a>>,
}

impl<'de> de::SeqAccess<'de> for ListAccess<'_, '_> {
    type Error = DecodeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        let Some(params) = self.items.next() else {
            return Ok(None);
        };
        seed.deserialize(Node {
            name: self.name,
            shape: self.of,
            params,
        })
        .map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

struct MapAccess<'s, 'a> {
    name: &'s str,
    key: &'s str,
    value: &'s str,
    of: &'s Shape,
    entries: std::vec::IntoIter<Params<'a>>,
    next: Option<Params<'a>>,
}

impl<'de> de::MapAccess<'de> for MapAccess<'_, '_> {
    type Error = DecodeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let Some(mut entry) = self.entries.next() else {
            return Ok(None);
        };
        // Flattened maps name their parts after the model (`Name`, `Value`); others may use the
        // defaults `key` and `value`.
        let Some(key) = entry.take_any(&[self.key, "key"]).and_then(|k| k.value) else {
            let parameter = format!("{}.N.{}", self.name, self.key);
            return Err(DecodeError(SqsError::missing(&parameter)));
        };
        self.next = Some(entry);
        let key = match key {
            Cow::Borrowed(key) => seed.deserialize(key.into_deserializer()),
            Cow::Owned(key) => seed.deserialize(key.into_deserializer()),
        };
        key.map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let mut entry = self.next.take().unwrap_or_default();
        match entry.take_any(&[self.value, "value"]) {
            Some(params) if params.holds(self.of) => seed.deserialize(Node {
                name: self.name,
                shape: self.of,
                params,
            }),
            // An entry without its value reads as JSON's null.
            _ => seed.deserialize(().into_deserializer()),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}
