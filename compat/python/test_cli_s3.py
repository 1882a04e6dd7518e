"""S3 through the AWS CLI v1 (compat/run.sh awscli-s3), as a person would type it: `aws s3 mb`,
`cp` of a 100 MiB file up and back down (multipart both ways, in the CLI's 8 MiB parts), `ls`,
`presign`, `rm` and `rb`, and the `s3api` commands for single objects, listings and deletes."""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import urllib.request
import uuid

import pytest

from test_cli import aws

MiB = 1024 * 1024


def s3(endpoint, *args, cwd=None):
    """`aws s3 ARGS...` run in `cwd`, whose output is text: its stdout."""
    env = dict(os.environ, AWS_ACCESS_KEY_ID="test", AWS_SECRET_ACCESS_KEY="test",
               AWS_DEFAULT_REGION="us-east-1", AWS_MAX_ATTEMPTS="1",
               AWS_CONFIG_FILE=os.devnull, AWS_SHARED_CREDENTIALS_FILE=os.devnull)
    env.pop("AWS_SESSION_TOKEN", None)
    exe = shutil.which("aws", path=os.path.dirname(sys.executable)) or "aws"
    proc = subprocess.run([exe, "--endpoint-url", endpoint, "s3", *args], capture_output=True,
                          text=True, env=env, stdin=subprocess.DEVNULL, timeout=300, cwd=cwd)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def s3api(endpoint, *args):
    return aws(endpoint, *args, service="s3api")


@pytest.fixture
def bucket(endpoint):
    name = f"cli-{uuid.uuid4().hex[:12]}"
    assert s3(endpoint, "mb", f"s3://{name}").strip() == f"make_bucket: {name}"
    yield name
    s3(endpoint, "rb", f"s3://{name}", "--force")


def sha256_of(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(MiB), b""):
            digest.update(block)
    return digest.hexdigest()


def test_cli_s3_cp_100_mib_both_ways(endpoint, bucket, tmp_path):
    source = tmp_path / "big.bin"
    with open(source, "wb") as f:
        for _ in range(100):
            f.write(os.urandom(MiB))
    out = s3(endpoint, "cp", "big.bin", f"s3://{bucket}/dir/big.bin", "--no-progress", cwd=tmp_path)
    assert out.strip() == f"upload: ./big.bin to s3://{bucket}/dir/big.bin"

    head = s3api(endpoint, "head-object", "--bucket", bucket, "--key", "dir/big.bin")
    assert head["ContentLength"] == 100 * MiB
    # The CLI's multipart_chunksize is 8 MiB: 100 MiB is 13 parts.
    assert head["ETag"].endswith('-13"'), head["ETag"]

    listing = s3(endpoint, "ls", f"s3://{bucket}/dir/")
    assert listing.split()[-2:] == [str(100 * MiB), "big.bin"], listing
    assert f"{bucket}" in s3(endpoint, "ls").split()

    target = tmp_path / "back.bin"
    out = s3(endpoint, "cp", f"s3://{bucket}/dir/big.bin", "back.bin", "--no-progress", cwd=tmp_path)
    assert out.strip() == f"download: s3://{bucket}/dir/big.bin to ./back.bin"
    assert sha256_of(target) == sha256_of(source)

    assert s3(endpoint, "rm", f"s3://{bucket}/dir/big.bin").strip() == \
        f"delete: s3://{bucket}/dir/big.bin"
    assert s3(endpoint, "ls", f"s3://{bucket}/", "--recursive") == ""


def test_cli_s3_ls_recursive_and_presign(endpoint, bucket, tmp_path):
    note = tmp_path / "note.txt"
    note.write_text("hello from the CLI\n")
    for key in ["a/one.txt", "a/b/two.txt", "c.txt"]:
        s3(endpoint, "cp", str(note), f"s3://{bucket}/{key}", "--no-progress")
    top = s3(endpoint, "ls", f"s3://{bucket}/")
    assert [line.split()[-1] for line in top.splitlines()] == ["a/", "c.txt"]
    assert top.splitlines()[0].split() == ["PRE", "a/"]
    everything = s3(endpoint, "ls", f"s3://{bucket}/", "--recursive")
    assert [line.split()[-1] for line in everything.splitlines()] == ["a/b/two.txt", "a/one.txt", "c.txt"]

    # The CLI v1 presigns with SigV2, as botocore does by default; sqslite reads it as unsigned
    # while it declares no credentials.
    url = s3(endpoint, "presign", f"s3://{bucket}/a/one.txt", "--expires-in", "300").strip()
    assert url.startswith(f"{endpoint}/{bucket}/a/one.txt?") and "Signature=" in url
    with urllib.request.urlopen(url, timeout=10) as answer:
        assert answer.read() == b"hello from the CLI\n"

    out = s3(endpoint, "rm", f"s3://{bucket}/a/", "--recursive")
    assert sorted(out.split("\n")[:-1]) == [f"delete: s3://{bucket}/a/b/two.txt", f"delete: s3://{bucket}/a/one.txt"]


def test_cli_s3api_objects(endpoint, bucket, tmp_path):
    body = tmp_path / "doc.json"
    body.write_bytes(json.dumps({"order": 1}).encode())
    put = s3api(endpoint, "put-object", "--bucket", bucket, "--key", "docs/1.json", "--body",
                str(body), "--content-type", "application/json", "--metadata", "origin=cli")
    assert put["ETag"] == f'"{hashlib.md5(body.read_bytes()).hexdigest()}"'

    out = tmp_path / "out.json"
    got = s3api(endpoint, "get-object", "--bucket", bucket, "--key", "docs/1.json", str(out))
    assert got["ContentType"] == "application/json"
    assert got["Metadata"] == {"origin": "cli"}
    assert out.read_bytes() == body.read_bytes()

    s3api(endpoint, "put-object", "--bucket", bucket, "--key", "docs/2.json", "--body", str(body))
    s3api(endpoint, "put-object", "--bucket", bucket, "--key", "docs/old/3.json", "--body", str(body))
    listed = s3api(endpoint, "list-objects-v2", "--bucket", bucket, "--prefix", "docs/",
                   "--delimiter", "/")
    assert [o["Key"] for o in listed["Contents"]] == ["docs/1.json", "docs/2.json"]
    assert listed["CommonPrefixes"] == [{"Prefix": "docs/old/"}]

    s3api(endpoint, "put-object-tagging", "--bucket", bucket, "--key", "docs/1.json",
          "--tagging", "TagSet=[{Key=stage,Value=raw}]")
    tags = s3api(endpoint, "get-object-tagging", "--bucket", bucket, "--key", "docs/1.json")
    assert tags["TagSet"] == [{"Key": "stage", "Value": "raw"}]

    deleted = s3api(endpoint, "delete-objects", "--bucket", bucket, "--delete",
                    json.dumps({"Objects": [{"Key": "docs/1.json"}, {"Key": "docs/2.json"}]}))
    assert sorted(d["Key"] for d in deleted["Deleted"]) == ["docs/1.json", "docs/2.json"]
    remaining = s3api(endpoint, "list-objects-v2", "--bucket", bucket)
    assert [o["Key"] for o in remaining["Contents"]] == ["docs/old/3.json"]

    err = aws(endpoint, "head-object", "--bucket", bucket, "--key", "docs/1.json",
              service="s3api", expect_ok=False)
    assert "(404)" in err and "Not Found" in err
