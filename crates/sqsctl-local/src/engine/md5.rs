//! The checksums SQS returns with every sent and received message.
//!
//! Clients compare `MD5OfMessageBody` and `MD5OfMessageAttributes` with their own computation (the
//! Java SDK refuses a mismatch), so the attribute digest must follow SQS's encoding exactly: attributes
//! sorted by name, each as length-prefixed name, length-prefixed data type, a transport byte (1 for
//! string-like values, 2 for binary) and the length-prefixed value.

use md5::{Digest, Md5};

use crate::engine::message::{AttributeValue, MessageAttribute};

/// Lower-case hex MD5 of a message body.
pub fn of_body(body: &str) -> [u8; 16] {
    Md5::digest(body.as_bytes()).into()
}

/// The digest of a set of message attributes, or `None` when there are none (SQS then omits the
/// field).
pub fn of_attributes(attributes: &[MessageAttribute]) -> Option<[u8; 16]> {
    if attributes.is_empty() {
        return None;
    }
    let mut sorted: Vec<&MessageAttribute> = attributes.iter().collect();
    sorted.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
    let mut hasher = Md5::new();
    for attribute in sorted {
        put_length_prefixed(&mut hasher, attribute.name.as_bytes());
        put_length_prefixed(&mut hasher, attribute.data_type.as_bytes());
        match &attribute.value {
            AttributeValue::String(text) => {
                hasher.update([1u8]);
                put_length_prefixed(&mut hasher, text.as_bytes());
            }
            AttributeValue::Binary(bytes) => {
                hasher.update([2u8]);
                put_length_prefixed(&mut hasher, bytes);
            }
        }
    }
    Some(hasher.finalize().into())
}

fn put_length_prefixed(hasher: &mut Md5, bytes: &[u8]) {
    // Attribute parts are bounded by the 1 MiB message size, so the length always fits in 32 bits.
    let len = u32::try_from(bytes.len()).unwrap_or(u32::MAX);
    hasher.update(len.to_be_bytes());
    hasher.update(bytes);
}

pub fn hex(digest: &[u8; 16]) -> String {
    hex::encode(digest)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn string(name: &str, data_type: &str, value: &str) -> MessageAttribute {
        MessageAttribute {
            name: name.into(),
            data_type: data_type.into(),
            value: AttributeValue::String(value.into()),
        }
    }

    #[test]
    fn body_digest() {
        assert_eq!(hex(&of_body("")), "d41d8cd98f00b204e9800998ecf8427e");
        assert_eq!(hex(&of_body("hello")), "5d41402abc4b2a76b9719d911017c592");
    }

    #[test]
    fn attribute_digest_matches_published_vectors() {
        let one = [string("SellerName", "String", "Example Store")];
        assert_eq!(
            of_attributes(&one).map(|d| hex(&d)).as_deref(),
            Some("cd28f3b68aeee4b2eac9c66f2f694b58")
        );
        let number = [string("timestamp", "Number", "1493147359900")];
        assert_eq!(
            of_attributes(&number).map(|d| hex(&d)).as_deref(),
            Some("235c5c510d26fb653d073faed50ae77c")
        );
        // Order of input must not matter: the digest sorts by name.
        let two = [
            string("ordinal", "Number", "1"),
            string("category", "String", "test"),
        ];
        assert_eq!(
            of_attributes(&two).map(|d| hex(&d)).as_deref(),
            Some("d21ae90c49061e927f57df5f5d72be1f")
        );
    }

    #[test]
    fn no_attributes_no_digest() {
        assert_eq!(of_attributes(&[]), None);
    }

    #[test]
    fn binary_uses_transport_byte_two() {
        let bin = MessageAttribute {
            name: "b".into(),
            data_type: "Binary".into(),
            value: AttributeValue::Binary(vec![1, 2, 3]),
        };
        let as_string = string("b", "Binary", "\u{1}\u{2}\u{3}");
        assert_ne!(of_attributes(&[bin]), of_attributes(&[as_string]));
    }
}
