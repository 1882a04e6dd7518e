//! The HTTP/S delivery policy: how often and how far apart a failed POST is retried
//! (SNS developer guide, "Amazon SNS message delivery retries"). A policy has four phases:
//! immediate retries (`numNoDelayRetries`, no delay), pre-backoff (`numMinDelayRetries`,
//! `minDelayTarget` apart), backoff (what remains of `numRetries`, growing from the minimum
//! to `maxDelayTarget` along `backoffFunction`) and post-backoff (`numMaxDelayRetries`,
//! `maxDelayTarget` apart). SNS's default is 3 retries, 20 seconds apart.
//!
//! The subscription's `healthyRetryPolicy` wins unless the topic's
//! `http.disableSubscriptionOverrides` is set; then the topic's `defaultHealthyRetryPolicy`;
//! then SNS's default. SNS also jitters each delay; sqslite does not, so a test can advance
//! its clock by exactly the delay. The curves of the backoff functions are sqslite's
//! reading of their names [unverified: SNS does not publish the formulas].

use serde_json::Value;

use crate::clock::Millis;

/// How the delay grows through the backoff phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backoff {
    /// Delays grow by equal steps from minDelayTarget to maxDelayTarget.
    Linear,
    /// Delays grow as an arithmetic series between the targets.
    Arithmetic,
    /// Delays grow geometrically between the targets.
    Geometric,
    /// Delays double up to maxDelayTarget (SNS's default).
    Exponential,
}

/// One effective retry policy, delays in seconds as SNS gives them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// minDelayTarget: seconds before the first backed-off retry.
    pub min_delay: u64,
    /// maxDelayTarget: the longest delay, in seconds.
    pub max_delay: u64,
    /// numRetries: retries in all, every phase counted.
    pub num_retries: u64,
    /// numNoDelayRetries: retries at once, first.
    pub no_delay: u64,
    /// numMinDelayRetries: retries at minDelayTarget, before the backoff phase.
    pub min_delay_retries: u64,
    /// numMaxDelayRetries: retries at maxDelayTarget, last.
    pub max_delay_retries: u64,
    /// backoffFunction: how delays grow between the targets.
    pub backoff: Backoff,
    /// throttlePolicy.maxReceivesPerSecond: the most POSTs started per second for one
    /// subscription; `None`, no throttling (SNS's default).
    pub max_per_second: Option<u64>,
}

/// SNS's default for HTTP/S: three retries, twenty seconds apart.
pub const DEFAULT: RetryPolicy = RetryPolicy {
    min_delay: 20,
    max_delay: 20,
    num_retries: 3,
    no_delay: 0,
    min_delay_retries: 0,
    max_delay_retries: 0,
    backoff: Backoff::Linear,
    max_per_second: None,
};

impl RetryPolicy {
    /// A `healthyRetryPolicy` object; missing members take the defaults.
    fn from_json(doc: &Value) -> Option<RetryPolicy> {
        let doc = doc.as_object()?;
        let num = |key: &str, default: u64| doc.get(key).and_then(Value::as_u64).unwrap_or(default);
        let backoff = match doc.get("backoffFunction").and_then(Value::as_str) {
            Some("arithmetic") => Backoff::Arithmetic,
            Some("geometric") => Backoff::Geometric,
            Some("exponential") => Backoff::Exponential,
            _ => Backoff::Linear,
        };
        let min_delay = num("minDelayTarget", DEFAULT.min_delay);
        Some(RetryPolicy {
            min_delay,
            max_delay: num("maxDelayTarget", DEFAULT.max_delay).max(min_delay),
            num_retries: num("numRetries", DEFAULT.num_retries).min(100),
            no_delay: num("numNoDelayRetries", 0),
            min_delay_retries: num("numMinDelayRetries", 0),
            max_delay_retries: num("numMaxDelayRetries", 0),
            backoff,
            max_per_second: None,
        })
    }

    /// The policy for one subscription from its topic's and its own DeliveryPolicy.
    pub fn effective(topic_policy: Option<&str>, subscription_policy: Option<&str>) -> Self {
        let parse = |text: Option<&str>| {
            text.and_then(|t| serde_json::from_str::<Value>(t).ok())
                .unwrap_or(Value::Null)
        };
        let topic = parse(topic_policy);
        let http = &topic["http"];
        let rate = |throttle: &Value| throttle["maxReceivesPerSecond"].as_u64().filter(|n| *n > 0);
        let mut retry = RetryPolicy::from_json(&http["defaultHealthyRetryPolicy"]);
        let mut max_per_second = rate(&http["defaultThrottlePolicy"]);
        if http["disableSubscriptionOverrides"] != Value::Bool(true) {
            let sub = parse(subscription_policy);
            retry = RetryPolicy::from_json(&sub["healthyRetryPolicy"]).or(retry);
            max_per_second = rate(&sub["throttlePolicy"]).or(max_per_second);
        }
        RetryPolicy {
            max_per_second,
            ..retry.unwrap_or(DEFAULT)
        }
    }

    /// How long after one POST of a throttled subscription the next may start, on the
    /// server's clock: an even spacing that never passes the rate in any second (sqslite's
    /// reading of maxReceivesPerSecond [unverified: SNS does not say how it paces]).
    pub fn spacing(&self) -> Option<Millis> {
        self.max_per_second.map(|n| 1000u64.div_ceil(n))
    }

    /// The wait before retry `n` (1 for the first retry), or `None` once the policy is spent.
    pub fn delay_before(&self, n: u64) -> Option<Millis> {
        if n == 0 || n > self.num_retries {
            return None;
        }
        let pre = self.no_delay + self.min_delay_retries;
        let backoff_count = self
            .num_retries
            .saturating_sub(pre + self.max_delay_retries);
        let seconds = if n <= self.no_delay {
            0.0
        } else if n <= pre {
            self.min_delay as f64
        } else if n <= pre + backoff_count {
            self.curve((n - pre) as f64 / backoff_count as f64)
        } else {
            self.max_delay as f64
        };
        Some((seconds * 1000.0).round() as Millis)
    }

    /// The delay at fraction `t` (0, 1] of the backoff phase.
    fn curve(&self, t: f64) -> f64 {
        let (min, max) = (self.min_delay as f64, self.max_delay as f64);
        let shape = match self.backoff {
            Backoff::Linear => t,
            Backoff::Arithmetic => t * t,
            Backoff::Geometric => t * t * t,
            Backoff::Exponential => (2f64.powf(8.0 * t) - 1.0) / 255.0,
        };
        min + (max - min) * shape
    }

    /// As GetSubscriptionAttributes' EffectiveDeliveryPolicy writes it.
    pub fn to_json(self) -> String {
        let backoff = match self.backoff {
            Backoff::Linear => "linear",
            Backoff::Arithmetic => "arithmetic",
            Backoff::Geometric => "geometric",
            Backoff::Exponential => "exponential",
        };
        serde_json::json!({
            "healthyRetryPolicy": {
                "minDelayTarget": self.min_delay,
                "maxDelayTarget": self.max_delay,
                "numRetries": self.num_retries,
                "numMaxDelayRetries": self.max_delay_retries,
                "numNoDelayRetries": self.no_delay,
                "numMinDelayRetries": self.min_delay_retries,
                "backoffFunction": backoff,
            },
            "sicklyRetryPolicy": null,
            "throttlePolicy": self
                .max_per_second
                .map(|n| serde_json::json!({ "maxReceivesPerSecond": n })),
            "guaranteed": false,
        })
        .to_string()
    }
}

/// The Content-Type of POSTs: the subscription's `requestPolicy.headerContentType`, else
/// the topic's `http.defaultRequestPolicy.headerContentType`, else SNS's default.
pub fn content_type(topic_policy: Option<&str>, subscription_policy: Option<&str>) -> String {
    let parse = |text: Option<&str>| {
        text.and_then(|t| serde_json::from_str::<Value>(t).ok())
            .unwrap_or(Value::Null)
    };
    let sub = parse(subscription_policy);
    let topic = parse(topic_policy);
    if let Some(chosen) = sub["requestPolicy"]["headerContentType"].as_str() {
        return chosen.to_owned();
    }
    topic["http"]["defaultRequestPolicy"]["headerContentType"]
        .as_str()
        .unwrap_or(DEFAULT_CONTENT_TYPE)
        .to_owned()
}

/// What SNS POSTs unless a request policy says otherwise.
pub const DEFAULT_CONTENT_TYPE: &str = "text/plain; charset=UTF-8";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_retries_three_times_twenty_seconds_apart() {
        let p = RetryPolicy::effective(None, None);
        let delays: Vec<_> = (1..=4).map(|n| p.delay_before(n)).collect();
        assert_eq!(delays, [Some(20_000), Some(20_000), Some(20_000), None]);
    }

    #[test]
    fn phases_follow_each_other() {
        let sub = r#"{"healthyRetryPolicy":{"minDelayTarget":1,"maxDelayTarget":9,"numRetries":6,"numNoDelayRetries":1,"numMinDelayRetries":1,"numMaxDelayRetries":1}}"#;
        let p = RetryPolicy::effective(None, Some(sub));
        let delays: Vec<_> = (1..=7).filter_map(|n| p.delay_before(n)).collect();
        assert_eq!(delays, [0, 1000, 3667, 6333, 9000, 9000]);
        let locked = r#"{"http":{"disableSubscriptionOverrides":true,"defaultHealthyRetryPolicy":{"numRetries":1}}}"#;
        assert_eq!(
            RetryPolicy::effective(Some(locked), Some(sub)).num_retries,
            1
        );
    }

    #[test]
    fn the_throttle_is_the_subscriptions_else_the_topics() {
        let topic = r#"{"http":{"defaultThrottlePolicy":{"maxReceivesPerSecond":4}}}"#;
        let sub = r#"{"throttlePolicy":{"maxReceivesPerSecond":3}}"#;
        assert_eq!(
            RetryPolicy::effective(Some(topic), None).spacing(),
            Some(250)
        );
        assert_eq!(
            RetryPolicy::effective(Some(topic), Some(sub)).spacing(),
            Some(334)
        );
        assert_eq!(RetryPolicy::effective(None, None).spacing(), None);
        let json = RetryPolicy::effective(None, Some(sub)).to_json();
        assert!(
            json.contains(r#""throttlePolicy":{"maxReceivesPerSecond":3}"#),
            "{json}"
        );
    }
}
