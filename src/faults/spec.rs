//! A fault rule as a user writes it ([`FaultSpec`]), its checks, and which calls it
//! targets: SQS actions, SNS actions, or SNS's deliveries into queues ([`DELIVER`]).

use serde::{Deserialize, Serialize};

/// The `action` of a rule that fails SNS deliveries into queues: each hit counts as a
/// failed delivery and goes to the subscription's dead-letter queue when it has one.
pub const DELIVER: &str = "Deliver";

/// A rule as written by a user, in the admin API's JSON or a `[[faults]]` table.
#[derive(Debug, Clone, PartialEq, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FaultSpec {
    /// Matches this SQS or SNS action only (e.g. `ReceiveMessage`, `Publish`), or with
    /// `Deliver` SNS's deliveries into queues; any call when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// Matches calls naming this queue (by QueueUrl or QueueName); any queue when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queue: Option<String>,
    /// Matches SNS calls naming this topic (by TopicArn, TargetArn, ResourceArn or a
    /// SubscriptionArn of it) and deliveries from it; SNS calls only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topic: Option<String>,
    /// An error code of the error table of the service the rule targets, e.g.
    /// `ServiceUnavailable` or `KMS.ThrottlingException` (SQS), `Throttled` (SNS).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The error's message; the error table's default when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Wall-clock delay before the call proceeds (or fails): clients time out in real time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency_ms: Option<u64>,
    /// Close the connection without an answer, as a network failure would.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub drop_connection: bool,
    /// Chance in (0, 1] that a matching call is hit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probability: Option<f64>,
    /// The rule retires after this many hits ("the next 3 calls").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u64>,
    /// The window on the server's clock, from when the rule is added.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after_seconds: Option<f64>,
    /// How long the window lasts once open, in seconds of the server's clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub for_seconds: Option<f64>,
    /// Invoke rules: matches invocations of this declared function only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub function: Option<String>,
    /// Invoke rules: matches invocations by this event source mapping (UUID) only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mapping: Option<String>,
    /// Invoke rules: server-clock delay before the invocation (or its injected failure).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delay_seconds: Option<f64>,
}

/// The service a rule's `action`, `queue` and `topic` point it at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Sqs,
    Sns,
    Delivery,
    /// Neither named: every call of either service.
    Any,
}

/// Whether the error a rule injects is in the table of each service it can hit.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Kinds {
    pub sqs: bool,
    pub sns: bool,
}

/// What a rule may name in one service, as the service tells it: its action names and its
/// error-by-name lookup. The rules know no service's types beyond this.
#[derive(Debug, Clone, Copy)]
pub struct Catalog {
    pub actions: &'static [&'static str],
    /// Whether a code is in the service's error table.
    pub knows_code: fn(&str) -> bool,
}

/// The services a rule may aim at. A `Deliver` rule's error is SQS's: what the queue's send
/// would answer.
#[derive(Debug, Clone, Copy)]
pub struct Services {
    pub sqs: Catalog,
    pub sns: Catalog,
}

/// One call a rule may hit.
#[derive(Debug, Clone, Copy)]
pub enum Call<'a> {
    Sqs {
        action: &'a str,
        queue: Option<&'a str>,
    },
    Sns {
        action: &'a str,
        topic: Option<&'a str>,
    },
    /// A delivery from the topic (by name) into the queue (by name).
    Delivery { topic: &'a str, queue: &'a str },
}

impl FaultSpec {
    /// Which service the rule is for; refuses an action neither serves and filters that do
    /// not apply to the action's service.
    pub(crate) fn target(&self, services: &Services) -> Result<Target, String> {
        let target = match self.action.as_deref() {
            Some(DELIVER) => Target::Delivery,
            Some(a) if services.sqs.actions.contains(&a) => Target::Sqs,
            Some(a) if services.sns.actions.contains(&a) => Target::Sns,
            Some(a) => {
                let names = services
                    .sqs
                    .actions
                    .iter()
                    .chain(services.sns.actions)
                    .chain(&[DELIVER]);
                let hint = names
                    .map(|n| (strsim::levenshtein(n, a), n))
                    .filter(|(d, _)| *d <= 3)
                    .min_by_key(|(d, _)| *d)
                    .map(|(_, n)| format!(" (did you mean `{n}`?)"))
                    .unwrap_or_default();
                return Err(format!(
                    "`action`: `{a}` is not an SQS or SNS action, nor `{DELIVER}`{hint}"
                ));
            }
            None if self.topic.is_some() => Target::Sns,
            None if self.queue.is_some() => Target::Sqs,
            None => Target::Any,
        };
        match target {
            Target::Sqs if self.topic.is_some() => {
                Err("`topic` applies to SNS actions and deliveries, not to SQS actions".into())
            }
            Target::Sns if self.queue.is_some() => Err(
                "`queue` applies to SQS actions and deliveries, not to SNS actions".into(),
            ),
            Target::Delivery if self.latency_ms.is_some() || self.drop_connection => Err(format!(
                "a `{DELIVER}` rule fails deliveries: give `error`, not `latency_ms` or `drop_connection`"
            )),
            _ => Ok(target),
        }
    }

    /// The rule's error in each table it must be found in: SQS's for SQS actions and
    /// deliveries (what the queue's send would answer), SNS's for SNS actions, either for a
    /// rule naming neither (it then hits the calls of the services that have the code).
    fn kinds(&self, target: Target, services: &Services) -> Result<Kinds, String> {
        let Some(code) = &self.error else {
            return Ok(Kinds::default());
        };
        let kinds = Kinds {
            sqs: (services.sqs.knows_code)(code),
            sns: (services.sns.knows_code)(code),
        };
        let missing = match target {
            Target::Sqs | Target::Delivery if !kinds.sqs => Some("SQS"),
            Target::Sns if !kinds.sns => Some("SNS"),
            Target::Any if !kinds.sqs && !kinds.sns => Some("SQS or SNS"),
            _ => None,
        };
        match missing {
            Some(table) => Err(format!(
                "`error`: `{code}` is not an error code of the {table} error table"
            )),
            None => Ok(kinds),
        }
    }

    /// Checks the rule against the services it may aim at; the message names the field at
    /// fault.
    pub(crate) fn validate(&self, services: &Services) -> Result<Kinds, String> {
        // Invoke rules have no error table; they never match an SQS or SNS call (no action
        // of either is called `Invoke`), see [`super::invoke`].
        if let Some(checked) = super::invoke::validate(self) {
            return checked
                .and_then(|()| self.validate_limits())
                .map(|()| Kinds::default());
        }
        let target = self.target(services)?;
        let kinds = self.kinds(target, services)?;
        if self.error.is_none() && self.latency_ms.is_none() && !self.drop_connection {
            return Err(
                "a rule needs an effect: `error`, `latency_ms` or `drop_connection`".into(),
            );
        }
        self.validate_limits()?;
        Ok(kinds)
    }

    /// The checks every rule shares: probability, count and window.
    fn validate_limits(&self) -> Result<(), String> {
        if let Some(p) = self.probability {
            if !(p > 0.0 && p <= 1.0) {
                return Err(format!("`probability` must be in (0, 1], not {p}"));
            }
        }
        if self.count == Some(0) {
            return Err("`count` must be at least 1".into());
        }
        for (name, v) in [
            ("after_seconds", self.after_seconds),
            ("for_seconds", self.for_seconds),
        ] {
            if v.is_some_and(|s| !(s.is_finite() && s >= 0.0)) {
                return Err(format!("`{name}` must be a number of seconds >= 0"));
            }
        }
        Ok(())
    }

    /// Whether the rule's filters take in this call (its window and probability aside).
    pub(crate) fn matches(&self, kinds: Kinds, call: &Call<'_>) -> bool {
        let named = |filter: &Option<String>, value: Option<&str>| {
            filter.as_deref().is_none_or(|f| Some(f) == value)
        };
        let action = self.action.as_deref();
        match *call {
            Call::Sqs { action: a, queue } => {
                action.is_none_or(|x| x == a)
                    && self.topic.is_none()
                    && named(&self.queue, queue)
                    && (self.error.is_none() || kinds.sqs)
            }
            Call::Sns { action: a, topic } => {
                action.is_none_or(|x| x == a)
                    && self.queue.is_none()
                    && named(&self.topic, topic)
                    && (self.error.is_none() || kinds.sns)
            }
            Call::Delivery { topic, queue } => {
                action == Some(DELIVER)
                    && named(&self.topic, Some(topic))
                    && named(&self.queue, Some(queue))
            }
        }
    }
}
