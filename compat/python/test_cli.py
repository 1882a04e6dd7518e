"""The AWS CLI (v1, from PyPI) against sqslite through --endpoint-url, as a person would type it."""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import uuid

import pytest

import sqsmd5


def aws(endpoint, *args, expect_ok=True, service="sqs", keys=("test", "test")):
    """Runs `aws SERVICE ARGS...` signing with keys: (access key, secret[, session token])."""
    exe = shutil.which("aws", path=os.path.dirname(sys.executable)) or "aws"
    env = dict(
        os.environ,
        AWS_ACCESS_KEY_ID=keys[0],
        AWS_SECRET_ACCESS_KEY=keys[1],
        AWS_DEFAULT_REGION="us-east-1",
        AWS_MAX_ATTEMPTS="1",
        AWS_CONFIG_FILE=os.devnull,
        AWS_SHARED_CREDENTIALS_FILE=os.devnull,
    )
    env.pop("AWS_SESSION_TOKEN", None)
    if len(keys) > 2:
        env["AWS_SESSION_TOKEN"] = keys[2]
    proc = subprocess.run(
        [exe, "--endpoint-url", endpoint, "--output", "json", service, *args],
        capture_output=True,
        text=True,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    if expect_ok:
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout) if proc.stdout.strip() else {}
    assert proc.returncode != 0, proc.stdout
    return proc.stderr


@pytest.fixture
def queue_url(endpoint):
    name = f"cli-{uuid.uuid4().hex[:12]}"
    url = aws(endpoint, "create-queue", "--queue-name", name,
              "--attributes", "VisibilityTimeout=40")["QueueUrl"]
    yield url
    aws(endpoint, "delete-queue", "--queue-url", url)


def test_cli_version():
    out = subprocess.run(
        [shutil.which("aws", path=os.path.dirname(sys.executable)) or "aws", "--version"],
        capture_output=True, text=True, check=True,
    )
    assert out.stdout.startswith("aws-cli/1.")


def test_queue_lifecycle(endpoint, queue_url):
    name = queue_url.rsplit("/", 1)[1]
    assert aws(endpoint, "get-queue-url", "--queue-name", name)["QueueUrl"] == queue_url
    listed = aws(endpoint, "list-queues", "--queue-name-prefix", name)
    assert listed["QueueUrls"] == [queue_url]
    attrs = aws(endpoint, "get-queue-attributes", "--queue-url", queue_url,
                "--attribute-names", "All")["Attributes"]
    assert attrs["VisibilityTimeout"] == "40"
    assert attrs["ApproximateNumberOfMessages"] == "0"


def test_message_attributes(endpoint, queue_url):
    body = "hello from the CLI \u00e9"
    # CLI v1 sends a blob given on the command line as its raw bytes (no base64 decoding) and
    # prints received blobs base64-encoded.
    attributes = {
        "s": {"DataType": "String", "StringValue": "v"},
        "n": {"DataType": "Number.int", "StringValue": "42"},
        "b": {"DataType": "Binary", "BinaryValue": "raw bytes"},
    }
    sent = aws(endpoint, "send-message", "--queue-url", queue_url, "--message-body", body,
               "--message-attributes", json.dumps(attributes))
    assert sent["MD5OfMessageBody"] == hashlib.md5(body.encode()).hexdigest()
    on_the_wire = dict(attributes, b={"DataType": "Binary", "BinaryValue": b"raw bytes"})
    assert sent["MD5OfMessageAttributes"] == sqsmd5.of_attributes(on_the_wire)

    attrs = aws(endpoint, "get-queue-attributes", "--queue-url", queue_url,
                "--attribute-names", "ApproximateNumberOfMessages")["Attributes"]
    assert attrs == {"ApproximateNumberOfMessages": "1"}

    got = aws(endpoint, "receive-message", "--queue-url", queue_url, "--wait-time-seconds", "5",
              "--message-attribute-names", "All", "--attribute-names", "All")
    [m] = got["Messages"]
    assert m["Body"] == body
    assert m["MessageId"] == sent["MessageId"]
    printed = dict(attributes, b={"DataType": "Binary", "BinaryValue": "cmF3IGJ5dGVz"})
    assert m["MessageAttributes"] == printed
    assert m["MD5OfMessageAttributes"] == sent["MD5OfMessageAttributes"]
    assert m["Attributes"]["ApproximateReceiveCount"] == "1"

    aws(endpoint, "delete-message", "--queue-url", queue_url, "--receipt-handle", m["ReceiptHandle"])
    attrs = aws(endpoint, "get-queue-attributes", "--queue-url", queue_url,
                "--attribute-names", "ApproximateNumberOfMessages",
                "ApproximateNumberOfMessagesNotVisible")["Attributes"]
    assert attrs == {"ApproximateNumberOfMessages": "0", "ApproximateNumberOfMessagesNotVisible": "0"}
    assert aws(endpoint, "receive-message", "--queue-url", queue_url) == {}


def test_queue_does_not_exist(endpoint):
    err = aws(endpoint, "get-queue-url", "--queue-name", "no-such-queue", expect_ok=False)
    assert "AWS.SimpleQueueService.NonExistentQueue" in err or "QueueDoesNotExist" in err


def test_invalid_parameter_value(endpoint, queue_url):
    err = aws(endpoint, "receive-message", "--queue-url", queue_url,
              "--max-number-of-messages", "11", expect_ok=False)
    assert "InvalidParameterValue" in err


def test_validation_fidelity(endpoint, queue_url):
    err = aws(endpoint, "create-queue", "--queue-name", f"cli-std-{uuid.uuid4().hex[:8]}",
              "--attributes", "FifoQueue=false", expect_ok=False)
    assert "InvalidAttributeName" in err and "Unknown Attribute FifoQueue." in err
    attributes = {"attr.1\u00f8\u00df\u00e4": {"DataType": "String", "StringValue": "Valida"}}
    aws(endpoint, "send-message", "--queue-url", queue_url, "--message-body", "m",
        "--message-attributes", json.dumps(attributes))
    got = aws(endpoint, "receive-message", "--queue-url", queue_url,
              "--message-attribute-names", "*")
    assert got["Messages"][0]["MessageAttributes"] == attributes


def test_recreate_deleted_queue(endpoint):
    name = f"cli-again-{uuid.uuid4().hex[:8]}"
    url = aws(endpoint, "create-queue", "--queue-name", name)["QueueUrl"]
    aws(endpoint, "delete-queue", "--queue-url", url)
    # Off by default, SQS's 60-second wait after a delete (--strict restores it).
    assert aws(endpoint, "create-queue", "--queue-name", name)["QueueUrl"] == url
    aws(endpoint, "delete-queue", "--queue-url", url)


# compat/run.sh starts the CLI's server with compat/python/cli.toml, which declares this
# function; every mapping here is created disabled, so nothing ever invokes it.
CLI_FUNCTION = "cli-handler"


def test_lambda_event_source_mapping(endpoint, queue_url):
    """`aws lambda ...-event-source-mapping` wires a queue to a declared function."""
    arn = aws(endpoint, "get-queue-attributes", "--queue-url", queue_url,
              "--attribute-names", "QueueArn")["Attributes"]["QueueArn"]

    def lam(*args, expect_ok=True):
        return aws(endpoint, *args, expect_ok=expect_ok, service="lambda")

    created = lam("create-event-source-mapping", "--function-name", CLI_FUNCTION,
                  "--event-source-arn", arn, "--batch-size", "5", "--no-enabled")
    uuid_ = created["UUID"]
    assert created["State"] == "Disabled"
    assert created["BatchSize"] == 5
    assert created["FunctionArn"] == f"arn:aws:lambda:us-east-1:000000000000:function:{CLI_FUNCTION}"
    assert created["EventSourceArn"] == arn
    listed = lam("list-event-source-mappings", "--function-name", CLI_FUNCTION)
    assert [m["UUID"] for m in listed["EventSourceMappings"]] == [uuid_]

    err = lam("create-event-source-mapping", "--function-name", CLI_FUNCTION,
              "--event-source-arn", arn, expect_ok=False)
    assert "(ResourceConflictException)" in err and uuid_ in err, err
    err = lam("create-event-source-mapping", "--function-name", CLI_FUNCTION,
              "--event-source-arn", arn, "--batch-size", "50", expect_ok=False)
    assert "(InvalidParameterValueException)" in err, err
    assert "Maximum batch window in seconds must be greater than 0" in err, err

    updated = lam("update-event-source-mapping", "--uuid", uuid_, "--batch-size", "7")
    assert (updated["State"], updated["BatchSize"]) == ("Updating", 7)
    deleted = lam("delete-event-source-mapping", "--uuid", uuid_)
    assert deleted["State"] == "Deleting"
    err = lam("get-event-source-mapping", "--uuid", uuid_, expect_ok=False)
    assert "(ResourceNotFoundException)" in err, err


def test_sts_caller_identity_and_assume_role(endpoint):
    """`aws sts ...`: without [[credentials]] the key is an IAM user of the server's account, and
    any well-formed role may be assumed."""
    me = aws(endpoint, "get-caller-identity", service="sts")
    assert (me["Account"], me["Arn"]) == ("000000000000", "arn:aws:iam::000000000000:user/test")
    assert me["UserId"].startswith("AIDA")
    out = aws(endpoint, "assume-role", "--role-arn", "arn:aws:iam::111111111111:role/ci",
              "--role-session-name", "cli", service="sts")
    assert out["AssumedRoleUser"]["Arn"] == "arn:aws:sts::111111111111:assumed-role/ci/cli"
    assert out["Credentials"]["AccessKeyId"].startswith("ASIA")
    err = aws(endpoint, "assume-role", "--role-arn", "arn:aws:iam::111111111111:role/ci",
              "--role-session-name", "a/b", expect_ok=False, service="sts")
    assert "(ValidationError)" in err and "roleSessionName" in err, err
