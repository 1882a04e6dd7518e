//! Queue identity: ARNs and the registry key (region, account, name).

use std::borrow::Borrow;
use std::fmt;
use std::hash::{Hash, Hasher};

/// The identity of a queue: the same name in another region or account is another queue.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct QueueKey {
    /// The queue's region, e.g. `us-east-1`.
    pub region: String,
    /// The owning 12-digit account.
    pub account: String,
    /// The queue's name (`.fifo` for a FIFO queue).
    pub name: String,
}

impl QueueKey {
    /// The key of queue `name` in one account and region, each copied.
    pub fn new(region: &str, account: &str, name: &str) -> Self {
        QueueKey {
            region: region.to_owned(),
            account: account.to_owned(),
            name: name.to_owned(),
        }
    }

    /// The queue's ARN, `arn:aws:sqs:<region>:<account>:<name>` (the QueueArn attribute).
    pub fn arn(&self) -> String {
        format!("arn:aws:sqs:{}:{}:{}", self.region, self.account, self.name)
    }
}

/// A queue's identity borrowed from a request, so the lookup on every request's path
/// allocates nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyRef<'a> {
    /// The queue's region.
    pub region: &'a str,
    /// The owning account.
    pub account: &'a str,
    /// The queue's name.
    pub name: &'a str,
}

impl<'a> KeyRef<'a> {
    /// A borrowed key of queue `name` in one account and region.
    pub fn new(region: &'a str, account: &'a str, name: &'a str) -> Self {
        KeyRef {
            region,
            account,
            name,
        }
    }

    /// The owned key, for a map insert or a record that outlives the request.
    pub fn to_key(self) -> QueueKey {
        QueueKey::new(self.region, self.account, self.name)
    }
}

/// What a map keyed by [`QueueKey`] can be searched with: an owned key or a [`KeyRef`].
/// Both hash and compare through `parts`, so they agree.
pub trait KeyParts {
    /// The key as (region, account, name): the one view both kinds hash and compare by.
    fn parts(&self) -> (&str, &str, &str);
}

impl KeyParts for QueueKey {
    fn parts(&self) -> (&str, &str, &str) {
        (&self.region, &self.account, &self.name)
    }
}

impl KeyParts for KeyRef<'_> {
    fn parts(&self) -> (&str, &str, &str) {
        (self.region, self.account, self.name)
    }
}

impl<'a> Borrow<dyn KeyParts + 'a> for QueueKey {
    fn borrow(&self) -> &(dyn KeyParts + 'a) {
        self
    }
}

impl Hash for dyn KeyParts + '_ {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.parts().hash(state);
    }
}

impl PartialEq for dyn KeyParts + '_ {
    fn eq(&self, other: &Self) -> bool {
        self.parts() == other.parts()
    }
}

impl Eq for dyn KeyParts + '_ {}

impl Hash for QueueKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.parts().hash(state);
    }
}

impl fmt::Display for QueueKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.arn())
    }
}

/// Parses `arn:<partition>:sqs:<region>:<account>:<name>`.
pub fn parse(arn: &str) -> Option<QueueKey> {
    parse_ref(arn).map(KeyRef::to_key)
}

/// [`parse`] without allocating: the parts borrow from `arn`.
pub fn parse_ref(arn: &str) -> Option<KeyRef<'_>> {
    let mut parts = arn.split(':');
    let (Some("arn"), Some(_partition), Some("sqs"), Some(region), Some(account), Some(name), None) = (
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
    ) else {
        return None;
    };
    if region.is_empty() || account.is_empty() || name.is_empty() {
        return None;
    }
    Some(KeyRef::new(region, account, name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let key = QueueKey::new("eu-west-1", "123456789012", "q.fifo");
        assert_eq!(parse(&key.arn()), Some(key));
        assert_eq!(parse("arn:aws:sqs:r:a"), None);
        assert_eq!(parse("arn:aws:sns:r:a:n"), None);
    }

    #[test]
    fn a_borrowed_key_finds_the_owned_one() {
        let mut map = std::collections::HashMap::new();
        map.insert(QueueKey::new("r", "a", "q"), 1);
        map.insert(QueueKey::new("r", "a", "q2"), 2);
        let found = |k: KeyRef<'_>| map.get(&k as &dyn KeyParts).copied();
        assert_eq!(found(KeyRef::new("r", "a", "q")), Some(1));
        assert_eq!(found(KeyRef::new("r", "a", "q2")), Some(2));
        // Parts are hashed apart, so moving characters between them is another key.
        assert_eq!(found(KeyRef::new("r", "aq", "")), None);
    }
}
