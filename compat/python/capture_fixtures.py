"""Records the exact HTTP requests a real boto3 build sends, as regression fixtures.

    SQSLITE_ENDPOINT=http://127.0.0.1:PORT .venv-query/bin/python capture_fixtures.py query
    SQSLITE_ENDPOINT=http://127.0.0.1:PORT .venv-json/bin/python capture_fixtures.py json

writes fixtures/compat/<botocore version>/NN-<action>.http (request line, headers, blank line,
body), replayed in order by tests/it/sqs/compat_regressions.rs. Run it against a fresh sqslite.
"""

import os
import pathlib
import sys

import boto3
import botocore

from test_scenarios import ALL_TYPES

KEEP = ("content-type", "x-amz-target", "x-amzn-query-mode", "authorization", "x-amz-date")


def main(protocol):
    out = pathlib.Path(__file__).resolve().parents[2] / "fixtures" / "compat"
    out = out / f"botocore-{botocore.__version__}-{protocol}"
    out.mkdir(parents=True, exist_ok=True)
    sqs = boto3.client(
        "sqs",
        endpoint_url=os.environ["SQSLITE_ENDPOINT"],
        region_name="us-east-1",
        aws_access_key_id="AKIDCOMPATFIXTURE",
        aws_secret_access_key="test",
    )
    assert sqs.meta.service_model.protocol == protocol
    count = 0

    def record(request, event_name, **_):
        nonlocal count
        count += 1
        action = event_name.rsplit(".", 1)[1]
        path = "/" + request.url.split("/", 3)[3] if request.url.count("/") >= 3 else "/"
        lines = [f"{request.method} {path}"]
        for name, value in sorted(request.headers.items()):
            if name.lower() in KEEP:
                value = value.decode() if isinstance(value, bytes) else value
                lines.append(f"{name.lower()}: {value}")
        body = request.body or b""
        body = body.decode() if isinstance(body, bytes) else body
        (out / f"{count:02d}-{action}.http").write_text("\n".join(lines) + "\n\n" + body)

    sqs.meta.events.register("before-send.sqs.*", record)
    name = f"fixture-{protocol}"
    url = sqs.create_queue(QueueName=name, Attributes={"VisibilityTimeout": "0"}, tags={"t": "v"})[
        "QueueUrl"
    ]
    sqs.send_message(
        QueueUrl=url,
        MessageBody="line\r\nbreak <&> \"q\" \u00e9",
        MessageAttributes=ALL_TYPES,
        MessageSystemAttributes={"AWSTraceHeader": {"DataType": "String", "StringValue": "Root=1-a"}},
    )
    sqs.receive_message(
        QueueUrl=url, AttributeNames=["All"], MessageAttributeNames=["s", "b.*"], MaxNumberOfMessages=1
    )
    sqs.send_message_batch(
        QueueUrl=url,
        Entries=[
            {"Id": "ok", "MessageBody": "one", "MessageAttributes": {"n": ALL_TYPES["n"]}},
            {"Id": "bad", "MessageBody": "two",
             "MessageAttributes": {"n": {"DataType": "Number", "StringValue": "NaN?"}}},
        ],
    )
    sqs.list_queue_tags(QueueUrl=url)
    sqs.delete_queue(QueueUrl=url)
    print(f"wrote {count} requests to {out}")


if __name__ == "__main__":
    main(sys.argv[1])
