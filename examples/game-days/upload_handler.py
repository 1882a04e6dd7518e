"""A Lambda-style handler for uploads, for the upload drills: each SQS record holds S3's
event for one upload, and an empty object fails (reported alone, as batchItemFailures).

S3 sends a queue one `s3:TestEvent` when a bucket's notifications are configured, a message
with no `Records`: this handler skips it, unless given `careless`, the handler that reads
every message as an upload and so fails on it until it is dead-lettered.
The event arrives on stdin and the response goes to stdout (sqslite's `command` functions).
"""
import json
import sys

careless = "careless" in sys.argv[1:]
event = json.load(sys.stdin)
failures = []
for record in event["Records"]:
    body = json.loads(record["body"])
    if body.get("Event") == "s3:TestEvent" and not careless:
        continue
    try:
        for upload in body["Records"]:
            if upload["s3"]["object"]["size"] == 0:
                raise ValueError("an empty upload: " + upload["s3"]["object"]["key"])
    except (KeyError, ValueError):
        failures.append({"itemIdentifier": record["messageId"]})
print(json.dumps({"batchItemFailures": failures}))
