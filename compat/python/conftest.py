"""Fixtures shared by the boto3, kombu and AWS CLI suites: the sqslite endpoint, SQS, SNS and S3
clients (the helpers take an access key, for the two-account suite), throwaway queues and
buckets, and the manual clock of the STS suites' servers.

`compat/run.sh` starts a fresh release build of sqslite and passes its URL in SQSLITE_ENDPOINT;
COMPAT_PROTOCOL names the wire protocol this client is expected to speak (json or query).
"""

import json
import os
import urllib.request
import uuid

import boto3
import pytest
from botocore.config import Config


@pytest.fixture(scope="session")
def endpoint():
    url = os.environ.get("SQSLITE_ENDPOINT")
    if not url:
        pytest.fail("SQSLITE_ENDPOINT is not set: run the suite through compat/run.sh")
    return url


@pytest.fixture(scope="session")
def expected_protocol():
    return os.environ.get("COMPAT_PROTOCOL", "json")


def sqs_client(endpoint, key="test", secret="test"):
    """A boto3 SQS client on the endpoint, signing with the given access key, without retries."""
    return boto3.client(
        "sqs",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id=key,
        aws_secret_access_key=secret,
        # No retries: a retried request would hide a failure. Long polls need > 20 s.
        config=Config(retries={"max_attempts": 1, "mode": "standard"}, read_timeout=40),
    )


@pytest.fixture(scope="session")
def sqs(endpoint):
    return sqs_client(endpoint)


def sns_client(endpoint, key="test", secret="test"):
    """A boto3 SNS client on the endpoint (AWS Query, SNS's only protocol), signing with the
    given access key, without retries."""
    return boto3.client(
        "sns",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id=key,
        aws_secret_access_key=secret,
        config=Config(retries={"max_attempts": 1, "mode": "standard"}),
    )


@pytest.fixture(scope="session")
def sns(endpoint):
    return sns_client(endpoint)


def s3_client(endpoint, key="test", secret="test", config=None):
    """A boto3 S3 client on the endpoint with botocore's defaults for checksums (CRC32 on every
    upload, response checksums validated) and addressing (path style for an IP endpoint),
    without retries; `config` adds to that."""
    no_retries = Config(retries={"max_attempts": 1, "mode": "standard"})
    return boto3.client(
        "s3",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id=key,
        aws_secret_access_key=secret,
        config=no_retries.merge(config) if config else no_retries,
    )


@pytest.fixture(scope="session")
def s3(endpoint):
    return s3_client(endpoint)


@pytest.fixture
def make_bucket(s3):
    """Creates uniquely named buckets and empties and deletes them afterwards."""
    created = []

    def make(prefix="compat"):
        name = f"{prefix}-{uuid.uuid4().hex[:12]}"
        s3.create_bucket(Bucket=name)
        created.append(name)
        return name

    yield make
    for name in created:
        try:
            for page in s3.get_paginator("list_objects_v2").paginate(Bucket=name):
                for item in page.get("Contents", []):
                    s3.delete_object(Bucket=name, Key=item["Key"])
            s3.delete_bucket(Bucket=name)
        except s3.exceptions.NoSuchBucket:
            pass


@pytest.fixture
def make_queue(sqs):
    """Creates uniquely named queues and deletes whatever is left of them afterwards."""
    created = []

    def make(prefix="compat", fifo=False, **attributes):
        name = f"{prefix}-{uuid.uuid4().hex[:12]}" + (".fifo" if fifo else "")
        if fifo:
            attributes["FifoQueue"] = "true"
        attrs = {k: str(v) for k, v in attributes.items()}
        url = sqs.create_queue(QueueName=name, Attributes=attrs)["QueueUrl"]
        created.append(url)
        return url

    yield make
    for url in created:
        try:
            sqs.delete_queue(QueueUrl=url)
        except sqs.exceptions.QueueDoesNotExist:
            pass


def queue_arn(sqs, url):
    return sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"][
        "QueueArn"
    ]


def clock_now(endpoint):
    """The server's manual clock (docs/src/clock-and-faults.md), in milliseconds since the epoch."""
    with urllib.request.urlopen(f"{endpoint}/_sqslite/clock", timeout=10) as answer:
        clock = json.load(answer)
    assert clock["manual"], "this suite needs a server on --clock manual"
    return clock["now"]


def advance_clock(endpoint, seconds):
    """Moves the server's manual clock on (POST /_sqslite/clock/advance)."""
    request = urllib.request.Request(
        f"{endpoint}/_sqslite/clock/advance",
        data=json.dumps({"seconds": seconds}).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.status == 200
