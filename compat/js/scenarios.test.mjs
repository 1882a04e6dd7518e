// The compatibility scenarios (docs/src/scenarios.md) driven by the AWS SDK for JavaScript v3,
// which speaks AWS JSON 1.0 and verifies body MD5s on send, batch send and receive.
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import {
  AddPermissionCommand,
  BatchEntryIdsNotDistinct,
  ChangeMessageVisibilityBatchCommand,
  ChangeMessageVisibilityCommand,
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  DeleteMessageCommand,
  DeleteQueueCommand,
  EmptyBatchRequest,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  InvalidBatchEntryId,
  ListDeadLetterSourceQueuesCommand,
  ListMessageMoveTasksCommand,
  ListQueuesCommand,
  ListQueueTagsCommand,
  PurgeQueueCommand,
  QueueDoesNotExist,
  ReceiptHandleIsInvalid,
  ReceiveMessageCommand,
  RemovePermissionCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SetQueueAttributesCommand,
  SQSClient,
  SQSServiceException,
  StartMessageMoveTaskCommand,
  TagQueueCommand,
  TooManyEntriesInBatchRequest,
  UntagQueueCommand,
} from "@aws-sdk/client-sqs";
import { attribute, counts, endpoint, makeClient, md5OfAttributes, md5OfBody, queues } from "./helpers.mjs";

const client = makeClient();
let q;
before(() => {
  q = queues(client);
});
after(async () => {
  await q.cleanup();
  client.destroy();
});

const bytes = (...b) => new Uint8Array(b);
const ALL_TYPES = {
  s: { DataType: "String", StringValue: 'h\u00e9llo <w\u00f6rld> & "friends"' },
  n: { DataType: "Number", StringValue: "-12.5e3" },
  b: { DataType: "Binary", BinaryValue: bytes(0, 1, 0xfe, 0xff) },
  "s.label": { DataType: "String.custom-label", StringValue: "labelled" },
  "n.label": { DataType: "Number.float", StringValue: "3.14" },
  "b.label": { DataType: "Binary.gif", BinaryValue: new TextEncoder().encode("GIF89a") },
};

/** Received attributes with Uint8Array values turned into plain ones for deepEqual. */
function plain(attributes) {
  return Object.fromEntries(
    Object.entries(attributes ?? {}).map(([k, v]) => [
      k,
      v.BinaryValue !== undefined
        ? { DataType: v.DataType, BinaryValue: new Uint8Array(v.BinaryValue) }
        : { DataType: v.DataType, StringValue: v.StringValue },
    ]),
  );
}

async function receive(QueueUrl, extra = {}) {
  const out = await client.send(new ReceiveMessageCommand({ QueueUrl, ...extra }));
  return out.Messages ?? [];
}

async function receiveOne(QueueUrl, extra = {}) {
  const messages = await receive(QueueUrl, extra);
  assert.equal(messages.length, 1, JSON.stringify(messages));
  return messages[0];
}

async function arn(QueueUrl) {
  return attribute(client, QueueUrl, "QueueArn");
}

/** Waits until a ReceiveMessage is parked on the queue (sqslite's own metric). */
async function waitParked(url) {
  const name = url.split("/").pop();
  const deadline = performance.now() + 5000;
  while (performance.now() < deadline) {
    const text = await (await fetch(`${endpoint()}/metrics`)).text();
    const line = text.split("\n").find((l) => l.startsWith("sqslite_receives_waiting{") && l.includes(`queue="${name}"`));
    if (line && Number(line.split(" ").pop()) >= 1) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  assert.fail(`no receive parked on ${name}`);
}

/** A ReceiveMessage long poll, and a promise that settles once its request has left. */
function parkedReceive(QueueUrl, extra = {}) {
  const command = new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 20, ...extra });
  let markSent;
  const sent = new Promise((resolve) => (markSent = resolve));
  command.middlewareStack.add(
    (next) => async (args) => {
      markSent();
      return next(args);
    },
    { step: "finalizeRequest", name: "compatMarkSent" },
  );
  const start = performance.now();
  const result = client.send(command).then((out) => ({ out, elapsed: (performance.now() - start) / 1000 }));
  return { sent, result };
}

test("queue_lifecycle", async () => {
  const url = await q.make("lifecycle", { VisibilityTimeout: "45" });
  const name = url.split("/").pop();
  const tagged = (await client.send(new CreateQueueCommand({ QueueName: `${name}-tagged`, tags: { env: "test" } })))
    .QueueUrl;
  assert.deepEqual((await client.send(new ListQueueTagsCommand({ QueueUrl: tagged }))).Tags, { env: "test" });
  let page = await client.send(new ListQueuesCommand({ QueueNamePrefix: name, MaxResults: 1 }));
  assert.deepEqual(page.QueueUrls, [url]);
  assert.ok(page.NextToken);
  page = await client.send(new ListQueuesCommand({ QueueNamePrefix: name, MaxResults: 1, NextToken: page.NextToken }));
  assert.deepEqual(page.QueueUrls, [tagged]);
  assert.equal(page.NextToken, undefined);
  await client.send(new DeleteQueueCommand({ QueueUrl: tagged }));
  assert.equal((await client.send(new GetQueueUrlCommand({ QueueName: name }))).QueueUrl, url);
  const again = await client.send(
    new CreateQueueCommand({ QueueName: name, Attributes: { VisibilityTimeout: "45" } }),
  );
  assert.equal(again.QueueUrl, url);
  const listed = await client.send(new ListQueuesCommand({ QueueNamePrefix: "lifecycle-" }));
  assert.ok(listed.QueueUrls.includes(url));

  const all = await client.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ["All"] }));
  assert.equal(all.Attributes.VisibilityTimeout, "45");
  assert.ok(all.Attributes.QueueArn.endsWith(`:${name}`));
  await client.send(new SetQueueAttributesCommand({ QueueUrl: url, Attributes: { DelaySeconds: "2" } }));
  assert.equal(await attribute(client, url, "DelaySeconds"), "2");

  await client.send(
    new AddPermissionCommand({ QueueUrl: url, Label: "send-only", AWSAccountIds: ["111122223333"], Actions: ["SendMessage"] }),
  );
  assert.match(await attribute(client, url, "Policy"), /send-only/);
  await client.send(new RemovePermissionCommand({ QueueUrl: url, Label: "send-only" }));

  await client.send(new TagQueueCommand({ QueueUrl: url, Tags: { team: "core", empty: "" } }));
  await client.send(new UntagQueueCommand({ QueueUrl: url, TagKeys: ["empty"] }));
  assert.deepEqual((await client.send(new ListQueueTagsCommand({ QueueUrl: url }))).Tags, { team: "core" });

  await client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "x", DelaySeconds: 0 }));
  await client.send(new PurgeQueueCommand({ QueueUrl: url }));
  assert.deepEqual(await counts(client, url), [0, 0]);
  // SQS's 60-second purge guard is off by default (--strict restores it).
  await client.send(new PurgeQueueCommand({ QueueUrl: url }));

  await client.send(new DeleteQueueCommand({ QueueUrl: url }));
  await assert.rejects(client.send(new GetQueueUrlCommand({ QueueName: name })), QueueDoesNotExist);
});

test("message_attributes", async () => {
  const url = await q.make();
  const body = "line one\r\nline two\t<tag> & \"quotes\" 'single' \u00e9\u4e2d\u{1F600}";
  const trace = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1";
  const sent = await client.send(
    new SendMessageCommand({
      QueueUrl: url,
      MessageBody: body,
      MessageAttributes: ALL_TYPES,
      MessageSystemAttributes: { AWSTraceHeader: { DataType: "String", StringValue: trace } },
    }),
  );
  assert.equal(sent.MD5OfMessageBody, md5OfBody(body));
  assert.equal(sent.MD5OfMessageAttributes, md5OfAttributes(ALL_TYPES));
  assert.equal(sent.MD5OfMessageSystemAttributes, "5ae4d5d7636402d80f4eb6d213245a88");

  let m = await receiveOne(url, {
    MessageAttributeNames: ["All"],
    MessageSystemAttributeNames: ["All"],
    VisibilityTimeout: 0,
  });
  assert.equal(m.MessageId, sent.MessageId);
  assert.equal(m.Body, body);
  assert.equal(m.MD5OfBody, md5OfBody(body));
  assert.deepEqual(plain(m.MessageAttributes), ALL_TYPES);
  assert.equal(m.MD5OfMessageAttributes, sent.MD5OfMessageAttributes);
  assert.equal(m.Attributes.ApproximateReceiveCount, "1");
  assert.equal(m.Attributes.AWSTraceHeader, trace);

  m = await receiveOne(url, { MessageAttributeNames: ["s", "b.*"], VisibilityTimeout: 0 });
  // As on AWS, `b.*` is a plain prefix: it takes `b` itself as well as `b.label`.
  const chosen = { s: ALL_TYPES.s, b: ALL_TYPES.b, "b.label": ALL_TYPES["b.label"] };
  assert.deepEqual(plain(m.MessageAttributes), chosen);
  assert.equal(m.MD5OfMessageAttributes, md5OfAttributes(chosen));

  m = await receiveOne(url);
  assert.equal(m.MessageAttributes, undefined);
  assert.equal(m.MD5OfMessageAttributes, undefined);
  await client.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: m.ReceiptHandle }));
  assert.deepEqual(await counts(client, url), [0, 0]);
  assert.deepEqual(await receive(url), []);
});

test("large_message", async () => {
  const url = await q.make();
  // 1 MiB exactly (the default MaximumMessageSize), with multi-byte characters and escapes.
  const unit = '\u4e2d\u{1F600}\r\n<&>"x'; // 3 + 4 + 2 + 3 + 2 = 14 bytes
  let body = unit.repeat(Math.floor(1_048_576 / 14));
  body += "a".repeat(1_048_576 - Buffer.byteLength(body));
  const sent = await client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: body }));
  assert.equal(sent.MD5OfMessageBody, md5OfBody(body));
  const m = await receiveOne(url);
  assert.equal(m.Body, body);
  const err = await client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: `${body}!` })).catch((e) => e);
  assert.equal(err.Code ?? err.name, "InvalidParameterValue");
});

test("batch_partial_failure", async () => {
  const url = await q.make();
  const out = await client.send(
    new SendMessageBatchCommand({
      QueueUrl: url,
      Entries: [
        { Id: "ok-1", MessageBody: "one" },
        {
          Id: "bad_number",
          MessageBody: "two",
          MessageAttributes: { n: { DataType: "Number", StringValue: "not a number" } },
        },
        { Id: "ok-2", MessageBody: "three", MessageAttributes: ALL_TYPES },
      ],
    }),
  );
  assert.deepEqual(out.Successful.map((e) => e.Id).sort(), ["ok-1", "ok-2"]);
  const ok2 = out.Successful.find((e) => e.Id === "ok-2");
  assert.equal(ok2.MD5OfMessageAttributes, md5OfAttributes(ALL_TYPES));
  assert.equal(out.Failed.length, 1);
  assert.equal(out.Failed[0].Id, "bad_number");
  assert.equal(out.Failed[0].SenderFault, true);
  assert.equal(out.Failed[0].Code, "InvalidParameterValue");

  const messages = await receive(url, { MaxNumberOfMessages: 10, WaitTimeSeconds: 1 });
  assert.deepEqual(messages.map((m) => m.Body).sort(), ["one", "three"]);
  const entries = messages.map((m, i) => ({ Id: `m${i}`, ReceiptHandle: m.ReceiptHandle }));
  entries.push({ Id: "bogus", ReceiptHandle: "not-a-receipt-handle" });
  const deleted = await client.send(new DeleteMessageBatchCommand({ QueueUrl: url, Entries: entries }));
  assert.deepEqual(deleted.Successful.map((e) => e.Id).sort(), ["m0", "m1"]);
  assert.deepEqual(
    deleted.Failed.map((e) => [e.Id, e.Code, e.SenderFault]),
    [["bogus", "ReceiptHandleIsInvalid", true]],
  );
  assert.deepEqual(await counts(client, url), [0, 0]);
});

test("batch_errors", async () => {
  const url = await q.make();
  const same = [
    { Id: "same", MessageBody: "a" },
    { Id: "same", MessageBody: "b" },
  ];
  await assert.rejects(
    client.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: same })),
    BatchEntryIdsNotDistinct,
  );
  const eleven = Array.from({ length: 11 }, (_, i) => ({ Id: `e${i}`, MessageBody: "x" }));
  await assert.rejects(
    client.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: eleven })),
    TooManyEntriesInBatchRequest,
  );
  await assert.rejects(
    client.send(
      new DeleteMessageBatchCommand({ QueueUrl: url, Entries: [{ Id: "no spaces", ReceiptHandle: "h" }] }),
    ),
    InvalidBatchEntryId,
  );
  assert.deepEqual(await counts(client, url), [0, 0]);
});

test("long_poll_wakes_on_send", async () => {
  const url = await q.make();
  const poll = parkedReceive(url);
  await poll.sent;
  await client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "wake up" }));
  const { out, elapsed } = await poll.result;
  assert.deepEqual((out.Messages ?? []).map((m) => m.Body), ["wake up"]);
  assert.ok(elapsed < 10, `long poll took ${elapsed.toFixed(1)}s to see the send`);
});

test("visibility", async () => {
  const url = await q.make("vis", { VisibilityTimeout: "30" });
  await client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "hidden" }));
  const m = await receiveOne(url, { MessageSystemAttributeNames: ["ApproximateReceiveCount"] });
  assert.deepEqual(await receive(url), []);
  assert.deepEqual(await counts(client, url), [0, 1]);

  await client.send(
    new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: m.ReceiptHandle, VisibilityTimeout: 0 }),
  );
  const again = await receiveOne(url, { MessageSystemAttributeNames: ["ApproximateReceiveCount"] });
  assert.equal(again.MessageId, m.MessageId);
  assert.equal(again.Attributes.ApproximateReceiveCount, "2");

  const out = await client.send(
    new ChangeMessageVisibilityBatchCommand({
      QueueUrl: url,
      Entries: [
        { Id: "real", ReceiptHandle: again.ReceiptHandle, VisibilityTimeout: 0 },
        { Id: "fake", ReceiptHandle: "garbage", VisibilityTimeout: 0 },
      ],
    }),
  );
  assert.deepEqual(out.Successful.map((e) => e.Id), ["real"]);
  assert.deepEqual(out.Failed.map((e) => [e.Id, e.Code]), [["fake", "ReceiptHandleIsInvalid"]]);
  assert.deepEqual(await counts(client, url), [1, 0]);
  await assert.rejects(
    client.send(new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: "garbage", VisibilityTimeout: 5 })),
    ReceiptHandleIsInvalid,
  );
});

test("queue_does_not_exist", async () => {
  const err = await client.send(new GetQueueUrlCommand({ QueueName: "no-such-queue" })).catch((e) => e);
  assert.ok(err instanceof QueueDoesNotExist, `got ${err?.name}: ${err?.message}`);
  assert.equal(err.$metadata.httpStatusCode, 400);
  assert.equal(err.Code, "AWS.SimpleQueueService.NonExistentQueue");

  const url = await q.make();
  await client.send(new DeleteQueueCommand({ QueueUrl: url }));
  await assert.rejects(
    client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "into the void" })),
    QueueDoesNotExist,
  );
});

test("invalid_parameter_value", async () => {
  const url = await q.make();
  const err = await client
    .send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 11 }))
    .catch((e) => e);
  assert.ok(err instanceof SQSServiceException, String(err));
  assert.equal(err.Code ?? err.name, "InvalidParameterValue");
  assert.match(err.message, /MaxNumberOfMessages/);
  const bad = await client.send(new CreateQueueCommand({ QueueName: "bad name!" })).catch((e) => e);
  assert.equal(bad.Code ?? bad.name, "InvalidParameterValue");
  const attr = await client
    .send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ["NoSuchAttribute"] }))
    .catch((e) => e);
  assert.equal(attr.name, "InvalidAttributeName");
});

async function redriveSetup(maxReceiveCount) {
  const dlq = await q.make("dlq");
  const dlqArn = await arn(dlq);
  const policy = JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: String(maxReceiveCount) });
  const source = await q.make("src", { RedrivePolicy: policy });
  return { dlq, dlqArn, source, sourceArn: await arn(source) };
}

test("dlq_redrive", async () => {
  const { dlq, source, sourceArn } = await redriveSetup(2);
  const sources = await client.send(new ListDeadLetterSourceQueuesCommand({ QueueUrl: dlq }));
  assert.deepEqual(sources.queueUrls, [source]);

  const sent = await client.send(new SendMessageCommand({ QueueUrl: source, MessageBody: "poison" }));
  for (const count of ["1", "2"]) {
    const m = await receiveOne(source, { VisibilityTimeout: 0, MessageSystemAttributeNames: ["All"] });
    assert.equal(m.Attributes.ApproximateReceiveCount, count);
  }
  assert.deepEqual(await receive(source, { VisibilityTimeout: 0 }), []);
  const moved = await receiveOne(dlq, { MessageSystemAttributeNames: ["All"], VisibilityTimeout: 0 });
  assert.equal(moved.MessageId, sent.MessageId);
  assert.equal(moved.Body, "poison");
  assert.equal(moved.Attributes.DeadLetterQueueSourceArn, sourceArn);
  assert.deepEqual(await counts(client, source), [0, 0]);
});

test("move_task", async () => {
  const { dlq, dlqArn, source } = await redriveSetup(1);
  const sent = await client.send(new SendMessageCommand({ QueueUrl: source, MessageBody: "redrive me" }));
  await receiveOne(source, { VisibilityTimeout: 0 });
  assert.deepEqual(await receive(source), []);
  assert.deepEqual(await counts(client, dlq), [1, 0]);

  const { TaskHandle } = await client.send(new StartMessageMoveTaskCommand({ SourceArn: dlqArn }));
  assert.ok(TaskHandle);
  // The move runs in the background; its own status is the event to wait for.
  const deadline = Date.now() + 15_000;
  let task;
  for (;;) {
    [task] = (await client.send(new ListMessageMoveTasksCommand({ SourceArn: dlqArn }))).Results;
    if (task.Status !== "RUNNING" || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.equal(task.Status, "COMPLETED", JSON.stringify(task));
  assert.equal(task.SourceArn, dlqArn);
  assert.equal(task.ApproximateNumberOfMessagesMoved, 1);
  assert.equal(typeof task.StartedTimestamp, "number");
  const back = await receiveOne(source, { WaitTimeSeconds: 1 });
  assert.deepEqual([back.MessageId, back.Body], [sent.MessageId, "redrive me"]);
  assert.deepEqual(await counts(client, dlq), [0, 0]);
});

test("fifo_order_dedup", async () => {
  const url = await q.make("order", {}, true);
  const sent = [];
  for (const [group, body] of [["g1", "a1"], ["g2", "b1"], ["g1", "a2"], ["g2", "b2"], ["g1", "a3"]]) {
    sent.push(
      await client.send(
        new SendMessageCommand({ QueueUrl: url, MessageBody: body, MessageGroupId: group, MessageDeduplicationId: body }),
      ),
    );
  }
  const seq = sent.map((s) => BigInt(s.SequenceNumber));
  for (let i = 1; i < seq.length; i++) assert.ok(seq[i] > seq[i - 1]);
  const again = await client.send(
    new SendMessageCommand({ QueueUrl: url, MessageBody: "a1 again", MessageGroupId: "g1", MessageDeduplicationId: "a1" }),
  );
  assert.equal(again.MessageId, sent[0].MessageId);
  assert.deepEqual(await counts(client, url), [5, 0]);

  const head = await receiveOne(url, { MessageSystemAttributeNames: ["All"] });
  assert.equal(head.Body, "a1");
  assert.equal(head.Attributes.MessageGroupId, "g1");
  assert.equal(head.Attributes.MessageDeduplicationId, "a1");
  assert.deepEqual((await receive(url, { MaxNumberOfMessages: 10 })).map((m) => m.Body), ["b1", "b2"]);
  await client.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: head.ReceiptHandle }));
  assert.deepEqual((await receive(url, { MaxNumberOfMessages: 10 })).map((m) => m.Body), ["a2", "a3"]);

  const err = await client
    .send(new SendMessageCommand({ QueueUrl: url, MessageBody: "no group", MessageDeduplicationId: "x" }))
    .catch((e) => e);
  assert.equal(err.Code ?? err.name, "MissingParameter");
});

// JS v3 only: a client built for real AWS (no `endpoint`) sends each call that carries a
// QueueUrl to that URL's origin (useQueueUrlAsEndpoint), so sqslite is reached through the URL
// it minted alone. Only QueueUrl-bearing calls are made: anything else would head for AWS.
test("js_queue_url_as_endpoint", async () => {
  const url = await q.make("origin");
  const aws = new SQSClient({
    region: "us-east-1",
    credentials: { accessKeyId: "test", secretAccessKey: "test" },
    maxAttempts: 1,
    logger: { debug() {}, info() {}, warn() {}, error: console.error },
  });
  try {
    const sent = await aws.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "via the queue URL" }));
    const out = await aws.send(new ReceiveMessageCommand({ QueueUrl: url, WaitTimeSeconds: 1 }));
    assert.deepEqual((out.Messages ?? []).map((m) => m.MessageId), [sent.MessageId]);
    await aws.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: out.Messages[0].ReceiptHandle }));
  } finally {
    aws.destroy();
  }
  assert.deepEqual(await counts(client, url), [0, 0]);
});

test("fifo_group_visibility", async () => {
  const url = await q.make("groups", { ContentBasedDeduplication: "true" }, true);
  for (const body of ["a1", "a2", "a3"]) {
    await client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: body, MessageGroupId: "g1" }));
  }
  const both = await receive(url, { MaxNumberOfMessages: 2 });
  assert.deepEqual(both.map((m) => m.Body), ["a1", "a2"]);
  await client.send(
    new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: both[0].ReceiptHandle, VisibilityTimeout: 0 }),
  );
  const again = await receive(url, { MaxNumberOfMessages: 10 });
  assert.deepEqual(again.map((m) => m.Body), ["a1"]);
  await client.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: again[0].ReceiptHandle }));

  const poll = parkedReceive(url);
  await poll.sent;
  await waitParked(url); // parked, so that the delete is what wakes it
  await client.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: both[1].ReceiptHandle }));
  const { out, elapsed } = await poll.result;
  assert.deepEqual((out.Messages ?? []).map((m) => m.Body), ["a3"]);
  assert.ok(elapsed < 10, `the delete woke the long poll after ${elapsed.toFixed(1)}s`);

  const rotation = await q.make("rotation", { ContentBasedDeduplication: "true" }, true);
  for (const g of ["g1", "g2", "g3"]) {
    await client.send(new SendMessageCommand({ QueueUrl: rotation, MessageBody: g, MessageGroupId: g }));
  }
  const first = await receive(rotation, { MaxNumberOfMessages: 2, VisibilityTimeout: 0 });
  assert.deepEqual(first.map((m) => m.Body), ["g1", "g2"]);
  assert.deepEqual((await receive(rotation, { MaxNumberOfMessages: 1 })).map((m) => m.Body), ["g3"]);
});

test("receipt_handle_rules", async () => {
  const url = await q.make("handles", { VisibilityTimeout: "30" });
  await client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "twice" }));
  const old = await receiveOne(url, { VisibilityTimeout: 0 });
  const newer = await receiveOne(url);
  assert.notEqual(newer.ReceiptHandle, old.ReceiptHandle);
  await client.send(
    new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: old.ReceiptHandle, VisibilityTimeout: 0 }),
  );
  const third = await receiveOne(url, { MessageSystemAttributeNames: ["ApproximateReceiveCount"] });
  assert.equal(third.Attributes.ApproximateReceiveCount, "3");
  await client.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: old.ReceiptHandle }));
  assert.deepEqual(await counts(client, url), [0, 0]);
});

test("validation_fidelity", async () => {
  const err = await client
    .send(new CreateQueueCommand({ QueueName: `std-${randomUUID().slice(0, 8)}`, Attributes: { FifoQueue: "false" } }))
    .catch((e) => e);
  assert.equal(err.name, "InvalidAttributeName");
  assert.equal(err.message, "Unknown Attribute FifoQueue.");

  const fifo = await q.make("vfifo", {}, true);
  const batchErr = await client
    .send(
      new SendMessageBatchCommand({
        QueueUrl: fifo,
        Entries: [
          { Id: "a", MessageBody: "a", MessageGroupId: "g", MessageDeduplicationId: "a" },
          { Id: "b", MessageBody: "b", MessageDeduplicationId: "b" },
        ],
      }),
    )
    .catch((e) => e);
  assert.equal(batchErr.Code ?? batchErr.name, "InvalidParameterValue");
  assert.deepEqual(await counts(client, fifo), [0, 0]);

  const url = await q.make();
  await assert.rejects(
    client.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: [{ Id: "", MessageBody: "x" }] })),
    InvalidBatchEntryId,
  );
  await assert.rejects(client.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: [] })), EmptyBatchRequest);

  const unicode = { "attr.1\u00f8\u00df\u00e4": { DataType: "String", StringValue: "Valida" } };
  await client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "m", MessageAttributes: unicode }));
  const bad = await client
    .send(
      new SendMessageCommand({
        QueueUrl: url,
        MessageBody: "m",
        MessageAttributes: { attr1: { DataType: "String", StringValue: "Invalid-\u0008,\u000b" } },
      }),
    )
    .catch((e) => e);
  assert.equal(bad.Code ?? bad.name, "InvalidParameterValue");
  const m = await receiveOne(url, { MessageAttributeNames: ["*"], VisibilityTimeout: 0 });
  assert.deepEqual(plain(m.MessageAttributes), unicode);
  const none = await receiveOne(url, { MessageSystemAttributeNames: [], VisibilityTimeout: 0 });
  assert.equal(none.Attributes, undefined);
});

test("recreate_deleted_queue", async () => {
  const name = `again-${randomUUID().slice(0, 8)}`;
  const url = (await client.send(new CreateQueueCommand({ QueueName: name }))).QueueUrl;
  await client.send(new DeleteQueueCommand({ QueueUrl: url }));
  // SQS makes a name wait 60 s after a delete; sqslite does so only under --strict.
  const again = (await client.send(new CreateQueueCommand({ QueueName: name }))).QueueUrl;
  assert.equal(again, url);
  assert.deepEqual(await counts(client, again), [0, 0]);
  await client.send(new DeleteQueueCommand({ QueueUrl: again }));
});
