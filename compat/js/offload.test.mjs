// message-queue-toolkit's payload offloading against sqslite (compat/run.sh js-s3): an
// AbstractSqsPublisher with @message-queue-toolkit/s3-payload-store puts a message past its
// threshold into a bucket and sends a pointer to it (payloadRef, and the legacy
// offloadedPayloadPointer); an AbstractSqsConsumer with the same store reads it back, whole and
// validated by its schema.
import { randomUUID } from "node:crypto";
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { CreateBucketCommand, ListObjectsV2Command, S3 } from "@aws-sdk/client-s3";
import { ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { MessageHandlerConfigBuilder } from "@message-queue-toolkit/core";
import { S3PayloadStore } from "@message-queue-toolkit/s3-payload-store";
import { AbstractSqsConsumer, AbstractSqsPublisher } from "@message-queue-toolkit/sqs";
import { z } from "zod";
import { endpoint, makeClient } from "./helpers.mjs";

const sqs = makeClient();
const s3 = new S3({
  endpoint: endpoint(),
  region: "us-east-1",
  credentials: { accessKeyId: "test", secretAccessKey: "test" },
  maxAttempts: 1,
});
after(() => {
  sqs.destroy();
  s3.destroy();
});

const Report = z.object({
  id: z.string(),
  messageType: z.literal("report.ready"),
  rows: z.array(z.object({ i: z.number(), name: z.string() })),
  timestamp: z.string().optional(),
});

const errors = [];
const quiet = () => {};
const logger = { trace: quiet, debug: quiet, info: quiet, warn: quiet, error: quiet, fatal: quiet, isLevelEnabled: () => false };
logger.child = () => logger;
const errorReporter = { report: ({ error }) => errors.push(error) };

class ReportPublisher extends AbstractSqsPublisher {
  constructor(QueueName, payloadStoreConfig) {
    super({ sqsClient: sqs, logger, errorReporter }, {
      messageSchemas: [Report],
      messageTypeResolver: { messageTypePath: "messageType" },
      creationConfig: { queue: { QueueName } },
      payloadStoreConfig,
    });
  }
}

class ReportConsumer extends AbstractSqsConsumer {
  constructor(QueueName, payloadStoreConfig, received) {
    super(
      {
        sqsClient: sqs,
        logger,
        errorReporter,
        consumerErrorResolver: { resolveError: () => ({ resolve: "retryLater" }) },
        transactionObservabilityManager: { start: quiet, stop: quiet },
      },
      {
        messageTypeResolver: { messageTypePath: "messageType" },
        handlers: new MessageHandlerConfigBuilder()
          .addConfig(Report, async (message) => {
            received.push(message);
            return { result: "success" };
          })
          .build(),
        creationConfig: { queue: { QueueName } },
        payloadStoreConfig,
        handlerSpy: true,
      },
      {},
    );
  }
}

test("message_queue_toolkit_payload_offloading", async () => {
  const Bucket = `mqt-${randomUUID().slice(0, 12)}`;
  await s3.send(new CreateBucketCommand({ Bucket }));
  const payloadStoreConfig = {
    store: new S3PayloadStore({ s3 }, { bucketName: Bucket, keyPrefix: "offloaded" }),
    storeName: "s3",
    messageSizeThreshold: 256 * 1024,
  };
  const QueueName = `mqt-${randomUUID().slice(0, 12)}`;
  const publisher = new ReportPublisher(QueueName, payloadStoreConfig);
  await publisher.init();
  const rows = Array.from({ length: 40_000 }, (_, i) => ({ i, name: `row ${i}` }));
  const id = randomUUID();
  await publisher.publish({ id, messageType: "report.ready", rows });

  // The queue carries the pointer, the bucket the payload.
  const { Contents } = await s3.send(new ListObjectsV2Command({ Bucket }));
  assert.equal(Contents.length, 1);
  assert.match(Contents[0].Key, /^offloaded\//);
  assert.ok(Contents[0].Size > 1024 * 1024, `${Contents[0].Size} bytes`);
  const QueueUrl = publisher.queueUrl;
  const raw = await sqs.send(new ReceiveMessageCommand({ QueueUrl, VisibilityTimeout: 0, WaitTimeSeconds: 5 }));
  const pointer = JSON.parse(raw.Messages[0].Body);
  assert.equal(pointer.id, id);
  assert.deepEqual(pointer.payloadRef, { id: Contents[0].Key, store: "s3", size: Contents[0].Size });
  assert.equal(pointer.offloadedPayloadPointer, Contents[0].Key);
  assert.equal(pointer.rows, undefined);

  const received = [];
  const consumer = new ReportConsumer(QueueName, payloadStoreConfig, received);
  await consumer.start();
  try {
    await consumer.handlerSpy.waitForMessageWithId(id, "consumed");
  } finally {
    await consumer.close();
    await publisher.close();
  }
  assert.equal(received.length, 1);
  assert.equal(received[0].rows.length, rows.length);
  assert.deepEqual(received[0].rows.at(-1), rows.at(-1));
  assert.deepEqual(errors, []);
});
