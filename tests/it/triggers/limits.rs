//! How many event source mappings exist (issue 50, M3): `max_event_source_mappings` bounds the
//! server, and on a shared instance each declared account holds at most its share; a laptop
//! (no declared keys) keeps the whole total.

use aws_sdk_lambda::Client;

use crate::common::accounts::two_accounts_from;
use crate::common::lambda_api::{failure, function, lambda_client_at};
use crate::common::{TestServer, OTHER, OWNER};

/// Declares the `capture` function and `max_event_source_mappings = 4`.
fn four_mappings() -> sqslite::Config {
    let mut config = sqslite::Config::ephemeral();
    config.triggers.functions = vec![function("capture")];
    config.triggers.max_mappings = Some(4);
    config
}

/// Creates `account`'s queue `name` as `sqs` and maps it to `capture` as `lambda`: the UUID,
/// or the refusal's code and message.
async fn map(
    (sqs, lambda): (&aws_sdk_sqs::Client, &Client),
    account: &str,
    name: &str,
) -> Result<String, (String, String)> {
    sqs.create_queue().queue_name(name).send().await.unwrap();
    let arn = format!("arn:aws:sqs:us-east-1:{account}:{name}");
    let call = lambda.create_event_source_mapping().event_source_arn(arn);
    match call.function_name("capture").send().await {
        Ok(created) => Ok(created.uuid.unwrap()),
        Err(e) => {
            let (code, _, message) = failure(&e);
            Err((code, message))
        }
    }
}

/// Past the bound, CreateEventSourceMapping is refused in words naming the setting.
fn refused(result: Result<String, (String, String)>, words: &str) {
    let (code, message) = result.expect_err("past the bound");
    assert_eq!(code, "InvalidParameterValueException", "{message}");
    assert!(message.contains(words), "{message}");
    assert!(
        message.contains("raise max_event_source_mappings"),
        "{message}"
    );
}

#[tokio::test]
async fn each_account_holds_its_share_of_max_event_source_mappings() {
    let a = two_accounts_from(four_mappings()).await;
    let theirs = (&a.other_sqs, &a.other_lambda);
    map(theirs, OTHER, "b1").await.unwrap();
    map(theirs, OTHER, "b2").await.unwrap();
    let share = "share of 2 event source mappings";
    refused(map(theirs, OTHER, "b3").await, share);
    // The other account's half is still there for its owner.
    let ours = (&a.t.client, &a.lambda);
    map(ours, OWNER, "a1").await.unwrap();
    map(ours, OWNER, "a2").await.unwrap();
    refused(map(ours, OWNER, "a3").await, share);
    // A mapping deleted frees its account's place.
    let listed = a
        .other_lambda
        .list_event_source_mappings()
        .send()
        .await
        .unwrap();
    let uuid = listed.event_source_mappings()[0].uuid().unwrap().to_owned();
    let call = a.other_lambda.delete_event_source_mapping().uuid(uuid);
    call.send().await.unwrap();
    map(theirs, OTHER, "b3").await.unwrap();
}

/// Without declared keys there is one account, whose share is the whole total.
#[tokio::test]
async fn a_laptop_keeps_the_whole_of_max_event_source_mappings() {
    let t = TestServer::start_with(four_mappings()).await;
    let lambda = lambda_client_at(&t.endpoint(), &t.clock);
    for name in ["q1", "q2", "q3", "q4"] {
        map((&t.client, &lambda), OWNER, name).await.unwrap();
    }
    refused(
        map((&t.client, &lambda), OWNER, "q5").await,
        "maximum of 4 event source mappings",
    );
}
