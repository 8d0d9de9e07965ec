//! Receipt handles: opaque to clients, but carrying which queue, which message and which receive
//! they came from, so a delete is O(1) and a handle from an earlier receive is recognized as stale.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

const MAGIC: &[u8; 4] = b"SQL1";

/// The decoded content of a receipt handle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Receipt {
    /// Identifies the queue incarnation, so a handle does not survive deleting and recreating a queue.
    pub queue_id: u64,
    pub key: u64,
    /// The message's receive count when the handle was issued.
    pub generation: u32,
}

impl Receipt {
    pub fn encode(&self) -> String {
        let mut raw = [0u8; 24];
        raw[..4].copy_from_slice(MAGIC);
        raw[4..12].copy_from_slice(&self.queue_id.to_be_bytes());
        raw[12..20].copy_from_slice(&self.key.to_be_bytes());
        raw[20..24].copy_from_slice(&self.generation.to_be_bytes());
        URL_SAFE_NO_PAD.encode(raw)
    }

    pub fn decode(handle: &str) -> Option<Receipt> {
        if handle.len() != 32 {
            return None;
        }
        let raw = URL_SAFE_NO_PAD.decode(handle.as_bytes()).ok()?;
        if raw.len() != 24 || &raw[..4] != MAGIC {
            return None;
        }
        let queue_id = u64::from_be_bytes(raw[4..12].try_into().ok()?);
        let key = u64::from_be_bytes(raw[12..20].try_into().ok()?);
        let generation = u32::from_be_bytes(raw[20..24].try_into().ok()?);
        Some(Receipt {
            queue_id,
            key,
            generation,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let receipt = Receipt {
            queue_id: 7,
            key: u64::MAX - 3,
            generation: 12,
        };
        let handle = receipt.encode();
        assert_eq!(Receipt::decode(&handle), Some(receipt));
    }

    #[test]
    fn garbage_is_rejected() {
        assert_eq!(Receipt::decode(""), None);
        assert_eq!(Receipt::decode("not-a-handle"), None);
        assert_eq!(Receipt::decode(&"A".repeat(32)), None);
        assert_eq!(Receipt::decode("ü".repeat(16).as_str()), None);
    }
}
