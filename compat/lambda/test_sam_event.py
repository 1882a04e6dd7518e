"""The event sqslite sends beside SAM CLI's sample SQS event (`sam local generate-event sqs
receive-message`): the same keys at every level, the same value types, the same fixed values.
A key sqslite adds, drops or renames, or a number where Lambda sends a string, fails here."""

import base64
import json
import re
import subprocess
import sys

from conftest import ACCOUNT, FUNCTIONS, REGION, tool, wait_until

BODY = "Hello from sqslite!"


def sam_event(queue, body):
    out = subprocess.run(
        [tool("sam"), "local", "generate-event", "sqs", "receive-message", "--region", REGION,
         "--account-id", ACCOUNT, "--queue-name", queue, "--body", body],
        capture_output=True, text=True, check=True, stdin=subprocess.DEVNULL, timeout=120,
        env={"SAM_CLI_TELEMETRY": "0", "PATH": "/usr/bin:/bin", "HOME": "/tmp"},
    )
    return json.loads(out.stdout)


def shape(value):
    """Keys at every level and the JSON type of every leaf; a list's shape is its items'."""
    if isinstance(value, dict):
        return {k: shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [shape(v) for v in value[:1]]
    return type(value).__name__


def captured_event(sqslite, workdir, queue, fifo=False, send=None):
    """Sends one message and returns the event a `command` function got for it."""
    records = workdir / "command-events.jsonl"
    records.touch()
    fifo_line = "FifoQueue = true\nContentBasedDeduplication = true\n" if fifo else ""
    server = sqslite(f"""
[[queues]]
name = "{queue}"
{fifo_line}
[[functions]]
name = "recorder"
command = ["{sys.executable}", "{FUNCTIONS / 'command.py'}", "plain.handler"]

[[event_source_mappings]]
function = "recorder"
queue = "{queue}"
batch_size = 1
""", env={"RECORD_FILE": str(records)})
    url = server.queue_url(queue)
    params = {"QueueUrl": url, "MessageBody": BODY, **(send or {})}
    if fifo:
        params["MessageGroupId"] = "g1"
    server.sqs.send_message(**params)
    lines = wait_until("the command function's event",
                       lambda: records.read_text().splitlines())
    return json.loads(lines[0]), server


def test_sam_cli_version():
    out = subprocess.run([tool("sam"), "--version"], capture_output=True, text=True, check=True,
                         env={"SAM_CLI_TELEMETRY": "0", "PATH": "/usr/bin:/bin", "HOME": "/tmp"})
    assert out.stdout.startswith("SAM CLI, version 1.")


def test_event_has_sams_shape(sqslite, workdir):
    event, _ = captured_event(sqslite, workdir, "orders")
    sam = sam_event("orders", BODY)
    assert shape(event) == shape(sam)
    ours, theirs = event["Records"][0], sam["Records"][0]
    for key in ("body", "md5OfBody", "eventSource", "eventSourceARN", "awsRegion"):
        assert ours[key] == theirs[key], key
    assert ours["messageAttributes"] == theirs["messageAttributes"] == {}
    assert ours["attributes"]["ApproximateReceiveCount"] == "1"
    assert re.fullmatch(r"[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}", ours["messageId"])
    for stamp in ("SentTimestamp", "ApproximateFirstReceiveTimestamp"):
        assert re.fullmatch(r"[0-9]{13}", ours["attributes"][stamp]), stamp


def test_event_with_message_attributes(sqslite, workdir):
    """SAM's sample has no message attributes; with them Lambda adds md5OfMessageAttributes and
    gives each attribute its lower-camel shape (Lambda's "Using Lambda with Amazon SQS" sample:
    stringValue, stringListValues, binaryListValues, dataType; binaryValue for Binary)."""
    attributes = {
        "kind": {"DataType": "String", "StringValue": "order"},
        "blob": {"DataType": "Binary", "BinaryValue": b"\x00\x01"},
    }
    event, _ = captured_event(sqslite, workdir, "orders", send={"MessageAttributes": attributes})
    sam = sam_event("orders", BODY)
    ours = event["Records"][0]
    assert set(ours) == set(sam["Records"][0]) | {"md5OfMessageAttributes"}
    assert re.fullmatch(r"[0-9a-f]{32}", ours["md5OfMessageAttributes"])
    assert ours["messageAttributes"]["kind"] == {
        "stringValue": "order", "stringListValues": [], "binaryListValues": [],
        "dataType": "String",
    }
    blob = ours["messageAttributes"]["blob"]
    assert set(blob) == {"binaryValue", "stringListValues", "binaryListValues", "dataType"}
    assert base64.b64decode(blob["binaryValue"]) == b"\x00\x01"
    assert blob["dataType"] == "Binary"


def test_fifo_event_adds_only_the_fifo_attributes(sqslite, workdir):
    """A FIFO queue's records carry SAM's keys plus SequenceNumber, MessageGroupId and
    MessageDeduplicationId among the attributes (Lambda's FIFO sample event)."""
    event, _ = captured_event(sqslite, workdir, "orders.fifo", fifo=True)
    sam = sam_event("orders.fifo", BODY)
    ours, theirs = event["Records"][0], sam["Records"][0]
    assert set(ours) == set(theirs)
    assert set(ours["attributes"]) == set(theirs["attributes"]) | {
        "SequenceNumber", "MessageGroupId", "MessageDeduplicationId"}
    assert ours["attributes"]["MessageGroupId"] == "g1"
    assert all(isinstance(v, str) for v in ours["attributes"].values())
    assert ours["eventSourceARN"] == theirs["eventSourceARN"]
