//! Receipt handles: the queue, the message's slot and which receive issued the handle, sealed
//! with a MAC under a per-server secret.
//!
//! The handle carries everything needed to find the message, so there is no handle table to
//! keep or expire. The receive number tells the latest handle (which may change visibility)
//! from older ones (which may still delete, as on SQS). The MAC makes a handle unforgeable:
//! without it the fields are a counter anyone could guess, and one consumer could delete or
//! release another's in-flight message.

use base64::engine::general_purpose::{STANDARD_NO_PAD, URL_SAFE_NO_PAD};
use base64::Engine;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

/// The first byte of a handle: bumped when the layout changes, so an old handle is refused, not
/// misread.
const VERSION: u8 = 2;
/// The sealed bytes: version, queue uid, sequence number and receive count.
const FIELDS: usize = 1 + 8 + 8 + 4;
/// HMAC-SHA256 truncated to 128 bits: forging one handle takes ~2^128 guesses, and every
/// guess is a request to this server.
const TAG: usize = 16;
/// A handle's bytes: its fields and their tag.
const LEN: usize = FIELDS + TAG;
/// Unpadded base64 of `LEN` bytes.
const TEXT_LEN: usize = (LEN * 4).div_ceil(3);

/// The per-server secret that seals handles, already keyed so each handle costs two
/// SHA-256 blocks and no key schedule.
#[derive(Clone)]
pub struct ReceiptKey(Hmac<Sha256>);

impl ReceiptKey {
    /// A fresh secret from the OS: handles of one server never work on another or after a
    /// restart (a restarted in-memory server has none of the messages anyway).
    pub fn random() -> Self {
        let mut secret = [0u8; 32];
        // The OS random source failing at start-up leaves nothing sensible to do.
        getrandom::fill(&mut secret).expect("the OS random number generator is unavailable");
        ReceiptKey::from_secret(&secret)
    }

    /// A fixed secret, for tests and benchmarks that want reproducible handles.
    pub fn from_secret(secret: &[u8]) -> Self {
        // HMAC takes keys of any length; the error case cannot happen.
        ReceiptKey(Hmac::new_from_slice(secret).unwrap_or_else(|_| unreachable!()))
    }

    /// The HMAC over a handle's fields, from the already-keyed state.
    fn mac(&self, fields: &[u8]) -> Hmac<Sha256> {
        let mut mac = self.0.clone();
        mac.update(fields);
        mac
    }
}

impl Default for ReceiptKey {
    fn default() -> Self {
        ReceiptKey::random()
    }
}

impl std::fmt::Debug for ReceiptKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ReceiptKey(..)")
    }
}

/// What a ReceiptHandle names: one receive of one message in one queue incarnation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReceiptHandle {
    /// Unique per queue incarnation, so a handle never works on another or a re-created queue.
    pub queue_uid: u64,
    /// The message's sequence number in its queue.
    pub seq: u64,
    /// The message's receive count when this handle was issued.
    pub receive: u32,
}

impl ReceiptHandle {
    /// The handle's fields, big-endian, in the order they are sealed.
    fn fields(&self) -> [u8; FIELDS] {
        let mut bytes = [0u8; FIELDS];
        bytes[0] = VERSION;
        bytes[1..9].copy_from_slice(&self.queue_uid.to_be_bytes());
        bytes[9..17].copy_from_slice(&self.seq.to_be_bytes());
        bytes[17..21].copy_from_slice(&self.receive.to_be_bytes());
        bytes
    }

    /// The handle's text, sealed with `key` so it cannot be forged or altered: base64 in the
    /// standard alphabet, as SQS's own handles are. Clients rely on that alphabet: the Python SQS
    /// extended client (amazon-sqs-extended-client 1.0.1) wraps a handle in its own markers and
    /// takes the original back as the text after the last `-`, which SQS's handles never hold.
    pub fn encode(&self, key: &ReceiptKey) -> String {
        let mut bytes = [0u8; LEN];
        bytes[..FIELDS].copy_from_slice(&self.fields());
        let tag = key.mac(&bytes[..FIELDS]).finalize().into_bytes();
        bytes[FIELDS..].copy_from_slice(&tag[..TAG]);
        STANDARD_NO_PAD.encode(bytes)
    }

    /// The handle `text` names, if this server's key sealed it; `None` for anything else
    /// (malformed, modified, forged or from another server).
    pub fn decode(text: &str, key: &ReceiptKey) -> Option<Self> {
        if text.len() != TEXT_LEN {
            return None;
        }
        let mut bytes = [0u8; LEN];
        // Handles were once issued in the URL-safe alphabet, and a durable queue's in-flight
        // messages keep theirs across a restart (and so an upgrade): a text the standard
        // alphabet refuses is read in that one. A text mixing both alphabets decodes in
        // neither. Tried in turn rather than scanned for `-` first: the scan cost every
        // DeleteMessage a pass over the handle.
        let n = STANDARD_NO_PAD
            .decode_slice(text, &mut bytes)
            .or_else(|_| URL_SAFE_NO_PAD.decode_slice(text, &mut bytes))
            .ok()?;
        if n != LEN || bytes[0] != VERSION {
            return None;
        }
        // Constant time, so timing tells nothing about how much of a guessed tag was right.
        key.mac(&bytes[..FIELDS])
            .verify_truncated_left(&bytes[FIELDS..])
            .ok()?;
        let u64_at = |i: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&bytes[i..i + 8]);
            u64::from_be_bytes(b)
        };
        Some(ReceiptHandle {
            queue_uid: u64_at(1),
            seq: u64_at(9),
            receive: u32::from_be_bytes([bytes[17], bytes[18], bytes[19], bytes[20]]),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: ReceiptHandle = ReceiptHandle {
        queue_uid: 7,
        seq: u64::MAX,
        receive: 3,
    };

    #[test]
    fn round_trip_and_garbage() {
        let key = ReceiptKey::random();
        let text = H.encode(&key);
        assert_eq!(text.len(), TEXT_LEN);
        assert_eq!(ReceiptHandle::decode(&text, &key), Some(H));
        for bad in ["garbage", "", &text[1..], &format!("{text}A")] {
            assert_eq!(ReceiptHandle::decode(bad, &key), None, "{bad}");
        }
    }

    #[test]
    fn handles_are_standard_base64_and_legacy_ones_still_read() {
        let key = ReceiptKey::from_secret(b"alphabet");
        // Enough handles that URL-safe base64 would have put `-` in most of them.
        for seq in 0..64 {
            let handle = ReceiptHandle { seq, ..H };
            let text = handle.encode(&key);
            assert!(!text.contains(['-', '_']), "{text}");
            let bytes = STANDARD_NO_PAD.decode(&text).unwrap();
            let legacy = URL_SAFE_NO_PAD.encode(&bytes);
            assert_eq!(ReceiptHandle::decode(&legacy, &key), Some(handle));
            // One character in the legacy alphabet, the rest in the standard one.
            if text.matches(['+', '/']).count() >= 2 {
                let mixed: String = text
                    .char_indices()
                    .map(|(i, c)| match c {
                        '+' if i == text.find(['+', '/']).unwrap() => '-',
                        '/' if i == text.find(['+', '/']).unwrap() => '_',
                        c => c,
                    })
                    .collect();
                assert_eq!(ReceiptHandle::decode(&mixed, &key), None, "{mixed}");
            }
        }
    }

    #[test]
    fn forged_and_foreign_handles_fail() {
        let key = ReceiptKey::from_secret(b"one server");
        let other = ReceiptKey::from_secret(b"another server");
        assert_eq!(ReceiptHandle::decode(&H.encode(&other), &key), None);
        // The next receive's handle, built by hand as a consumer guessing it would.
        let next = ReceiptHandle { receive: 4, ..H };
        let mut forged = [0u8; LEN];
        forged[..FIELDS].copy_from_slice(&next.fields());
        let real = STANDARD_NO_PAD.decode(H.encode(&key)).unwrap();
        forged[FIELDS..].copy_from_slice(&real[FIELDS..]);
        assert_eq!(
            ReceiptHandle::decode(&STANDARD_NO_PAD.encode(forged), &key),
            None
        );
        // Any one flipped bit anywhere is rejected.
        for i in 0..LEN {
            let mut flipped = real.clone();
            flipped[i] ^= 1;
            let text = STANDARD_NO_PAD.encode(&flipped);
            assert_eq!(ReceiptHandle::decode(&text, &key), None, "byte {i}");
        }
    }
}
