"""SNS fan-out into sqslite's queues through boto3's SNS client (AWS Query, the only protocol
SNS's model lists), on the same endpoint as the SQS client."""

import json
import uuid

import boto3
import pytest
from botocore.config import Config


@pytest.fixture(scope="module")
def sns(endpoint):
    return boto3.client(
        "sns",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id="test",
        aws_secret_access_key="test",
        config=Config(retries={"max_attempts": 1, "mode": "standard"}),
    )


def queue_arn(sqs, url):
    return sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]


def receive(sqs, url):
    return sqs.receive_message(
        QueueUrl=url, MaxNumberOfMessages=10, MessageAttributeNames=["All"]
    ).get("Messages", [])


def test_sns_fan_out(sns, sqs, make_queue):
    topic = sns.create_topic(Name=f"compat-{uuid.uuid4().hex[:12]}")["TopicArn"]
    raw_url, filtered_url = make_queue("sns-raw"), make_queue("sns-filtered")
    sns.subscribe(
        TopicArn=topic,
        Protocol="sqs",
        Endpoint=queue_arn(sqs, raw_url),
        Attributes={"RawMessageDelivery": "true"},
    )
    filtered = sns.subscribe(
        TopicArn=topic,
        Protocol="sqs",
        Endpoint=queue_arn(sqs, filtered_url),
        Attributes={"FilterPolicy": json.dumps({"color": ["red"]})},
        ReturnSubscriptionArn=True,
    )["SubscriptionArn"]
    attributes = {"color": {"DataType": "String", "StringValue": "red"}}
    message_id = sns.publish(
        TopicArn=topic, Message="hello", Subject="hi", MessageAttributes=attributes
    )["MessageId"]
    sns.publish(
        TopicArn=topic,
        Message="blue",
        MessageAttributes={"color": {"DataType": "String", "StringValue": "blue"}},
    )

    raw = receive(sqs, raw_url)
    assert sorted(m["Body"] for m in raw) == ["blue", "hello"]
    hello = next(m for m in raw if m["Body"] == "hello")
    assert hello["MessageAttributes"]["color"]["StringValue"] == "red"

    (note,) = receive(sqs, filtered_url)
    envelope = json.loads(note["Body"])
    assert envelope["Type"] == "Notification"
    assert envelope["MessageId"] == message_id
    assert envelope["TopicArn"] == topic
    assert envelope["Subject"] == "hi"
    assert envelope["Message"] == "hello"
    assert envelope["MessageAttributes"]["color"] == {"Type": "String", "Value": "red"}
    assert envelope["UnsubscribeURL"].endswith(f"SubscriptionArn={filtered}")
    sns.delete_topic(TopicArn=topic)


def test_sns_errors(sns):
    with pytest.raises(sns.exceptions.NotFoundException) as missing:
        sns.get_topic_attributes(TopicArn="arn:aws:sns:us-east-1:000000000000:missing")
    assert missing.value.response["Error"]["Message"] == "Topic does not exist"
    topic = sns.create_topic(Name=f"compat-{uuid.uuid4().hex[:12]}")["TopicArn"]
    with pytest.raises(sns.exceptions.InvalidParameterException) as bad:
        sns.subscribe(
            TopicArn=topic,
            Protocol="sqs",
            Endpoint="arn:aws:sqs:us-east-1:000000000000:q",
            Attributes={"FilterPolicy": "[1]"},
        )
    assert bad.value.response["Error"]["Message"].startswith("Invalid parameter: Attributes Reason: FilterPolicy")
    sns.delete_topic(TopicArn=topic)
