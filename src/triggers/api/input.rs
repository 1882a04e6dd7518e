//! The JSON bodies of CreateEventSourceMapping and UpdateEventSourceMapping, decoded once
//! into typed requests. Members Lambda defines for other event sources (streams, Kafka, MQ,
//! DocumentDB) are collected aside so the SQS rules can refuse them by name.

use serde::Deserialize;
use serde_json::{Map, Value};

use super::error::{LambdaError, LambdaErrorKind, LambdaResult};

/// `FilterCriteria`: `{"Filters": [{"Pattern": "..."}]}`.
#[derive(Debug, Clone, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "PascalCase")]
pub struct FilterCriteriaIn {
    /// The filters; absent or empty removes filtering (on update).
    #[serde(default)]
    pub filters: Vec<FilterIn>,
}

/// One `Filter`.
#[derive(Debug, Clone, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "PascalCase")]
pub struct FilterIn {
    /// The event pattern text; Lambda refuses a filter without one.
    pub pattern: Option<String>,
}

/// `ScalingConfig`: `{}` removes the concurrency cap.
#[derive(Debug, Clone, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "PascalCase")]
pub struct ScalingConfigIn {
    /// `MaximumConcurrency`, checked against 2..=1000 by the model.
    pub maximum_concurrency: Option<i64>,
}

/// The members both operations take for an SQS source; every one optional, so an update
/// changes only what it names (CreateEventSourceMapping's defaults are Lambda's).
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct MappingRequest {
    /// A declared function's name, ARN or partial ARN.
    pub function_name: Option<String>,
    /// The queue's ARN (CreateEventSourceMapping only; an update cannot move a mapping).
    pub event_source_arn: Option<String>,
    /// Whether the mapping polls; Lambda's default is true.
    pub enabled: Option<bool>,
    /// `BatchSize`; wider than Lambda's integer so out-of-range values get its range error.
    pub batch_size: Option<i64>,
    /// `MaximumBatchingWindowInSeconds`.
    pub maximum_batching_window_in_seconds: Option<i64>,
    /// `FilterCriteria`.
    pub filter_criteria: Option<FilterCriteriaIn>,
    /// `FunctionResponseTypes`: `ReportBatchItemFailures` or none.
    pub function_response_types: Option<Vec<String>>,
    /// `ScalingConfig`.
    pub scaling_config: Option<ScalingConfigIn>,
    /// Every other member, by name (see [`MappingRequest::not_for_sqs`]).
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

/// Members of other event sources' mappings. `StartingPosition`'s refusal is recorded
/// from AWS ("StartingPosition is not valid for SQS event sources.", LocalStack's
/// AWS-validated `test_create_starting_position_validation_exceptions[sqs]`); the others
/// use the same words \[unverified\].
const NOT_FOR_SQS: &[&str] = &[
    "StartingPosition",
    "StartingPositionTimestamp",
    "ParallelizationFactor",
    "BisectBatchOnFunctionError",
    "MaximumRetryAttempts",
    "MaximumRecordAgeInSeconds",
    "TumblingWindowInSeconds",
    "DestinationConfig",
    "Topics",
    "Queues",
    "SourceAccessConfigurations",
    "SelfManagedEventSource",
    "SelfManagedKafkaEventSourceConfig",
    "AmazonManagedKafkaEventSourceConfig",
    "DocumentDBEventSourceConfig",
];

impl MappingRequest {
    /// Decodes a request body; an empty body is an empty request.
    pub fn decode(body: &[u8]) -> LambdaResult<MappingRequest> {
        if body.iter().all(u8::is_ascii_whitespace) {
            return Ok(MappingRequest::default());
        }
        // Lambda's wording for a body it cannot read \[unverified beyond its first words\].
        serde_json::from_slice(body).map_err(|e| {
            LambdaError::new(
                LambdaErrorKind::InvalidRequestContent,
                format!("Could not parse request body into json: {e}"),
            )
        })
    }

    /// The first member that only other event sources take, refused for an SQS queue.
    pub fn not_for_sqs(&self) -> LambdaResult<()> {
        let named = NOT_FOR_SQS
            .iter()
            .find(|m| self.other.get(**m).is_some_and(|v| !v.is_null()));
        match named {
            Some(member) => Err(LambdaError::invalid(format!(
                "{member} is not valid for SQS event sources."
            ))),
            None => Ok(()),
        }
    }

    /// The filter patterns, or `None` when `FilterCriteria` is absent. A filter without a
    /// pattern is refused as Lambda refuses it (recorded: `test_sqs_invalid_event_filter`).
    pub fn patterns(&self) -> LambdaResult<Option<Vec<String>>> {
        let Some(criteria) = &self.filter_criteria else {
            return Ok(None);
        };
        criteria
            .filters
            .iter()
            .map(|f| {
                f.pattern
                    .clone()
                    .filter(|p| !p.is_empty())
                    .ok_or_else(invalid_pattern)
            })
            .collect::<LambdaResult<Vec<_>>>()
            .map(Some)
    }
}

/// Lambda's one answer to any pattern it refuses, a missing one included.
pub fn invalid_pattern() -> LambdaError {
    LambdaError::invalid(crate::patterns::errors::LAMBDA_INVALID_PATTERN)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_members_and_keeps_the_rest_aside() {
        let r = MappingRequest::decode(
            br#"{"FunctionName":"f","BatchSize":5,"FilterCriteria":{"Filters":[{"Pattern":"{}"}]},"StartingPosition":"LATEST"}"#,
        )
        .unwrap();
        assert_eq!(
            (r.function_name.as_deref(), r.batch_size),
            (Some("f"), Some(5))
        );
        assert_eq!(r.patterns().unwrap(), Some(vec!["{}".to_owned()]));
        assert_eq!(
            r.not_for_sqs().unwrap_err().message,
            "StartingPosition is not valid for SQS event sources."
        );
        assert!(MappingRequest::decode(b"").unwrap().function_name.is_none());
    }

    #[test]
    fn refuses_unreadable_bodies_and_patternless_filters() {
        let err = MappingRequest::decode(b"{nope").unwrap_err();
        assert_eq!(err.code(), "InvalidRequestContentException");
        let r = MappingRequest::decode(br#"{"FilterCriteria":{"Filters":[{}]}}"#).unwrap();
        assert_eq!(
            r.patterns().unwrap_err().message,
            "Invalid filter pattern definition."
        );
        let r = MappingRequest::decode(br#"{"FilterCriteria":{}}"#).unwrap();
        assert_eq!(r.patterns().unwrap(), Some(vec![]));
    }
}
