// Shared by the JavaScript suites: a client for the sqslite under test, throwaway queues and
// SQS's MD5 digests (reference section 6), computed here to check what sqslite returns.
import { createHash, randomUUID } from "node:crypto";
import {
  SQSClient,
  CreateQueueCommand,
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  QueueDoesNotExist,
} from "@aws-sdk/client-sqs";

export function endpoint() {
  const url = process.env.SQSLITE_ENDPOINT;
  if (!url) throw new Error("SQSLITE_ENDPOINT is not set: run the suite through compat/run.sh");
  return url;
}

export function makeClient() {
  return new SQSClient({
    endpoint: endpoint(),
    region: "us-east-1",
    credentials: { accessKeyId: "test", secretAccessKey: "test" },
    maxAttempts: 1, // a retry would hide a failure
  });
}

/** Creates uniquely named queues; `cleanup()` deletes whatever is left of them. */
export function queues(client) {
  const created = [];
  return {
    async make(prefix = "compat", attributes = {}, fifo = false) {
      const name = `${prefix}-${randomUUID().slice(0, 12)}${fifo ? ".fifo" : ""}`;
      const Attributes = { ...attributes, ...(fifo ? { FifoQueue: "true" } : {}) };
      const out = await client.send(new CreateQueueCommand({ QueueName: name, Attributes }));
      created.push(out.QueueUrl);
      return out.QueueUrl;
    },
    async cleanup() {
      for (const QueueUrl of created) {
        try {
          await client.send(new DeleteQueueCommand({ QueueUrl }));
        } catch (err) {
          if (!(err instanceof QueueDoesNotExist)) throw err;
        }
      }
    },
  };
}

export async function attribute(client, QueueUrl, name) {
  const out = await client.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: [name] }));
  return out.Attributes?.[name];
}

export async function counts(client, QueueUrl) {
  const names = ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"];
  const out = await client.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: names }));
  return names.map((n) => Number(out.Attributes[n]));
}

export function md5OfBody(body) {
  return createHash("md5").update(body, "utf8").digest("hex");
}

export function md5OfAttributes(attributes) {
  const hash = createHash("md5");
  const field = (bytes) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    hash.update(length);
    hash.update(bytes);
  };
  const names = Object.keys(attributes).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  for (const name of names) {
    const value = attributes[name];
    field(Buffer.from(name, "utf8"));
    field(Buffer.from(value.DataType, "utf8"));
    if (value.BinaryValue !== undefined) {
      hash.update(Buffer.from([2]));
      field(Buffer.from(value.BinaryValue));
    } else {
      hash.update(Buffer.from([1]));
      field(Buffer.from(value.StringValue, "utf8"));
    }
  }
  return hash.digest("hex");
}
