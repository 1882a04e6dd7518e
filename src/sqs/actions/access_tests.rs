//! The target each action's row names, and how a target reads as a queue.
use super::*;
use crate::sqs::actions::Action;
use crate::sqs::protocol::Input;

fn target_of(name: &str, json: &str) -> Option<Target<'static>> {
    let action = Action::decode(name, Input::Json(json.as_bytes())).unwrap();
    // Leaked so the borrowed target outlives the test's temporary action.
    Box::leak(Box::new(action)).target()
}

#[test]
fn each_action_names_its_queue_as_its_input_does() {
    let url = r#"{"QueueUrl":"http://h/1/orders","MessageBody":"x"}"#;
    assert_eq!(
        target_of("SendMessage", url),
        Some(Target::Url("http://h/1/orders"))
    );
    let name = r#"{"QueueName":"jobs"}"#;
    let jobs = Target::Name {
        name: "jobs",
        owner: None,
    };
    assert_eq!(target_of("CreateQueue", name), Some(jobs));
    let owned = r#"{"QueueName":"jobs","QueueOwnerAWSAccountId":"000000000002"}"#;
    let theirs = Target::Name {
        name: "jobs",
        owner: Some("000000000002"),
    };
    assert_eq!(target_of("GetQueueUrl", owned), Some(theirs));
    let arn = r#"{"SourceArn":"arn:aws:sqs:r:1:dlq"}"#;
    assert_eq!(
        target_of("StartMessageMoveTask", arn),
        Some(Target::Arn("arn:aws:sqs:r:1:dlq"))
    );
    assert_eq!(target_of("ListQueues", "{}"), None);
}

#[test]
fn a_target_is_read_as_the_queue_it_names() {
    let headers = hyper::HeaderMap::new();
    let config = crate::config::Config::default();
    let ctx = Context::new(&config.defaults(), &headers, None, "rid".into());
    let name = |t: Target<'_>| t.key(&ctx).map(|k| k.name);
    assert_eq!(
        name(Target::Url("http://h/000000000000/orders")).as_deref(),
        Some("orders")
    );
    let jobs = Target::Name {
        name: "jobs",
        owner: Some("000000000002"),
    };
    let key = jobs.key(&ctx).unwrap();
    assert_eq!(
        (key.name.as_str(), key.account.as_str()),
        ("jobs", "000000000002")
    );
    assert_eq!(
        name(Target::Arn("arn:aws:sqs:r:000000000001:dlq")).as_deref(),
        Some("dlq")
    );
    assert_eq!(name(Target::Arn("not-an-arn")), None);
}
