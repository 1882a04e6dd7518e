"""A Lambda-style SQS handler for the trigger drills: a body that is not JSON fails.

With `report`, it answers the failed messages as batchItemFailures (ReportBatchItemFailures);
with `raise`, it fails the whole invocation on the first bad body, as a handler that throws.
The event arrives on stdin and the response goes to stdout (sqslite's `command` functions).
"""
import json
import sys

mode = sys.argv[1] if len(sys.argv) > 1 else "report"
event = json.load(sys.stdin)
failures = []
for record in event["Records"]:
    try:
        json.loads(record["body"])
    except ValueError:
        if mode == "raise":
            sys.exit("a payment that is not JSON: " + record["messageId"])
        failures.append({"itemIdentifier": record["messageId"]})
print(json.dumps({"batchItemFailures": failures}))
