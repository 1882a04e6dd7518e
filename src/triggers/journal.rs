//! The mappings as plain records, for durable mode: every change [`Mappings`] makes is
//! reported, under the lock that made it, to the [`MappingJournal`] it was given;
//! [`Mappings::snapshot`] writes them all as the same records and [`Mappings::restore`]
//! applies them back. As with SNS's records each is an absolute assignment (a mapping as it
//! now stands, a deletion), so replaying one over a state that already holds it changes
//! nothing.
//!
//! [`Mappings`]: super::registry::Mappings
//! [`Mappings::snapshot`]: super::registry::Mappings::snapshot
//! [`Mappings::restore`]: super::registry::Mappings::restore

use std::fmt::Debug;

use super::mapping::Mapping;

/// One change of the mappings.
#[derive(Debug, Clone, PartialEq)]
pub enum MappingRecord {
    /// A mapping as it now stands (created, updated, its state settled).
    Mapping(Mapping),
    /// The mapping is gone.
    Deleted { uuid: String },
    /// Every mapping is gone (the admin reset).
    Cleared,
}

/// Observes every change of the mappings in the order it was made. Called under the
/// registry's lock: it must be quick and must not call back into the registry.
pub trait MappingJournal: Send + Sync + Debug {
    fn record(&self, record: &MappingRecord);
}
