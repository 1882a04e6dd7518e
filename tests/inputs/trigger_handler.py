"""A `command` function for the trigger tests: appends each event (one JSON line) to the
file named by its first argument; exits 1 when a record's body is "fail", else answers a
partial batch response naming the records whose body starts with "bad"."""
import json
import sys

event = json.load(sys.stdin)
with open(sys.argv[1], "a") as log:
    log.write(json.dumps(event) + "\n")
records = event["Records"]
if any(r["body"] == "fail" for r in records):
    sys.exit(1)
failures = [{"itemIdentifier": r["messageId"]} for r in records if r["body"].startswith("bad")]
print(json.dumps({"batchItemFailures": failures}))
