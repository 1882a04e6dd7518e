//! `EventSourceMappingConfiguration` as Lambda renders it for an SQS source (members as AWS
//! answered them in LocalStack's AWS-validated SQS snapshots, 2024-10: `FunctionResponseTypes`
//! always present, `FilterCriteria` and `ScalingConfig` only when set, `LastModified` in epoch
//! seconds), and ListEventSourceMappings' page.

use serde_json::{json, Map, Value};

use crate::triggers::mapping::{Mapping, State};

/// One mapping in Lambda's shape, showing `state` (an operation answers with the state it
/// moved the mapping into, e.g. `Deleting` for a mapping already gone).
pub fn configuration(mapping: &Mapping, state: State) -> Value {
    let settings = &mapping.settings;
    let mut out = Map::new();
    out.insert("UUID".into(), mapping.uuid.clone().into());
    out.insert("BatchSize".into(), settings.batch_size.into());
    out.insert(
        "MaximumBatchingWindowInSeconds".into(),
        settings.maximum_batching_window_seconds.into(),
    );
    out.insert(
        "EventSourceArn".into(),
        mapping.event_source_arn.clone().into(),
    );
    if !settings.filters.is_empty() {
        let filters: Vec<Value> = settings
            .filters
            .patterns()
            .iter()
            .map(|p| json!({ "Pattern": p }))
            .collect();
        out.insert("FilterCriteria".into(), json!({ "Filters": filters }));
    }
    out.insert("FunctionArn".into(), mapping.function_arn.clone().into());
    out.insert(
        "LastModified".into(),
        (mapping.last_modified as f64 / 1000.0).into(),
    );
    out.insert("State".into(), state.as_str().into());
    out.insert(
        "StateTransitionReason".into(),
        mapping.state_transition_reason.clone().into(),
    );
    let types: Vec<Value> = settings
        .function_response_types
        .iter()
        .map(|t| t.as_str().into())
        .collect();
    out.insert("FunctionResponseTypes".into(), types.into());
    if let Some(max) = settings.maximum_concurrency {
        out.insert("ScalingConfig".into(), json!({ "MaximumConcurrency": max }));
    }
    out.insert("EventSourceMappingArn".into(), mapping_arn(mapping).into());
    Value::Object(out)
}

/// `arn:aws:lambda:REGION:ACCOUNT:event-source-mapping:UUID`, in the function's region and
/// account (a mapping lives beside its function).
pub fn mapping_arn(mapping: &Mapping) -> String {
    let base = mapping
        .function_arn
        .split_once(":function:")
        .map_or("arn:aws:lambda::", |(base, _)| base);
    format!("{base}:event-source-mapping:{}", mapping.uuid)
}

/// ListEventSourceMappings' answer: the page and, when more follow, `NextMarker`.
pub fn list(page: &[Mapping], next_marker: Option<&str>) -> Value {
    let mappings: Vec<Value> = page.iter().map(|m| configuration(m, m.state)).collect();
    let mut out = Map::new();
    out.insert("EventSourceMappings".into(), mappings.into());
    if let Some(marker) = next_marker {
        out.insert("NextMarker".into(), marker.into());
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::triggers::mapping::Settings;

    #[test]
    fn renders_lambdas_members() {
        let mapping = Mapping::new(
            "arn:aws:lambda:us-east-1:000000000000:function:orders".into(),
            "arn:aws:sqs:us-east-1:000000000000:orders".into(),
            Settings::default(),
            true,
            1_700_000_000_250,
        );
        let out = configuration(&mapping, State::Creating);
        assert_eq!(out["State"], "Creating");
        assert_eq!(out["BatchSize"], 10);
        assert_eq!(out["FunctionResponseTypes"], json!([]));
        assert_eq!(out["LastModified"], 1_700_000_000.25);
        assert_eq!(out["StateTransitionReason"], "USER_INITIATED");
        assert!(out.get("FilterCriteria").is_none() && out.get("ScalingConfig").is_none());
        assert_eq!(
            out["EventSourceMappingArn"],
            format!(
                "arn:aws:lambda:us-east-1:000000000000:event-source-mapping:{}",
                mapping.uuid
            )
        );
    }
}
