//! The MD5 digests SQS returns: of a body, and of a message-attribute map.

use md5::{Digest, Md5};

use crate::sqs::engine::message::{AttrData, AttrValue};

/// Lowercase hex; a digest is written for every message sent and received, so no `fmt`.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = vec![0; bytes.len() * 2];
    for (pair, b) in out.chunks_exact_mut(2).zip(bytes) {
        pair[0] = DIGITS[usize::from(b >> 4)];
        pair[1] = DIGITS[usize::from(b & 0xf)];
    }
    // Pushing chars re-encoded each as UTF-8 and checked capacity: ~800 instructions a digest.
    String::from_utf8(out).unwrap_or_default()
}

/// MD5OfMessageBody: the hex MD5 of the body's UTF-8 bytes.
pub fn of_body(body: &str) -> String {
    hex(&digest(body))
}

/// The body's MD5 as bytes, before hex (the send path keeps the bytes).
pub fn digest(body: &str) -> [u8; 16] {
    Md5::digest(body.as_bytes()).into()
}

/// SQS's attribute digest over attributes given in name (byte) order: each name, type and
/// value length-prefixed, with a transport byte (1 string, 2 binary) before the value.
/// `None` when there is nothing to digest, as SQS then omits the member.
pub fn of_attributes<'a>(
    attributes: impl IntoIterator<Item = (&'a String, &'a AttrValue)>,
) -> Option<String> {
    let mut hasher = Md5::new();
    let mut any = false;
    let prefixed = |hasher: &mut Md5, bytes: &[u8]| {
        hasher.update((bytes.len() as u32).to_be_bytes());
        hasher.update(bytes);
    };
    for (name, value) in attributes {
        any = true;
        prefixed(&mut hasher, name.as_bytes());
        prefixed(&mut hasher, value.data_type.as_bytes());
        match &value.data {
            AttrData::String(s) => {
                hasher.update([1]);
                prefixed(&mut hasher, s.as_bytes());
            }
            AttrData::Binary(b) => {
                hasher.update([2]);
                prefixed(&mut hasher, b);
            }
        }
    }
    any.then(|| hex(&hasher.finalize()))
}
