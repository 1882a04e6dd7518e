"""A payments consumer for the at-least-once drill: it charges each payment it takes, and
the charge is the side effect the drill reads, a message naming the order on the `charges`
queue (a real consumer would call a payment provider or write a row).

With `--idempotency-key` it keeps the orders it has charged and charges each once, however
often the queue delivers it; without, a payment delivered twice is charged twice. Standard
library only: it speaks SQS's JSON protocol to SQSLITE_ENDPOINT itself.
"""
import json
import os
import sys
import time
import urllib.request

ENDPOINT = os.environ["SQSLITE_ENDPOINT"]
PAYMENTS = os.environ["SQSLITE_QUEUE_URL_PAYMENTS"]
CHARGES = os.environ["SQSLITE_QUEUE_URL_CHARGES"]
IDEMPOTENT = "--idempotency-key" in sys.argv[1:]


def call(operation, body):
    request = urllib.request.Request(
        ENDPOINT,
        data=json.dumps(body).encode(),
        headers={
            "Content-Type": "application/x-amz-json-1.0",
            "X-Amz-Target": "AmazonSQS." + operation,
        },
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


charged = set()  # the idempotency keys: a database's unique index in production
while True:
    got = call("ReceiveMessage", {"QueueUrl": PAYMENTS, "MaxNumberOfMessages": 10})
    messages = got.get("Messages", [])
    if not messages:
        time.sleep(0.02)
        continue
    for message in messages:
        order = json.loads(message["Body"])["order"]
        if not (IDEMPOTENT and order in charged):
            call("SendMessage", {"QueueUrl": CHARGES, "MessageBody": order})
            charged.add(order)
        call("DeleteMessage", {"QueueUrl": PAYMENTS, "ReceiptHandle": message["ReceiptHandle"]})
