//! Who a request comes from, and the SenderId its messages carry: the principal's unique id
//! as AWS returns it (an IAM user's `AIDA…`, the account id for the root user), never the
//! access key id, which would hand every consumer the sender's key.

use std::sync::{Arc, LazyLock};

use dashmap::DashMap;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use super::Credential;

/// Who a verified request comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Principal {
    pub access_key_id: String,
    pub account: String,
    /// `arn:aws:iam::<account>:root` or `…:user/<name>`: what queue policies match.
    pub arn: String,
    /// What its messages' SenderId says: [`sender_id`] of the ARN.
    pub sender_id: Arc<str>,
}

impl Principal {
    pub fn of(credential: &Credential) -> Self {
        let arn = credential.principal_arn();
        Principal {
            access_key_id: credential.access_key_id.clone(),
            account: credential.account_id.clone(),
            sender_id: sender_id(&arn),
            arn,
        }
    }
}

/// The SenderId of an unsigned request: an IAM-user-shaped id that names no one.
pub static ANONYMOUS: LazyLock<Arc<str>> = LazyLock::new(|| Arc::from("AIDAIT2UOQQY3AUEKVGXU"));

/// Computed ids, so a send does not hash its sender's ARN each time. Bounded: cleared when a
/// server has seen more senders than any test suite uses.
static IDS: LazyLock<DashMap<String, Arc<str>>> = LazyLock::new(DashMap::new);
const MAX_CACHED: usize = 4096;

/// A principal's unique id: the account id for `arn:aws:iam::<account>:root`, else `AIDA`
/// and 17 characters of uppercase base32 of a keyed hash of the ARN (AWS's user ids are 21
/// characters starting `AIDA` [AWS IAM docs, "Unique identifiers"]). The key is fixed, so the
/// id is stable across restarts and servers, and the same principal is the same sender.
pub fn sender_id(arn: &str) -> Arc<str> {
    if let Some(id) = IDS.get(arn) {
        return id.clone();
    }
    let id: Arc<str> = match arn
        .strip_prefix("arn:aws:iam::")
        .and_then(|rest| rest.strip_suffix(":root"))
    {
        Some(account) => Arc::from(account),
        None => Arc::from(format!("AIDA{}", &base32(&keyed_hash(arn))[..17])),
    };
    if IDS.len() >= MAX_CACHED {
        IDS.clear();
    }
    IDS.insert(arn.to_owned(), id.clone());
    id
}

/// A role's unique id, `AROA` and 17 characters as IAM's role ids are, keyed as
/// [`sender_id`] is: an assumed role's sessions say `<role id>:<session name>`.
pub fn role_id(role_arn: &str) -> String {
    format!("AROA{}", &base32(&keyed_hash(role_arn))[..17])
}

/// Who a signed request says it is when no credentials are declared (so nothing verifies
/// it): its key taken as an IAM user of the request's account, as AWS would answer for an IAM
/// user's key (so two keys are two senders, and a subscription's SubscriptionPrincipal is
/// `arn:aws:iam::<account>:user/<key>` as AWS records it for a user).
#[derive(Debug, PartialEq, Eq)]
pub struct Caller {
    /// The account the key acts in.
    pub account: String,
    /// `arn:aws:iam::<account>:user/<key>`.
    pub arn: String,
    /// [`sender_id`] of the ARN.
    pub sender_id: Arc<str>,
}

/// Callers by access key, so a request does not format and hash its ARN each time. Bounded
/// as [`IDS`] is.
static CALLERS: LazyLock<DashMap<String, Arc<Caller>>> = LazyLock::new(DashMap::new);

/// The [`Caller`] a signed request with `access_key` names in `account`.
pub fn unverified(account: &str, access_key: &str) -> Arc<Caller> {
    if let Some(caller) = CALLERS.get(access_key).filter(|c| c.account == account) {
        return caller.clone();
    }
    let arn = format!("arn:aws:iam::{account}:user/{access_key}");
    let caller = Arc::new(Caller {
        account: account.to_owned(),
        sender_id: sender_id(&arn),
        arn,
    });
    if CALLERS.len() >= MAX_CACHED {
        CALLERS.clear();
    }
    CALLERS.insert(access_key.to_owned(), caller.clone());
    caller
}

fn keyed_hash(arn: &str) -> Vec<u8> {
    // HMAC takes keys of any length; the error case cannot happen.
    let mut mac =
        Hmac::<Sha256>::new_from_slice(b"sqslite SenderId v1").unwrap_or_else(|_| unreachable!());
    mac.update(arn.as_bytes());
    mac.finalize().into_bytes().to_vec()
}

/// RFC 4648 base32 without padding.
fn base32(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    let mut out = String::with_capacity(bytes.len() * 8 / 5 + 1);
    let (mut buffer, mut bits) = (0u32, 0u32);
    for &b in bytes {
        buffer = (buffer << 8) | u32::from(b);
        bits += 8;
        while bits >= 5 {
            bits -= 5;
            out.push(char::from(ALPHABET[((buffer >> bits) & 31) as usize]));
        }
    }
    if bits > 0 {
        out.push(char::from(ALPHABET[((buffer << (5 - bits)) & 31) as usize]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base32_matches_rfc_4648() {
        assert_eq!(base32(b"foobar"), "MZXW6YTBOI");
        assert_eq!(base32(b"f"), "MY");
    }

    #[test]
    fn ids_are_stable_shaped_and_distinct() {
        let alice = sender_id("arn:aws:iam::111122223333:user/alice");
        assert_eq!(alice, sender_id("arn:aws:iam::111122223333:user/alice"));
        assert_eq!(alice.len(), 21);
        assert!(alice.starts_with("AIDA"));
        assert_ne!(alice, sender_id("arn:aws:iam::111122223333:user/bob"));
        assert_eq!(
            &*sender_id("arn:aws:iam::111122223333:root"),
            "111122223333"
        );
        let caller = unverified("000000000000", "test");
        assert_ne!(caller.sender_id.as_ref(), "test");
        assert_eq!(caller.arn, "arn:aws:iam::000000000000:user/test");
        assert_eq!(unverified("111122223333", "test").account, "111122223333");
    }
}
