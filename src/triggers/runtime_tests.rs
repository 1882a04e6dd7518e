//! Unit tests of runtime.rs.

use super::*;
use crate::config::{Config, QueueDecl};
use crate::triggers::{Function, Settings, Target};

fn app() -> Arc<Service> {
    let mut config = Config::ephemeral().with_queue(QueueDecl::new("orders"));
    let f = Function::new("f", Target::Url("http://127.0.0.1:9/".into()));
    config.triggers.functions.push(f);
    let app = crate::app::App::new(config, Arc::new(crate::clock::ManualClock::new(1)));
    app.declare_all().unwrap();
    app.triggers.clone()
}

#[tokio::test]
async fn transitional_states_settle_as_the_pollers_follow() {
    let app = app();
    let mappings = &app.model.mappings;
    let m = mappings.insert(Mapping::new(
        "arn:aws:lambda:us-east-1:000000000000:function:f".into(),
        "arn:aws:sqs:us-east-1:000000000000:orders".into(),
        Settings::default(),
        true,
        1,
    ));
    let mut running = HashMap::new();
    reconcile(&app, &mut running);
    assert_eq!(mappings.get(&m.uuid).unwrap().state, State::Enabled);
    assert!(running.contains_key(&m.uuid));
    let edit = |state, enabled| {
        mappings.update::<(), ()>(&m.uuid, |m| {
            m.state = state;
            m.enabled = enabled;
            Ok(())
        })
    };
    edit(State::Disabling, false);
    reconcile(&app, &mut running);
    assert_eq!(mappings.get(&m.uuid).unwrap().state, State::Disabled);
    assert!(running.is_empty());
    edit(State::Enabling, true);
    reconcile(&app, &mut running);
    assert_eq!(mappings.get(&m.uuid).unwrap().state, State::Enabled);
    edit(State::Deleting, true);
    reconcile(&app, &mut running);
    assert!(mappings.get(&m.uuid).is_none() && running.is_empty());
}
