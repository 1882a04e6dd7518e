//! Sizes bounded everywhere (issue 50, L4): topic and subscription attributes and endpoints
//! follow SNS's documented limits (DisplayName 100 characters, as recorded refused), and
//! where SNS records none a value of megabytes is refused with SNS's error rather than
//! stored.

use crate::common::sns::{failure, invalid, start};

#[tokio::test]
async fn a_display_name_past_100_characters_is_refused_as_recorded() {
    let s = start().await;
    let long = "d".repeat(101);
    let call = s
        .sns
        .create_topic()
        .name("named")
        .attributes("DisplayName", &long);
    let err = call.send().await;
    // Recorded by CloudFormation users: "Invalid parameter: Attributes Reason: DisplayName".
    assert_eq!(
        failure(err),
        invalid("Invalid parameter: Attributes Reason: DisplayName")
    );
    let topic = s.topic("named", &[("DisplayName", &"d".repeat(100))]).await;
    let call = s.sns.set_topic_attributes().topic_arn(&topic);
    let call = call.attribute_name("DisplayName").attribute_value(&long);
    assert_eq!(
        failure(call.send().await),
        invalid("Invalid parameter: DisplayName")
    );
}

#[tokio::test]
async fn megabyte_policies_and_endpoints_are_refused() {
    let s = start().await;
    let topic = s.topic("big", &[]).await;
    let huge = format!(r#"{{"http":{{"pad":"{}"}}}}"#, "x".repeat(3 << 20));
    let call = s.sns.set_topic_attributes().topic_arn(&topic);
    let call = call.attribute_name("DeliveryPolicy").attribute_value(&huge);
    assert_eq!(
        failure(call.send().await),
        invalid("Invalid parameter: DeliveryPolicy")
    );

    let email = format!("{}@example.com", "a".repeat(3 << 20));
    let call = s.sns.subscribe().topic_arn(&topic).protocol("email");
    let err = call.endpoint(&email).send().await;
    assert_eq!(failure(err), invalid("Invalid parameter: Email address"));

    let url = format!("http://example.com/{}", "p".repeat(3 << 20));
    let call = s.sns.subscribe().topic_arn(&topic).protocol("http");
    let err = call.endpoint(&url).send().await;
    assert_eq!(failure(err), invalid("Invalid parameter: Endpoint"));

    let (_, queue) = s.queue("big-q", &[]).await;
    let call = s
        .sns
        .subscribe()
        .topic_arn(&topic)
        .protocol("sqs")
        .endpoint(&queue);
    let call = call
        .return_subscription_arn(true)
        .attributes("DeliveryPolicy", &huge);
    let err = call.send().await;
    assert_eq!(
        failure(err),
        invalid("Invalid parameter: Attributes Reason: DeliveryPolicy: too long")
    );
}
