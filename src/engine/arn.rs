//! Queue identity: ARNs and the registry key (region, account, name).

use std::fmt;

/// The identity of a queue: the same name in another region or account is another queue.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct QueueKey {
    pub region: String,
    pub account: String,
    pub name: String,
}

impl QueueKey {
    pub fn new(region: &str, account: &str, name: &str) -> Self {
        QueueKey {
            region: region.to_owned(),
            account: account.to_owned(),
            name: name.to_owned(),
        }
    }

    pub fn arn(&self) -> String {
        format!("arn:aws:sqs:{}:{}:{}", self.region, self.account, self.name)
    }
}

impl fmt::Display for QueueKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.arn())
    }
}

/// Parses `arn:<partition>:sqs:<region>:<account>:<name>`.
pub fn parse(arn: &str) -> Option<QueueKey> {
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
    Some(QueueKey::new(region, account, name))
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
}
