"""The SNS rows of docs/src/scenarios.md through boto3's SNS client (AWS Query, the only protocol SNS's
model lists), fanning out into sqslite's queues on the same endpoint as the SQS client."""

import base64
import json
import re
import uuid

import pytest
from botocore.exceptions import ClientError

from conftest import queue_arn

# What every SNS suite publishes and expects (docs/src/scenarios.md, "SNS fan-out").
BLOB = bytes([0, 1, 254, 255])
FULL_ATTRIBUTES = {
    "color": {"DataType": "String", "StringValue": "red"},
    "size": {"DataType": "Number", "StringValue": "3"},
    "tags": {"DataType": "String.Array", "StringValue": '["urgent","late"]'},
    "blob": {"DataType": "Binary", "BinaryValue": BLOB},
}
ENVELOPE_KEYS = sorted(
    ["Type", "MessageId", "TopicArn", "Subject", "Message", "Timestamp", "SignatureVersion",
     "Signature", "SigningCertURL", "UnsubscribeURL", "MessageAttributes"]
)
TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")


@pytest.fixture
def make_topic(sns):
    """Creates uniquely named topics and deletes them afterwards."""
    created = []

    def make(fifo=False):
        name = f"compat-{uuid.uuid4().hex[:12]}" + (".fifo" if fifo else "")
        attributes = {"FifoTopic": "true"} if fifo else {}
        arn = sns.create_topic(Name=name, Attributes=attributes)["TopicArn"]
        created.append(arn)
        return arn

    yield make
    for arn in created:
        sns.delete_topic(TopicArn=arn)


def subscribe(sns, topic, arn, **attributes):
    sub = sns.subscribe(
        TopicArn=topic, Protocol="sqs", Endpoint=arn, Attributes=attributes,
        ReturnSubscriptionArn=True,
    )["SubscriptionArn"]
    assert sub.startswith(topic + ":"), sub
    return sub


def drain(sqs, url):
    """Every message the queue holds: receives (and deletes) until one comes back empty."""
    got = []
    for _ in range(10):
        batch = sqs.receive_message(
            QueueUrl=url, MaxNumberOfMessages=10, MessageAttributeNames=["All"],
            AttributeNames=["All"],
        ).get("Messages", [])
        if not batch:
            return got
        got.extend(batch)
        for m in batch:
            sqs.delete_message(QueueUrl=url, ReceiptHandle=m["ReceiptHandle"])
    pytest.fail(f"{url} never ran dry")


def check_envelope(endpoint, body, topic, sub, message_id, message):
    envelope = json.loads(body)
    assert sorted(envelope) == ENVELOPE_KEYS
    assert envelope["Type"] == "Notification"
    assert envelope["MessageId"] == message_id
    assert envelope["TopicArn"] == topic
    assert envelope["Subject"] == "compat fan-out"
    assert envelope["Message"] == message
    assert TIMESTAMP.match(envelope["Timestamp"]), envelope["Timestamp"]
    assert envelope["SignatureVersion"] == "1"
    assert len(base64.b64decode(envelope["Signature"], validate=True)) > 0
    assert envelope["SigningCertURL"].startswith(endpoint + "/")
    assert envelope["SigningCertURL"].endswith(".pem")
    assert envelope["UnsubscribeURL"] == f"{endpoint}/?Action=Unsubscribe&SubscriptionArn={sub}"
    assert envelope["MessageAttributes"] == {
        "color": {"Type": "String", "Value": "red"},
        "size": {"Type": "Number", "Value": "3"},
        "tags": {"Type": "String.Array", "Value": '["urgent","late"]'},
        "blob": {"Type": "Binary", "Value": base64.b64encode(BLOB).decode()},
    }


def test_sns_fan_out(sns, sqs, endpoint, make_topic, make_queue):
    topic = make_topic()
    env_url, raw_url, body_url = make_queue("sns-env"), make_queue("sns-raw"), make_queue("sns-body")
    env_sub = subscribe(
        sns, topic, queue_arn(sqs, env_url),
        FilterPolicy=json.dumps(
            {"color": ["red"], "size": [{"numeric": [">=", 3]}], "tags": ["urgent"]}
        ),
    )
    raw_sub = subscribe(sns, topic, queue_arn(sqs, raw_url), RawMessageDelivery="true")
    body_sub = subscribe(
        sns, topic, queue_arn(sqs, body_url),
        FilterPolicyScope="MessageBody",
        FilterPolicy=json.dumps({"kind": ["order"], "total": [{"numeric": [">", 100]}]}),
    )
    listed = sns.list_subscriptions_by_topic(TopicArn=topic)["Subscriptions"]
    assert sorted(s["SubscriptionArn"] for s in listed) == sorted([env_sub, raw_sub, body_sub])
    assert {s["Protocol"] for s in listed} == {"sqs"}
    raw_attrs = sns.get_subscription_attributes(SubscriptionArn=raw_sub)["Attributes"]
    assert raw_attrs["RawMessageDelivery"] == "true"
    body_attrs = sns.get_subscription_attributes(SubscriptionArn=body_sub)["Attributes"]
    assert body_attrs["FilterPolicyScope"] == "MessageBody"

    # 1 matches every filter; 2 fails the envelope one on color and the body one on total;
    # 3 fails the envelope one on size and the body one on kind. Raw takes all three.
    first = '{"kind":"order","total":120}'
    second = '{"kind":"order","total":50}'
    third = '{"kind":"refund","total":500}'
    first_id = sns.publish(
        TopicArn=topic, Message=first, Subject="compat fan-out",
        MessageAttributes=FULL_ATTRIBUTES,
    )["MessageId"]
    sns.publish(
        TopicArn=topic, Message=second,
        MessageAttributes={
            "color": {"DataType": "String", "StringValue": "blue"},
            "size": {"DataType": "Number", "StringValue": "5"},
        },
    )
    sns.publish(
        TopicArn=topic, Message=third,
        MessageAttributes={
            "color": {"DataType": "String", "StringValue": "red"},
            "size": {"DataType": "Number", "StringValue": "2"},
            "tags": {"DataType": "String.Array", "StringValue": '["urgent"]'},
        },
    )

    (env,) = drain(sqs, env_url)
    check_envelope(endpoint, env["Body"], topic, env_sub, first_id, first)
    assert "MessageAttributes" not in env

    (body,) = drain(sqs, body_url)
    check_envelope(endpoint, body["Body"], topic, body_sub, first_id, first)
    assert "MessageAttributes" not in body

    raw = {m["Body"]: m for m in drain(sqs, raw_url)}
    assert sorted(raw) == sorted([first, second, third])
    assert raw[first]["MessageAttributes"] == {
        "color": {"DataType": "String", "StringValue": "red"},
        "size": {"DataType": "Number", "StringValue": "3"},
        "tags": {"DataType": "String.Array", "StringValue": '["urgent","late"]'},
        "blob": {"DataType": "Binary", "BinaryValue": BLOB},
    }
    assert raw[second]["MessageAttributes"] == {
        "color": {"DataType": "String", "StringValue": "blue"},
        "size": {"DataType": "Number", "StringValue": "5"},
    }
    assert set(raw[third]["MessageAttributes"]) == {"color", "size", "tags"}


def test_sns_fifo_order_dedup(sns, sqs, make_topic, make_queue):
    topic = make_topic(fifo=True)
    attrs = sns.get_topic_attributes(TopicArn=topic)["Attributes"]
    assert attrs["FifoTopic"] == "true"
    assert attrs["ContentBasedDeduplication"] == "false"
    url = make_queue("sns-fifo", fifo=True)
    subscribe(sns, topic, queue_arn(sqs, url), RawMessageDelivery="true")

    published = {}
    for group, body in [("g1", "a1"), ("g2", "b1"), ("g1", "a2"), ("g2", "b2")]:
        out = sns.publish(
            TopicArn=topic, Message=body, MessageGroupId=group, MessageDeduplicationId=f"d-{body}"
        )
        published[body] = (out["MessageId"], int(out["SequenceNumber"]))
    sequence = [published[b][1] for b in ["a1", "b1", "a2", "b2"]]
    assert sequence == sorted(set(sequence))
    # A repeated deduplication id is accepted, answered as the first, and delivers nothing.
    again = sns.publish(TopicArn=topic, Message="a1 again", MessageGroupId="g1",
                        MessageDeduplicationId="d-a1")
    assert again["MessageId"] == published["a1"][0]
    assert int(again["SequenceNumber"]) == published["a1"][1]

    groups = {}
    for m in drain(sqs, url):
        groups.setdefault(m["Attributes"]["MessageGroupId"], []).append(m["Body"])
    assert groups == {"g1": ["a1", "a2"], "g2": ["b1", "b2"]}

    assert error_of(
        lambda: sns.publish(TopicArn=topic, Message="no group", MessageDeduplicationId="d-x")
    ) == (
        "InvalidParameter", 400,
        "Invalid parameter: The MessageGroupId parameter is required for FIFO topics",
    )
    assert error_of(lambda: sns.publish(TopicArn=topic, Message="no dedup", MessageGroupId="g1")) == (
        "InvalidParameter", 400,
        "Invalid parameter: The topic should either have ContentBasedDeduplication enabled "
        "or MessageDeduplicationId provided explicitly",
    )


def error_of(call):
    """The code, HTTP status and message of the client error `call` raises."""
    with pytest.raises(ClientError) as caught:
        call()
    error = caught.value.response["Error"]
    assert error["Type"] == "Sender", error
    return error["Code"], caught.value.response["ResponseMetadata"]["HTTPStatusCode"], error["Message"]


def test_sns_errors(sns, sqs, make_topic, make_queue):
    missing = "arn:aws:sns:us-east-1:000000000000:compat-missing"
    with pytest.raises(sns.exceptions.NotFoundException):
        sns.get_topic_attributes(TopicArn=missing)
    assert error_of(lambda: sns.get_topic_attributes(TopicArn=missing)) == (
        "NotFound", 404, "Topic does not exist"
    )
    assert error_of(lambda: sns.publish(TopicArn=missing, Message="m")) == (
        "NotFound", 404, "Topic does not exist"
    )
    topic = make_topic()
    assert error_of(
        lambda: sns.get_subscription_attributes(
            SubscriptionArn=f"{topic}:00000000-0000-0000-0000-000000000000"
        )
    ) == ("NotFound", 404, "Subscription does not exist")
    assert error_of(lambda: sns.create_topic(Name="bad name")) == (
        "InvalidParameter", 400, "Invalid parameter: Topic Name"
    )
    arn = queue_arn(sqs, make_queue("sns-errors"))
    with pytest.raises(sns.exceptions.InvalidParameterException):
        subscribe(sns, topic, arn, FilterPolicy='{"color": [{"prefix": "r", "suffix": "d"}]}')
    assert error_of(
        lambda: subscribe(sns, topic, arn, FilterPolicy='{"color": [{"prefix": "r", "suffix": "d"}]}')
    ) == (
        "InvalidParameter", 400,
        "Invalid parameter: Attributes Reason: FilterPolicy: Only one key allowed in match expression",
    )
    fifo_arn = queue_arn(sqs, make_queue("sns-errors", fifo=True))
    assert error_of(lambda: subscribe(sns, topic, fifo_arn)) == (
        "InvalidParameter", 400,
        "Invalid parameter: Invalid parameter: Endpoint Reason: "
        "FIFO SQS Queues can not be subscribed to standard SNS topics",
    )
    assert error_of(
        lambda: sns.publish(TopicArn=topic, Message="m", MessageDeduplicationId="d")
    ) == (
        "InvalidParameter", 400,
        "Invalid parameter: MessageDeduplicationId Reason: The request includes "
        "MessageDeduplicationId parameter that is not valid for this topic type",
    )
