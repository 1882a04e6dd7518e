//! Decoding SNS's inputs: which refusal comes first when several members are wrong, and
//! SNS's rules for members that serde reads as sent.

use super::Action;
use crate::sns::error::{SnsError, SnsErrorKind};
use crate::sns::protocol::Form;

/// The action decoded from a form body.
fn decode(body: &str) -> Result<Action, SnsError> {
    let form = Form::parse(None, Some(body.as_bytes())).unwrap();
    Action::decode(form.get("Action").unwrap_or_default(), &form)
}

/// The refusal of a form body, as its kind and message.
fn refusal(body: &str) -> (SnsErrorKind, String) {
    let err = decode(body).unwrap_err();
    (err.kind, err.message.into_owned())
}

const TOPIC: &str = "arn:aws:sns:us-east-1:000000000000:t";

#[test]
fn an_arn_is_refused_before_any_other_member() {
    let invalid = |m: &str| {
        (
            SnsErrorKind::InvalidParameter,
            format!("Invalid parameter: {m}"),
        )
    };
    let none = invalid("TopicArn Reason: no value for required parameter");
    assert_eq!(refusal("Action=Subscribe"), none);
    assert_eq!(refusal("Action=Subscribe&TopicArn="), none);
    assert_eq!(
        refusal("Action=Subscribe&TopicArn=bad"),
        invalid("TopicArn Reason: An ARN must have at least 6 elements, not 1")
    );
    for action in ["SetSubscriptionAttributes", "Unsubscribe"] {
        assert_eq!(
            refusal(&format!("Action={action}&AttributeName=RawMessageDelivery")),
            invalid("SubscriptionArn Reason: no value for required parameter")
        );
    }
    assert_eq!(
        refusal("Action=PutDataProtectionPolicy"),
        invalid("ResourceArn Reason: no value for required parameter")
    );
    let validation = |m: &str| {
        let text = format!("1 validation error detected: Value null at '{m}' failed to satisfy constraint: Member must not be null");
        (SnsErrorKind::ValidationError, text)
    };
    assert_eq!(
        refusal(&format!("Action=Subscribe&TopicArn={TOPIC}")),
        validation("protocol")
    );
    assert_eq!(refusal("Action=TagResource"), validation("resourceArn"));
    assert_eq!(
        refusal("Action=CreateTopic&Tags.member.1.Key=k&Tags.member.2.Key=k"),
        validation("name")
    );
}

#[test]
fn tags_flags_and_attributes_keep_snss_rules() {
    assert_eq!(
        refusal("Action=CreateTopic&Name=t&Tags.member.1.Key=k&Tags.member.2.Key=k&Tags.member.2.Value=v"),
        (
            SnsErrorKind::InvalidParameter,
            "Invalid parameter: Duplicated keys are not allowed.".to_owned()
        )
    );
    let debug = |body: &str| format!("{:?}", decode(body).unwrap());
    let subscribe = format!("Action=Subscribe&TopicArn={TOPIC}&Protocol=sqs");
    for (flag, set) in [("true", true), ("TRUE", true), ("yes", false), ("", false)] {
        let got = debug(&format!("{subscribe}&ReturnSubscriptionArn={flag}"));
        assert!(got.contains(&format!("return_arn: {set}")), "{flag}: {got}");
    }
    // An attribute entry without its value is skipped, as one without its key.
    let got = debug(&format!(
        "{subscribe}&Attributes.entry.1.key=RawMessageDelivery&Attributes.entry.2.value=x\
         &Attributes.entry.3.key=FilterPolicyScope&Attributes.entry.3.value=MessageBody"
    ));
    assert!(
        got.contains(r#"attributes: {"FilterPolicyScope": "MessageBody"}"#),
        "{got}"
    );
}

#[test]
fn batch_entries_decode_in_index_order_each_with_its_own_refusal() {
    let body = format!(
        "Action=PublishBatch&TopicArn={TOPIC}\
         &PublishBatchRequestEntries.member.2.Id=b&PublishBatchRequestEntries.member.2.Message=two\
         &PublishBatchRequestEntries.member.1.Id=a&PublishBatchRequestEntries.member.1.Message=one\
         &PublishBatchRequestEntries.member.1.MessageAttributes.entry.1.Name=x\
         &PublishBatchRequestEntries.member.1.MessageAttributes.entry.1.Value.DataType=Binary\
         &PublishBatchRequestEntries.member.1.MessageAttributes.entry.1.Value.BinaryValue=%21"
    );
    let got = format!("{:?}", decode(&body).unwrap());
    let (a, b) = (got.find(r#"("a", Err"#), got.find(r#"("b", Ok"#));
    assert!(a.is_some() && b.is_some() && a < b, "{got}");
    assert!(
        got.contains("The message attribute 'x' has an invalid binary value."),
        "{got}"
    );
}
