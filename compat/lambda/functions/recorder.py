"""Appends each event a handler gets to RECORD_FILE (a JSON line per invocation), so the tests
can read what sqslite sent."""

import json
import os


def record(event):
    with open(os.environ["RECORD_FILE"], "a", encoding="utf-8") as out:
        out.write(json.dumps(event) + "\n")


def failing(body, receive_count="1"):
    """The tests' convention: the handler fails a message whose body starts with "fail", and one
    starting with "flaky" on its first receive only."""
    return body.startswith("fail") or (body.startswith("flaky") and receive_count == "1")
