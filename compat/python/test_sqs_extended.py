"""The Amazon SQS Extended Client Library for Python (`amazon-sqs-extended-client`, compat/run.sh
sqs-extended-python, pins python/requirements-extended.txt): payloads past SQS's threshold go
to a bucket and the queue carries a pointer; receiving fetches them back and deleting the
message deletes the object. Its S3 client is the library's own, made without an endpoint, so
the endpoint reaches it as an application's would: AWS_ENDPOINT_URL."""

import hashlib
import json
import uuid

import pytest
from sqs_extended_client import SQSExtendedClientSession

from conftest import s3_client

POINTER = "software.amazon.payloadoffloading.PayloadS3Pointer"


@pytest.fixture
def extended(endpoint, monkeypatch):
    """The library's SQS client (its session's S3 client reaching sqslite through
    AWS_ENDPOINT_URL), offloading into a new bucket and deleting payloads with their messages."""
    monkeypatch.setenv("AWS_ENDPOINT_URL", endpoint)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "test")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "test")
    monkeypatch.setenv("AWS_CONFIG_FILE", "/dev/null")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/dev/null")
    session = SQSExtendedClientSession(region_name="us-east-1")
    sqs = session.client("sqs")
    bucket = f"payloads-{uuid.uuid4().hex[:12]}"
    s3_client(endpoint).create_bucket(Bucket=bucket)
    sqs.large_payload_support = bucket
    sqs.delete_payload_from_s3 = True
    return sqs


def payload(size):
    """Text of about `size` bytes with multi-byte characters, unique per call."""
    unit = f"{uuid.uuid4()} caf\u00e9 \u65e5\u672c \U0001f600\n"
    return unit * (size // len(unit.encode()) + 1)


def objects(endpoint, bucket):
    return {o["Key"]: o["Size"] for o in
            s3_client(endpoint).list_objects_v2(Bucket=bucket).get("Contents", [])}


def test_large_message_through_a_bucket(endpoint, extended, make_queue, sqs):
    url = make_queue("extended")
    body = payload(3 * 1024 * 1024)
    size = len(body.encode())
    assert size > 1024 * 1024
    sent = extended.send_message(QueueUrl=url, MessageBody=body,
                                 MessageAttributes={"kind": {"DataType": "String", "StringValue": "big"}})
    bucket = extended.large_payload_support
    stored = objects(endpoint, bucket)
    assert list(stored.values()) == [size]
    (key,) = stored
    # The queue holds the library's pointer, whose MD5 is what SQS answered.
    assert sent["MD5OfMessageBody"] == hashlib.md5(
        json.dumps([POINTER, {"s3BucketName": bucket, "s3Key": key}]).encode()).hexdigest()

    got = extended.receive_message(QueueUrl=url, MessageAttributeNames=["All"], WaitTimeSeconds=5)
    (message,) = got["Messages"]
    assert message["Body"] == body
    assert message["MessageAttributes"] == {"kind": {"DataType": "String", "StringValue": "big"}}
    assert key in message["ReceiptHandle"]
    extended.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
    assert objects(endpoint, bucket) == {}
    attrs = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"]
    assert (attrs["ApproximateNumberOfMessages"], attrs["ApproximateNumberOfMessagesNotVisible"]) == ("0", "0")


def test_small_message_stays_in_the_queue(endpoint, extended, make_queue):
    url = make_queue("extended-small")
    extended.send_message(QueueUrl=url, MessageBody="small")
    assert objects(endpoint, extended.large_payload_support) == {}
    (message,) = extended.receive_message(QueueUrl=url, WaitTimeSeconds=5)["Messages"]
    assert message["Body"] == "small"
    extended.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])

    extended.always_through_s3 = True
    extended.send_message(QueueUrl=url, MessageBody="small, through S3")
    assert list(objects(endpoint, extended.large_payload_support).values()) == [17]
    (message,) = extended.receive_message(QueueUrl=url, WaitTimeSeconds=5)["Messages"]
    assert message["Body"] == "small, through S3"
    extended.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
    assert objects(endpoint, extended.large_payload_support) == {}


def test_batch_through_a_bucket(endpoint, extended, make_queue, sqs):
    url = make_queue("extended-batch")
    bodies = {f"m{i}": payload(1024 * 1024 + 512 * i) for i in range(2)}
    out = extended.send_message_batch(QueueUrl=url, Entries=[
        {"Id": i, "MessageBody": b} for i, b in bodies.items()])
    assert sorted(e["Id"] for e in out["Successful"]) == ["m0", "m1"]
    assert sorted(objects(endpoint, extended.large_payload_support).values()) == sorted(
        len(b.encode()) for b in bodies.values())

    received = []
    while len(received) < 2:
        got = extended.receive_message(QueueUrl=url, MaxNumberOfMessages=10, WaitTimeSeconds=5)
        assert got.get("Messages"), "the batch did not come back"
        received += got["Messages"]
    assert sorted(m["Body"] for m in received) == sorted(bodies.values())
    deleted = extended.delete_message_batch(QueueUrl=url, Entries=[
        {"Id": str(n), "ReceiptHandle": m["ReceiptHandle"]} for n, m in enumerate(received)])
    assert len(deleted["Successful"]) == 2, deleted
    assert objects(endpoint, extended.large_payload_support) == {}
    plain = sqs.receive_message(QueueUrl=url, WaitTimeSeconds=0)
    assert plain.get("Messages", []) == []


def test_library_clients_reach_sqslite(endpoint, extended):
    # Both of the library's clients take the endpoint from the environment, as in an application.
    assert extended.meta.endpoint_url == endpoint
    assert extended.s3_client.meta.endpoint_url == endpoint
