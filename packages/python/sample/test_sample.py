"""The sample suite packages/run.sh runs in a fresh venv against the installed wheel.

Every test first checks that it sees the started state (only the declared queues, nothing visible or in flight)
and then leaves something behind, so whichever runs second proves the reset between tests.
"""

import sys
from pathlib import Path

import pytest


def assert_started_state(sqs):
    urls = sqs.list_queues().get("QueueUrls", [])
    assert sorted(url.rsplit("/", 1)[1] for url in urls) == ["orders", "orders-dlq"]
    for url in urls:
        names = ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"]
        depth = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=names)["Attributes"]
        assert [depth[name] for name in names] == ["0", "0"], url


def receive(sqs, url):
    return sqs.receive_message(QueueUrl=url, WaitTimeSeconds=0,
                               MessageSystemAttributeNames=["ApproximateReceiveCount"]).get("Messages", [])


def test_runs_the_binary_from_the_wheel(sqslite_server):
    assert Path(sqslite_server.binary).is_relative_to(Path(sys.prefix).resolve())


def test_poison_message_reaches_the_dlq_on_the_manual_clock(sqslite, sqs_client):
    assert_started_state(sqs_client)
    orders = sqs_client.get_queue_url(QueueName="orders")["QueueUrl"]
    dlq = sqs_client.get_queue_url(QueueName="orders-dlq")["QueueUrl"]
    sqs_client.send_message(QueueUrl=orders, MessageBody="poison")
    for attempt in ("1", "2"):
        [message] = receive(sqs_client, orders)
        assert message["Attributes"]["ApproximateReceiveCount"] == attempt
        assert receive(sqs_client, orders) == []  # in flight for VisibilityTimeout = 30
        sqslite.advance_clock(31)
    assert receive(sqs_client, orders) == []  # a third receive moves it to the DLQ instead
    [dead] = receive(sqs_client, dlq)
    assert dead["Body"] == "poison"


def test_redelivered(sqslite, sqs_client):
    assert_started_state(sqs_client)
    url = sqs_client.get_queue_url(QueueName="orders")["QueueUrl"]
    sqs_client.send_message(QueueUrl=url, MessageBody="hi")
    sqs_client.receive_message(QueueUrl=url)
    sqslite.advance_clock(31)  # past the 30 s visibility timeout, at once
    assert sqs_client.receive_message(QueueUrl=url)["Messages"]


def test_order_is_queued(sqslite, sqs_client):
    assert_started_state(sqs_client)
    url = sqs_client.get_queue_url(QueueName="orders")["QueueUrl"]
    sqs_client.send_message(QueueUrl=url, MessageBody="42")
    assert sqs_client.receive_message(QueueUrl=url)["Messages"]


def test_created_queues_are_gone_after_reset(sqslite, sqs_client):
    assert_started_state(sqs_client)
    url = sqs_client.create_queue(QueueName="scratch")["QueueUrl"]
    sqs_client.send_message(QueueUrl=url, MessageBody="left behind")
    sqs_client.send_message(QueueUrl=sqs_client.get_queue_url(QueueName="orders")["QueueUrl"],
                            MessageBody="left behind")


@pytest.mark.parametrize("run", ["first", "second"])
def test_s3_is_served_on_the_same_port(sqslite, run):
    s3 = sqslite.client("s3")
    assert s3.list_buckets()["Buckets"] == []  # the reset between tests drops buckets too
    s3.create_bucket(Bucket="payloads")
    s3.put_object(Bucket="payloads", Key="orders/1.json", Body=b'{"order": 1}')
    got = s3.get_object(Bucket="payloads", Key="orders/1.json")
    assert got["Body"].read() == b'{"order": 1}'


def test_endpoint_serves_any_client(sqslite_endpoint):
    import urllib.request

    with urllib.request.urlopen(sqslite_endpoint + "/health", timeout=10) as response:
        assert response.status == 200


def test_server_outside_the_fixtures_with_strict_and_a_manual_clock():
    import pytest
    from botocore.exceptions import ClientError
    from sqslite import Server

    with Server(strict=True, clock="manual") as server:
        sqs = server.client("sqs")
        sqs.delete_queue(QueueUrl=sqs.create_queue(QueueName="short-lived")["QueueUrl"])
        with pytest.raises(ClientError, match="QueueDeletedRecently"):
            sqs.create_queue(QueueName="short-lived")  # SQS's 60-second guard, on with strict
        server.advance_clock(61)
        sqs.create_queue(QueueName="short-lived")
    assert server.process is None


def test_at_least_once_delivery_redelivers_a_deleted_message():
    from sqslite import Server

    # Every delete leaves the message to come back once more: what a consumer must survive.
    with Server(delivery="at-least-once", delivery_seed=7, args=["--delivery-duplicate", "1"]) as server:
        sqs = server.client("sqs")
        url = sqs.create_queue(QueueName="payments")["QueueUrl"]
        sent = sqs.send_message(QueueUrl=url, MessageBody="charge once")["MessageId"]
        [first] = sqs.receive_message(QueueUrl=url)["Messages"]
        sqs.delete_message(QueueUrl=url, ReceiptHandle=first["ReceiptHandle"])
        [again] = sqs.receive_message(QueueUrl=url)["Messages"]
        assert again["MessageId"] == first["MessageId"] == sent
        assert again["ReceiptHandle"] != first["ReceiptHandle"]
        assert server.admin("GET", "/_sqslite/delivery")["seed"] == 7
