//! Query decoding straight into the actions' input types.

use serde::de::{self, Visitor};
use serde::forward_to_deserialize_any;

use super::*;
use crate::sqs::actions::{self, Action};
use crate::sqs::error::ErrorKind;
use crate::sqs::protocol::Input;

fn params(text: &str) -> Params<'_> {
    Params::parse(None, Some(text.as_bytes())).unwrap()
}

fn input<'a>(p: &'a Params<'a>, action: &'a str) -> Input<'a> {
    Input::Query {
        params: p,
        action,
        path_queue: None,
    }
}

#[test]
fn maps_lists_and_entries_in_index_order() {
    let p = params(
        "QueueUrl=q&SendMessageBatchRequestEntry.2.Id=b&SendMessageBatchRequestEntry.2.MessageBody=two\
         &SendMessageBatchRequestEntry.1.Id=a&SendMessageBatchRequestEntry.1.MessageBody=one\
         &SendMessageBatchRequestEntry.1.DelaySeconds=5\
         &SendMessageBatchRequestEntry.1.MessageAttribute.1.Name=x\
         &SendMessageBatchRequestEntry.1.MessageAttribute.1.Value.DataType=String\
         &SendMessageBatchRequestEntry.1.MessageAttribute.1.Value.StringValue=y",
    );
    let batch: actions::send::SendMessageBatch = input(&p, "SendMessageBatch").decode().unwrap();
    assert_eq!(batch.queue_url, "q");
    let ids: Vec<&str> = batch.entries.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(ids, ["a", "b"]);
    assert_eq!(batch.entries[0].delay_seconds, Some(5));
    let attr = &batch.entries[0].message_attributes["x"];
    assert_eq!(
        (attr.data_type.as_str(), attr.string_value.as_deref()),
        ("String", Some("y"))
    );

    let p = params(
        "QueueUrl=q&Attribute.1.Name=VisibilityTimeout&Attribute.1.Value=10\
         &Attribute.2.Name=DelaySeconds&Attribute.2.Value=",
    );
    let set: actions::attributes::SetQueueAttributes =
        input(&p, "SetQueueAttributes").decode().unwrap();
    assert_eq!(set.attributes["VisibilityTimeout"], "10");
    assert_eq!(set.attributes["DelaySeconds"], "");

    let p = params("QueueUrl=q&AttributeName.10=C&AttributeName.2=B&AttributeName.1=A");
    let get: actions::attributes::GetQueueAttributes =
        input(&p, "GetQueueAttributes").decode().unwrap();
    assert_eq!(
        get.attribute_names,
        ["A", "B", "C"],
        "numeric order, sparse indexes"
    );
}

#[test]
fn empty_lists_as_query_clients_send_them() {
    let p = params("QueueUrl=q&Entries=");
    let batch: actions::delete::DeleteMessageBatch =
        input(&p, "DeleteMessageBatch").decode().unwrap();
    assert!(batch.entries.is_empty());

    let p = params("QueueUrl=q&AttributeNames=&MessageAttributeNames=");
    let receive: actions::receive::ReceiveMessage = input(&p, "ReceiveMessage").decode().unwrap();
    assert!(receive.attribute_names.is_empty() && receive.message_attribute_names.is_empty());

    // SDK v1's Query serializer leaves an empty list out altogether: still an empty batch.
    let p = params("QueueUrl=q");
    let batch: actions::delete::DeleteMessageBatch =
        input(&p, "DeleteMessageBatch").decode().unwrap();
    assert!(batch.entries.is_empty());
}

#[test]
fn bad_values_are_sqs_errors_without_serde_text() {
    let p = params("QueueUrl=q&MaxNumberOfMessages=ten");
    let err = input(&p, "ReceiveMessage")
        .decode::<actions::receive::ReceiveMessage>()
        .unwrap_err();
    assert_eq!(
        (err.kind, err.message.as_str()),
        (
            ErrorKind::InvalidParameterValue,
            "Value ten for parameter MaxNumberOfMessages is invalid. Reason: Must be an integer."
        )
    );
    let p = params("QueueUrl=q&ReceiptHandle=h&VisibilityTimeout=99999999999999999999");
    let err = input(&p, "ChangeMessageVisibility")
        .decode::<actions::visibility::ChangeMessageVisibility>()
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidParameterValue);
    assert!(!err.message.contains("invalid type") && !err.message.contains('`'));
}

#[test]
fn the_path_names_the_queue_unless_the_request_does() {
    let p = params("");
    let with_path = |p| Input::Query {
        params: p,
        action: "PurgeQueue",
        path_queue: Some("/1/from-path"),
    };
    let purge: actions::queues::PurgeQueue = with_path(&p).decode().unwrap();
    assert_eq!(purge.queue_url, "/1/from-path");
    let p = params("QueueUrl=from-param");
    let purge: actions::queues::PurgeQueue = with_path(&p).decode().unwrap();
    assert_eq!(purge.queue_url, "from-param");
}

#[test]
fn tags_decode_under_either_member_name() {
    let p = params("QueueName=q&Tag.1.Key=team&Tag.1.Value=a&Tag.2.Key=env&Tag.2.Value=");
    let create: actions::queues::CreateQueue = input(&p, "CreateQueue").decode().unwrap();
    assert_eq!(create.tags.len(), 2);
    assert_eq!(create.tags["env"], "");
}

/// Each action's name and the members its input type reads.
fn input_fields() -> Vec<(&'static str, Vec<&'static str>)> {
    use actions::visibility;
    use actions::{attributes, delete, permissions, queues, receive, redrive, send, tags};
    // Batch entries' members travel under the entry's prefix, which the filter keeps whole;
    // `Id` is such a member of the type SendMessage shares with its batch entries.
    vec![
        ("CreateQueue", fields::<queues::CreateQueue>()),
        ("GetQueueUrl", fields::<queues::GetQueueUrl>()),
        ("ListQueues", fields::<queues::ListQueues>()),
        ("DeleteQueue", fields::<queues::DeleteQueue>()),
        ("PurgeQueue", fields::<queues::PurgeQueue>()),
        (
            "GetQueueAttributes",
            fields::<attributes::GetQueueAttributes>(),
        ),
        (
            "SetQueueAttributes",
            fields::<attributes::SetQueueAttributes>(),
        ),
        ("TagQueue", fields::<tags::TagQueue>()),
        ("UntagQueue", fields::<tags::UntagQueue>()),
        ("ListQueueTags", fields::<tags::ListQueueTags>()),
        ("AddPermission", fields::<permissions::AddPermission>()),
        (
            "RemovePermission",
            fields::<permissions::RemovePermission>(),
        ),
        ("SendMessage", fields::<send::SendMessage>()),
        ("SendMessageBatch", fields::<send::SendMessageBatch>()),
        ("ReceiveMessage", fields::<receive::ReceiveMessage>()),
        ("DeleteMessage", fields::<delete::DeleteMessage>()),
        ("DeleteMessageBatch", fields::<delete::DeleteMessageBatch>()),
        (
            "ChangeMessageVisibility",
            fields::<visibility::ChangeMessageVisibility>(),
        ),
        (
            "ChangeMessageVisibilityBatch",
            fields::<visibility::ChangeMessageVisibilityBatch>(),
        ),
        (
            "ListDeadLetterSourceQueues",
            fields::<redrive::ListDeadLetterSourceQueues>(),
        ),
        (
            "StartMessageMoveTask",
            fields::<redrive::StartMessageMoveTask>(),
        ),
        (
            "ListMessageMoveTasks",
            fields::<redrive::ListMessageMoveTasks>(),
        ),
        (
            "CancelMessageMoveTask",
            fields::<redrive::CancelMessageMoveTask>(),
        ),
    ]
}

/// Every member an action reads must pass the parameter filter, or Query clients could never
/// set it.
#[test]
fn every_input_member_is_a_known_parameter() {
    let types = input_fields();
    assert_eq!(
        types.iter().filter(|(_, f)| !f.is_empty()).count(),
        types.len()
    );
    let named: std::collections::BTreeSet<&str> = types.iter().map(|(n, _)| *n).collect();
    assert_eq!(named.len(), Action::NAMES.len(), "every action is listed");
    for (action, fields) in types {
        for field in fields.into_iter().filter(|&f| f != "Id") {
            let query_name = match shape(field, action) {
                Shape::Scalar => field,
                Shape::List(item) | Shape::Map(item, _) => item,
            };
            let text = format!("{query_name}.1=x&{query_name}=x");
            assert!(
                !params(&text).is_empty(),
                "{action}: {field} is filtered out"
            );
        }
    }
}

/// The members a type asks the deserializer for.
fn fields<T: serde::de::DeserializeOwned>() -> Vec<&'static str> {
    struct Recorder<'a>(&'a mut Vec<&'static str>);
    impl<'de> serde::Deserializer<'de> for Recorder<'_> {
        type Error = de::value::Error;
        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
            Err(de::Error::custom(""))
        }
        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Self::Error> {
            self.0.extend_from_slice(fields);
            Err(de::Error::custom(""))
        }
        forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
            option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
            ignored_any
        }
    }
    let mut fields = Vec::new();
    let _ = T::deserialize(Recorder(&mut fields));
    fields
}
