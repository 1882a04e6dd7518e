// The sqs-consumer library consuming a queue whose poison message ends up in a DLQ: the
// consumer's own receive / delete / change-visibility / batch-delete calls against sqslite.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { once } from "node:events";
import { Consumer } from "sqs-consumer";
import { SendMessageBatchCommand } from "@aws-sdk/client-sqs";
import { attribute, counts, makeClient, queues } from "./helpers.mjs";

const client = makeClient();
const q = queues(client);
after(async () => {
  await q.cleanup();
  client.destroy();
});

/** Resolves when `emitter` has emitted `event` for which `predicate` holds; rejects on timeout. */
function waitFor(emitter, event, predicate, ms = 20_000) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${event}`)), ms);
    const listener = (...args) => {
      if (!predicate(...args)) return;
      clearTimeout(timer);
      emitter.off(event, listener);
      resolve(args);
    };
    emitter.on(event, listener);
  });
}

test("consumer_with_dlq", async () => {
  const dlq = await q.make("consumer-dlq");
  const dlqArn = await attribute(client, dlq, "QueueArn");
  const RedrivePolicy = JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: "2" });
  const source = await q.make("consumer-src", { RedrivePolicy, VisibilityTimeout: "30" });
  const bodies = ["good-1", "good-2", "poison", "good-3"];
  await client.send(
    new SendMessageBatchCommand({
      QueueUrl: source,
      Entries: bodies.map((body, i) => ({
        Id: `m${i}`,
        MessageBody: body,
        MessageAttributes: { kind: { DataType: "String", StringValue: body.split("-")[0] } },
      })),
    }),
  );

  const handled = [];
  const failures = [];
  const consumer = Consumer.create({
    queueUrl: source,
    sqs: client,
    batchSize: 10,
    waitTimeSeconds: 1,
    messageAttributeNames: ["All"],
    // A failed message becomes visible again at once, so redrive happens without waiting.
    terminateVisibilityTimeout: true,
    handleMessage: async (message) => {
      assert.equal(message.MessageAttributes.kind.StringValue, message.Body.split("-")[0]);
      if (message.Body === "poison") throw new Error("cannot handle poison");
      handled.push(message.Body);
      return message;
    },
  });
  const errors = [];
  consumer.on("error", (err) => errors.push(err));
  consumer.on("processing_error", (err, message) => failures.push(message.Body));

  const dlqConsumer = Consumer.create({
    queueUrl: dlq,
    sqs: client,
    waitTimeSeconds: 1,
    messageSystemAttributeNames: ["All"],
    handleMessageBatch: async (messages) => messages,
  });
  dlqConsumer.on("error", (err) => errors.push(err));

  const goodDone = waitFor(consumer, "message_processed", () => handled.length === 3);
  const dead = waitFor(dlqConsumer, "message_received", () => true);
  const dlqEmptied = waitFor(dlqConsumer, "response_processed", () => true);
  consumer.start();
  dlqConsumer.start();
  try {
    await goodDone;
    const [deadMessage] = await dead;
    await dlqEmptied;
    assert.equal(deadMessage.Body, "poison");
    assert.equal(deadMessage.Attributes.DeadLetterQueueSourceArn, await attribute(client, source, "QueueArn"));
  } finally {
    const stopped = [once(consumer, "stopped"), once(dlqConsumer, "stopped")];
    consumer.stop({ abort: true });
    dlqConsumer.stop({ abort: true });
    await Promise.all(stopped);
  }
  assert.deepEqual(handled.sort(), ["good-1", "good-2", "good-3"]);
  assert.deepEqual(failures, ["poison", "poison"]);
  assert.deepEqual(
    errors.filter((e) => e.name !== "AbortError" && !/abort/i.test(e.message)),
    [],
  );
  assert.deepEqual(await counts(client, source), [0, 0]);
  assert.deepEqual(await counts(client, dlq), [0, 0]);
});
