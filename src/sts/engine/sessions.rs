//! The issued temporary keys: a bounded in-memory store the STS engine writes and the auth
//! floor reads through [`TemporaryKeys`], so every service accepts them. Keys live until the
//! server stops (they are not kept in a data directory, as AWS's sessions do not outlive
//! their expiry either); an expired key stays to be answered `ExpiredToken` until room is
//! needed.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use base64::Engine;

use crate::clock::Millis;
use crate::http::auth::{Principal, TemporaryKey, TemporaryKeys};
use crate::sts::error::{StsError, StsErrorKind, StsResult};

/// How many keys the store holds. (Chosen: far beyond a test suite's sessions, small enough
/// that a runaway client cannot grow the server without bound.)
pub const MAX_SESSIONS: usize = 10_000;

/// The issued keys by access key id.
#[derive(Debug)]
pub struct Sessions {
    /// Each key, expired ones included until room is needed.
    keys: Mutex<HashMap<String, Arc<TemporaryKey>>>,
    /// The bound; [`MAX_SESSIONS`] but in tests.
    max: usize,
}

impl Default for Sessions {
    fn default() -> Self {
        Sessions::with_max(MAX_SESSIONS)
    }
}

impl Sessions {
    /// A store of at most `max` keys.
    pub fn with_max(max: usize) -> Self {
        Sessions {
            keys: Mutex::new(HashMap::new()),
            max: max.max(1),
        }
    }

    /// Issues a new key acting as `principal` (its access key id is replaced by the new
    /// key's) until `expires_at`. A full store first drops the expired keys, then the one
    /// expiring soonest.
    pub fn issue(
        &self,
        principal: Principal,
        expires_at: Millis,
        now: Millis,
    ) -> StsResult<Arc<TemporaryKey>> {
        let access_key_id = format!("ASIA{}", base32_text(&random::<16>()?));
        let base64 = base64::engine::general_purpose::STANDARD;
        let key = Arc::new(TemporaryKey {
            secret_access_key: base64.encode(random::<30>()?),
            session_token: base64.encode(random::<96>()?),
            principal: Principal {
                access_key_id: access_key_id.clone(),
                ..principal
            },
            expires_at,
        });
        let mut keys = self.keys.lock().unwrap_or_else(PoisonError::into_inner);
        if keys.len() >= self.max {
            keys.retain(|_, k| k.expires_at > now);
        }
        if keys.len() >= self.max {
            let soonest = keys.iter().min_by_key(|(_, k)| k.expires_at);
            if let Some(id) = soonest.map(|(id, _)| id.clone()) {
                keys.remove(&id);
            }
        }
        keys.insert(access_key_id, key.clone());
        Ok(key)
    }

    /// Whether `access_key_id` is a key this store issued (expired or not).
    pub fn issued(&self, access_key_id: &str) -> bool {
        self.find(access_key_id).is_some()
    }
}

impl TemporaryKeys for Sessions {
    fn find(&self, access_key_id: &str) -> Option<Arc<TemporaryKey>> {
        // Only STS's key ids start so: the lock is never taken for a declared key's request.
        if !access_key_id.starts_with("ASIA") {
            return None;
        }
        let keys = self.keys.lock().unwrap_or_else(PoisonError::into_inner);
        keys.get(access_key_id).cloned()
    }
}

/// `N` bytes from the operating system's generator; its failure is STS's internal error.
fn random<const N: usize>() -> StsResult<[u8; N]> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).map_err(|e| {
        StsError::new(
            StsErrorKind::InternalFailure,
            format!("The random number generator is unavailable: {e}"),
        )
    })?;
    Ok(bytes)
}

/// One uppercase base32 character per byte, as AWS's key ids are written (`ASIA` and 16 of
/// them); 256 is a multiple of 32, so each character is equally likely.
fn base32_text(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    bytes
        .iter()
        .map(|b| char::from(ALPHABET[usize::from(b % 32)]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn someone() -> Principal {
        Principal {
            access_key_id: String::new(),
            account: "111111111111".into(),
            arn: "arn:aws:iam::111111111111:user/ci".into(),
            sender_id: Arc::from("AIDAEXAMPLE"),
        }
    }

    #[test]
    fn keys_are_shaped_as_aws_issues_them() {
        let store = Sessions::default();
        let key = store.issue(someone(), 10, 0).unwrap();
        let id = &key.principal.access_key_id;
        assert_eq!(id.len(), 20);
        assert!(id.starts_with("ASIA"));
        assert_eq!(key.secret_access_key.len(), 40);
        assert_eq!(store.find(id).unwrap().session_token, key.session_token);
        assert!(store.find("AKIDEXAMPLE").is_none());
    }

    #[test]
    fn a_full_store_drops_the_expired_then_the_soonest() {
        let store = Sessions::with_max(2);
        let old = store.issue(someone(), 5, 0).unwrap();
        let long = store.issue(someone(), 100, 0).unwrap();
        let third = store.issue(someone(), 50, 10).unwrap();
        assert!(!store.issued(&old.principal.access_key_id), "expired");
        let fourth = store.issue(someone(), 60, 10).unwrap();
        assert!(!store.issued(&third.principal.access_key_id), "soonest");
        for kept in [long, fourth] {
            assert!(store.issued(&kept.principal.access_key_id));
        }
    }
}
