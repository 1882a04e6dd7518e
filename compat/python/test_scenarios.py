"""The compatibility scenarios (docs/src/scenarios.md) driven by boto3.

The same file runs under the current boto3 (AWS JSON 1.0) and under the last botocore that
spoke AWS Query for SQS, so both of sqslite's wire protocols meet a real client.
"""

import threading
import time
import urllib.request
import uuid

import pytest
from botocore.exceptions import ClientError

import sqsmd5
from conftest import queue_arn

ALL_TYPES = {
    "s": {"DataType": "String", "StringValue": "h\u00e9llo <w\u00f6rld> & \"friends\""},
    "n": {"DataType": "Number", "StringValue": "-12.5e3"},
    "b": {"DataType": "Binary", "BinaryValue": b"\x00\x01\xfe\xff"},
    "s.label": {"DataType": "String.custom-label", "StringValue": "labelled"},
    "n.label": {"DataType": "Number.float", "StringValue": "3.14"},
    "b.label": {"DataType": "Binary.gif", "BinaryValue": b"GIF89a"},
}


def error_code(excinfo):
    return excinfo.value.response["Error"]["Code"]


def receive_one(sqs, url, **kwargs):
    messages = sqs.receive_message(QueueUrl=url, **kwargs).get("Messages", [])
    assert len(messages) == 1, messages
    return messages[0]


def wait_parked(endpoint, url):
    """Waits until a ReceiveMessage is parked on the queue (sqslite's own metric)."""
    name = url.rsplit("/", 1)[1]
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        with urllib.request.urlopen(endpoint + "/metrics") as res:
            for line in res.read().decode().splitlines():
                if line.startswith("sqslite_receives_waiting{") and f'queue="{name}"' in line:
                    if float(line.rsplit(" ", 1)[1]) >= 1:
                        return
        time.sleep(0.005)
    pytest.fail(f"no receive parked on {name}")


def counts(sqs, url):
    names = ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"]
    attrs = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=names)["Attributes"]
    return tuple(int(attrs[n]) for n in names)


def test_protocol(sqs, make_queue, expected_protocol):
    """The client really speaks the protocol this run is meant to exercise."""
    assert sqs.meta.service_model.protocol == expected_protocol
    seen = []

    def record(request, **_):
        seen.append(request.headers.get("Content-Type", b""))

    sqs.meta.events.register("before-send.sqs.*", record)
    try:
        make_queue()
    finally:
        sqs.meta.events.unregister("before-send.sqs.*", record)
    content_type = seen[0].decode() if isinstance(seen[0], bytes) else seen[0]
    wanted = "application/x-amz-json-1.0" if expected_protocol == "json" else "x-www-form-urlencoded"
    assert wanted in content_type


def test_queue_lifecycle(sqs, make_queue):
    url = make_queue(prefix="lifecycle", VisibilityTimeout=45)
    name = url.rsplit("/", 1)[1]
    tagged = sqs.create_queue(QueueName=name + "-tagged", tags={"env": "test"})["QueueUrl"]
    assert sqs.list_queue_tags(QueueUrl=tagged)["Tags"] == {"env": "test"}
    page = sqs.list_queues(QueueNamePrefix=name, MaxResults=1)
    assert page["QueueUrls"] == [url] and "NextToken" in page
    page = sqs.list_queues(QueueNamePrefix=name, MaxResults=1, NextToken=page["NextToken"])
    assert page["QueueUrls"] == [tagged] and "NextToken" not in page
    sqs.delete_queue(QueueUrl=tagged)
    assert sqs.get_queue_url(QueueName=name)["QueueUrl"] == url
    # Same name and attributes: the existing queue comes back.
    assert sqs.create_queue(QueueName=name, Attributes={"VisibilityTimeout": "45"})["QueueUrl"] == url
    assert url in sqs.list_queues(QueueNamePrefix="lifecycle-").get("QueueUrls", [])

    attrs = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"]
    assert attrs["VisibilityTimeout"] == "45"
    assert attrs["QueueArn"].endswith(":" + name)
    assert attrs["MaximumMessageSize"] == "1048576"
    sqs.set_queue_attributes(QueueUrl=url, Attributes={"DelaySeconds": "2"})
    got = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["DelaySeconds"])["Attributes"]
    assert got == {"DelaySeconds": "2"}

    sqs.add_permission(
        QueueUrl=url, Label="send-only", AWSAccountIds=["111122223333"], Actions=["SendMessage"]
    )
    policy = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["Policy"])["Attributes"]
    assert "send-only" in policy["Policy"]
    sqs.remove_permission(QueueUrl=url, Label="send-only")

    sqs.tag_queue(QueueUrl=url, Tags={"team": "core", "empty": ""})
    sqs.untag_queue(QueueUrl=url, TagKeys=["empty"])
    assert sqs.list_queue_tags(QueueUrl=url)["Tags"] == {"team": "core"}

    sqs.send_message(QueueUrl=url, MessageBody="x", DelaySeconds=0)
    sqs.purge_queue(QueueUrl=url)
    assert counts(sqs, url) == (0, 0)
    # SQS's 60-second purge guard is off by default (--strict restores it).
    sqs.purge_queue(QueueUrl=url)

    sqs.delete_queue(QueueUrl=url)
    with pytest.raises(sqs.exceptions.QueueDoesNotExist):
        sqs.get_queue_url(QueueName=name)
    assert url not in sqs.list_queues(QueueNamePrefix="lifecycle-").get("QueueUrls", [])


def test_message_attributes(sqs, make_queue):
    url = make_queue()
    body = "line one\r\nline two\t<tag> & \"quotes\" 'single' \u00e9\u4e2d\U0001F600"
    trace = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1"
    sent = sqs.send_message(
        QueueUrl=url,
        MessageBody=body,
        MessageAttributes=ALL_TYPES,
        MessageSystemAttributes={"AWSTraceHeader": {"DataType": "String", "StringValue": trace}},
    )
    assert sent["MD5OfMessageBody"] == sqsmd5.of_body(body)
    assert sent["MD5OfMessageAttributes"] == sqsmd5.of_attributes(ALL_TYPES)
    assert sent["MD5OfMessageSystemAttributes"] == "5ae4d5d7636402d80f4eb6d213245a88"

    m = receive_one(
        sqs, url, MessageAttributeNames=["All"], AttributeNames=["All"], VisibilityTimeout=0
    )
    assert m["MessageId"] == sent["MessageId"]
    assert m["Body"] == body
    assert m["MD5OfBody"] == sqsmd5.of_body(body)
    assert m["MessageAttributes"] == ALL_TYPES
    assert m["MD5OfMessageAttributes"] == sent["MD5OfMessageAttributes"]
    assert m["Attributes"]["ApproximateReceiveCount"] == "1"
    assert m["Attributes"]["AWSTraceHeader"] == trace
    assert int(m["Attributes"]["SentTimestamp"]) > 1_600_000_000_000

    # A filtered receive returns, and digests, only the chosen attributes.
    m = receive_one(sqs, url, MessageAttributeNames=["s", "b.*"], VisibilityTimeout=0)
    # As on AWS, `b.*` is a plain prefix: it takes `b` itself as well as `b.label`.
    chosen = {k: ALL_TYPES[k] for k in ("s", "b", "b.label")}
    assert m["MessageAttributes"] == chosen
    assert m["MD5OfMessageAttributes"] == sqsmd5.of_attributes(chosen)

    m = receive_one(sqs, url)
    assert "MessageAttributes" not in m and "MD5OfMessageAttributes" not in m
    sqs.delete_message(QueueUrl=url, ReceiptHandle=m["ReceiptHandle"])
    assert counts(sqs, url) == (0, 0)
    assert "Messages" not in sqs.receive_message(QueueUrl=url)


def test_large_message(sqs, make_queue):
    url = make_queue()
    # 1 MiB exactly (the default MaximumMessageSize), with multi-byte characters and escapes.
    unit = "\u4e2d\U0001F600\r\n<&>\"x"  # 3 + 4 + 2 + 3 + 2 = 14 bytes
    body = unit * (1_048_576 // 14)
    body += "a" * (1_048_576 - len(body.encode()))
    sent = sqs.send_message(QueueUrl=url, MessageBody=body)
    assert sent["MD5OfMessageBody"] == sqsmd5.of_body(body)
    m = receive_one(sqs, url)
    assert m["Body"] == body
    with pytest.raises(ClientError) as e:
        sqs.send_message(QueueUrl=url, MessageBody=body + "!")
    assert error_code(e) == "InvalidParameterValue"


def test_batch_partial_failure(sqs, make_queue):
    url = make_queue()
    out = sqs.send_message_batch(
        QueueUrl=url,
        Entries=[
            {"Id": "ok-1", "MessageBody": "one"},
            {
                "Id": "bad_number",
                "MessageBody": "two",
                "MessageAttributes": {"n": {"DataType": "Number", "StringValue": "not a number"}},
            },
            {"Id": "ok-2", "MessageBody": "three", "MessageAttributes": ALL_TYPES},
        ],
    )
    ok = {e["Id"]: e for e in out["Successful"]}
    assert set(ok) == {"ok-1", "ok-2"}
    assert ok["ok-1"]["MD5OfMessageBody"] == sqsmd5.of_body("one")
    assert ok["ok-2"]["MD5OfMessageAttributes"] == sqsmd5.of_attributes(ALL_TYPES)
    [failed] = out["Failed"]
    assert failed["Id"] == "bad_number"
    assert failed["SenderFault"] is True
    assert failed["Code"] == "InvalidParameterValue"

    messages = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10, WaitTimeSeconds=1)[
        "Messages"
    ]
    assert sorted(m["Body"] for m in messages) == ["one", "three"]
    entries = [{"Id": f"m{i}", "ReceiptHandle": m["ReceiptHandle"]} for i, m in enumerate(messages)]
    entries.append({"Id": "bogus", "ReceiptHandle": "not-a-receipt-handle"})
    out = sqs.delete_message_batch(QueueUrl=url, Entries=entries)
    assert sorted(e["Id"] for e in out["Successful"]) == ["m0", "m1"]
    [failed] = out["Failed"]
    assert (failed["Id"], failed["Code"], failed["SenderFault"]) == (
        "bogus",
        "ReceiptHandleIsInvalid",
        True,
    )
    assert counts(sqs, url) == (0, 0)


def test_batch_errors(sqs, make_queue):
    url = make_queue()
    with pytest.raises(sqs.exceptions.BatchEntryIdsNotDistinct) as e:
        sqs.send_message_batch(
            QueueUrl=url,
            Entries=[{"Id": "same", "MessageBody": "a"}, {"Id": "same", "MessageBody": "b"}],
        )
    assert error_code(e) == "AWS.SimpleQueueService.BatchEntryIdsNotDistinct"
    with pytest.raises(sqs.exceptions.TooManyEntriesInBatchRequest):
        sqs.send_message_batch(
            QueueUrl=url, Entries=[{"Id": f"e{i}", "MessageBody": "x"} for i in range(11)]
        )
    with pytest.raises(sqs.exceptions.InvalidBatchEntryId):
        sqs.delete_message_batch(QueueUrl=url, Entries=[{"Id": "no spaces", "ReceiptHandle": "h"}])
    assert counts(sqs, url) == (0, 0)


def test_long_poll_wakes_on_send(sqs, make_queue):
    url = make_queue()
    polling = threading.Event()
    result = {}

    def receiver():
        polling.set()
        start = time.monotonic()
        result["messages"] = sqs.receive_message(QueueUrl=url, WaitTimeSeconds=20).get(
            "Messages", []
        )
        result["elapsed"] = time.monotonic() - start

    thread = threading.Thread(target=receiver)
    thread.start()
    assert polling.wait(5)
    sqs.send_message(QueueUrl=url, MessageBody="wake up")
    thread.join(25)
    assert not thread.is_alive()
    assert [m["Body"] for m in result["messages"]] == ["wake up"]
    assert result["elapsed"] < 10, f"long poll took {result['elapsed']:.1f}s to see the send"


def test_visibility(sqs, make_queue):
    url = make_queue(VisibilityTimeout=30)
    sqs.send_message(QueueUrl=url, MessageBody="hidden")
    m = receive_one(sqs, url, AttributeNames=["ApproximateReceiveCount"])
    assert "Messages" not in sqs.receive_message(QueueUrl=url)
    assert counts(sqs, url) == (0, 1)

    sqs.change_message_visibility(QueueUrl=url, ReceiptHandle=m["ReceiptHandle"], VisibilityTimeout=0)
    again = receive_one(sqs, url, AttributeNames=["ApproximateReceiveCount"])
    assert again["MessageId"] == m["MessageId"]
    assert again["Attributes"]["ApproximateReceiveCount"] == "2"
    assert again["ReceiptHandle"] != m["ReceiptHandle"]

    out = sqs.change_message_visibility_batch(
        QueueUrl=url,
        Entries=[
            {"Id": "real", "ReceiptHandle": again["ReceiptHandle"], "VisibilityTimeout": 0},
            {"Id": "fake", "ReceiptHandle": "garbage", "VisibilityTimeout": 0},
        ],
    )
    assert [e["Id"] for e in out["Successful"]] == ["real"]
    assert [(e["Id"], e["Code"]) for e in out["Failed"]] == [("fake", "ReceiptHandleIsInvalid")]
    assert counts(sqs, url) == (1, 0)

    with pytest.raises(ClientError) as e:
        sqs.change_message_visibility(QueueUrl=url, ReceiptHandle="garbage", VisibilityTimeout=5)
    assert error_code(e) == "ReceiptHandleIsInvalid"


def test_queue_does_not_exist(sqs, make_queue, endpoint):
    with pytest.raises(sqs.exceptions.QueueDoesNotExist) as e:
        sqs.get_queue_url(QueueName="no-such-queue")
    assert error_code(e) == "AWS.SimpleQueueService.NonExistentQueue"
    assert e.value.response["ResponseMetadata"]["HTTPStatusCode"] == 400

    url = make_queue()
    sqs.delete_queue(QueueUrl=url)
    with pytest.raises(sqs.exceptions.QueueDoesNotExist):
        sqs.send_message(QueueUrl=url, MessageBody="into the void")


def test_invalid_parameter_value(sqs, make_queue):
    url = make_queue()
    with pytest.raises(ClientError) as e:
        sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=11)
    assert error_code(e) == "InvalidParameterValue"
    assert "MaxNumberOfMessages" in e.value.response["Error"]["Message"]
    with pytest.raises(ClientError) as e:
        sqs.create_queue(QueueName="bad name!")
    assert error_code(e) == "InvalidParameterValue"
    with pytest.raises(ClientError) as e:
        sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["NoSuchAttribute"])
    assert error_code(e) == "InvalidAttributeName"


def test_dlq_redrive(sqs, make_queue):
    dlq = make_queue(prefix="dlq")
    dlq_arn = queue_arn(sqs, dlq)
    policy = '{"deadLetterTargetArn":"%s","maxReceiveCount":"2"}' % dlq_arn
    source = make_queue(prefix="src", RedrivePolicy=policy)
    source_arn = queue_arn(sqs, source)
    assert sqs.list_dead_letter_source_queues(QueueUrl=dlq)["queueUrls"] == [source]

    sent = sqs.send_message(QueueUrl=source, MessageBody="poison")
    for count in ("1", "2"):
        m = receive_one(sqs, source, VisibilityTimeout=0, AttributeNames=["All"])
        assert m["Attributes"]["ApproximateReceiveCount"] == count
    # The third receive moves it to the DLQ instead of delivering it.
    assert "Messages" not in sqs.receive_message(QueueUrl=source, VisibilityTimeout=0)
    moved = receive_one(sqs, dlq, AttributeNames=["All"], VisibilityTimeout=0)
    assert moved["MessageId"] == sent["MessageId"]
    assert moved["Body"] == "poison"
    assert moved["Attributes"]["DeadLetterQueueSourceArn"] == source_arn
    assert counts(sqs, source) == (0, 0)


def test_move_task(sqs, make_queue):
    dlq = make_queue(prefix="dlq")
    dlq_arn = queue_arn(sqs, dlq)
    policy = '{"deadLetterTargetArn":"%s","maxReceiveCount":"1"}' % dlq_arn
    source = make_queue(prefix="src", RedrivePolicy=policy)
    sent = sqs.send_message(QueueUrl=source, MessageBody="redrive me")
    receive_one(sqs, source, VisibilityTimeout=0)
    assert "Messages" not in sqs.receive_message(QueueUrl=source)
    assert counts(sqs, dlq) == (1, 0)

    handle = sqs.start_message_move_task(SourceArn=dlq_arn)["TaskHandle"]
    assert handle
    # The move runs in the background; its own status is the event to wait for.
    deadline = time.monotonic() + 15
    while True:
        [task] = sqs.list_message_move_tasks(SourceArn=dlq_arn)["Results"]
        if task["Status"] != "RUNNING" or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert task["Status"] == "COMPLETED", task
    assert task["SourceArn"] == dlq_arn
    assert task["ApproximateNumberOfMessagesMoved"] == 1
    assert isinstance(task["StartedTimestamp"], int)
    back = receive_one(sqs, source, WaitTimeSeconds=1)
    assert (back["MessageId"], back["Body"]) == (sent["MessageId"], "redrive me")
    assert counts(sqs, dlq) == (0, 0)


def test_fifo_order_dedup(sqs, make_queue):
    url = make_queue(prefix="order", fifo=True)
    sent = []
    for group, body in [("g1", "a1"), ("g2", "b1"), ("g1", "a2"), ("g2", "b2"), ("g1", "a3")]:
        sent.append(
            sqs.send_message(
                QueueUrl=url, MessageBody=body, MessageGroupId=group, MessageDeduplicationId=body
            )
        )
    sequence = [int(out["SequenceNumber"]) for out in sent]
    assert sequence == sorted(set(sequence))
    # A duplicate within 5 minutes is accepted, answered with the original, and not queued.
    again = sqs.send_message(
        QueueUrl=url, MessageBody="a1 again", MessageGroupId="g1", MessageDeduplicationId="a1"
    )
    assert again["MessageId"] == sent[0]["MessageId"]
    assert counts(sqs, url) == (5, 0)

    head = receive_one(sqs, url, AttributeNames=["All"])
    assert head["Body"] == "a1"
    assert head["Attributes"]["MessageGroupId"] == "g1"
    assert head["Attributes"]["MessageDeduplicationId"] == "a1"
    # g1 is locked while a1 is in flight; only g2 is served, in order.
    rest = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)["Messages"]
    assert [m["Body"] for m in rest] == ["b1", "b2"]
    sqs.delete_message(QueueUrl=url, ReceiptHandle=head["ReceiptHandle"])
    rest = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)["Messages"]
    assert [m["Body"] for m in rest] == ["a2", "a3"]

    with pytest.raises(ClientError) as e:
        sqs.send_message(QueueUrl=url, MessageBody="no group", MessageDeduplicationId="x")
    assert error_code(e) == "MissingParameter"


def test_fifo_group_visibility(sqs, make_queue, endpoint):
    url = make_queue(prefix="groups", fifo=True, ContentBasedDeduplication="true")
    for group, body in [("g1", "a1"), ("g1", "a2"), ("g1", "a3")]:
        sqs.send_message(QueueUrl=url, MessageBody=body, MessageGroupId=group)
    both = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=2)["Messages"]
    assert [m["Body"] for m in both] == ["a1", "a2"]
    # Ending a1's visibility makes a1 receivable again; a2 stays in flight and a3 behind it.
    sqs.change_message_visibility(QueueUrl=url, ReceiptHandle=both[0]["ReceiptHandle"], VisibilityTimeout=0)
    again = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)["Messages"]
    assert [m["Body"] for m in again] == ["a1"]

    # A long poll parked on the queue wakes when the group's in-flight head is deleted.
    for m in again:
        sqs.change_message_visibility(QueueUrl=url, ReceiptHandle=m["ReceiptHandle"], VisibilityTimeout=30)
    sqs.delete_message(QueueUrl=url, ReceiptHandle=again[0]["ReceiptHandle"])
    sqs.change_message_visibility(QueueUrl=url, ReceiptHandle=both[1]["ReceiptHandle"], VisibilityTimeout=30)
    polling = threading.Event()
    result = {}

    def receiver():
        polling.set()
        start = time.monotonic()
        result["messages"] = sqs.receive_message(QueueUrl=url, WaitTimeSeconds=20).get("Messages", [])
        result["elapsed"] = time.monotonic() - start

    thread = threading.Thread(target=receiver)
    thread.start()
    assert polling.wait(5)
    wait_parked(endpoint, url)  # parked, so that the delete is what wakes it
    sqs.delete_message(QueueUrl=url, ReceiptHandle=both[1]["ReceiptHandle"])
    thread.join(25)
    assert [m["Body"] for m in result["messages"]] == ["a3"]
    assert result["elapsed"] < 10, f"the delete woke the long poll after {result['elapsed']:.1f}s"

    # Between groups, the group received last goes to the back.
    url = make_queue(prefix="rotation", fifo=True, ContentBasedDeduplication="true")
    for group in ("g1", "g2", "g3"):
        sqs.send_message(QueueUrl=url, MessageBody=group, MessageGroupId=group)
    first = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=2, VisibilityTimeout=0)["Messages"]
    assert [m["Body"] for m in first] == ["g1", "g2"]
    nxt = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=1)["Messages"]
    assert [m["Body"] for m in nxt] == ["g3"]


def test_receipt_handle_rules(sqs, make_queue):
    url = make_queue(VisibilityTimeout=30)
    sqs.send_message(QueueUrl=url, MessageBody="twice")
    old = receive_one(sqs, url, VisibilityTimeout=0)
    new = receive_one(sqs, url)
    assert new["ReceiptHandle"] != old["ReceiptHandle"]
    # On a standard queue an older handle still changes the visibility of the message.
    sqs.change_message_visibility(QueueUrl=url, ReceiptHandle=old["ReceiptHandle"], VisibilityTimeout=0)
    third = receive_one(sqs, url, AttributeNames=["ApproximateReceiveCount"])
    assert third["Attributes"]["ApproximateReceiveCount"] == "3"
    # ...and deletes it.
    sqs.delete_message(QueueUrl=url, ReceiptHandle=old["ReceiptHandle"])
    assert counts(sqs, url) == (0, 0)


def test_validation_fidelity(sqs, make_queue, expected_protocol):
    with pytest.raises(ClientError) as e:
        sqs.create_queue(QueueName="std-" + uuid.uuid4().hex[:8], Attributes={"FifoQueue": "false"})
    assert error_code(e) == "InvalidAttributeName"
    assert e.value.response["Error"]["Message"] == "Unknown Attribute FifoQueue."

    fifo = make_queue(prefix="vfifo", fifo=True)
    with pytest.raises(ClientError) as e:
        sqs.send_message_batch(
            QueueUrl=fifo,
            Entries=[
                {"Id": "a", "MessageBody": "a", "MessageGroupId": "g", "MessageDeduplicationId": "a"},
                {"Id": "b", "MessageBody": "b", "MessageDeduplicationId": "b"},
            ],
        )
    assert error_code(e) == "InvalidParameterValue"
    assert counts(sqs, fifo) == (0, 0)

    url = make_queue()
    with pytest.raises(sqs.exceptions.InvalidBatchEntryId):
        sqs.send_message_batch(QueueUrl=url, Entries=[{"Id": "", "MessageBody": "x"}])
    with pytest.raises(sqs.exceptions.EmptyBatchRequest):
        sqs.send_message_batch(QueueUrl=url, Entries=[])

    unicode_attr = {"attr.1\u00f8\u00df\u00e4": {"DataType": "String", "StringValue": "Valida"}}
    sqs.send_message(QueueUrl=url, MessageBody="m", MessageAttributes=unicode_attr)
    with pytest.raises(ClientError) as e:
        sqs.send_message(
            QueueUrl=url,
            MessageBody="m",
            MessageAttributes={"attr1": {"DataType": "String", "StringValue": "Invalid-\x08,\x0b"}},
        )
    assert error_code(e) == "InvalidParameterValue"
    m = receive_one(sqs, url, MessageAttributeNames=["*"], VisibilityTimeout=0)
    assert m["MessageAttributes"] == unicode_attr
    # No system attributes asked for: an empty list means none.
    m = receive_one(sqs, url, AttributeNames=[], VisibilityTimeout=0)
    assert "Attributes" not in m


def test_recreate_deleted_queue(sqs):
    name = "again-" + uuid.uuid4().hex[:8]
    url = sqs.create_queue(QueueName=name)["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="old")
    sqs.delete_queue(QueueUrl=url)
    # SQS makes a name wait 60 s after a delete; sqslite does so only under --strict.
    again = sqs.create_queue(QueueName=name)["QueueUrl"]
    assert again == url
    assert counts(sqs, again) == (0, 0)
    sqs.delete_queue(QueueUrl=again)
