"""Appends each event a handler gets to RECORD_FILE (a JSON line per invocation), so the tests
can read what sqslite sent."""

import json
import os


def record(event):
    with open(os.environ["RECORD_FILE"], "a", encoding="utf-8") as out:
        out.write(json.dumps(event) + "\n")


def failing(body):
    """The tests' convention: a message whose body starts with "fail" is one the handler fails."""
    return body.startswith("fail")
