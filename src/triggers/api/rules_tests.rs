//! The rules against a real triggers service, built by the real `App`: the cases the SDK tests cannot reach on demand (a
//! mapping still in a transitional state).

use std::collections::BTreeMap;
use std::sync::Arc;

use super::input::MappingRequest;
use super::rules::{self, Caller};
use crate::quota::Quota;
use crate::sqs::engine::arn::QueueKey;
use crate::triggers::functions::{Function, Target};
use crate::triggers::mapping::{Mapping, State};
use crate::triggers::Service;
use crate::{Config, ManualClock};

const CALLER: Caller<'static> = Caller {
    principal: None,
    region: "us-east-1",
    account: "000000000000",
};

fn app() -> Arc<Service> {
    let mut config = Config::ephemeral();
    config.triggers.functions = vec![Function::new(
        "f",
        Target::Url("http://127.0.0.1:9/".into()),
    )];
    let app = crate::app::App::new(config, Arc::new(ManualClock::new(1_000)));
    let key = QueueKey::new(CALLER.region, CALLER.account, "q");
    app.sqs
        .registry
        .create(key, &BTreeMap::new(), BTreeMap::new(), 1_000)
        .unwrap();
    app.triggers.clone()
}

fn request(json: &str) -> MappingRequest {
    MappingRequest::decode(json.as_bytes()).unwrap()
}

const CREATE: &str =
    r#"{"FunctionName":"f","EventSourceArn":"arn:aws:sqs:us-east-1:000000000000:q"}"#;

#[test]
fn a_mapping_in_a_transitional_state_cannot_be_updated() {
    let app = app();
    let mapping = rules::new_mapping(&app, &CALLER, &request(CREATE)).unwrap();
    assert_eq!(mapping.state, State::Creating);
    let err = rules::updated_mapping(&app, &CALLER, &mapping, &request(r#"{"BatchSize":2}"#))
        .unwrap_err();
    assert_eq!(
        (err.code(), err.status(), err.message.as_ref()),
        (
            "ResourceInUseException",
            400,
            "Cannot update the event source mapping because it is in use."
        )
    );
}

#[test]
fn updates_name_the_state_they_move_to() {
    let app = app();
    let mut mapping = rules::new_mapping(&app, &CALLER, &request(CREATE)).unwrap();
    mapping.state = State::Enabled;
    let state = |json: &str, m: &Mapping| {
        rules::updated_mapping(&app, &CALLER, m, &request(json))
            .unwrap()
            .state
    };
    assert_eq!(state(r#"{"Enabled":false}"#, &mapping), State::Disabling);
    assert_eq!(state(r#"{"BatchSize":3}"#, &mapping), State::Updating);
    mapping.enabled = false;
    mapping.state = State::Disabled;
    assert_eq!(state(r#"{"Enabled":true}"#, &mapping), State::Enabling);
    assert_eq!(state("{}", &mapping), State::Updating);
}

#[test]
fn a_mapping_created_disabled_is_disabled_at_once() {
    let app = app();
    let json = CREATE.replace('}', r#","Enabled":false}"#);
    let mapping = rules::new_mapping(&app, &CALLER, &request(&json)).unwrap();
    assert_eq!((mapping.enabled, mapping.state), (false, State::Disabled));
}

#[test]
fn one_mapping_per_queue_and_function() {
    let app = app();
    let first = rules::new_mapping(&app, &CALLER, &request(CREATE)).unwrap();
    let first = rules::insert_unique(&app.model.mappings, first, Quota::whole(10)).unwrap();
    let second = rules::new_mapping(&app, &CALLER, &request(CREATE)).unwrap();
    let err = rules::insert_unique(&app.model.mappings, second, Quota::whole(10)).unwrap_err();
    assert_eq!(err.status(), 409);
    assert!(err.message.ends_with(&first.uuid), "{}", err.message);
    assert_eq!(app.model.mappings.len(), 1);
}

#[test]
fn past_the_servers_bound_a_mapping_is_refused() {
    let app = app();
    let first = rules::new_mapping(&app, &CALLER, &request(CREATE)).unwrap();
    rules::insert_unique(&app.model.mappings, first, Quota::whole(1)).unwrap();
    let second = rules::new_mapping(&app, &CALLER, &request(CREATE)).unwrap();
    let err = rules::insert_unique(&app.model.mappings, second, Quota::whole(1)).unwrap_err();
    assert_eq!(err.kind.code(), "InvalidParameterValueException");
    assert!(
        err.message.contains("max_event_source_mappings"),
        "{}",
        err.message
    );
    assert_eq!(app.model.mappings.len(), 1);
}
