"""S3 through boto3 with botocore's defaults (compat/run.sh boto3-s3; the server starts with
python/s3.toml, which declares a queue, a function that records its events and the mapping
between them): buckets, puts and gets with the default flexible checksums, multipart transfers
through upload_file and download_file, presigned GET and PUT fetched with urllib, listing by
prefix and delimiter, DeleteObjects, and an upload's event notification received from a queue,
from a trigger on a queue and by a function."""

import base64
import glob
import hashlib
import json
import os
import time
import urllib.error
import urllib.request
import zlib

import pytest
from boto3.s3.transfer import TransferConfig
from botocore.config import Config
from botocore.exceptions import ClientError

from conftest import queue_arn, s3_client

MiB = 1024 * 1024
# The queue, function and mapping python/s3.toml declares.
TRIGGER_QUEUE = "s3-trigger-uploads"
RECORDER = "arn:aws:lambda:us-east-1:000000000000:function:s3-recorder"


def crc32_b64(data):
    return base64.b64encode(zlib.crc32(data).to_bytes(4, "big")).decode()


def md5_etag(data):
    return f'"{hashlib.md5(data).hexdigest()}"'


def sent_headers(s3, operation):
    """Records the headers of each request of `operation` the client sends."""
    seen = []
    s3.meta.events.register(
        f"before-send.s3.{operation}", lambda request, **_: seen.append(dict(request.headers))
    )
    return seen


def test_s3_put_get_default_checksums(s3, make_bucket):
    bucket = make_bucket()
    assert s3.head_bucket(Bucket=bucket)["ResponseMetadata"]["HTTPStatusCode"] == 200
    assert bucket in [b["Name"] for b in s3.list_buckets()["Buckets"]]
    body = os.urandom(300 * 1024)
    puts = sent_headers(s3, "PutObject")
    out = s3.put_object(Bucket=bucket, Key="data/one.bin", Body=body, Metadata={"team": "a"})
    # botocore's default (request_checksum_calculation=when_supported): a CRC32 of the body,
    # as a header over plain HTTP (trailers only over TLS).
    assert puts[-1]["x-amz-checksum-crc32"] == crc32_b64(body).encode()
    assert out["ETag"] == md5_etag(body)
    assert out["ChecksumCRC32"] == crc32_b64(body)

    # response_checksum_validation=when_supported: botocore asks for the checksum
    # (x-amz-checksum-mode: ENABLED) and checks the body against it.
    gets = sent_headers(s3, "GetObject")
    got = s3.get_object(Bucket=bucket, Key="data/one.bin")
    assert gets[-1]["x-amz-checksum-mode"] == b"ENABLED"
    assert got["Body"].read() == body
    assert got["ChecksumCRC32"] == crc32_b64(body)
    assert got["ContentLength"] == len(body)
    assert got["Metadata"] == {"team": "a"}
    assert got["ContentType"] == "binary/octet-stream"

    sha = base64.b64encode(hashlib.sha256(b"hello").digest()).decode()
    out = s3.put_object(Bucket=bucket, Key="data/sha", Body=b"hello", ChecksumAlgorithm="SHA256")
    assert out["ChecksumSHA256"] == sha
    head = s3.head_object(Bucket=bucket, Key="data/sha", ChecksumMode="ENABLED")
    assert head["ChecksumSHA256"] == sha and head["ContentLength"] == 5

    with pytest.raises(ClientError) as err:
        s3.put_object(Bucket=bucket, Key="data/bad", Body=b"hello", ChecksumCRC32=crc32_b64(b"other"))
    assert err.value.response["Error"]["Code"] == "BadDigest"
    assert err.value.response["ResponseMetadata"]["HTTPStatusCode"] == 400
    with pytest.raises(s3.exceptions.NoSuchKey):
        s3.get_object(Bucket=bucket, Key="data/bad")

    ranged = s3.get_object(Bucket=bucket, Key="data/one.bin", Range="bytes=10-19")
    assert ranged["Body"].read() == body[10:20]
    assert ranged["ContentRange"] == f"bytes 10-19/{len(body)}"


def test_s3_multipart_upload_download(s3, make_bucket, tmp_path):
    bucket = make_bucket()
    source = tmp_path / "source.bin"
    data = os.urandom(12 * MiB)
    source.write_bytes(data)
    # S3's smallest part is 5 MiB: 12 MiB in 5 MiB chunks is three parts (5, 5 and 2 MiB).
    config = TransferConfig(multipart_threshold=5 * MiB, multipart_chunksize=5 * MiB, max_concurrency=3)
    parts = sent_headers(s3, "UploadPart")
    s3.upload_file(str(source), bucket, "big/data.bin", Config=config,
                   ExtraArgs={"ContentType": "application/x-test", "Metadata": {"kind": "multipart"}})
    assert len(parts) == 3
    assert all("x-amz-checksum-crc32" in {k.lower() for k in p} for p in parts), parts

    head = s3.head_object(Bucket=bucket, Key="big/data.bin")
    assert head["ContentLength"] == len(data)
    assert head["ETag"].endswith('-3"')
    assert head["ContentType"] == "application/x-test"
    assert head["Metadata"] == {"kind": "multipart"}
    assert s3.list_multipart_uploads(Bucket=bucket).get("Uploads", []) == []

    gets = sent_headers(s3, "GetObject")
    target = tmp_path / "target.bin"
    s3.download_file(bucket, "big/data.bin", str(target), Config=config)
    assert hashlib.sha256(target.read_bytes()).digest() == hashlib.sha256(data).digest()
    # Above the threshold s3transfer downloads in ranged GETs.
    ranges = sorted(g["Range"] for g in gets if "Range" in g)
    assert len(ranges) >= 2, gets


@pytest.mark.parametrize("signature", ["default", "s3v4"])
def test_s3_presigned_get_and_put(endpoint, make_bucket, signature):
    # botocore presigns S3 URLs with SigV2 (AWSAccessKeyId, Signature, Expires) unless the
    # client's config names s3v4, which sqslite reads as unsigned when it declares no
    # credentials (docs/src/s3.md); s3v4 gives X-Amz-Signature.
    config = Config(signature_version="s3v4") if signature == "s3v4" else None
    s3 = s3_client(endpoint, config=config)
    bucket = make_bucket()
    put_url = s3.generate_presigned_url(
        "put_object", Params={"Bucket": bucket, "Key": "shared/note.txt", "ContentType": "text/plain"},
        ExpiresIn=300)
    assert f"/{bucket}/shared/note.txt?" in put_url
    assert ("X-Amz-Signature=" in put_url) == (signature == "s3v4"), put_url
    request = urllib.request.Request(put_url, data=b"presigned hello", method="PUT",
                                     headers={"Content-Type": "text/plain"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.status == 200
        assert answer.headers["ETag"] == md5_etag(b"presigned hello")

    get_url = s3.generate_presigned_url(
        "get_object", Params={"Bucket": bucket, "Key": "shared/note.txt"}, ExpiresIn=300)
    with urllib.request.urlopen(get_url, timeout=10) as answer:
        assert answer.read() == b"presigned hello"
        assert answer.headers["Content-Type"] == "text/plain"

    missing = s3.generate_presigned_url(
        "get_object", Params={"Bucket": bucket, "Key": "shared/none"}, ExpiresIn=300)
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(missing, timeout=10)
    assert err.value.code == 404
    assert b"<Code>NoSuchKey</Code>" in err.value.read()


def test_s3_list_and_delete_objects(s3, make_bucket):
    bucket = make_bucket()
    keys = ["a/1.txt", "a/2.txt", "a/b/3.txt", "a/c/4.txt", "z.txt"]
    for key in keys:
        s3.put_object(Bucket=bucket, Key=key, Body=key.encode())

    out = s3.list_objects_v2(Bucket=bucket, Prefix="a/", Delimiter="/")
    assert [o["Key"] for o in out["Contents"]] == ["a/1.txt", "a/2.txt"]
    assert [p["Prefix"] for p in out["CommonPrefixes"]] == ["a/b/", "a/c/"]
    assert out["KeyCount"] == 4 and not out["IsTruncated"]
    assert out["Contents"][0]["Size"] == 7 and out["Contents"][0]["ETag"] == md5_etag(b"a/1.txt")

    pages = list(s3.get_paginator("list_objects_v2").paginate(
        Bucket=bucket, PaginationConfig={"PageSize": 2}))
    assert [[o["Key"] for o in p["Contents"]] for p in pages] == [keys[0:2], keys[2:4], keys[4:]]

    deleted = s3.delete_objects(Bucket=bucket, Delete={
        "Objects": [{"Key": k} for k in keys] + [{"Key": "never-there"}]})
    assert sorted(d["Key"] for d in deleted["Deleted"]) == sorted(keys + ["never-there"])
    assert deleted.get("Errors", []) == []
    assert s3.list_objects_v2(Bucket=bucket)["KeyCount"] == 0

    s3.delete_bucket(Bucket=bucket)
    with pytest.raises(ClientError) as err:
        s3.head_bucket(Bucket=bucket)
    assert err.value.response["Error"]["Code"] == "404"


def receive_one(sqs, url):
    out = sqs.receive_message(QueueUrl=url, WaitTimeSeconds=5, MaxNumberOfMessages=10)
    messages = out.get("Messages", [])
    assert len(messages) == 1, messages
    sqs.delete_message(QueueUrl=url, ReceiptHandle=messages[0]["ReceiptHandle"])
    return json.loads(messages[0]["Body"])


def test_s3_notification_into_queue(s3, sqs, make_bucket, make_queue):
    bucket = make_bucket()
    url = make_queue("s3-events")
    arn = queue_arn(sqs, url)
    config = {"QueueConfigurations": [{
        "Id": "uploads", "QueueArn": arn, "Events": ["s3:ObjectCreated:*"],
        "Filter": {"Key": {"FilterRules": [{"Name": "prefix", "Value": "incoming/"}]}}}]}
    s3.put_bucket_notification_configuration(Bucket=bucket, NotificationConfiguration=config)
    got = s3.get_bucket_notification_configuration(Bucket=bucket)
    assert got["QueueConfigurations"][0]["QueueArn"] == arn
    assert got["QueueConfigurations"][0]["Events"] == ["s3:ObjectCreated:*"]

    test_event = receive_one(sqs, url)
    assert (test_event["Service"], test_event["Event"], test_event["Bucket"]) == (
        "Amazon S3", "s3:TestEvent", bucket)

    s3.put_object(Bucket=bucket, Key="elsewhere/skip.txt", Body=b"not notified")
    body = b"a picture"
    s3.put_object(Bucket=bucket, Key="incoming/red flower.jpg", Body=body)
    record = receive_one(sqs, url)["Records"][0]
    assert record["eventSource"] == "aws:s3" and record["eventVersion"] == "2.1"
    assert record["eventName"] == "ObjectCreated:Put"
    assert record["s3"]["configurationId"] == "uploads"
    assert record["s3"]["bucket"]["name"] == bucket
    assert record["s3"]["bucket"]["arn"] == f"arn:aws:s3:::{bucket}"
    assert record["s3"]["object"]["key"] == "incoming/red+flower.jpg"
    assert record["s3"]["object"]["size"] == len(body)
    assert record["s3"]["object"]["eTag"] == hashlib.md5(body).hexdigest()
    assert sqs.receive_message(QueueUrl=url, WaitTimeSeconds=0).get("Messages", []) == []


def recorded_events(directory, predicate, timeout=20):
    """The events the recorder function wrote (one file per invocation) once one matches."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        events = []
        for path in sorted(glob.glob(os.path.join(directory, "*.json"))):
            with open(path, encoding="utf-8") as f:
                events.append(json.load(f))
        if any(predicate(e) for e in events):
            return events
        time.sleep(0.1)
    pytest.fail(f"no matching invocation recorded in {directory}")


@pytest.fixture
def trigger_dir():
    directory = os.environ.get("COMPAT_S3_TRIGGER_DIR")
    if not directory:
        pytest.skip("the server was not started with python/s3.toml (compat/run.sh boto3-s3)")
    return directory


def test_s3_notification_consumed_by_trigger(s3, sqs, make_bucket, trigger_dir):
    bucket = make_bucket("trigger")
    url = sqs.get_queue_url(QueueName=TRIGGER_QUEUE)["QueueUrl"]
    s3.put_bucket_notification_configuration(Bucket=bucket, NotificationConfiguration={
        "QueueConfigurations": [{"Id": "to-trigger", "QueueArn": queue_arn(sqs, url),
                                 "Events": ["s3:ObjectCreated:Put"]}]})
    key = f"uploads/{bucket}.csv"
    s3.put_object(Bucket=bucket, Key=key, Body=b"a,b\n1,2\n")

    def s3_records(event):
        return [json.loads(r["body"]).get("Records", [{}])[0] for r in event["Records"]]

    def names_key(event):
        return any(rec.get("s3", {}).get("object", {}).get("key") == key for rec in s3_records(event))

    events = recorded_events(trigger_dir, names_key)
    event = next(e for e in events if names_key(e))
    sqs_record = next(r for r in event["Records"] if key in r["body"])
    assert sqs_record["eventSource"] == "aws:sqs"
    assert sqs_record["eventSourceARN"] == queue_arn(sqs, url)
    s3_record = json.loads(sqs_record["body"])["Records"][0]
    assert s3_record["eventName"] == "ObjectCreated:Put"
    assert s3_record["s3"]["bucket"]["name"] == bucket
    assert s3_record["s3"]["object"]["size"] == 8
    # The test event reached the function too, through the same mapping.
    assert any(json.loads(r["body"]).get("Event") == "s3:TestEvent" and bucket in r["body"]
               for e in events for r in e["Records"])
    # Each batch the function took without an error is deleted from the queue.
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        attrs = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=[
            "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"])["Attributes"]
        if attrs == {"ApproximateNumberOfMessages": "0", "ApproximateNumberOfMessagesNotVisible": "0"}:
            break
        time.sleep(0.1)
    else:
        pytest.fail(f"the trigger's queue still holds messages: {attrs}")


def test_s3_notification_invokes_function(s3, make_bucket, trigger_dir):
    bucket = make_bucket("lambda")
    s3.put_bucket_notification_configuration(Bucket=bucket, NotificationConfiguration={
        "LambdaFunctionConfigurations": [{"Id": "direct", "LambdaFunctionArn": RECORDER,
                                          "Events": ["s3:ObjectRemoved:*"]}]})
    s3.put_object(Bucket=bucket, Key="gone.txt", Body=b"x")
    s3.delete_object(Bucket=bucket, Key="gone.txt")

    def direct(event):
        records = event.get("Records", [])
        return bool(records) and records[0].get("eventSource") == "aws:s3" and \
            records[0]["s3"]["bucket"]["name"] == bucket

    event = next(e for e in recorded_events(trigger_dir, direct) if direct(e))
    record = event["Records"][0]
    assert record["eventName"] == "ObjectRemoved:Delete"
    assert record["s3"]["configurationId"] == "direct"
    assert record["s3"]["object"]["key"] == "gone.txt"
