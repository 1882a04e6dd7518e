//! The byte form of the event source mappings' records ([`MappingRecord`]) in the same log
//! and snapshots as SQS's and SNS's: one tag byte from a range of its own
//! ([`MAPPING_TAGS`], above SNS's [`super::sns_codec::SNS_TAGS`] and SQS's below 32), then
//! the fields in `wire`'s form. A directory written before mappings were durable holds
//! none of these tags, so it reads as it always did; a build older than these records takes
//! them for SNS's and refuses the directory at start ("unknown SNS record type 64") rather
//! than lose them.

use std::ops::RangeInclusive;

use super::wire::{R, W};
use crate::triggers::journal::MappingRecord;
use crate::triggers::mapping::{Filters, FunctionResponseType, Mapping, Settings, State};

/// The tags the mappings' records may use.
pub const MAPPING_TAGS: RangeInclusive<u8> = 64..=95;

const MAPPING: u8 = 64;
const MAPPING_DELETED: u8 = 65;
const MAPPINGS_CLEARED: u8 = 66;

const STATES: [State; 7] = [
    State::Creating,
    State::Enabling,
    State::Enabled,
    State::Disabling,
    State::Disabled,
    State::Updating,
    State::Deleting,
];

/// Whether the record is one of the mappings' (its tag is in their range).
pub fn is_mapping(bytes: &[u8]) -> bool {
    bytes.first().is_some_and(|tag| MAPPING_TAGS.contains(tag))
}

/// Appends the bytes of `r` to `out`.
pub fn encode(r: &MappingRecord, out: &mut Vec<u8>) {
    let mut w = W(out);
    match r {
        MappingRecord::Mapping(m) => {
            w.u8(MAPPING);
            for field in [&m.uuid, &m.function_arn, &m.event_source_arn] {
                w.str(field);
            }
            settings(&mut w, &m.settings);
            w.u8(u8::from(m.enabled));
            w.u8(STATES.iter().position(|s| *s == m.state).unwrap_or(0) as u8);
            w.str(&m.state_transition_reason);
            w.u64(m.last_modified);
        }
        MappingRecord::Deleted { uuid } => {
            w.u8(MAPPING_DELETED);
            w.str(uuid);
        }
        MappingRecord::Cleared => w.u8(MAPPINGS_CLEARED),
    }
}

fn settings(w: &mut W<'_>, s: &Settings) {
    w.u32(s.batch_size);
    w.u32(s.maximum_batching_window_seconds);
    w.u32(s.function_response_types.len() as u32);
    for t in &s.function_response_types {
        w.str(t.as_str());
    }
    w.opt_u64(s.maximum_concurrency.map(u64::from));
    let patterns = s.filters.patterns();
    w.u32(patterns.len() as u32);
    for p in patterns {
        w.str(p);
    }
}

/// Reads one record back.
pub fn decode(bytes: &[u8]) -> Result<MappingRecord, String> {
    let mut r = R(bytes);
    let record = match r.u8()? {
        MAPPING => MappingRecord::Mapping(Mapping {
            uuid: r.string()?,
            function_arn: r.string()?,
            event_source_arn: r.string()?,
            settings: read_settings(&mut r)?,
            enabled: r.u8()? == 1,
            state: *STATES
                .get(usize::from(r.u8()?))
                .ok_or("unknown mapping state")?,
            state_transition_reason: r.string()?,
            last_modified: r.u64()?,
        }),
        MAPPING_DELETED => MappingRecord::Deleted { uuid: r.string()? },
        MAPPINGS_CLEARED => MappingRecord::Cleared,
        tag => return Err(format!("unknown mapping record type {tag}")),
    };
    if !r.0.is_empty() {
        return Err(format!("{} unexpected bytes after a record", r.0.len()));
    }
    Ok(record)
}

fn read_settings(r: &mut R<'_>) -> Result<Settings, String> {
    let batch_size = r.u32()?;
    let maximum_batching_window_seconds = r.u32()?;
    let function_response_types = (0..r.u32()?)
        .map(|_| {
            let text = r.string()?;
            FunctionResponseType::parse(&text)
                .ok_or_else(|| format!("unknown FunctionResponseType {text}"))
        })
        .collect::<Result<_, String>>()?;
    let maximum_concurrency = r
        .opt_u64()?
        .map(|c| u32::try_from(c).map_err(|_| "MaximumConcurrency out of range".to_owned()))
        .transpose()?;
    let patterns = (0..r.u32()?)
        .map(|_| r.string())
        .collect::<Result<Vec<_>, String>>()?;
    // Parsed again as the API parsed them: the record keeps the texts it renders back.
    let filters = Filters::parse(patterns)
        .map_err(|e| format!("a stored filter pattern is refused: {}", e.reason()))?;
    Ok(Settings {
        batch_size,
        maximum_batching_window_seconds,
        function_response_types,
        maximum_concurrency,
        filters,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::durable::sns_codec;

    fn round_trip(r: &MappingRecord) {
        let mut bytes = Vec::new();
        encode(r, &mut bytes);
        assert!(is_mapping(&bytes) && !sns_codec::is_sns(&bytes));
        assert_eq!(&decode(&bytes).unwrap(), r);
        // Every prefix of a record is refused, never misread.
        for cut in 0..bytes.len() {
            assert!(decode(&bytes[..cut]).is_err(), "prefix of {cut} bytes");
        }
    }

    fn mapping(state: State) -> Mapping {
        let mut m = Mapping::new(
            "arn:aws:lambda:us-east-1:000000000000:function:orders".into(),
            "arn:aws:sqs:us-east-1:000000000000:orders é".into(),
            Settings::default(),
            true,
            1_764_000_000_123,
        );
        m.state = state;
        m
    }

    #[test]
    fn every_record_reads_back_as_written() {
        for state in STATES {
            round_trip(&MappingRecord::Mapping(mapping(state)));
        }
        let mut m = mapping(State::Disabled);
        m.enabled = false;
        m.settings = Settings {
            batch_size: 500,
            maximum_batching_window_seconds: 30,
            function_response_types: vec![FunctionResponseType::ReportBatchItemFailures],
            maximum_concurrency: Some(7),
            filters: Filters::parse(vec![r#"{"body":{"kind":["order"]}}"#.into()]).unwrap(),
        };
        round_trip(&MappingRecord::Mapping(m));
        round_trip(&MappingRecord::Deleted { uuid: "u".into() });
        round_trip(&MappingRecord::Cleared);
    }

    #[test]
    fn the_tag_ranges_of_the_three_services_are_apart() {
        let mut bytes = Vec::new();
        crate::durable::codec::encode(
            &crate::sqs::engine::mutation::Mutation::MoveTasksCleared,
            &mut bytes,
        );
        assert!(!is_mapping(&bytes) && !sns_codec::is_sns(&bytes));
        let mut sns = Vec::new();
        sns_codec::encode(&crate::sns::engine::state::SnsRecord::Cleared, &mut sns);
        assert!(sns_codec::is_sns(&sns) && !is_mapping(&sns));
        assert!(!is_mapping(&[]));
        assert!(MAPPING_TAGS.start() > sns_codec::SNS_TAGS.end());
    }
}
