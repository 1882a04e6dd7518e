// S3 through the AWS SDK for JavaScript v3 with its default checksums (compat/run.sh js-s3):
// puts and gets (CRC32 computed by default, CRC64NVME on request, a streamed body sent
// aws-chunked with its checksum in a trailer), @aws-sdk/lib-storage's multipart Upload,
// presigned GET and PUT (@aws-sdk/s3-request-presigner) fetched with fetch(), listing and
// DeleteObjects, and an upload's event notification consumed from a queue by sqs-consumer.
// offload.test.mjs and big-payload.test.mjs run message-queue-toolkit and sns-sqs-big-payload.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { after, test } from "node:test";
import assert from "node:assert/strict";
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutBucketNotificationConfigurationCommand,
  PutObjectCommand,
  S3Client,
  paginateListObjectsV2,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { Consumer } from "sqs-consumer";
import { attribute, endpoint, makeClient, queues } from "./helpers.mjs";

const MiB = 1024 * 1024;
const credentials = { accessKeyId: "test", secretAccessKey: "test" };
// The SDK's defaults but the endpoint (path style: an IP address names no virtual host) and
// retries, which would hide a failure.
const s3 = new S3Client({ endpoint: endpoint(), region: "us-east-1", credentials, maxAttempts: 1 });
const sqs = makeClient();
const q = queues(sqs);
const buckets = [];
after(async () => {
  for (const Bucket of buckets) {
    for await (const page of paginateListObjectsV2({ client: s3 }, { Bucket })) {
      for (const { Key } of page.Contents ?? []) await s3.send(new DeleteObjectCommand({ Bucket, Key }));
    }
    await s3.send(new DeleteBucketCommand({ Bucket }));
  }
  await q.cleanup();
  s3.destroy();
  sqs.destroy();
});

async function makeBucket(prefix = "js") {
  const Bucket = `${prefix}-${randomUUID().slice(0, 12)}`;
  await s3.send(new CreateBucketCommand({ Bucket }));
  buckets.push(Bucket);
  return Bucket;
}

/** The headers of every request `client` sends from now on, as sent (signed, checksummed). */
function sentHeaders(client) {
  const seen = [];
  const name = `capture-${randomUUID()}`;
  client.middlewareStack.add(
    (next) => async (args) => {
      seen.push({ ...args.request.headers });
      return next(args);
    },
    { step: "deserialize", name },
  );
  return { seen, stop: () => client.middlewareStack.remove(name) };
}

function crc32(bytes) {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  const out = Buffer.alloc(4);
  out.writeUInt32BE(~crc >>> 0);
  return out.toString("base64");
}

// CRC-64/NVME: reflected polynomial 0x9a6c9329ac4bc9b5, all ones in and out.
function crc64nvme(bytes) {
  const poly = 0x9a6c9329ac4bc9b5n;
  let crc = 0xffffffffffffffffn;
  for (const byte of bytes) {
    crc ^= BigInt(byte);
    for (let k = 0; k < 8; k++) crc = crc & 1n ? (crc >> 1n) ^ poly : crc >> 1n;
  }
  const out = Buffer.alloc(8);
  out.writeBigUInt64BE(crc ^ 0xffffffffffffffffn);
  return out.toString("base64");
}

const md5Etag = (bytes) => `"${createHash("md5").update(bytes).digest("hex")}"`;

async function bodyOf(out) {
  return Buffer.from(await out.Body.transformToByteArray());
}

test("s3_put_get_default_checksums", async () => {
  const Bucket = await makeBucket();
  const body = randomBytes(300 * 1024);
  const capture = sentHeaders(s3);
  const put = await s3.send(new PutObjectCommand({ Bucket, Key: "data/one.bin", Body: body }));
  capture.stop();
  // The default (requestChecksumCalculation WHEN_SUPPORTED): a CRC32 of the body.
  assert.equal(capture.seen[0]["x-amz-checksum-crc32"], crc32(body));
  assert.equal(put.ETag, md5Etag(body));
  assert.equal(put.ChecksumCRC32, crc32(body));

  // responseChecksumValidation WHEN_SUPPORTED: the SDK asks for the checksum and checks it.
  const got = await s3.send(new GetObjectCommand({ Bucket, Key: "data/one.bin", ChecksumMode: "ENABLED" }));
  assert.equal(got.ChecksumCRC32, crc32(body));
  assert.deepEqual(await bodyOf(got), body);
  // The SDK names a content type for a byte body itself.
  assert.equal(capture.seen[0]["content-type"], "application/octet-stream");
  assert.equal(got.ContentType, "application/octet-stream");

  const small = Buffer.from("hello, nvme");
  const nvme = await s3.send(
    new PutObjectCommand({ Bucket, Key: "data/nvme", Body: small, ChecksumAlgorithm: "CRC64NVME" }),
  );
  assert.equal(nvme.ChecksumCRC64NVME, crc64nvme(small));
  const head = await s3.send(new HeadObjectCommand({ Bucket, Key: "data/nvme", ChecksumMode: "ENABLED" }));
  assert.equal(head.ChecksumCRC64NVME, crc64nvme(small));
  assert.equal(head.ContentLength, small.length);

  await assert.rejects(
    s3.send(new PutObjectCommand({ Bucket, Key: "data/bad", Body: small, ChecksumCRC32: crc32(Buffer.from("x")) })),
    (err) => err.name === "BadDigest" && err.$metadata.httpStatusCode === 400,
  );
});

test("s3_streamed_body_with_trailing_checksum", async () => {
  const Bucket = await makeBucket();
  const body = randomBytes(2 * MiB + 17);
  const capture = sentHeaders(s3);
  const put = await s3.send(
    new PutObjectCommand({
      Bucket,
      Key: "stream.bin",
      Body: Readable.from([body.subarray(0, MiB), body.subarray(MiB)]),
      ContentLength: body.length,
    }),
  );
  capture.stop();
  // A stream of unknown content is sent aws-chunked, its CRC32 in the trailer.
  const sent = capture.seen[0];
  assert.equal(sent["content-encoding"], "aws-chunked");
  assert.equal(sent["x-amz-trailer"], "x-amz-checksum-crc32");
  assert.equal(sent["x-amz-decoded-content-length"], String(body.length));
  assert.equal(put.ChecksumCRC32, crc32(body));
  const got = await s3.send(new GetObjectCommand({ Bucket, Key: "stream.bin" }));
  assert.equal(got.ContentLength, body.length);
  assert.deepEqual(await bodyOf(got), body);
});

test("s3_lib_storage_multipart_upload", async () => {
  const Bucket = await makeBucket();
  const body = randomBytes(11 * MiB);
  const upload = new Upload({
    client: s3,
    params: { Bucket, Key: "big/data.bin", Body: Readable.from([body]), ContentType: "application/x-test" },
    partSize: 5 * MiB,
    queueSize: 2,
  });
  const parts = [];
  upload.on("httpUploadProgress", (p) => parts.push(p.part));
  const out = await upload.done();
  assert.match(out.ETag, /-3"$/);
  assert.equal(new Set(parts).size, 3);
  const head = await s3.send(new HeadObjectCommand({ Bucket, Key: "big/data.bin" }));
  assert.equal(head.ContentLength, body.length);
  assert.equal(head.ContentType, "application/x-test");
  const got = await s3.send(new GetObjectCommand({ Bucket, Key: "big/data.bin", Range: "bytes=5242870-5242889" }));
  assert.deepEqual(await bodyOf(got), body.subarray(5242870, 5242890));
  const whole = await s3.send(new GetObjectCommand({ Bucket, Key: "big/data.bin" }));
  assert.equal(createHash("sha256").update(await bodyOf(whole)).digest("hex"),
    createHash("sha256").update(body).digest("hex"));
});

test("s3_presigned_get_and_put", async () => {
  const Bucket = await makeBucket();
  const putUrl = await getSignedUrl(
    s3,
    new PutObjectCommand({ Bucket, Key: "shared/note.txt", ContentType: "text/plain" }),
    { expiresIn: 300 },
  );
  assert.match(putUrl, /X-Amz-Signature=/);
  const put = await fetch(putUrl, { method: "PUT", body: "presigned hello", headers: { "content-type": "text/plain" } });
  assert.equal(put.status, 200, await put.text());
  assert.equal(put.headers.get("etag"), md5Etag(Buffer.from("presigned hello")));

  const getUrl = await getSignedUrl(s3, new GetObjectCommand({ Bucket, Key: "shared/note.txt" }), { expiresIn: 300 });
  const got = await fetch(getUrl);
  assert.equal(got.status, 200);
  assert.equal(await got.text(), "presigned hello");
  assert.equal(got.headers.get("content-type"), "text/plain");
});

test("s3_list_and_delete_objects", async () => {
  const Bucket = await makeBucket();
  const keys = ["a/1.txt", "a/2.txt", "a/b/3.txt", "a/c/4.txt", "z.txt"];
  for (const Key of keys) await s3.send(new PutObjectCommand({ Bucket, Key, Body: Key }));
  const out = await s3.send(new ListObjectsV2Command({ Bucket, Prefix: "a/", Delimiter: "/" }));
  assert.deepEqual(out.Contents.map((o) => o.Key), ["a/1.txt", "a/2.txt"]);
  assert.deepEqual(out.CommonPrefixes.map((p) => p.Prefix), ["a/b/", "a/c/"]);
  assert.equal(out.KeyCount, 4);
  const pages = [];
  for await (const page of paginateListObjectsV2({ client: s3, pageSize: 2 }, { Bucket })) {
    pages.push(page.Contents.map((o) => o.Key));
  }
  assert.deepEqual(pages, [keys.slice(0, 2), keys.slice(2, 4), keys.slice(4)]);

  const capture = sentHeaders(s3);
  const deleted = await s3.send(
    new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys.map((Key) => ({ Key })) } }),
  );
  capture.stop();
  // DeleteObjects requires an integrity check: the SDK's default is a CRC32 header.
  assert.ok(capture.seen[0]["x-amz-checksum-crc32"], JSON.stringify(capture.seen[0]));
  assert.deepEqual(deleted.Deleted.map((d) => d.Key).sort(), [...keys].sort());
  assert.equal((await s3.send(new ListObjectsV2Command({ Bucket }))).KeyCount, 0);
});

/** Stops a consumer and resolves once its poll in flight (at most 1 s) has ended. */
async function stopped(consumer) {
  const done = new Promise((resolve) => consumer.once("stopped", resolve));
  consumer.stop();
  await done;
}

/** Resolves with the first value `poll` returns that is not undefined; rejects on timeout. */
async function eventually(poll, what, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const value = await poll();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

test("s3_notification_consumed_by_sqs_consumer", async () => {
  const Bucket = await makeBucket("events");
  const QueueUrl = await q.make("s3-events");
  const QueueArn = await attribute(sqs, QueueUrl, "QueueArn");
  await s3.send(
    new PutBucketNotificationConfigurationCommand({
      Bucket,
      NotificationConfiguration: {
        QueueConfigurations: [{ Id: "uploads", QueueArn, Events: ["s3:ObjectCreated:*"] }],
      },
    }),
  );
  const bodies = [];
  const errors = [];
  const consumer = Consumer.create({
    queueUrl: QueueUrl,
    sqs,
    waitTimeSeconds: 1,
    handleMessage: async (message) => {
      bodies.push(JSON.parse(message.Body));
      return message;
    },
  });
  consumer.on("error", (err) => errors.push(err));
  consumer.on("processing_error", (err) => errors.push(err));
  consumer.start();
  try {
    const body = randomBytes(6 * MiB);
    await new Upload({ client: s3, params: { Bucket, Key: "uploads/video.bin", Body: body }, partSize: 5 * MiB }).done();
    const record = await eventually(
      () => bodies.find((b) => b.Records)?.Records[0],
      "the upload's event",
    );
    assert.equal(record.eventName, "ObjectCreated:CompleteMultipartUpload");
    assert.equal(record.s3.bucket.name, Bucket);
    assert.equal(record.s3.object.key, "uploads/video.bin");
    assert.equal(record.s3.object.size, body.length);
    assert.match(record.s3.object.eTag, /^[0-9a-f]{32}-2$/);
    assert.ok(bodies.some((b) => b.Event === "s3:TestEvent" && b.Bucket === Bucket));
  } finally {
    await stopped(consumer);
  }
  assert.deepEqual(errors, []);
  // The consumer deleted what it handled.
  const left = await sqs.send(new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 0 }));
  assert.equal(left.Messages, undefined);
});
