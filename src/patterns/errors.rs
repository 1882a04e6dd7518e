//! Why a filter policy was refused, in SNS's words (and Lambda's, where known).
//!
//! The reasons are the texts SNS puts after `FilterPolicy: `. Most were recorded from AWS
//! (LocalStack's AWS-validated snapshots `tests/aws/services/sns/test_sns_filter_policy.snapshot.json`,
//! recorded 2024-05); the rest follow the open-source matcher SNS's texts come from
//! (aws/event-ruler `JsonRuleCompiler`) and are marked `\[unverified\]` where they are raised.
//! AWS appends Jackson's position (`\n at [Source: (String)"…"; line: 1, column: N]`) to syntax
//! errors; sqslite leaves that suffix out \[unverified column arithmetic, SDKs ignore it\].

use std::borrow::Cow;
use std::fmt;

/// Which family of refusal; the SNS code is `InvalidParameter` (HTTP 400, Sender) for all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatternErrorKind {
    /// The text is not JSON at all.
    InvalidJson,
    /// JSON, but not a policy: an operator, value or shape the grammar refuses.
    Syntax,
    /// A nested object under the `MessageAttributes` scope.
    NestedInAttributes,
    /// More keys than the dialect allows (SNS: 5).
    TooManyKeys,
    /// More value combinations than the dialect allows (SNS: 150).
    TooComplex,
    /// The policy text is longer than the dialect allows (SNS: 256 KB, Lambda: 4096).
    TooLong,
    /// More patterns in one Lambda `FilterCriteria` than the quota (5).
    TooManyFilters,
}

/// Where an SNS policy arrived: the message's lead differs (recorded from AWS).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SnsVia {
    /// `Subscribe` with `Attributes.FilterPolicy`: "Invalid parameter: Attributes Reason: …".
    Subscribe,
    /// `SetSubscriptionAttributes` with `AttributeName=FilterPolicy`: "Invalid parameter: …".
    SetSubscriptionAttributes,
}

/// A refused filter policy: its kind and SNS's reason text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternError {
    kind: PatternErrorKind,
    reason: Cow<'static, str>,
}

/// Lambda's one message for any pattern it refuses, whatever the reason (recorded from AWS:
/// LocalStack's AWS-validated `test_sqs_invalid_event_filter` snapshots, 2024-10).
pub const LAMBDA_INVALID_PATTERN: &str = "Invalid filter pattern definition.";

impl PatternError {
    pub(crate) fn new(kind: PatternErrorKind, reason: impl Into<Cow<'static, str>>) -> Self {
        PatternError {
            kind,
            reason: reason.into(),
        }
    }

    pub(crate) fn syntax(reason: impl Into<Cow<'static, str>>) -> Self {
        PatternError::new(PatternErrorKind::Syntax, reason)
    }

    pub fn kind(&self) -> PatternErrorKind {
        self.kind
    }

    /// The matcher's own words, e.g. "Only one key allowed in match expression".
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// The full SNS message for this refusal, as the given operation words it.
    pub fn sns_message(&self, via: SnsVia) -> String {
        let lead = match via {
            SnsVia::Subscribe => "Invalid parameter: Attributes Reason: ",
            SnsVia::SetSubscriptionAttributes => "Invalid parameter: ",
        };
        // Recorded via SetSubscriptionAttributes without the `FilterPolicy: ` part; the
        // Subscribe form of this one is [unverified].
        if self.kind == PatternErrorKind::NestedInAttributes {
            return format!("{lead}{}", self.reason);
        }
        format!("{lead}FilterPolicy: {}", self.reason)
    }

    /// The message for a Lambda `CreateEventSourceMapping`/`UpdateEventSourceMapping`
    /// refusal: AWS's one text for a pattern it cannot use (the reason is left out, as AWS
    /// leaves it out); the limits keep their own words \[unverified\].
    pub fn lambda_message(&self) -> String {
        match self.kind {
            PatternErrorKind::TooManyFilters | PatternErrorKind::TooLong => self.reason.to_string(),
            _ => LAMBDA_INVALID_PATTERN.to_owned(),
        }
    }
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.sns_message(SnsVia::SetSubscriptionAttributes))
    }
}

impl std::error::Error for PatternError {}
