//! An event source mapping: what Lambda's `EventSourceMappingConfiguration` holds for an SQS
//! source, and the rules its settings must keep (shared by `sqslite.toml` and the Lambda API).

use crate::clock::Millis;
use crate::patterns::limits::LAMBDA_DEFAULT_MAX_FILTERS;
use crate::patterns::FilterCriteria;

/// Lambda's default `BatchSize` for SQS.
pub const DEFAULT_BATCH_SIZE: u32 = 10;
/// The largest `BatchSize` of a standard queue's mapping.
pub const MAX_BATCH_SIZE_STANDARD: u32 = 10_000;
/// The largest `BatchSize` of a FIFO queue's mapping.
pub const MAX_BATCH_SIZE_FIFO: u32 = 10;
/// Above this `BatchSize` a mapping needs a batching window of at least one second.
pub const MAX_BATCH_SIZE_WITHOUT_WINDOW: u32 = 10;
/// The longest `MaximumBatchingWindowInSeconds`.
pub const MAX_BATCHING_WINDOW_SECONDS: u32 = 300;
/// `ScalingConfig.MaximumConcurrency` bounds.
pub const MIN_MAXIMUM_CONCURRENCY: u32 = 2;
/// See [`MIN_MAXIMUM_CONCURRENCY`].
pub const MAX_MAXIMUM_CONCURRENCY: u32 = 1000;
/// `StateTransitionReason` of every state change a user asked for (Lambda's word for SQS
/// sources, as LocalStack records it \[unverified against AWS\]).
pub const USER_INITIATED: &str = "USER_INITIATED";

/// A mapping's `State`. Transitional states (`Creating`, `Enabling`, `Updating`,
/// `Disabling`, `Deleting`) are settled by the runtime once its poller has caught up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum State {
    Creating,
    Enabling,
    Enabled,
    Disabling,
    Disabled,
    Updating,
    Deleting,
}

impl State {
    /// Lambda's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            State::Creating => "Creating",
            State::Enabling => "Enabling",
            State::Enabled => "Enabled",
            State::Disabling => "Disabling",
            State::Disabled => "Disabled",
            State::Updating => "Updating",
            State::Deleting => "Deleting",
        }
    }

    /// Whether the runtime still has to act on this state.
    pub fn is_transitional(self) -> bool {
        !matches!(self, State::Enabled | State::Disabled)
    }
}

/// `FunctionResponseTypes`: the only value Lambda defines for SQS.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FunctionResponseType {
    /// The function may answer `{"batchItemFailures": [...]}` (partial batch response).
    ReportBatchItemFailures,
}

impl FunctionResponseType {
    /// Lambda's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            FunctionResponseType::ReportBatchItemFailures => "ReportBatchItemFailures",
        }
    }

    /// The value for Lambda's spelling; `None` for anything else.
    pub fn parse(text: &str) -> Option<Self> {
        (text == "ReportBatchItemFailures").then_some(FunctionResponseType::ReportBatchItemFailures)
    }
}

/// `FilterCriteria`: the pattern texts as given (rendered back by the API) and their parse.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Filters {
    patterns: Vec<String>,
    criteria: FilterCriteria,
}

impl Filters {
    /// Parses each pattern with the Lambda dialect; at most Lambda's default quota of five.
    pub fn parse(patterns: Vec<String>) -> Result<Filters, crate::patterns::PatternError> {
        let criteria = FilterCriteria::parse(
            patterns.iter().map(String::as_str),
            LAMBDA_DEFAULT_MAX_FILTERS,
        )?;
        Ok(Filters { patterns, criteria })
    }

    /// The pattern texts, in the order given.
    pub fn patterns(&self) -> &[String] {
        &self.patterns
    }

    /// The parsed criteria the poller matches each record against.
    pub fn criteria(&self) -> &FilterCriteria {
        &self.criteria
    }

    /// No patterns: every message is delivered.
    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }
}

/// The settings a user chooses (CreateEventSourceMapping's and UpdateEventSourceMapping's
/// SQS parameters), with Lambda's defaults.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// `BatchSize`: the most records in one event.
    pub batch_size: u32,
    /// `MaximumBatchingWindowInSeconds`: how long to gather records before invoking.
    pub maximum_batching_window_seconds: u32,
    /// `FunctionResponseTypes`.
    pub function_response_types: Vec<FunctionResponseType>,
    /// `ScalingConfig.MaximumConcurrency`; `None`: no cap beyond the function's own.
    pub maximum_concurrency: Option<u32>,
    /// `FilterCriteria`; empty: no filtering.
    pub filters: Filters,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            batch_size: DEFAULT_BATCH_SIZE,
            maximum_batching_window_seconds: 0,
            function_response_types: Vec::new(),
            maximum_concurrency: None,
            filters: Filters::default(),
        }
    }
}

impl Settings {
    /// Whether the function may report partial batch failures.
    pub fn reports_batch_item_failures(&self) -> bool {
        self.function_response_types
            .contains(&FunctionResponseType::ReportBatchItemFailures)
    }

    /// The model's rules for a queue that is FIFO or not: the API's ranges
    /// ([`RuleError::Validation`]) first, then the rules between settings and queue kind.
    pub fn validate(&self, fifo: bool) -> Result<(), RuleError> {
        check_range("batchSize", self.batch_size, 1, MAX_BATCH_SIZE_STANDARD)?;
        check_range(
            "maximumBatchingWindowInSeconds",
            self.maximum_batching_window_seconds,
            0,
            MAX_BATCHING_WINDOW_SECONDS,
        )?;
        if let Some(max) = self.maximum_concurrency {
            check_range(
                "scalingConfig.maximumConcurrency",
                max,
                MIN_MAXIMUM_CONCURRENCY,
                MAX_MAXIMUM_CONCURRENCY,
            )?;
        }
        if fifo && self.maximum_batching_window_seconds > 0 {
            // "Batching window is not supported for FIFO queues" (Lambda guide,
            // services-sqs-parameters); the API's exact text \[unverified\].
            return Err(RuleError::invalid(
                "Batching window is not supported for FIFO queues",
            ));
        }
        if fifo && self.batch_size > MAX_BATCH_SIZE_FIFO {
            // The maximum is from the Lambda guide; the API's text \[unverified\].
            return Err(RuleError::invalid(format!(
                "Batch size must not exceed {MAX_BATCH_SIZE_FIFO} for FIFO queues"
            )));
        }
        if self.batch_size > MAX_BATCH_SIZE_WITHOUT_WINDOW
            && self.maximum_batching_window_seconds == 0
        {
            // Lambda's text, as Terraform and CloudFormation users have quoted it.
            return Err(RuleError::invalid(
                "Maximum batch window in seconds must be greater than 0 if maximum batch size is greater than 10",
            ));
        }
        Ok(())
    }
}

/// Lambda's range check, worded as its request validation words it ("1 validation error
/// detected: Value '0' at 'batchSize' failed to satisfy constraint: …").
/// The Lambda API checks its request members (some wider than `u32`) the same way.
pub(crate) fn check_range(
    field: &str,
    value: impl Into<i64>,
    min: impl Into<i64>,
    max: impl Into<i64>,
) -> Result<(), RuleError> {
    let (value, min, max) = (value.into(), min.into(), max.into());
    let bound = if value < min {
        format!("greater than or equal to {min}")
    } else if value > max {
        format!("less than or equal to {max}")
    } else {
        return Ok(());
    };
    Err(RuleError::Validation(format!(
        "1 validation error detected: Value '{value}' at '{field}' failed to satisfy constraint: Member must have value {bound}"
    )))
}

/// Lambda refuses a mapping whose queue hides a received message for less time than the
/// function may run (quoted from AWS in github-aws-runners/terraform-aws-github-runner#465).
pub fn check_visibility(
    visibility_timeout: u32,
    function_timeout: std::time::Duration,
) -> Result<(), RuleError> {
    let timeout = function_timeout.as_secs();
    if u64::from(visibility_timeout) >= timeout {
        return Ok(());
    }
    Err(RuleError::invalid(format!(
        "Queue visibility timeout: {visibility_timeout} seconds is less than Function timeout: {timeout} seconds"
    )))
}

/// A setting the model refuses, with the Lambda error it maps to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuleError {
    /// `ValidationException` (HTTP 400): a value outside its API range.
    Validation(String),
    /// `InvalidParameterValueException` (HTTP 400): a rule between settings.
    InvalidParameterValue(String),
}

impl RuleError {
    fn invalid(message: impl Into<String>) -> Self {
        RuleError::InvalidParameterValue(message.into())
    }

    /// Lambda's error code (`__type`).
    pub fn code(&self) -> &'static str {
        match self {
            RuleError::Validation(_) => "ValidationException",
            RuleError::InvalidParameterValue(_) => "InvalidParameterValueException",
        }
    }

    /// Lambda's message.
    pub fn message(&self) -> &str {
        match self {
            RuleError::Validation(m) | RuleError::InvalidParameterValue(m) => m,
        }
    }
}

impl std::fmt::Display for RuleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code(), self.message())
    }
}

impl std::error::Error for RuleError {}

/// One event source mapping (`EventSourceMappingConfiguration`).
#[derive(Debug, Clone, PartialEq)]
pub struct Mapping {
    /// `UUID`: the mapping's identifier.
    pub uuid: String,
    /// `FunctionArn`: the declared function invoked (unqualified ARN).
    pub function_arn: String,
    /// `EventSourceArn`: the queue polled.
    pub event_source_arn: String,
    /// What the user chose.
    pub settings: Settings,
    /// Whether the user wants it polling (`Enabled`); `state` follows once settled.
    pub enabled: bool,
    /// `State`.
    pub state: State,
    /// `StateTransitionReason`.
    pub state_transition_reason: String,
    /// `LastModified`, from the server's clock.
    pub last_modified: Millis,
}

impl Mapping {
    /// The account the mapping belongs to: its function ARN's, which a mapping takes from
    /// its creator.
    pub fn account(&self) -> &str {
        self.function_arn.split(':').nth(4).unwrap_or_default()
    }

    /// A new mapping in state `Creating` (as CreateEventSourceMapping answers), with a fresh
    /// UUID; the runtime settles it to `Enabled` or `Disabled`.
    pub fn new(
        function_arn: String,
        event_source_arn: String,
        settings: Settings,
        enabled: bool,
        now: Millis,
    ) -> Mapping {
        Mapping {
            uuid: uuid::Uuid::new_v4().to_string(),
            function_arn,
            event_source_arn,
            settings,
            enabled,
            state: State::Creating,
            state_transition_reason: USER_INITIATED.to_owned(),
            last_modified: now,
        }
    }

    /// The settled state for `enabled`.
    pub fn settled_state(&self) -> State {
        if self.enabled {
            State::Enabled
        } else {
            State::Disabled
        }
    }

    /// The function's name: the last part of its ARN.
    pub fn function_name(&self) -> &str {
        self.function_arn
            .rsplit(':')
            .next()
            .unwrap_or(&self.function_arn)
    }
}

#[cfg(test)]
#[path = "mapping_tests.rs"]
mod tests;
