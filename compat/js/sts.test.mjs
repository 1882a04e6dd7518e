// STS through the AWS SDK for JavaScript v3's STS client (AWS Query) on the two-account server
// on a manual clock (compat/run.sh js-sts: python/accounts.toml and --clock manual): who each
// declared key is, account B assuming account A's role `deployer` and using the temporary keys
// on SQS in A's account, and those keys refused once the server's clock has passed their
// Expiration.
import { randomUUID } from "node:crypto";
import { test } from "node:test";
import assert from "node:assert/strict";
import { AssumeRoleCommand, GetCallerIdentityCommand, STSClient } from "@aws-sdk/client-sts";
import {
  CreateQueueCommand,
  DeleteQueueCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from "@aws-sdk/client-sqs";
import { endpoint } from "./helpers.mjs";

const A = "111111111111";
const B = "222222222222";
// The keys python/accounts.toml declares.
const KEYS = {
  [A]: { accessKeyId: "AKIDTEAMA", secretAccessKey: "team-a-secret" },
  [B]: { accessKeyId: "AKIDTEAMB", secretAccessKey: "team-b-secret" },
};
const ROLE = `arn:aws:iam::${A}:role/deployer`;

// Clients without retries, as in the other suites: a retry would hide a failure.
function sts(credentials, maxAttempts = 1) {
  return new STSClient({ endpoint: endpoint(), region: "us-east-1", credentials, maxAttempts });
}
function sqs(credentials, maxAttempts = 1) {
  return new SQSClient({ endpoint: endpoint(), region: "us-east-1", credentials, maxAttempts });
}
function sessionKeys({ Credentials: c }) {
  return { accessKeyId: c.AccessKeyId, secretAccessKey: c.SecretAccessKey, sessionToken: c.SessionToken };
}

// The server's manual clock (docs/src/clock-and-faults.md), in milliseconds.
async function clockNow() {
  const answer = await fetch(`${endpoint()}/_sqslite/clock`);
  assert.equal(answer.status, 200);
  const clock = await answer.json();
  assert.equal(clock.manual, true, "the STS suite needs a server on --clock manual");
  return clock.now;
}
async function advanceClock(seconds) {
  const answer = await fetch(`${endpoint()}/_sqslite/clock/advance`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ seconds }),
  });
  assert.equal(answer.status, 200, await answer.text());
}

test("get_caller_identity names each account's root", async () => {
  for (const [account, keys] of Object.entries(KEYS)) {
    const me = await sts(keys).send(new GetCallerIdentityCommand({}));
    assert.deepEqual([me.Account, me.Arn, me.UserId], [account, `arn:aws:iam::${account}:root`, account]);
  }
});

test("assumed role keys act in the role's account", async () => {
  const out = await sts(KEYS[B]).send(new AssumeRoleCommand({ RoleArn: ROLE, RoleSessionName: "compat-js" }));
  const user = out.AssumedRoleUser;
  assert.equal(user.Arn, `arn:aws:sts::${A}:assumed-role/deployer/compat-js`);
  assert.match(user.AssumedRoleId, /^AROA[A-Z0-9]+:compat-js$/);
  assert.match(out.Credentials.AccessKeyId, /^ASIA[A-Z0-9]{16}$/);
  assert.ok(out.Credentials.SessionToken);
  assert.ok(out.Credentials.Expiration instanceof Date);

  const keys = sessionKeys(out);
  const me = await sts(keys).send(new GetCallerIdentityCommand({}));
  assert.deepEqual([me.Account, me.Arn, me.UserId], [A, user.Arn, user.AssumedRoleId]);

  const session = sqs(keys);
  const { QueueUrl } = await session.send(new CreateQueueCommand({ QueueName: `sts-${randomUUID().slice(0, 8)}` }));
  try {
    assert.ok(QueueUrl.includes(`/${A}/`), QueueUrl);
    await session.send(new SendMessageCommand({ QueueUrl, MessageBody: "as the role" }));
    const got = await session.send(
      new ReceiveMessageCommand({ QueueUrl, MessageSystemAttributeNames: ["SenderId"] }),
    );
    assert.equal(got.Messages?.length, 1);
    assert.equal(got.Messages[0].Body, "as the role");
    assert.equal(got.Messages[0].Attributes.SenderId, user.AssumedRoleId);
  } finally {
    await sqs(KEYS[A]).send(new DeleteQueueCommand({ QueueUrl }));
  }
});

// Last in this file: it moves the clock on, past the 15 minutes a signature's date may be from
// the server's, so a client that has not seen the server's Date since signs out of range.
test("assumed role keys are refused after expiry on the manual clock", async () => {
  const out = await sts(KEYS[B]).send(
    new AssumeRoleCommand({ RoleArn: ROLE, RoleSessionName: "compat-js-expiry", DurationSeconds: 900 }),
  );
  const now = await clockNow();
  assert.ok(Math.abs(out.Credentials.Expiration.getTime() - (now + 900_000)) < 1000,
    `Expiration ${out.Credentials.Expiration.toISOString()} is not 900 s after ${new Date(now).toISOString()}`);
  const keys = sessionKeys(out);
  const owner = sqs(KEYS[A]);
  const { QueueUrl } = await owner.send(new CreateQueueCommand({ QueueName: `sts-${randomUUID().slice(0, 8)}` }));
  try {
    await sqs(keys).send(new SendMessageCommand({ QueueUrl, MessageBody: "before expiry" }));

    await advanceClock(1200);
    // Now the server is 20 minutes ahead of this machine: sqslite tells the expired token
    // before it checks the signature's date, so the first attempt is already ExpiredToken.
    // These clients keep the SDK's default attempts, as an application's client does; the
    // refusal they end with is the expired token either way.
    await assert.rejects(
      sqs(keys, 3).send(new SendMessageCommand({ QueueUrl, MessageBody: "after expiry" })),
      (err) => {
        assert.equal(err.name, "ExpiredToken", err.message);
        assert.equal(err.$metadata.httpStatusCode, 403);
        assert.equal(err.message, "The security token included in the request is expired");
        return true;
      },
    );
    await assert.rejects(sts(keys, 3).send(new GetCallerIdentityCommand({})), (err) => {
      assert.equal(err.name, "ExpiredToken", err.message);
      assert.equal(err.$metadata.httpStatusCode, 403);
      return true;
    });
    // The declared key still works, and the queue holds only the message sent before expiry.
    const ownerNow = sqs(KEYS[A], 3);
    const got = await ownerNow.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10 }));
    assert.deepEqual(got.Messages?.map((m) => m.Body), ["before expiry"]);
  } finally {
    await sqs(KEYS[A], 3).send(new DeleteQueueCommand({ QueueUrl }));
  }
});
