"""STS through boto3 on the two-account server on a manual clock (compat/run.sh boto3-sts:
python/accounts.toml and --clock manual): who each key is, account B assuming account A's role
`deployer` (its trust policy names B) and using the temporary keys on SQS in A's account, a role
B is not trusted with refused, a forged session token refused, and the temporary keys refused
once the server's clock has passed their Expiration."""

import datetime
import uuid

import boto3
import botocore.auth
import pytest
from botocore.compat import get_current_datetime
from botocore.config import Config
from botocore.exceptions import ClientError

from conftest import advance_clock, clock_now, sqs_client

A, B = "111111111111", "222222222222"
KEYS = {A: ("AKIDTEAMA", "team-a-secret"), B: ("AKIDTEAMB", "team-b-secret")}


def sts_client(endpoint, key, secret, token=None):
    """A boto3 STS client on the endpoint (AWS Query), without retries."""
    return boto3.client(
        "sts",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id=key,
        aws_secret_access_key=secret,
        aws_session_token=token,
        config=Config(retries={"max_attempts": 1, "mode": "standard"}),
    )


def test_get_caller_identity_names_each_accounts_root(endpoint):
    for account, (key, secret) in KEYS.items():
        me = sts_client(endpoint, key, secret).get_caller_identity()
        assert (me["Account"], me["Arn"], me["UserId"]) == (
            account, f"arn:aws:iam::{account}:root", account)


def test_assumed_role_keys_act_in_the_roles_account(endpoint):
    b = sts_client(endpoint, *KEYS[B])
    out = b.assume_role(RoleArn=f"arn:aws:iam::{A}:role/deployer", RoleSessionName="compat")
    user = out["AssumedRoleUser"]
    assert user["Arn"] == f"arn:aws:sts::{A}:assumed-role/deployer/compat"
    assert user["AssumedRoleId"].startswith("AROA") and user["AssumedRoleId"].endswith(":compat")
    c = out["Credentials"]
    assert c["AccessKeyId"].startswith("ASIA") and len(c["AccessKeyId"]) == 20
    session = sts_client(endpoint, c["AccessKeyId"], c["SecretAccessKey"], c["SessionToken"])
    assert session.get_caller_identity()["Arn"] == user["Arn"]
    sqs = boto3.client(
        "sqs", endpoint_url=endpoint, region_name="us-east-1",
        aws_access_key_id=c["AccessKeyId"], aws_secret_access_key=c["SecretAccessKey"],
        aws_session_token=c["SessionToken"])
    url = sqs.create_queue(QueueName=f"sts-{uuid.uuid4().hex[:8]}")["QueueUrl"]
    try:
        assert f"/{A}/" in url
        sqs.send_message(QueueUrl=url, MessageBody="as the role")
        got = sqs.receive_message(QueueUrl=url, MessageSystemAttributeNames=["SenderId"])
        message = got["Messages"][0]
        assert message["Body"] == "as the role"
        assert message["Attributes"]["SenderId"] == user["AssumedRoleId"]
    finally:
        sqs_client(endpoint, *KEYS[A]).delete_queue(QueueUrl=url)


def test_untrusted_roles_and_forged_tokens_are_refused(endpoint):
    a = sts_client(endpoint, *KEYS[A])
    with pytest.raises(ClientError) as refused:
        a.assume_role(RoleArn=f"arn:aws:iam::{B}:role/deployer", RoleSessionName="compat")
    assert refused.value.response["Error"]["Code"] == "AccessDenied"
    c = a.get_session_token()["Credentials"]
    forged = sts_client(endpoint, c["AccessKeyId"], c["SecretAccessKey"], "forged")
    with pytest.raises(ClientError) as invalid:
        forged.get_caller_identity()
    assert invalid.value.response["Error"]["Code"] == "InvalidClientTokenId"


def sign_on_server_time(monkeypatch, endpoint):
    """Makes botocore sign with the server's time. botocore signs with this machine's clock and,
    unlike the JavaScript, Java and Go SDKs, never corrects it from a refusal's Date header: once
    the manual clock is ahead by more than the 15 minutes a signature's date may be off, every
    request it signs is refused ("Signature expired"), a declared key's too."""
    offset = datetime.datetime.fromtimestamp(clock_now(endpoint) / 1000, datetime.timezone.utc) \
        - datetime.datetime.now(datetime.timezone.utc)
    monkeypatch.setattr(botocore.auth, "get_current_datetime",
                        lambda *args, **kwargs: get_current_datetime(*args, **kwargs) + offset)


def assert_expired_token(call):
    with pytest.raises(ClientError) as refused:
        call()
    error, meta = refused.value.response["Error"], refused.value.response["ResponseMetadata"]
    assert (error["Code"], meta["HTTPStatusCode"]) == ("ExpiredToken", 403), error
    assert error["Message"] == "The security token included in the request is expired"


# Last in this file: it moves the clock on, past the 15 minutes a signature's date may be from
# the server's, so a client signing with this machine's time is refused from then on.
def test_assumed_role_keys_are_refused_after_expiry(endpoint, monkeypatch):
    out = sts_client(endpoint, *KEYS[B]).assume_role(
        RoleArn=f"arn:aws:iam::{A}:role/deployer", RoleSessionName="compat-expiry",
        DurationSeconds=900)
    c = out["Credentials"]
    now = clock_now(endpoint)
    assert abs(c["Expiration"].timestamp() * 1000 - (now + 900_000)) < 1000, (c["Expiration"], now)
    keys = dict(aws_access_key_id=c["AccessKeyId"], aws_secret_access_key=c["SecretAccessKey"],
                aws_session_token=c["SessionToken"])

    def session(service):
        # botocore's default retries, as an application has them: the refusal it ends with is
        # the expired token whether or not a retry came before (sqslite tells ExpiredToken
        # before the signature's date, so the first attempt already gets it).
        return boto3.client(service, endpoint_url=endpoint, region_name="us-east-1", **keys)

    url = sqs_client(endpoint, *KEYS[A]).create_queue(
        QueueName=f"sts-{uuid.uuid4().hex[:8]}")["QueueUrl"]
    try:
        session("sqs").send_message(QueueUrl=url, MessageBody="before expiry")

        advance_clock(endpoint, 1200)
        assert_expired_token(lambda: session("sqs").send_message(QueueUrl=url, MessageBody="after expiry"))
        assert_expired_token(lambda: session("sts").get_caller_identity())
        # The declared key still works, and the queue holds only the message sent before expiry.
        sign_on_server_time(monkeypatch, endpoint)
        got = sqs_client(endpoint, *KEYS[A]).receive_message(QueueUrl=url, MaxNumberOfMessages=10)
        assert [m["Body"] for m in got.get("Messages", [])] == ["before expiry"]
    finally:
        sign_on_server_time(monkeypatch, endpoint)
        sqs_client(endpoint, *KEYS[A]).delete_queue(QueueUrl=url)
