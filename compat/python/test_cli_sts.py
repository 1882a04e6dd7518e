"""`aws sts ...` (the AWS CLI v1) on the two-account server on a manual clock (compat/run.sh
awscli-sts: python/accounts.toml and --clock manual): account B's identity, B assuming account
A's role `deployer`, the temporary keys used on SQS, and refused once the server's clock has
passed their Expiration. The CLI's STS calls on a server without [[credentials]], where nothing
expires, are in test_cli.py (run by `awscli`)."""

import datetime
import json
import urllib.request
import uuid

from conftest import advance_clock, clock_now
from test_cli import aws

A, B = "111111111111", "222222222222"
KEYS = {A: ("AKIDTEAMA", "team-a-secret"), B: ("AKIDTEAMB", "team-b-secret")}


def queue_bodies(endpoint, name, account):
    """The bodies a queue holds, read through the admin API (no signature to be out of date)."""
    url = f"{endpoint}/_sqslite/queues/{name}/messages?account={account}"
    with urllib.request.urlopen(url, timeout=10) as answer:
        return [m["body"] for m in json.load(answer)["messages"]]


def test_cli_assumed_role_keys_are_refused_after_expiry(endpoint):
    me = aws(endpoint, "get-caller-identity", service="sts", keys=KEYS[B])
    assert (me["Account"], me["Arn"], me["UserId"]) == (B, f"arn:aws:iam::{B}:root", B)
    out = aws(endpoint, "assume-role", "--role-arn", f"arn:aws:iam::{A}:role/deployer",
              "--role-session-name", "compat-cli", "--duration-seconds", "900",
              service="sts", keys=KEYS[B])
    assert out["AssumedRoleUser"]["Arn"] == f"arn:aws:sts::{A}:assumed-role/deployer/compat-cli"
    c = out["Credentials"]
    expiration = datetime.datetime.fromisoformat(c["Expiration"]).timestamp() * 1000
    now = clock_now(endpoint)
    assert abs(expiration - (now + 900_000)) < 1000, (c["Expiration"], now)
    keys = (c["AccessKeyId"], c["SecretAccessKey"], c["SessionToken"])
    assert aws(endpoint, "get-caller-identity", service="sts", keys=keys)["Account"] == A

    name = f"sts-cli-{uuid.uuid4().hex[:8]}"
    url = aws(endpoint, "create-queue", "--queue-name", name, keys=keys)["QueueUrl"]
    assert f"/{A}/" in url
    aws(endpoint, "send-message", "--queue-url", url, "--message-body", "before expiry", keys=keys)

    # Last: the server is 20 minutes ahead of this machine from here on, out of the 15 minutes a
    # signature's date may be off, and the CLI never corrects its clock, so no declared key's
    # call would be in time either (the queue stays, on a server the run discards). sqslite
    # tells an expired token before the signature's date.
    advance_clock(endpoint, 1200)
    expired = "(ExpiredToken)"
    err = aws(endpoint, "send-message", "--queue-url", url, "--message-body", "after expiry",
              keys=keys, expect_ok=False)
    assert expired in err and "The security token included in the request is expired" in err, err
    err = aws(endpoint, "get-caller-identity", service="sts", keys=keys, expect_ok=False)
    assert expired in err, err
    assert queue_bodies(endpoint, name, A) == ["before expiry"]
