// The SNS rows of docs/src/scenarios.md driven by the AWS SDK for JavaScript v3's SNS client
// (AWS Query), fanning out into sqslite's queues on the same endpoint as the SQS client.
import { randomUUID } from "node:crypto";
import { after, test } from "node:test";
import assert from "node:assert/strict";
import {
  CreateTopicCommand,
  DeleteTopicCommand,
  GetSubscriptionAttributesCommand,
  GetTopicAttributesCommand,
  InvalidParameterException,
  ListSubscriptionsByTopicCommand,
  NotFoundException,
  PublishCommand,
  SNSClient,
  SubscribeCommand,
} from "@aws-sdk/client-sns";
import { DeleteMessageCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { attribute, endpoint, makeClient, queues } from "./helpers.mjs";

const sqs = makeClient();
const sns = new SNSClient({
  endpoint: endpoint(),
  region: "us-east-1",
  credentials: { accessKeyId: "test", secretAccessKey: "test" },
  maxAttempts: 1, // a retry would hide a failure
});
const q = queues(sqs);
const topics = [];
after(async () => {
  for (const TopicArn of topics) await sns.send(new DeleteTopicCommand({ TopicArn }));
  await q.cleanup();
});

// What every SNS suite publishes and expects (docs/src/scenarios.md, "SNS fan-out").
const BLOB = Uint8Array.from([0, 1, 254, 255]);
const FULL_ATTRIBUTES = {
  color: { DataType: "String", StringValue: "red" },
  size: { DataType: "Number", StringValue: "3" },
  tags: { DataType: "String.Array", StringValue: '["urgent","late"]' },
  blob: { DataType: "Binary", BinaryValue: BLOB },
};
const ENVELOPE_KEYS = [
  "Type", "MessageId", "TopicArn", "Subject", "Message", "Timestamp", "SignatureVersion",
  "Signature", "SigningCertURL", "UnsubscribeURL", "MessageAttributes",
].sort();
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function makeTopic(fifo = false) {
  const Name = `compat-${randomUUID().slice(0, 12)}${fifo ? ".fifo" : ""}`;
  const Attributes = fifo ? { FifoTopic: "true" } : {};
  const { TopicArn } = await sns.send(new CreateTopicCommand({ Name, Attributes }));
  topics.push(TopicArn);
  return TopicArn;
}

async function subscribe(TopicArn, Endpoint, Attributes = {}) {
  const { SubscriptionArn } = await sns.send(
    new SubscribeCommand({ TopicArn, Protocol: "sqs", Endpoint, Attributes, ReturnSubscriptionArn: true }),
  );
  assert.ok(SubscriptionArn.startsWith(`${TopicArn}:`), SubscriptionArn);
  return SubscriptionArn;
}

/** Every message the queue holds: receives (and deletes) until one comes back empty. */
async function drain(QueueUrl) {
  const got = [];
  for (let i = 0; i < 10; i++) {
    const out = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl, MaxNumberOfMessages: 10, MessageAttributeNames: ["All"], MessageSystemAttributeNames: ["All"],
      }),
    );
    const batch = out.Messages ?? [];
    if (batch.length === 0) return got;
    got.push(...batch);
    for (const m of batch) await sqs.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle: m.ReceiptHandle }));
  }
  assert.fail(`${QueueUrl} never ran dry`);
}

const queueArn = (url) => attribute(sqs, url, "QueueArn");

function checkEnvelope(body, topic, sub, messageId, message) {
  const envelope = JSON.parse(body);
  assert.deepEqual(Object.keys(envelope).sort(), ENVELOPE_KEYS);
  assert.equal(envelope.Type, "Notification");
  assert.equal(envelope.MessageId, messageId);
  assert.equal(envelope.TopicArn, topic);
  assert.equal(envelope.Subject, "compat fan-out");
  assert.equal(envelope.Message, message);
  assert.match(envelope.Timestamp, TIMESTAMP);
  assert.equal(envelope.SignatureVersion, "1");
  assert.match(envelope.Signature, /^[A-Za-z0-9+/]+={0,2}$/);
  assert.ok(envelope.SigningCertURL.startsWith(`${endpoint()}/`), envelope.SigningCertURL);
  assert.ok(envelope.SigningCertURL.endsWith(".pem"), envelope.SigningCertURL);
  assert.equal(envelope.UnsubscribeURL, `${endpoint()}/?Action=Unsubscribe&SubscriptionArn=${sub}`);
  assert.deepEqual(envelope.MessageAttributes, {
    color: { Type: "String", Value: "red" },
    size: { Type: "Number", Value: "3" },
    tags: { Type: "String.Array", Value: '["urgent","late"]' },
    blob: { Type: "Binary", Value: Buffer.from(BLOB).toString("base64") },
  });
}

test("sns_fan_out", async () => {
  const topic = await makeTopic();
  const [envUrl, rawUrl, bodyUrl] = [await q.make("sns-env"), await q.make("sns-raw"), await q.make("sns-body")];
  const envSub = await subscribe(topic, await queueArn(envUrl), {
    FilterPolicy: JSON.stringify({ color: ["red"], size: [{ numeric: [">=", 3] }], tags: ["urgent"] }),
  });
  const rawSub = await subscribe(topic, await queueArn(rawUrl), { RawMessageDelivery: "true" });
  const bodySub = await subscribe(topic, await queueArn(bodyUrl), {
    FilterPolicyScope: "MessageBody",
    FilterPolicy: JSON.stringify({ kind: ["order"], total: [{ numeric: [">", 100] }] }),
  });
  const listed = (await sns.send(new ListSubscriptionsByTopicCommand({ TopicArn: topic }))).Subscriptions;
  assert.deepEqual(listed.map((s) => s.SubscriptionArn).sort(), [envSub, rawSub, bodySub].sort());
  assert.deepEqual([...new Set(listed.map((s) => s.Protocol))], ["sqs"]);
  const subAttrs = async (SubscriptionArn) =>
    (await sns.send(new GetSubscriptionAttributesCommand({ SubscriptionArn }))).Attributes;
  assert.equal((await subAttrs(rawSub)).RawMessageDelivery, "true");
  assert.equal((await subAttrs(bodySub)).FilterPolicyScope, "MessageBody");

  // 1 matches every filter; 2 fails the envelope one on color and the body one on total;
  // 3 fails the envelope one on size and the body one on kind. Raw takes all three.
  const first = '{"kind":"order","total":120}';
  const second = '{"kind":"order","total":50}';
  const third = '{"kind":"refund","total":500}';
  const { MessageId: firstId } = await sns.send(
    new PublishCommand({ TopicArn: topic, Message: first, Subject: "compat fan-out", MessageAttributes: FULL_ATTRIBUTES }),
  );
  await sns.send(
    new PublishCommand({
      TopicArn: topic,
      Message: second,
      MessageAttributes: {
        color: { DataType: "String", StringValue: "blue" },
        size: { DataType: "Number", StringValue: "5" },
      },
    }),
  );
  await sns.send(
    new PublishCommand({
      TopicArn: topic,
      Message: third,
      MessageAttributes: {
        color: { DataType: "String", StringValue: "red" },
        size: { DataType: "Number", StringValue: "2" },
        tags: { DataType: "String.Array", StringValue: '["urgent"]' },
      },
    }),
  );

  const env = await drain(envUrl);
  assert.equal(env.length, 1);
  checkEnvelope(env[0].Body, topic, envSub, firstId, first);
  assert.equal(env[0].MessageAttributes, undefined);

  const body = await drain(bodyUrl);
  assert.equal(body.length, 1);
  checkEnvelope(body[0].Body, topic, bodySub, firstId, first);
  assert.equal(body[0].MessageAttributes, undefined);

  const raw = Object.fromEntries((await drain(rawUrl)).map((m) => [m.Body, m]));
  assert.deepEqual(Object.keys(raw).sort(), [first, second, third].sort());
  assert.deepEqual(raw[first].MessageAttributes, {
    color: { DataType: "String", StringValue: "red" },
    size: { DataType: "Number", StringValue: "3" },
    tags: { DataType: "String.Array", StringValue: '["urgent","late"]' },
    blob: { DataType: "Binary", BinaryValue: BLOB },
  });
  assert.deepEqual(raw[second].MessageAttributes, {
    color: { DataType: "String", StringValue: "blue" },
    size: { DataType: "Number", StringValue: "5" },
  });
  assert.deepEqual(Object.keys(raw[third].MessageAttributes).sort(), ["color", "size", "tags"]);
});

test("sns_fifo_order_dedup", async () => {
  const topic = await makeTopic(true);
  const attrs = (await sns.send(new GetTopicAttributesCommand({ TopicArn: topic }))).Attributes;
  assert.equal(attrs.FifoTopic, "true");
  assert.equal(attrs.ContentBasedDeduplication, "false");
  const url = await q.make("sns-fifo", {}, true);
  await subscribe(topic, await queueArn(url), { RawMessageDelivery: "true" });

  const published = {};
  for (const [group, body] of [["g1", "a1"], ["g2", "b1"], ["g1", "a2"], ["g2", "b2"]]) {
    const out = await sns.send(
      new PublishCommand({ TopicArn: topic, Message: body, MessageGroupId: group, MessageDeduplicationId: `d-${body}` }),
    );
    published[body] = [out.MessageId, BigInt(out.SequenceNumber)];
  }
  const sequence = ["a1", "b1", "a2", "b2"].map((b) => published[b][1]);
  for (let i = 1; i < sequence.length; i++) assert.ok(sequence[i - 1] < sequence[i], `${sequence}`);
  // A repeated deduplication id is accepted, answered as the first, and delivers nothing.
  const again = await sns.send(
    new PublishCommand({ TopicArn: topic, Message: "a1 again", MessageGroupId: "g1", MessageDeduplicationId: "d-a1" }),
  );
  assert.equal(again.MessageId, published.a1[0]);
  assert.equal(BigInt(again.SequenceNumber), published.a1[1]);

  const groups = {};
  for (const m of await drain(url)) (groups[m.Attributes.MessageGroupId] ??= []).push(m.Body);
  assert.deepEqual(groups, { g1: ["a1", "a2"], g2: ["b1", "b2"] });

  await expectError(
    sns.send(new PublishCommand({ TopicArn: topic, Message: "no group", MessageDeduplicationId: "d-x" })),
    InvalidParameterException, 400,
    "Invalid parameter: The MessageGroupId parameter is required for FIFO topics",
  );
  await expectError(
    sns.send(new PublishCommand({ TopicArn: topic, Message: "no dedup", MessageGroupId: "g1" })),
    InvalidParameterException, 400,
    "Invalid parameter: The topic should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly",
  );
});

/** The call fails with the SDK's modelled type (chosen by the wire code), status and message. */
async function expectError(call, type, status, message) {
  await assert.rejects(call, (err) => {
    assert.ok(err instanceof type, `${err.name}: ${err.message}`);
    assert.equal(err.$metadata.httpStatusCode, status);
    assert.equal(err.$fault, "client");
    assert.equal(err.message, message);
    return true;
  });
}

test("sns_errors", async () => {
  const missing = "arn:aws:sns:us-east-1:000000000000:compat-missing";
  await expectError(
    sns.send(new GetTopicAttributesCommand({ TopicArn: missing })), NotFoundException, 404, "Topic does not exist",
  );
  await expectError(
    sns.send(new PublishCommand({ TopicArn: missing, Message: "m" })), NotFoundException, 404, "Topic does not exist",
  );
  const topic = await makeTopic();
  await expectError(
    sns.send(new GetSubscriptionAttributesCommand({ SubscriptionArn: `${topic}:00000000-0000-0000-0000-000000000000` })),
    NotFoundException, 404, "Subscription does not exist",
  );
  await expectError(
    sns.send(new CreateTopicCommand({ Name: "bad name" })), InvalidParameterException, 400, "Invalid parameter: Topic Name",
  );
  const arn = await queueArn(await q.make("sns-errors"));
  await expectError(
    subscribe(topic, arn, { FilterPolicy: '{"color": [{"prefix": "r", "suffix": "d"}]}' }),
    InvalidParameterException, 400,
    "Invalid parameter: Attributes Reason: FilterPolicy: Only one key allowed in match expression",
  );
  const fifoArn = await queueArn(await q.make("sns-errors", {}, true));
  await expectError(
    subscribe(topic, fifoArn), InvalidParameterException, 400,
    "Invalid parameter: Invalid parameter: Endpoint Reason: FIFO SQS Queues can not be subscribed to standard SNS topics",
  );
  await expectError(
    sns.send(new PublishCommand({ TopicArn: topic, Message: "m", MessageDeduplicationId: "d" })),
    InvalidParameterException, 400,
    "Invalid parameter: MessageDeduplicationId Reason: The request includes MessageDeduplicationId parameter that is not valid for this topic type",
  );
});
