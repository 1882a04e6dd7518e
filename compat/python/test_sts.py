"""STS through boto3 on the two-account server (python/accounts.toml): who each key is, account B
assuming account A's role `deployer` (its trust policy names B) and using the temporary keys on
SQS in A's account, a role B is not trusted with refused, and a forged session token refused."""

import uuid

import boto3
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError

from conftest import sqs_client

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
