//! The five event-source-mapping operations on the triggers model: each takes its decoded
//! input, applies the rules ([`super::rules`]) and edits the mappings registry, answering
//! with Lambda's status (202 for the three that change a mapping, 200 for the reads).

use hyper::StatusCode;
use serde_json::Value;

use super::error::{LambdaError, LambdaResult};
use super::input::MappingRequest;
use super::output;
use super::route::{ListQuery, Operation};
use super::rules::{self, Caller};
use crate::triggers::mapping::{Mapping, State};
use crate::triggers::Service;

/// ListEventSourceMappings answers at most this many per page, whatever MaxItems says
/// (Lambda API reference, ListEventSourceMappings: "returns a maximum of 100 items").
const MAX_PAGE: usize = 100;
/// `MaxItems`' declared range.
const MAX_ITEMS: i64 = 10_000;

impl Operation {
    /// Runs the operation; its status and JSON body. What it acts on is resolved here, before
    /// it runs: a mapping named by UUID only when the caller owns it (another account's is
    /// not found, as on Lambda), so no operation can act on one unchecked; Create and List act
    /// in the caller's own account.
    pub fn apply(self, app: &Service, caller: &Caller<'_>) -> LambdaResult<(StatusCode, Value)> {
        match self {
            Operation::Create(input) => create(app, caller, &input),
            Operation::List(query) => list(app, caller, &query),
            Operation::Get(uuid) => Ok(get(&owned(app, caller, &uuid)?)),
            Operation::Update(uuid, input) => {
                update(app, caller, &owned(app, caller, &uuid)?, &input)
            }
            Operation::Delete(uuid) => delete(app, &owned(app, caller, &uuid)?),
        }
    }
}

/// CreateEventSourceMapping: a mapping checked with the same rules as declared ones.
fn create(
    app: &Service,
    caller: &Caller<'_>,
    input: &MappingRequest,
) -> LambdaResult<(StatusCode, Value)> {
    let proposed = rules::new_mapping(app, caller, input)?;
    let max = app.model.max_mappings;
    let mapping = rules::insert_unique(&app.model.mappings, proposed, max)?;
    Ok((
        StatusCode::ACCEPTED,
        output::configuration(&mapping, mapping.state),
    ))
}

/// The caller's mapping `uuid`; another account's is not found.
fn owned(app: &Service, caller: &Caller<'_>, uuid: &str) -> LambdaResult<Mapping> {
    app.model
        .mappings
        .get(uuid)
        .filter(|m| caller.owns(m))
        .ok_or_else(LambdaError::mapping_not_found)
}

/// GetEventSourceMapping: one mapping by UUID.
fn get(mapping: &Mapping) -> (StatusCode, Value) {
    (
        StatusCode::OK,
        output::configuration(mapping, mapping.state),
    )
}

/// ListEventSourceMappings: filtered by function and source, paged by Marker.
fn list(
    app: &Service,
    caller: &Caller<'_>,
    query: &ListQuery,
) -> LambdaResult<(StatusCode, Value)> {
    let max_items = match query.max_items.as_deref() {
        None => MAX_PAGE,
        Some(text) => page_size(text)?,
    };
    let function_arn = match query.function_name.as_deref() {
        None => None,
        Some(name) => Some(rules::listed_function(app, caller, name)?),
    };
    let wanted = |m: &Mapping| {
        caller.owns(m)
            && query
                .event_source_arn
                .as_deref()
                .is_none_or(|arn| m.event_source_arn == arn)
            && function_arn
                .as_deref()
                .is_none_or(|arn| m.function_arn == arn)
    };
    // The registry lists by UUID, so a marker (the next page's first UUID) resumes in order.
    let marker = query.marker.as_deref().unwrap_or_default();
    let mut rest = app
        .model
        .mappings
        .list()
        .into_iter()
        .filter(|m| m.uuid.as_str() >= marker && wanted(m));
    let page: Vec<Mapping> = rest.by_ref().take(max_items).collect();
    let next = rest.next().map(|m| m.uuid);
    Ok((StatusCode::OK, output::list(&page, next.as_deref())))
}

/// `MaxItems` as a page size: 1..=10000 by the API, at most [`MAX_PAGE`] by Lambda.
fn page_size(text: &str) -> LambdaResult<usize> {
    let value: i64 = text.parse().map_err(|_| {
        // The validator's words for a value that is no integer \[unverified\].
        LambdaError::validation(format!(
            "1 validation error detected: Value '{text}' at 'maxItems' failed to satisfy constraint: Member must be an integer"
        ))
    })?;
    rules::check_range("maxItems", value, 1, MAX_ITEMS)?;
    Ok(usize::try_from(value).map_or(MAX_PAGE, |v| v.min(MAX_PAGE)))
}

/// UpdateEventSourceMapping: the mapping with the request's changes, checked as a new one.
fn update(
    app: &Service,
    caller: &Caller<'_>,
    current: &Mapping,
    input: &MappingRequest,
) -> LambdaResult<(StatusCode, Value)> {
    let changed = rules::updated_mapping(app, caller, current, input)?;
    let mapping = rules::replace_unique(&app.model.mappings, changed)?;
    Ok((
        StatusCode::ACCEPTED,
        output::configuration(&mapping, mapping.state),
    ))
}

/// DeleteEventSourceMapping: the mapping goes at once; the answer shows it `Deleting`.
fn delete(app: &Service, mapping: &Mapping) -> LambdaResult<(StatusCode, Value)> {
    let removed = app
        .model
        .mappings
        .remove(&mapping.uuid)
        .ok_or_else(LambdaError::mapping_not_found)?;
    // Gone at once (its poller stops on the change); Lambda answers with the state it is
    // then in until its poller has stopped.
    Ok((
        StatusCode::ACCEPTED,
        output::configuration(&removed, State::Deleting),
    ))
}
