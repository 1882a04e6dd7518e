"""Runs a handler as a sqslite `command` function: `python command.py MODULE.FN` reads the
event from stdin, calls the handler, and writes its response to stdout as JSON; an exception
is a non-zero exit, which sqslite counts as a function error."""

import importlib
import json
import sys
import uuid


class Context:
    """The LambdaContext fields the handlers here (and Powertools) read."""

    function_name = "command"
    function_version = "$LATEST"
    memory_limit_in_mb = 128
    invoked_function_arn = "arn:aws:lambda:us-east-1:000000000000:function:command"
    aws_request_id = str(uuid.uuid4())
    log_group_name = "/aws/lambda/command"
    log_stream_name = "local"

    @staticmethod
    def get_remaining_time_in_millis():
        return 30_000


def main(spec):
    module, fn = spec.rsplit(".", 1)
    handler = getattr(importlib.import_module(module), fn)
    response = handler(json.load(sys.stdin), Context())
    json.dump(response, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])
