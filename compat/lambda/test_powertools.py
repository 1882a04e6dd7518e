"""Powertools for AWS Lambda's batch processor (BatchProcessor and SqsFifoPartialProcessor with
process_partial_response) as a `command` function: with ReportBatchItemFailures only the
records it reports come back; without it, any failure returns the whole batch."""

import json

from conftest import FUNCTIONS, mapping_config, send_together, wait_until


def command_config(function_python, handler, **kw):
    argv = f'["{function_python}", "{FUNCTIONS / "command.py"}", "{handler}"]'
    return mapping_config(f"command = {argv}", **kw)


def events_of(path):
    return [json.loads(line) for line in path.read_text().splitlines() if line]


def bodies(event):
    return sorted(r["body"] for r in event["Records"])


def start(sqslite, workdir, function_python, handler="batch.handler", **kw):
    records = workdir / "events.jsonl"
    records.touch()
    server = sqslite(command_config(function_python, handler, **kw),
                     env={"RECORD_FILE": str(records), "POWERTOOLS_SERVICE_NAME": "compat"})
    return server, (lambda: events_of(records))


def test_only_reported_failures_come_back(sqslite, workdir, function_python):
    server, events = start(sqslite, workdir, function_python, report=True)
    send_together(server, "orders", ["ok-1", "fail-2", "ok-3", "fail-4"])
    wait_until("the first invocation", events)
    wait_until("only the failures in flight", lambda: server.counts("orders") == (0, 2))
    server.advance(30)
    seen = wait_until("the retry", lambda: len(events()) == 2 and events())
    assert [bodies(e) for e in seen] == [["fail-2", "fail-4", "ok-1", "ok-3"], ["fail-2", "fail-4"]]
    server.advance(30)
    wait_until("the failures in the DLQ", lambda: server.counts("orders-dlq") == (2, 0))
    assert server.counts("orders") == (0, 0)


def test_all_successes_delete_the_batch(sqslite, workdir, function_python):
    server, events = start(sqslite, workdir, function_python, report=True)
    send_together(server, "orders", ["ok-1", "ok-2"])
    wait_until("the invocation", events)
    wait_until("the batch deleted", lambda: server.counts("orders") == (0, 0))
    assert [bodies(e) for e in events()] == [["ok-1", "ok-2"]]


def test_without_report_batch_item_failures_the_whole_batch_returns(sqslite, workdir,
                                                                    function_python):
    """The same handler's batchItemFailures mean nothing when the mapping does not ask for
    them: the function succeeded, so Lambda deletes the whole batch."""
    server, events = start(sqslite, workdir, function_python, report=False)
    send_together(server, "orders", ["ok-1", "fail-2"])
    wait_until("the invocation", events)
    wait_until("the batch deleted", lambda: server.counts("orders") == (0, 0))
    assert server.counts("orders-dlq") == (0, 0)


def test_every_record_failing_fails_the_invocation(sqslite, workdir, function_python):
    """process_partial_response raises when every record failed; the command exits non-zero
    and the whole batch comes back."""
    server, events = start(sqslite, workdir, function_python, report=True)
    send_together(server, "orders", ["fail-1", "fail-2"])
    wait_until("the invocation", events)
    wait_until("the batch in flight", lambda: server.counts("orders") == (0, 2))
    server.advance(30)
    seen = wait_until("the retry", lambda: len(events()) == 2 and events())
    assert [bodies(e) for e in seen] == [["fail-1", "fail-2"], ["fail-1", "fail-2"]]


def test_fifo_processor_keeps_the_group_in_order(sqslite, workdir, function_python):
    """SqsFifoPartialProcessor reports the failed record and the rest of the batch; sqslite
    deletes the one before it and redelivers the rest of the group in order."""
    server, events = start(sqslite, workdir, function_python, handler="fifo.handler",
                           queue="orders.fifo", report=True, fifo=True)
    send_together(server, "orders.fifo", ["ok-1", "fail-2", "ok-3"])
    wait_until("the batch", events)
    assert [[r["body"] for r in e["Records"]] for e in events()] == [["ok-1", "fail-2", "ok-3"]]
    wait_until("ok-1 deleted, the rest in flight", lambda: server.counts("orders.fifo") == (0, 2))
    server.advance(30)
    seen = wait_until("the retry", lambda: len(events()) == 2 and events())
    assert [r["body"] for r in seen[1]["Records"]] == ["fail-2", "ok-3"]
