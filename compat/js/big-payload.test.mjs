// sns-sqs-big-payload against sqslite (compat/run.sh js-s3), as its README wires it: an
// SnsProducer puts a JSON payload past SNS's 256 KiB into a bucket and publishes a pointer
// (`{"S3Payload": {Id, Bucket, Key, Location}}`) to a topic whose queue subscription delivers it
// in SNS's envelope; an SqsConsumer unwraps the envelope, reads the payload from the bucket,
// hands it to its handler and deletes the message. The library runs on the v2 `aws-sdk`, its
// peer dependency, whose S3 client needs path style for an endpoint on an IP address.
import { randomUUID } from "node:crypto";
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { endpoint } from "./helpers.mjs";

// The v2 SDK announces its end of support on load unless told not to.
process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE = "1";
const require = createRequire(import.meta.url);
const aws = require("aws-sdk");
const { SnsProducer, SqsConsumer, SqsConsumerEvents } = require("sns-sqs-big-payload");

const options = {
  endpoint: endpoint(),
  region: "us-east-1",
  credentials: { accessKeyId: "test", secretAccessKey: "test" },
  maxRetries: 0,
};
const sns = new aws.SNS(options);
const sqs = new aws.SQS(options);
const s3 = new aws.S3({ ...options, s3ForcePathStyle: true });
const consumers = [];
after(() => consumers.forEach((c) => c.stop()));

test("sns_sqs_big_payload_through_a_bucket", async () => {
  const Bucket = `big-${randomUUID().slice(0, 12)}`;
  await s3.createBucket({ Bucket }).promise();
  const { TopicArn } = await sns.createTopic({ Name: `big-${randomUUID().slice(0, 8)}` }).promise();
  const { QueueUrl } = await sqs.createQueue({ QueueName: `big-${randomUUID().slice(0, 12)}` }).promise();
  const { Attributes } = await sqs.getQueueAttributes({ QueueUrl, AttributeNames: ["QueueArn"] }).promise();
  await sns.subscribe({ TopicArn, Protocol: "sqs", Endpoint: Attributes.QueueArn }).promise();

  const producer = SnsProducer.create({ topicArn: TopicArn, sns, s3, s3Bucket: Bucket, largePayloadThoughS3: true });
  const payload = { id: randomUUID(), items: Array.from({ length: 20_000 }, (_, i) => ({ i, name: `item ${i}` })) };
  const published = await producer.publishJSON(payload);
  assert.equal(published.s3Response.Bucket, Bucket);
  const { Contents } = await s3.listObjectsV2({ Bucket }).promise();
  assert.deepEqual(Contents.map((o) => o.Key), [published.s3Response.Key]);
  assert.ok(Contents[0].Size > 256 * 1024, `${Contents[0].Size} bytes`);

  const handled = [];
  const errors = [];
  const consumer = SqsConsumer.create({
    queueUrl: QueueUrl,
    sqs,
    s3,
    getPayloadFromS3: true,
    waitTimeSeconds: 1,
    transformMessageBody: (body) => JSON.parse(body).Message,
    parsePayload: (raw) => JSON.parse(raw),
    handleMessage: async ({ payload: got, s3PayloadMeta }) => {
      handled.push({ got, s3PayloadMeta });
    },
  });
  consumers.push(consumer);
  for (const event of [SqsConsumerEvents.error, SqsConsumerEvents.s3PayloadError, SqsConsumerEvents.processingError]) {
    consumer.on(event, (err) => errors.push(err));
  }
  const processed = new Promise((resolve) => consumer.on(SqsConsumerEvents.messageProcessed, resolve));
  consumer.start();
  await processed;
  consumer.stop();

  assert.deepEqual(errors, []);
  assert.equal(handled.length, 1);
  assert.deepEqual(handled[0].got, payload);
  assert.equal(handled[0].s3PayloadMeta.Key, published.s3Response.Key);
  // Handled messages are deleted; the payload stays, as the library leaves it.
  const left = await sqs.getQueueAttributes({
    QueueUrl,
    AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
  }).promise();
  assert.deepEqual(left.Attributes, { ApproximateNumberOfMessages: "0", ApproximateNumberOfMessagesNotVisible: "0" });
  await s3.deleteObject({ Bucket, Key: published.s3Response.Key }).promise();
  await s3.deleteBucket({ Bucket }).promise();
});
