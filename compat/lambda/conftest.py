"""Fixtures for the Lambda-components suite: sqslite with a temp sqslite.toml on a manual clock,
AWS's Runtime Interface Emulator running a Python handler through awslambdaric, and helpers.

`compat/lambda/run.sh` installs everything and passes the paths in the environment:
SQSLITE_BIN (the server), LAMBDA_RIE (the aws-lambda-rie binary built from the Go module proxy),
LAMBDA_FUNCTION_PYTHON (the interpreter of the function's venv: awslambdaric, Powertools).
"""

import json
import os
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import boto3
import pytest
import urllib3
from botocore.config import Config

HERE = Path(__file__).resolve().parent
FUNCTIONS = HERE / "functions"
REGION, ACCOUNT = "us-east-1", "000000000000"


def need(var):
    value = os.environ.get(var)
    if not value:
        pytest.fail(f"{var} is not set: run the suite through compat/lambda/run.sh")
    return value


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(what, check, timeout=30.0):
    """Polls `check` (wall time, bounded) until it returns a true value, which it returns.

    Used only where another process must act (the poller invoking a handler in a process of its
    own); server time is moved with the manual clock, never waited for.
    """
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.05)


def terminate(proc, grace=15):
    """SIGTERM, then SIGKILL if the child is still there after `grace` seconds."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class Drain(threading.Thread):
    """Copies a child's output to a log file and hands over the first line matching a marker."""

    def __init__(self, stream, log, marker=None):
        super().__init__(daemon=True)
        self.stream, self.log, self.marker = stream, log, marker
        self.found, self.seen = None, threading.Event()

    def run(self):
        with open(self.log, "a", encoding="utf-8") as out:
            for line in self.stream:
                out.write(line)
                out.flush()
                if self.marker and self.found is None and self.marker in line:
                    self.found = line
                    self.seen.set()
        self.seen.set()


class Sqslite:
    """A sqslite server on an ephemeral port, on the manual clock, with its own sqslite.toml."""

    def __init__(self, toml, workdir, env=None):
        config = workdir / "sqslite.toml"
        config.write_text(toml)
        self.log = workdir / "sqslite.log"
        # The server's environment is a `command` function's too (RECORD_FILE for one).
        env = dict(os.environ, NO_COLOR="1", SQSLITE_LOG="info", **(env or {}))
        self.proc = subprocess.Popen(
            [need("SQSLITE_BIN"), "--port", "0", "--clock", "manual", "--config", str(config)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            text=True, env=env,
        )
        drain = Drain(self.proc.stdout, self.log, marker="listening on http://")
        drain.start()
        drain.seen.wait(30)
        if drain.found is None:
            terminate(self.proc)
            pytest.fail(f"sqslite did not start:\n{self.log.read_text()}")
        self.endpoint = drain.found.split("listening on ", 1)[1].split()[0]
        self.http = urllib3.PoolManager()
        self.sqs = boto3.client(
            "sqs", endpoint_url=self.endpoint, region_name=REGION,
            aws_access_key_id="test", aws_secret_access_key="test",
            config=Config(retries={"max_attempts": 1, "mode": "standard"}),
        )

    def queue_url(self, name):
        return self.sqs.get_queue_url(QueueName=name)["QueueUrl"]

    def queue_arn(self, name):
        return f"arn:aws:sqs:{REGION}:{ACCOUNT}:{name}"

    def counts(self, name):
        """(visible, in flight) of a queue, as GetQueueAttributes reports them."""
        attrs = self.sqs.get_queue_attributes(
            QueueUrl=self.queue_url(name),
            AttributeNames=["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
        )["Attributes"]
        return (int(attrs["ApproximateNumberOfMessages"]),
                int(attrs["ApproximateNumberOfMessagesNotVisible"]))

    def advance(self, seconds):
        """Moves the server's manual clock on (docs/src/clock-and-faults.md)."""
        r = self.http.request(
            "POST", f"{self.endpoint}/_sqslite/clock/advance",
            body=json.dumps({"seconds": seconds}), headers={"content-type": "application/json"},
        )
        assert r.status == 200, r.data

    def stop(self):
        terminate(self.proc)


class Rie:
    """aws-lambda-rie running `python -m awslambdaric MODULE.FN` as a Lambda image's entry point
    does, outside a container: the handler's folder is LAMBDA_TASK_ROOT and the working directory,
    `_HANDLER` names the handler, and both of RIE's ports are free ones chosen here (its runtime
    API would otherwise take 127.0.0.1:9001, its invoke API 0.0.0.0:8080).

    Each event the handler gets is appended to `records` (a JSON line per invocation).
    """

    def __init__(self, handler, workdir, env=None):
        self.port, api_port = free_port(), free_port()
        self.records = workdir / f"events-{uuid.uuid4().hex[:8]}.jsonl"
        self.records.touch()
        self.log = workdir / "rie.log"
        child_env = dict(
            os.environ,
            AWS_LAMBDA_FUNCTION_NAME="function",
            AWS_LAMBDA_FUNCTION_TIMEOUT="30",
            AWS_REGION=REGION,
            AWS_DEFAULT_REGION=REGION,
            LAMBDA_TASK_ROOT=str(FUNCTIONS),
            _HANDLER=handler,
            RECORD_FILE=str(self.records),
            POWERTOOLS_SERVICE_NAME="compat-lambda",
            **(env or {}),
        )
        self.proc = subprocess.Popen(
            [need("LAMBDA_RIE"),
             "--runtime-interface-emulator-address", f"127.0.0.1:{self.port}",
             "--runtime-api-address", f"127.0.0.1:{api_port}",
             need("LAMBDA_FUNCTION_PYTHON"), "-m", "awslambdaric", handler],
            cwd=FUNCTIONS, env=child_env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, text=True,
        )
        Drain(self.proc.stdout, self.log).start()
        self.url = f"http://127.0.0.1:{self.port}"
        wait_until("RIE to listen", self.listening, timeout=20)

    def listening(self):
        assert self.proc.poll() is None, f"aws-lambda-rie exited:\n{self.log.read_text()}"
        with socket.socket() as s:
            return s.connect_ex(("127.0.0.1", self.port)) == 0

    def events(self):
        return [json.loads(line) for line in self.records.read_text().splitlines() if line]

    def stop(self):
        terminate(self.proc)


@pytest.fixture
def workdir(tmp_path):
    return tmp_path


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed test's report carries the logs of the processes it started (sqslite, RIE)."""
    outcome = yield
    report = outcome.get_result()
    workdir = item.funcargs.get("workdir") if hasattr(item, "funcargs") else None
    if report.when == "call" and report.failed and workdir is not None:
        for log in sorted(workdir.glob("*.log")):
            report.sections.append((f"log {log.name}", log.read_text()[-8000:]))


def factory(kind, workdir):
    """Yields `start(first, env=None)`, making `kind(first, workdir, env)`; stops them all after."""
    started = []

    def start(first, env=None):
        started.append(kind(first, workdir, env))
        return started[-1]

    yield start
    for process in started:
        process.stop()


@pytest.fixture
def sqslite(workdir):
    """A factory: sqslite(toml, env) starts a server with that sqslite.toml."""
    yield from factory(Sqslite, workdir)


@pytest.fixture
def rie(workdir):
    """A factory: rie("module.fn", env) starts RIE with that handler."""
    yield from factory(Rie, workdir)


@pytest.fixture(scope="session")
def function_python():
    return need("LAMBDA_FUNCTION_PYTHON")


def tool(name):
    """A console script of the test venv (sam, aws)."""
    return str(Path(sys.executable).parent / name)


def mapping_config(target, *, queue="orders", visibility=30, max_receive=2, report=False,
                   batch_size=10, fifo=False, name="function"):
    """sqslite.toml for one queue with a DLQ, one function and a mapping from the queue to it.

    `target` is the function's `url`/`invoke_url`/`command` line. The function is named
    `function` unless told (RIE serves only /2015-03-31/functions/function/invocations). A FIFO
    queue (and its DLQ) delays every message by a second, FIFO's only delay, so that a batch
    send becomes visible at one instant (see send_together).
    """
    types = 'function_response_types = ["ReportBatchItemFailures"]' if report else ""
    dlq = f"{queue.removesuffix('.fifo')}-dlq" + (".fifo" if fifo else "")
    fifo_lines = "FifoQueue = true\nContentBasedDeduplication = true\nDelaySeconds = 1" if fifo else ""
    return f"""
[[queues]]
name = "{queue}"
VisibilityTimeout = {visibility}
dead_letter_queue = "{dlq}"
max_receive_count = {max_receive}
{fifo_lines}

[[queues]]
name = "{dlq}"
{fifo_lines}

[[functions]]
name = "{name}"
{target}
timeout = 30

[[event_source_mappings]]
function = "{name}"
queue = "{queue}"
batch_size = {batch_size}
{types}
"""


def send_together(server, queue, bodies):
    """Sends the bodies so that they become visible at one server instant, one second on: a
    poller then receives them in one batch (a batch send enqueues its entries one by one). On a
    FIFO queue they go to group g1, delayed by the queue (mapping_config)."""
    if queue.endswith(".fifo"):
        entries = [{"Id": str(i), "MessageBody": b, "MessageGroupId": "g1"}
                   for i, b in enumerate(bodies)]
    else:
        entries = [{"Id": str(i), "MessageBody": b, "DelaySeconds": 1}
                   for i, b in enumerate(bodies)]
    out = server.sqs.send_message_batch(QueueUrl=server.queue_url(queue), Entries=entries)
    assert len(out["Successful"]) == len(bodies), out
    server.advance(1)
