//! Filter-policy, subscription-attribute and confirmation refusals in AWS's words. Sources:
//! LocalStack's AWS-validated snapshots (`tests/aws/services/sns/test_sns.snapshot.json`,
//! `test_sns_filter_policy.snapshot.json`), keys named per case; the cidr texts are the
//! issue's recorded ones.

use crate::common::sns::{failure, invalid, start, Sns};
use crate::common::{code, message};

async fn set_sub(s: &Sns, sub: &str, name: &str, value: &str) -> Result<(), (String, String)> {
    let call = s.sns.set_subscription_attributes().subscription_arn(sub);
    let call = call.attribute_name(name).attribute_value(value);
    call.send()
        .await
        .map(drop)
        .map_err(|e| (code(&e), message(&e)))
}

#[tokio::test]
async fn filter_policy_refusals_in_aws_words() {
    let s = start().await;
    let topic = s.topic("filters", &[]).await;
    let sub = s
        .subscribe(&topic, &s.queue("filters-q", &[]).await.1, &[])
        .await;
    let lead = "Invalid parameter: FilterPolicy: ";
    // test_validate_policy_string_operators, test_validate_set_sub_attributes and the cidr
    // texts of the issue; AWS appends Jackson's position, which sqslite leaves out.
    for (policy, reason) in [
        (
            r#"{"key":{"suffix":"value"}}"#,
            r#""suffix" must be an object or an array"#,
        ),
        (
            r#"{"key":{"not-an-operator":"value"}}"#,
            r#""not-an-operator" must be an object or an array"#,
        ),
        (
            r#"{"key":[{"suffix":100}]}"#,
            "suffix match pattern must be a string",
        ),
        (r#"{"key":[]}"#, "Empty arrays are not allowed"),
        (
            r#"{"key":[{"cidr":"10.0.0.1"}]}"#,
            "Malformed CIDR, one '/' required",
        ),
        (
            r#"{"key":[{"cidr":"10.0.0.1/a"}]}"#,
            "Malformed CIDR, mask bits must be an integer",
        ),
        (
            r#"{"key":[{"cidr":"10.0.0.300/24"}]}"#,
            "Nonstandard IP address: 10.0.0.300",
        ),
        (
            r#"{"key":[{"cidr":["10.0.0.0/24"]}]}"#,
            "prefix match pattern must be a string",
        ),
    ] {
        let got = set_sub(&s, &sub, "FilterPolicy", policy).await.unwrap_err();
        assert_eq!(got, invalid(&format!("{lead}{reason}")), "{policy}");
    }
}

#[tokio::test]
async fn json_scope_and_boolean_refusals() {
    let s = start().await;
    let topic = s.topic("refusals", &[]).await;
    let sub = s
        .subscribe(&topic, &s.queue("refusals-q", &[]).await.1, &[])
        .await;
    let got = set_sub(&s, &sub, "FilterPolicy", "{invalidjson}")
        .await
        .unwrap_err();
    assert!(
        got.1
            .starts_with("Invalid parameter: FilterPolicy: failed to parse JSON. "),
        "{got:?}"
    );
    let got = set_sub(&s, &sub, "RedrivePolicy", "{invalidjson}")
        .await
        .unwrap_err();
    assert!(
        got.1
            .starts_with("Invalid parameter: RedrivePolicy: failed to parse JSON."),
        "{got:?}"
    );
    // sub-filter-policy-nested-error: a well-formed nested policy under the default scope.
    let nested = r#"{"object":{"key":[{"prefix":"auto-"}]}}"#;
    let got = set_sub(&s, &sub, "FilterPolicy", nested).await.unwrap_err();
    let want = "Invalid parameter: Filter policy scope MessageAttributes does not support nested filter policy";
    assert_eq!(got, invalid(want));
    let got = set_sub(&s, &sub, "FilterPolicyScope", "RandomValue")
        .await
        .unwrap_err();
    let want = "Invalid parameter: FilterPolicyScope: Invalid value [RandomValue]. Please use either MessageBody or MessageAttributes";
    assert_eq!(got, invalid(want));
    let got = set_sub(&s, &sub, "RawMessageDelivery", "test-ValUe")
        .await
        .unwrap_err();
    let want =
        "Invalid parameter: RawMessageDelivery: Invalid value [test-ValUe]. Must be true or false.";
    assert_eq!(got, invalid(want));
    // Subscribe words them after "Attributes Reason: " (test_subscribe_invalid_filter_policy).
    let call = s
        .sns
        .subscribe()
        .topic_arn(&topic)
        .protocol("sms")
        .endpoint("+15550100");
    let got = failure(call.attributes("FilterPolicy", "invalid-json").send().await);
    let want = "Invalid parameter: Attributes Reason: FilterPolicy: failed to parse JSON. ";
    assert!(got.1.starts_with(want), "{got:?}");
}

#[tokio::test]
async fn confirm_subscription_refusals() {
    let s = start().await;
    let topic = s.topic("confirming", &[]).await;
    // test_sns_confirm_subscription_wrong_token
    let token = "a1".repeat(144);
    let missing = format!("{topic}x");
    let call = s
        .sns
        .confirm_subscription()
        .topic_arn(&missing)
        .token(&token);
    assert_eq!(
        failure(call.send().await),
        invalid("Invalid parameter: Token")
    );
    let call = s.sns.confirm_subscription().topic_arn(&topic).token(&token);
    assert_eq!(
        failure(call.send().await),
        invalid("Invalid parameter: Token")
    );
    let call = s
        .sns
        .confirm_subscription()
        .topic_arn(&topic)
        .token("randomtoken");
    assert_eq!(failure(call.send().await), invalid("Invalid token"));
}
