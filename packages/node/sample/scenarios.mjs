// The sample suite packages/run.sh runs against the installed tarballs, under Vitest
// (sample.test.mjs) and Jest (sample.jest.mjs). Every test first checks that it sees the
// started state and then leaves something behind, so the second proves the reset.
import { realpathSync } from "node:fs";
import {
  CreateQueueCommand, GetQueueAttributesCommand, GetQueueUrlCommand, ListQueuesCommand,
  DeleteMessageCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient,
} from "@aws-sdk/client-sqs";
import {
  CreateBucketCommand, GetObjectCommand, ListBucketsCommand, PutObjectCommand, S3Client,
} from "@aws-sdk/client-s3";
import { connect } from "sqslite";
import { start } from "sqslite"; // for the test of at-least-once delivery
import { binaryPath } from "sqslite"; // for the test of the bundled binary

/** Registers the sample tests with a runner's test, beforeEach and expect. */
export function register({ test, beforeEach, expect }) {
  const sqslite = connect();
  const sqs = new SQSClient({
    endpoint: sqslite.endpoint,
    region: "us-east-1",
    credentials: { accessKeyId: "test", secretAccessKey: "test" },
  });

  beforeEach(() => sqslite.reset());

  async function url(name) {
    return (await sqs.send(new GetQueueUrlCommand({ QueueName: name }))).QueueUrl;
  }

  async function receive(queueUrl) {
    const out = await sqs.send(new ReceiveMessageCommand({
      QueueUrl: queueUrl, WaitTimeSeconds: 0, MessageSystemAttributeNames: ["ApproximateReceiveCount"],
    }));
    return out.Messages ?? [];
  }

  async function expectStartedState() {
    const urls = (await sqs.send(new ListQueuesCommand({}))).QueueUrls ?? [];
    expect(urls.map((u) => u.split("/").pop()).sort()).toEqual(["orders", "orders-dlq"]);
    for (const queueUrl of urls) {
      const names = ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"];
      const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: names }));
      // Keyed by the URL so that a failure names the queue (Jest's expect takes one argument).
      expect({ [queueUrl]: names.map((name) => Attributes[name]) }).toEqual({ [queueUrl]: ["0", "0"] });
    }
  }

  test("runs the binary of the @sqslite/linux-x64 package", () => {
    expect(realpathSync(binaryPath())).toBe(realpathSync("node_modules/@sqslite/linux-x64/bin/sqslite"));
  });

  test("a poison message reaches the DLQ on the manual clock", async () => {
    await expectStartedState();
    const orders = await url("orders");
    await sqs.send(new SendMessageCommand({ QueueUrl: orders, MessageBody: "poison" }));
    for (const attempt of ["1", "2"]) {
      const [message] = await receive(orders);
      expect(message.Attributes.ApproximateReceiveCount).toBe(attempt);
      expect(await receive(orders)).toEqual([]); // in flight for VisibilityTimeout = 30
      await sqslite.advanceClock(31);
    }
    expect(await receive(orders)).toEqual([]); // a third receive moves it to the DLQ instead
    const [dead] = await receive(await url("orders-dlq"));
    expect(dead.Body).toBe("poison");
  });

  test("created queues are gone after reset", async () => {
    await expectStartedState();
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: "scratch" }));
    await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: "left behind" }));
    await sqs.send(new SendMessageCommand({ QueueUrl: await url("orders"), MessageBody: "left behind" }));
  });

  // S3 is served on the same port; the second run proves the reset drops buckets too.
  const s3 = new S3Client({
    endpoint: sqslite.endpoint,
    region: "us-east-1",
    credentials: { accessKeyId: "test", secretAccessKey: "test" },
  });
  for (const run of ["first", "second"]) {
    test(`S3 on the same port (${run})`, async () => {
      expect((await s3.send(new ListBucketsCommand({}))).Buckets ?? []).toEqual([]);
      await s3.send(new CreateBucketCommand({ Bucket: "payloads" }));
      await s3.send(new PutObjectCommand({ Bucket: "payloads", Key: "orders/1.json", Body: '{"order": 1}' }));
      const got = await s3.send(new GetObjectCommand({ Bucket: "payloads", Key: "orders/1.json" }));
      expect(await got.Body.transformToString()).toBe('{"order": 1}');
    });
  }

  test("at-least-once delivery redelivers a deleted message", async () => {
    // Every delete leaves the message to come back once more: what a consumer must survive.
    const server = await start({
      delivery: "at-least-once", deliverySeed: 7, args: ["--delivery-duplicate", "1"],
    });
    try {
      const client = new SQSClient({
        endpoint: server.endpoint,
        region: "us-east-1",
        credentials: { accessKeyId: "test", secretAccessKey: "test" },
      });
      const { QueueUrl } = await client.send(new CreateQueueCommand({ QueueName: "payments" }));
      const { MessageId } = await client.send(new SendMessageCommand({ QueueUrl, MessageBody: "charge once" }));
      const [first] = (await client.send(new ReceiveMessageCommand({ QueueUrl }))).Messages;
      await client.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle: first.ReceiptHandle }));
      const [again] = (await client.send(new ReceiveMessageCommand({ QueueUrl }))).Messages;
      expect(again.MessageId).toBe(MessageId);
      expect(again.ReceiptHandle).not.toBe(first.ReceiptHandle);
    } finally {
      await server.stop();
    }
  });
}
