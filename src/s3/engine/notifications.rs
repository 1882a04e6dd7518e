//! A bucket's notification configuration as the engine keeps it (S3 User Guide, "Amazon S3
//! Event Notifications"): rules, each sending the events it names on keys its prefix and
//! suffix filter admit to one destination, and the checks S3 makes of a configuration before
//! any destination is asked.

use super::error::{Refusal, Result};

/// The event types a rule may name, as S3 lists those sqslite makes: writes and deletes.
pub const EVENTS: &[&str] = &[
    "s3:ObjectCreated:*",
    "s3:ObjectCreated:Put",
    "s3:ObjectCreated:Post",
    "s3:ObjectCreated:Copy",
    "s3:ObjectCreated:CompleteMultipartUpload",
    "s3:ObjectRemoved:*",
    "s3:ObjectRemoved:Delete",
    "s3:ObjectRemoved:DeleteMarkerCreated",
];

/// Where a rule sends its events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Destination {
    /// An SQS queue, by ARN.
    Queue(String),
    /// An SNS topic, by ARN.
    Topic(String),
    /// A Lambda function, by ARN.
    Function(String),
}

impl Destination {
    /// The destination's ARN.
    pub fn arn(&self) -> &str {
        match self {
            Destination::Queue(arn) | Destination::Topic(arn) | Destination::Function(arn) => arn,
        }
    }
}

/// One rule of a configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    /// Its id (S3 makes one when the request gives none), the event's `configurationId`.
    pub id: String,
    /// Where its events go.
    pub destination: Destination,
    /// The event types it names (`s3:ObjectCreated:*`…).
    pub events: Vec<String>,
    /// The key prefix it admits, if any.
    pub prefix: Option<String>,
    /// The key suffix it admits, if any.
    pub suffix: Option<String>,
}

impl Rule {
    /// Whether the event `name` (`ObjectCreated:Put`) on `key` is this rule's.
    pub fn matches(&self, name: &str, key: &str) -> bool {
        let event = self.events.iter().any(|e| {
            let e = e.strip_prefix("s3:").unwrap_or(e);
            e == name
                || e.strip_suffix('*')
                    .is_some_and(|family| name.starts_with(family))
        });
        event
            && self.prefix.as_deref().is_none_or(|p| key.starts_with(p))
            && self.suffix.as_deref().is_none_or(|s| key.ends_with(s))
    }

    /// Whether this rule and `other` could both take one event: a common event type, and
    /// prefixes (and suffixes) one of which extends the other.
    fn overlaps(&self, other: &Rule) -> bool {
        let family = |e: &str| e.rsplit_once(':').map_or(e, |(f, _)| f).to_owned();
        let shared = self.events.iter().any(|a| {
            other.events.iter().any(|b| {
                a == b || (family(a) == family(b) && (a.ends_with('*') || b.ends_with('*')))
            })
        });
        let nested = |a: &Option<String>, b: &Option<String>, ends: bool| match (a, b) {
            (Some(a), Some(b)) if ends => a.ends_with(b.as_str()) || b.ends_with(a.as_str()),
            (Some(a), Some(b)) => a.starts_with(b.as_str()) || b.starts_with(a.as_str()),
            _ => true,
        };
        shared
            && nested(&self.prefix, &other.prefix, false)
            && nested(&self.suffix, &other.suffix, true)
    }
}

/// `rules` as S3 takes them: known event types, at most one prefix and one suffix a rule, no
/// two rules that could take one event; ids unique.
pub fn check(rules: &[Rule]) -> Result<()> {
    let invalid = |why: &str| Err(Refusal::InvalidArgument(why.to_owned()));
    for (i, rule) in rules.iter().enumerate() {
        if rule.events.is_empty() || rule.events.iter().any(|e| !EVENTS.contains(&e.as_str())) {
            return invalid("The event is not supported for notifications");
        }
        if rules[..i].iter().any(|r| r.id == rule.id) {
            return invalid("Configuration id must be unique.");
        }
        if rules[..i].iter().any(|r| r.overlaps(rule)) {
            return invalid(
                "Configurations overlap. Configurations on the same bucket cannot share a common \
                 event type.",
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(id: &str, events: &[&str], prefix: Option<&str>, suffix: Option<&str>) -> Rule {
        Rule {
            id: id.into(),
            destination: Destination::Queue("arn:aws:sqs:us-east-1:000000000000:q".into()),
            events: events.iter().map(|e| (*e).to_owned()).collect(),
            prefix: prefix.map(str::to_owned),
            suffix: suffix.map(str::to_owned),
        }
    }

    #[test]
    fn a_rule_takes_its_events_on_its_keys() {
        let r = rule("a", &["s3:ObjectCreated:*"], Some("in/"), Some(".csv"));
        assert!(r.matches("ObjectCreated:Put", "in/x.csv"));
        assert!(r.matches("ObjectCreated:CompleteMultipartUpload", "in/y.csv"));
        assert!(!r.matches("ObjectRemoved:Delete", "in/x.csv"));
        assert!(!r.matches("ObjectCreated:Put", "out/x.csv"));
        assert!(!r.matches("ObjectCreated:Put", "in/x.json"));
        let copy = rule("b", &["s3:ObjectCreated:Copy"], None, None);
        assert!(copy.matches("ObjectCreated:Copy", "k") && !copy.matches("ObjectCreated:Put", "k"));
    }

    #[test]
    fn the_checks_of_a_configuration() {
        let refused = |rules: &[Rule]| match check(rules) {
            Err(Refusal::InvalidArgument(why)) => why,
            other => panic!("{other:?}"),
        };
        assert!(check(&[rule("a", &["s3:ObjectCreated:*"], None, None)]).is_ok());
        let unknown = rule("a", &["s3:ObjectRestore:Post"], None, None);
        assert_eq!(
            refused(&[unknown]),
            "The event is not supported for notifications"
        );
        let twice = [
            rule("a", &["s3:ObjectCreated:Put"], None, None),
            rule("a", &["s3:ObjectRemoved:*"], None, None),
        ];
        assert_eq!(refused(&twice), "Configuration id must be unique.");
        let overlap = [
            rule("a", &["s3:ObjectCreated:*"], Some("in/"), None),
            rule("b", &["s3:ObjectCreated:Put"], Some("in/sub/"), None),
        ];
        assert!(refused(&overlap).starts_with("Configurations overlap."));
        let apart = [
            rule("a", &["s3:ObjectCreated:*"], Some("in/"), None),
            rule("b", &["s3:ObjectCreated:*"], Some("out/"), None),
        ];
        assert!(check(&apart).is_ok());
        let other_events = [
            rule("a", &["s3:ObjectCreated:*"], None, None),
            rule("b", &["s3:ObjectRemoved:*"], None, None),
        ];
        assert!(check(&other_events).is_ok());
    }
}
