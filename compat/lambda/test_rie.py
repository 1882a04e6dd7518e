"""AWS's Runtime Interface Emulator running a Python handler through awslambdaric, the code path
of a Lambda container image, behind an `invoke_url` function: sqslite's poller invokes it
through the Lambda Invoke API."""

import pytest

from conftest import mapping_config, send_together, wait_until


def rie_config(emulator, **kw):
    return mapping_config(f'invoke_url = "{emulator.url}"', **kw)


def bodies(event):
    return sorted(r["body"] for r in event["Records"])


def test_messages_reach_the_handler_and_are_deleted(sqslite, rie):
    """Here the function has a name of its own and invoke_url is RIE's whole invocation URL."""
    emulator = rie("plain.handler")
    url = f"{emulator.url}/2015-03-31/functions/function/invocations"
    server = sqslite(mapping_config(f'invoke_url = "{url}"', name="orders-handler"))
    send_together(server, "orders", ["a", "b", "c"])
    events = wait_until("one invocation", emulator.events)
    assert [bodies(e) for e in events] == [["a", "b", "c"]]
    wait_until("the batch to be deleted", lambda: server.counts("orders") == (0, 0))
    record = events[0]["Records"][0]
    assert record["eventSource"] == "aws:sqs"
    assert record["eventSourceARN"] == server.queue_arn("orders")
    assert record["attributes"]["ApproximateReceiveCount"] == "1"
    assert server.counts("orders-dlq") == (0, 0)


# RIE answers a function error with 200 and the error document as the body; it drops the
# X-Amz-Function-Error header Lambda's Invoke API sets (its ResponseWriterProxy keeps only the
# status and body), so sqslite's invoke_url also takes that document as a function error.


def test_raising_handler_returns_the_batch_then_the_dlq_takes_it(sqslite, rie):
    """awslambdaric reports the exception to RIE, which answers the Invoke with the error
    document ({"errorMessage", "errorType", ...}); the whole batch comes back at the visibility
    timeout, and past maxReceiveCount (2) the queue's redrive policy moves it to the DLQ."""
    emulator = rie("plain.handler")
    server = sqslite(rie_config(emulator, visibility=30, max_receive=2))
    send_together(server, "orders", ["ok", "fail-1"])
    wait_until("the first invocation", emulator.events)
    wait_until("the batch to stay in flight", lambda: server.counts("orders") == (0, 2))
    server.advance(30)
    events = wait_until("the retry", lambda: len(emulator.events()) == 2 and emulator.events())
    assert [bodies(e) for e in events] == [["fail-1", "ok"], ["fail-1", "ok"]]
    assert {r["attributes"]["ApproximateReceiveCount"] for r in events[1]["Records"]} == {"2"}
    wait_until("the retry to stay in flight", lambda: server.counts("orders") == (0, 2))
    server.advance(30)
    wait_until("both messages in the DLQ", lambda: server.counts("orders-dlq") == (2, 0))
    assert server.counts("orders") == (0, 0)
    assert len(emulator.events()) == 2


def test_powertools_partial_batch_behind_rie(sqslite, rie):
    """Powertools' BatchProcessor behind RIE with ReportBatchItemFailures: only the failed
    record comes back, and its retry (which the handler lets through) deletes it."""
    emulator = rie("batch.handler")
    server = sqslite(rie_config(emulator, report=True))
    send_together(server, "orders", ["ok-1", "flaky-2", "ok-3"])
    wait_until("the first invocation", emulator.events)
    wait_until("only the failure in flight", lambda: server.counts("orders") == (0, 1))
    server.advance(30)
    events = wait_until("the retry", lambda: len(emulator.events()) == 2 and emulator.events())
    assert [bodies(e) for e in events] == [["flaky-2", "ok-1", "ok-3"], ["flaky-2"]]
    assert events[1]["Records"][0]["attributes"]["ApproximateReceiveCount"] == "2"
    wait_until("the retry deleted", lambda: server.counts("orders") == (0, 0))
    assert server.counts("orders-dlq") == (0, 0)


def test_powertools_every_record_failing_behind_rie(sqslite, rie):
    """Every record failing makes process_partial_response raise: a function error, so the
    batch comes back and, past maxReceiveCount, the DLQ takes it."""
    emulator = rie("batch.handler")
    server = sqslite(rie_config(emulator, report=True))
    send_together(server, "orders", ["fail-1"])
    wait_until("the first invocation", emulator.events)
    wait_until("the message in flight", lambda: server.counts("orders") == (0, 1))
    server.advance(30)
    wait_until("the retry", lambda: len(emulator.events()) == 2)
    server.advance(30)
    wait_until("the message in the DLQ", lambda: server.counts("orders-dlq") == (1, 0))
