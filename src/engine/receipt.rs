//! Receipt handles: the queue, the message's slot and which receive issued the handle.
//!
//! The handle carries everything needed to find the message, so there is no handle table to
//! keep or expire. The receive number tells the latest handle (which may change visibility)
//! from older ones (which may still delete, as on SQS).

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

const VERSION: u8 = 1;
const LEN: usize = 1 + 8 + 8 + 4;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReceiptHandle {
    /// Unique per queue incarnation, so a handle never works on another or a re-created queue.
    pub queue_uid: u64,
    pub seq: u64,
    /// The message's receive count when this handle was issued.
    pub receive: u32,
}

impl ReceiptHandle {
    pub fn encode(&self) -> String {
        let mut bytes = Vec::with_capacity(LEN);
        bytes.push(VERSION);
        bytes.extend_from_slice(&self.queue_uid.to_be_bytes());
        bytes.extend_from_slice(&self.seq.to_be_bytes());
        bytes.extend_from_slice(&self.receive.to_be_bytes());
        URL_SAFE_NO_PAD.encode(bytes)
    }

    pub fn decode(text: &str) -> Option<Self> {
        let bytes = URL_SAFE_NO_PAD.decode(text).ok()?;
        if bytes.len() != LEN || bytes[0] != VERSION {
            return None;
        }
        let u64_at = |i: usize| u64::from_be_bytes(bytes[i..i + 8].try_into().unwrap_or_default());
        Some(ReceiptHandle {
            queue_uid: u64_at(1),
            seq: u64_at(9),
            receive: u32::from_be_bytes(bytes[17..21].try_into().unwrap_or_default()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_garbage() {
        let h = ReceiptHandle {
            queue_uid: 7,
            seq: u64::MAX,
            receive: 3,
        };
        assert_eq!(ReceiptHandle::decode(&h.encode()), Some(h));
        assert_eq!(ReceiptHandle::decode("garbage"), None);
        assert_eq!(ReceiptHandle::decode(""), None);
    }
}
