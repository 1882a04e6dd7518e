//! What CreateEventSourceMapping and UpdateEventSourceMapping check before a mapping is
//! stored, in Lambda's order and words: the request's shape (ranges, the ARN pattern),
//! then the function, the queue, the model's rules between settings and queue kind
//! ([`crate::triggers::mapping::Settings::validate`], the same code declared mappings go
//! through), the visibility timeout, and one mapping per queue and function.

use std::collections::BTreeMap;

use super::error::{LambdaError, LambdaErrorKind, LambdaResult};
use super::input::MappingRequest;
use crate::patterns::PatternErrorKind;
use crate::quota::Quota;
use crate::sqs::engine::queue::Queue;
use crate::triggers::functions::Function;
use crate::triggers::mapping::{
    self, Filters, FunctionResponseType, Mapping, RuleError, Settings, State,
    MAX_BATCHING_WINDOW_SECONDS, MAX_BATCH_SIZE_STANDARD, MAX_MAXIMUM_CONCURRENCY,
    MIN_MAXIMUM_CONCURRENCY, USER_INITIATED,
};
use crate::triggers::Mappings;
use crate::triggers::Service;

/// The region and account a request resolves function names and queue names in.
#[derive(Debug, Clone, Copy)]
pub struct Caller<'a> {
    /// The region of the request's credential scope, or the server's.
    pub region: &'a str,
    /// The account the request acts as.
    pub account: &'a str,
    /// The verified caller (credentials configured): a mapping's queue must let it read.
    pub principal: Option<&'a crate::http::auth::Principal>,
}

impl Caller<'_> {
    /// Whether the mapping belongs to the caller's account ([`Mapping::account`]). Another
    /// account's is as if absent.
    pub fn owns(&self, mapping: &Mapping) -> bool {
        mapping.account() == self.account
    }
}

/// `EventSourceArn`'s declared pattern, quoted as the request validator quotes it.
const ARN_PATTERN: &str =
    r"arn:(aws[a-zA-Z0-9-]*):([a-zA-Z0-9\-])+:([a-z]{2}(-gov)?-[a-z]+-\d{1})?:(\d{12})?:(.*)";

/// The mapping a CreateEventSourceMapping asks for, every rule checked.
pub fn new_mapping(
    app: &Service,
    caller: &Caller<'_>,
    input: &MappingRequest,
) -> LambdaResult<Mapping> {
    let function_name = input
        .function_name
        .as_deref()
        .ok_or_else(|| LambdaError::missing("functionName"))?;
    // LocalStack's words for a mapping without a source \[unverified\].
    let source = input
        .event_source_arn
        .as_deref()
        .ok_or_else(|| LambdaError::invalid("Unrecognized event source."))?;
    check_arn(source)?;
    input.not_for_sqs()?;
    let settings = settings(input, Settings::default())?;
    let function = function(app, caller, function_name)?;
    let queue = queue(app, source)?;
    may_read(app, caller, &queue)?;
    settings.validate(queue.fifo).map_err(from_rule)?;
    check_visibility(app, &queue, function)?;
    let enabled = input.enabled.unwrap_or(true);
    let mut mapping = Mapping::new(
        function.arn(caller.region, caller.account),
        queue.arn(),
        settings,
        enabled,
        app.now(),
    );
    // A mapping created disabled answers `Disabled` at once (recorded from AWS:
    // `test_fifo_message_group_parallelism`'s `create_esm_disabled`).
    if !enabled {
        mapping.state = State::Disabled;
    }
    Ok(mapping)
}

/// The mapping an UpdateEventSourceMapping turns `current` into, every rule checked.
pub fn updated_mapping(
    app: &Service,
    caller: &Caller<'_>,
    current: &Mapping,
    input: &MappingRequest,
) -> LambdaResult<Mapping> {
    if current.state.is_transitional() {
        // AWS's answer while a mapping is still Creating (quoted in the alr-helper notes).
        return Err(LambdaError::new(
            LambdaErrorKind::ResourceInUse,
            "Cannot update the event source mapping because it is in use.",
        ));
    }
    input.not_for_sqs()?;
    let settings = settings(input, current.settings.clone())?;
    let mut next = current.clone();
    let queue = app.sqs.registry.get_by_arn(&current.event_source_arn);
    if let Some(name) = input.function_name.as_deref() {
        let function = function(app, caller, name)?;
        if let Some(queue) = &queue {
            check_visibility(app, queue, function)?;
        }
        next.function_arn = function.arn(caller.region, caller.account);
    }
    // A queue deleted since still names its kind in its ARN (SQS's suffix is lower case).
    let fifo = queue.map_or_else(
        || {
            std::path::Path::new(&current.event_source_arn)
                .extension()
                .is_some_and(|e| e == "fifo")
        },
        |q| q.fifo,
    );
    settings.validate(fifo).map_err(from_rule)?;
    next.settings = settings;
    next.enabled = input.enabled.unwrap_or(current.enabled);
    next.state = match (current.enabled, next.enabled) {
        (false, true) => State::Enabling,
        (true, false) => State::Disabling,
        _ => State::Updating,
    };
    USER_INITIATED.clone_into(&mut next.state_transition_reason);
    next.last_modified = app.now();
    Ok(next)
}

/// The function a ListEventSourceMappings `FunctionName` names, as its ARN; an unknown one
/// is Lambda's not-found error for a function \[unverified for this operation\].
pub fn listed_function(app: &Service, caller: &Caller<'_>, name: &str) -> LambdaResult<String> {
    if let Some(function) = app
        .model
        .functions
        .resolve(name, caller.region, caller.account)
    {
        return Ok(function.arn(caller.region, caller.account));
    }
    let arn = if name.starts_with("arn:") {
        name.to_owned()
    } else {
        format!(
            "arn:aws:lambda:{}:{}:function:{name}",
            caller.region, caller.account
        )
    };
    Err(LambdaError::new(
        LambdaErrorKind::ResourceNotFound,
        format!("Function not found: {arn}"),
    ))
}

/// Adds `mapping` unless its queue already has a mapping to the same function, or the server
/// or the mapping's account holds as many as `max` allows.
pub fn insert_unique(mappings: &Mappings, mapping: Mapping, max: Quota) -> LambdaResult<Mapping> {
    mappings.transact(|all| {
        let mine = || {
            all.values()
                .filter(|m| m.account() == mapping.account())
                .count()
        };
        max.admit(all.len(), mine).map_err(|over| {
            // [unverified] Lambda documents no such quota; the bound and its words are sqslite's.
            let words = over.message(
                "event source mappings",
                "max_event_source_mappings",
                "delete mappings",
            );
            LambdaError::invalid(words)
        })?;
        check_unique(all, &mapping)?;
        all.insert(mapping.clone());
        Ok(mapping)
    })
}

/// Replaces a mapping by its changed self, unless it was removed meanwhile or now
/// duplicates another.
pub fn replace_unique(mappings: &Mappings, mapping: Mapping) -> LambdaResult<Mapping> {
    mappings.transact(|all| {
        if !all.contains_key(&mapping.uuid) {
            return Err(LambdaError::mapping_not_found());
        }
        check_unique(all, &mapping)?;
        all.insert(mapping.clone());
        Ok(mapping)
    })
}

/// Lambda's refusal of a second mapping of one queue to one function (recorded from AWS:
/// `test_duplicate_event_source_mappings`; the function is named without its ARN).
fn check_unique(all: &BTreeMap<String, Mapping>, mapping: &Mapping) -> LambdaResult<()> {
    let existing = all.values().find(|m| {
        m.uuid != mapping.uuid
            && m.event_source_arn == mapping.event_source_arn
            && m.function_arn == mapping.function_arn
    });
    match existing {
        None => Ok(()),
        Some(m) => Err(LambdaError::new(
            LambdaErrorKind::ResourceConflict,
            format!(
                "An event source mapping with SQS arn (\" {} \") and function (\" {} \") already exists. Please update or delete the existing mapping with UUID {}",
                m.event_source_arn,
                m.function_name(),
                m.uuid
            ),
        )),
    }
}

/// The settings `input` asks for on top of `base` (Lambda's defaults, or the mapping's
/// current settings for an update): each range checked before the rules between them.
fn settings(input: &MappingRequest, mut base: Settings) -> LambdaResult<Settings> {
    if let Some(size) = input.batch_size {
        base.batch_size = in_range("batchSize", size, 1, MAX_BATCH_SIZE_STANDARD)?;
    }
    if let Some(window) = input.maximum_batching_window_in_seconds {
        base.maximum_batching_window_seconds = in_range(
            "maximumBatchingWindowInSeconds",
            window,
            0,
            MAX_BATCHING_WINDOW_SECONDS,
        )?;
    }
    if let Some(scaling) = &input.scaling_config {
        // `{}` removes the cap (Lambda API reference, ScalingConfig).
        base.maximum_concurrency = match scaling.maximum_concurrency {
            None => None,
            Some(max) => Some(in_range(
                "scalingConfig.maximumConcurrency",
                max,
                MIN_MAXIMUM_CONCURRENCY,
                MAX_MAXIMUM_CONCURRENCY,
            )?),
        };
    }
    if let Some(types) = &input.function_response_types {
        base.function_response_types = response_types(types)?;
    }
    if let Some(patterns) = input.patterns()? {
        base.filters = Filters::parse(patterns).map_err(|e| match e.kind() {
            PatternErrorKind::TooLong => LambdaError::validation(e.lambda_message()),
            _ => LambdaError::invalid(e.lambda_message()),
        })?;
    }
    Ok(base)
}

/// `value` as the model's `u32`, after the API's range check (in the validator's words).
fn in_range(field: &str, value: i64, min: u32, max: u32) -> LambdaResult<u32> {
    check_range(field, value, i64::from(min), i64::from(max))?;
    u32::try_from(value).map_err(|_| LambdaError::validation(field.to_owned()))
}

/// The API's range check for one integer member, worded by the model
/// (`mapping::check_range`).
pub fn check_range(field: &str, value: i64, min: i64, max: i64) -> LambdaResult<()> {
    mapping::check_range(field, value, min, max).map_err(from_rule)
}

/// `FunctionResponseTypes`: at most one member, `ReportBatchItemFailures` (the list's
/// declared length and enum; the validator's wording for a list \[unverified\]).
fn response_types(types: &[String]) -> LambdaResult<Vec<FunctionResponseType>> {
    let shown = || format!("[{}]", types.join(", "));
    let parsed: Option<Vec<_>> = types
        .iter()
        .map(|t| FunctionResponseType::parse(t))
        .collect();
    let Some(parsed) = parsed else {
        return Err(LambdaError::validation(format!(
            "1 validation error detected: Value '{}' at 'functionResponseTypes' failed to satisfy constraint: Member must satisfy constraint: [Member must satisfy enum value set: [ReportBatchItemFailures]]",
            shown()
        )));
    };
    if parsed.len() > 1 {
        return Err(LambdaError::validation(format!(
            "1 validation error detected: Value '{}' at 'functionResponseTypes' failed to satisfy constraint: Member must have length less than or equal to 1",
            shown()
        )));
    }
    Ok(parsed)
}

/// The Lambda error for a model rule's refusal.
fn from_rule(err: RuleError) -> LambdaError {
    match err {
        RuleError::Validation(m) => LambdaError::validation(m),
        RuleError::InvalidParameterValue(m) => LambdaError::invalid(m),
    }
}

/// The declared function `name` names (its name, ARN or partial ARN). An unknown one is
/// refused as AWS refuses it (quoted from AWS in hashicorp/terraform-provider-aws#17933:
/// `InvalidParameterValueException: Function does not exist`, HTTP 400, Type User).
fn function<'a>(app: &'a Service, caller: &Caller<'_>, name: &str) -> LambdaResult<&'a Function> {
    app.model
        .functions
        .resolve(name, caller.region, caller.account)
        .ok_or_else(|| LambdaError::invalid("Function does not exist"))
}

/// The queue an SQS ARN names. A queue that does not exist gets the answer AWS gives when
/// it cannot receive from the queue (quoted in aws/chalice#1388 for a queue ARN naming no
/// queue); a source of another service is one sqslite does not serve.
fn queue(app: &Service, arn: &str) -> LambdaResult<std::sync::Arc<Queue>> {
    if arn.split(':').nth(2) != Some("sqs") {
        return Err(LambdaError::invalid(format!(
            "sqslite serves SQS event sources only; {arn} is not an SQS queue ARN."
        )));
    }
    app.sqs.registry.get_by_arn(arn).ok_or_else(|| {
        LambdaError::invalid(
            "The provided execution role does not have permissions to call ReceiveMessage on SQS",
        )
    })
}

/// A mapping reads, deletes and inspects its queue as its account, as a Lambda execution role
/// needs `sqs:ReceiveMessage`, `sqs:DeleteMessage` and `sqs:GetQueueAttributes`: the queue's
/// Policy must allow the verified caller all three, in Lambda's words for a role that lacks
/// one (quoted in aws/chalice#1388).
fn may_read(app: &Service, caller: &Caller<'_>, queue: &Queue) -> LambdaResult<()> {
    let Some(principal) = caller.principal else {
        return Ok(());
    };
    for operation in ["ReceiveMessage", "DeleteMessage", "GetQueueAttributes"] {
        if crate::sqs::actions::admits(&app.sqs, queue, principal, operation, (None, None)).is_err()
        {
            return Err(LambdaError::invalid(format!(
                "The provided execution role does not have permissions to call {operation} on SQS"
            )));
        }
    }
    Ok(())
}

/// The model's visibility rule ([`mapping::check_visibility`]); Lambda's default timeout
/// (3 s) stands where the declaration names none.
fn check_visibility(app: &Service, queue: &Queue, function: &Function) -> LambdaResult<()> {
    let visibility = queue
        .lock_settled(app.now())
        .attributes()
        .visibility_timeout;
    mapping::check_visibility(visibility, function.timeout).map_err(from_rule)
}

/// `EventSourceArn` against its declared pattern (the request validator's check, before
/// any other).
fn check_arn(arn: &str) -> LambdaResult<()> {
    if arn_matches(arn) {
        return Ok(());
    }
    Err(LambdaError::validation(format!(
        "1 validation error detected: Value '{arn}' at 'eventSourceArn' failed to satisfy constraint: Member must satisfy regular expression pattern: {ARN_PATTERN}"
    )))
}

/// Whether `arn` has the shape Lambda's eventSourceArn pattern allows.
fn arn_matches(arn: &str) -> bool {
    let word = |s: &str| s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    let parts: Vec<&str> = arn.splitn(6, ':').collect();
    let [prefix, partition, service, region, account, _rest] = parts.as_slice() else {
        return false;
    };
    *prefix == "arn"
        && partition.starts_with("aws")
        && word(partition)
        && !service.is_empty()
        && word(service)
        && (region.is_empty() || region_matches(region))
        && (account.is_empty()
            || (account.len() == 12 && account.bytes().all(|b| b.is_ascii_digit())))
}

/// `[a-z]{2}(-gov)?-[a-z]+-\d{1}`.
fn region_matches(region: &str) -> bool {
    let lower = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_lowercase());
    let parts: Vec<&str> = region.split('-').collect();
    let (head, word, digit) = match parts.as_slice() {
        [head, word, digit] | [head, "gov", word, digit] => (*head, *word, *digit),
        _ => return false,
    };
    head.len() == 2
        && lower(head)
        && lower(word)
        && digit.len() == 1
        && digit.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
#[path = "rules_unit_tests.rs"]
mod tests;
