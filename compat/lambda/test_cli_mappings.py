"""The AWS CLI's `lambda` event-source-mapping commands (awscli v1) against sqslite's Lambda API
through --endpoint-url, as a person would type them; a mapping made this way drives a handler
behind RIE like a declared one."""

import json
import os
import subprocess

from conftest import ACCOUNT, REGION, send_together, tool, wait_until

FUNCTION_ARN = f"arn:aws:lambda:{REGION}:{ACCOUNT}:function:function"


def aws(server, *args, expect_ok=True):
    env = dict(
        os.environ,
        AWS_ACCESS_KEY_ID="test",
        AWS_SECRET_ACCESS_KEY="test",
        AWS_DEFAULT_REGION=REGION,
        AWS_MAX_ATTEMPTS="1",
        AWS_CONFIG_FILE=os.devnull,
        AWS_SHARED_CREDENTIALS_FILE=os.devnull,
    )
    proc = subprocess.run(
        [tool("aws"), "--endpoint-url", server.endpoint, "--output", "json", "lambda", *args],
        capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL, timeout=60,
    )
    if expect_ok:
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout) if proc.stdout.strip() else {}
    assert proc.returncode != 0, proc.stdout
    return proc.stderr


def api_config(invoke_url):
    return f"""
[[queues]]
name = "orders"
VisibilityTimeout = 30

[[functions]]
name = "function"
invoke_url = "{invoke_url}"
timeout = 30
"""


def test_mapping_lifecycle(sqslite):
    server = sqslite(api_config("http://127.0.0.1:9"))
    arn = server.queue_arn("orders")
    made = aws(server, "create-event-source-mapping", "--function-name", "function",
               "--event-source-arn", arn, "--batch-size", "5")
    uuid = made["UUID"]
    assert made["EventSourceArn"] == arn
    assert made["FunctionArn"] == FUNCTION_ARN
    assert made["BatchSize"] == 5
    assert made["State"] == "Creating"

    listed = aws(server, "list-event-source-mappings", "--function-name", "function")
    assert [m["UUID"] for m in listed["EventSourceMappings"]] == [uuid]
    by_queue = aws(server, "list-event-source-mappings", "--event-source-arn", arn)
    assert [m["UUID"] for m in by_queue["EventSourceMappings"]] == [uuid]

    got = wait_until("the mapping to be enabled", lambda: (
        m := aws(server, "get-event-source-mapping", "--uuid", uuid))["State"] == "Enabled" and m)
    assert got["BatchSize"] == 5 and got["FunctionArn"] == FUNCTION_ARN

    updated = aws(server, "update-event-source-mapping", "--uuid", uuid, "--batch-size", "7")
    assert updated["BatchSize"] == 7 and updated["State"] == "Updating"
    aws(server, "update-event-source-mapping", "--uuid", uuid, "--no-enabled")
    wait_until("the mapping to be disabled", lambda: aws(
        server, "get-event-source-mapping", "--uuid", uuid)["State"] == "Disabled")

    deleted = aws(server, "delete-event-source-mapping", "--uuid", uuid)
    assert deleted["UUID"] == uuid and deleted["State"] == "Deleting"
    wait_until("the mapping to be gone", lambda: "ResourceNotFoundException" in aws(
        server, "get-event-source-mapping", "--uuid", uuid, expect_ok=False))
    assert aws(server, "list-event-source-mappings")["EventSourceMappings"] == []


def test_errors_as_lambda_reports_them(sqslite):
    """The CLI shows Lambda's error codes and messages (the refusal table of docs/src/triggers.md)."""
    server = sqslite(api_config("http://127.0.0.1:9"))
    arn = server.queue_arn("orders")
    missing = aws(server, "get-event-source-mapping", "--uuid",
                  "00000000-0000-0000-0000-000000000000", expect_ok=False)
    assert "(ResourceNotFoundException)" in missing
    unknown = aws(server, "create-event-source-mapping", "--function-name", "nope",
                  "--event-source-arn", arn, expect_ok=False)
    assert "(InvalidParameterValueException)" in unknown and "Function does not exist" in unknown
    too_big = aws(server, "create-event-source-mapping", "--function-name", "function",
                  "--event-source-arn", arn, "--batch-size", "11", expect_ok=False)
    assert "(InvalidParameterValueException)" in too_big
    assert "Maximum batch window in seconds must be greater than 0" in too_big
    aws(server, "create-event-source-mapping", "--function-name", "function",
        "--event-source-arn", arn)
    twice = aws(server, "create-event-source-mapping", "--function-name", FUNCTION_ARN,
                "--event-source-arn", arn, expect_ok=False)
    assert "(ResourceConflictException)" in twice and "already exists" in twice


def test_mapping_made_by_the_cli_drives_the_handler(sqslite, rie):
    emulator = rie("plain.handler")
    server = sqslite(api_config(emulator.url))
    uuid = aws(server, "create-event-source-mapping", "--function-name", FUNCTION_ARN,
               "--event-source-arn", server.queue_arn("orders"))["UUID"]
    wait_until("the mapping to be enabled", lambda: aws(
        server, "get-event-source-mapping", "--uuid", uuid)["State"] == "Enabled")
    send_together(server, "orders", ["via-cli"])
    events = wait_until("the invocation", emulator.events)
    assert [r["body"] for r in events[0]["Records"]] == ["via-cli"]
    wait_until("the message deleted", lambda: server.counts("orders") == (0, 0))
