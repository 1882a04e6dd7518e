//! Lambda-style triggers: event source mappings that poll an SQS queue and invoke a declared
//! function with Lambda's SQS event, as Lambda's event source mapping does.
//!
//! A third service beside SQS and SNS. The model ([`mapping`], [`registry`], [`functions`])
//! is what the Lambda management API and `sqslite.toml` ([`declare`]) edit; the runtime
//! polls the queues of enabled mappings through the SQS engine's own receive.

pub mod api;
pub mod declare;
pub mod functions;
pub mod mapping;
pub mod registry;

pub use declare::MappingDecl;
pub use functions::{Function, Functions, Target};
pub use mapping::{Filters, FunctionResponseType, Mapping, RuleError, Settings, State};
pub use registry::Mappings;

/// `[[functions]]` and `[[event_source_mappings]]` from `sqslite.toml`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TriggersConfig {
    /// The functions mappings may invoke.
    pub functions: Vec<Function>,
    /// The mappings to add before the port opens.
    pub mappings: Vec<MappingDecl>,
}

/// The triggers service's state: its mappings and the functions they may invoke.
#[derive(Debug, Default)]
pub struct Triggers {
    /// Every event source mapping, by UUID.
    pub mappings: Mappings,
    /// The declared functions.
    pub functions: Functions,
}

impl Triggers {
    /// A service over the declared functions, with no mappings yet.
    pub fn new(functions: Vec<Function>) -> Self {
        Triggers {
            mappings: Mappings::new(),
            functions: Functions::new(functions),
        }
    }
}
