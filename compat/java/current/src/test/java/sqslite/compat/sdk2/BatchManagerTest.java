package sqslite.compat.sdk2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import sqslite.compat.Compat;
import software.amazon.awssdk.services.sqs.SqsAsyncClient;
import software.amazon.awssdk.services.sqs.batchmanager.SqsAsyncBatchManager;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.SendMessageResponse;

/**
 * SDK v2's automatic request batching (SqsAsyncBatchManager): single sends, deletes and
 * visibility changes are coalesced into the batch actions, which sqslite's request counters on
 * /metrics must show, and the per-entry MD5s of SendMessageBatch must still pass the SDK's check.
 */
class BatchManagerTest {
    private static final int COUNT = 10;
    private static final SqsAsyncClient CLIENT = Clients.async();
    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor();

    @AfterAll
    static void close() {
        TIMER.shutdownNow();
        CLIENT.close();
    }

    /** Requests per action answered since `before`. */
    private static Map<String, Long> since(Map<String, Long> before) {
        Map<String, Long> delta = new java.util.HashMap<>();
        before.forEach((action, n) -> delta.put(action, Compat.requests(action) - n));
        return delta;
    }

    private static Map<String, Long> snapshot(String... actions) {
        Map<String, Long> now = new java.util.HashMap<>();
        for (String action : actions) {
            now.put(action, Compat.requests(action));
        }
        return now;
    }

    @Test
    void batch_manager_coalesces_requests() {
        String url = CLIENT.createQueue(r -> r.queueName(Compat.uniqueName("batched", false))).join().queueUrl();
        // A wide window, so that the ten calls below surely land in one flush or two.
        SqsAsyncBatchManager manager = SqsAsyncBatchManager.builder().client(CLIENT).scheduledExecutor(TIMER)
                .overrideConfiguration(c -> c.sendRequestFrequency(Duration.ofMillis(500)).maxBatchSize(10))
                .build();
        try {
            Map<String, Long> before = snapshot("SendMessage", "SendMessageBatch");
            List<CompletableFuture<SendMessageResponse>> sends = new ArrayList<>();
            for (int i = 0; i < COUNT; i++) {
                String body = "batched " + i + " \u00e9\uD83D\uDE00";
                sends.add(manager.sendMessage(r -> r.queueUrl(url).messageBody(body).messageAttributes(Attributes.ALL_TYPES)));
            }
            for (int i = 0; i < COUNT; i++) {
                SendMessageResponse sent = sends.get(i).join();
                assertEquals(Compat.md5OfBody("batched " + i + " \u00e9\uD83D\uDE00"), sent.md5OfMessageBody());
                assertEquals(Attributes.md5(Attributes.ALL_TYPES), sent.md5OfMessageAttributes());
            }
            assertCoalesced(since(before), "SendMessage", "SendMessageBatch");

            List<Message> received = receiveAll(url);
            before = snapshot("ChangeMessageVisibility", "ChangeMessageVisibilityBatch");
            CompletableFuture.allOf(received.stream().map(m -> manager.changeMessageVisibility(
                    r -> r.queueUrl(url).receiptHandle(m.receiptHandle()).visibilityTimeout(0)))
                    .toArray(CompletableFuture[]::new)).join();
            assertCoalesced(since(before), "ChangeMessageVisibility", "ChangeMessageVisibilityBatch");

            received = receiveAll(url);
            before = snapshot("DeleteMessage", "DeleteMessageBatch");
            CompletableFuture.allOf(received.stream().map(m -> manager.deleteMessage(
                    r -> r.queueUrl(url).receiptHandle(m.receiptHandle()))).toArray(CompletableFuture[]::new)).join();
            assertCoalesced(since(before), "DeleteMessage", "DeleteMessageBatch");
            Map<String, String> attrs = CLIENT.getQueueAttributes(r -> r.queueUrl(url).attributeNamesWithStrings(
                    "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible")).join().attributesAsStrings();
            assertEquals(List.of("0", "0"), List.of(attrs.get("ApproximateNumberOfMessages"),
                    attrs.get("ApproximateNumberOfMessagesNotVisible")));
        } finally {
            manager.close();
            CLIENT.deleteQueue(r -> r.queueUrl(url)).join();
        }
    }

    @Test
    void batch_manager_buffers_receives() {
        String url = CLIENT.createQueue(r -> r.queueName(Compat.uniqueName("buffered", false))).join().queueUrl();
        SqsAsyncBatchManager manager = SqsAsyncBatchManager.builder().client(CLIENT).scheduledExecutor(TIMER).build();
        try {
            for (int i = 0; i < 3; i++) {
                String body = "m" + i;
                manager.sendMessage(r -> r.queueUrl(url).messageBody(body)).join();
            }
            List<String> bodies = new ArrayList<>();
            long deadline = System.nanoTime() + 15_000_000_000L;
            while (bodies.size() < 3 && System.nanoTime() < deadline) {
                for (Message m : manager.receiveMessage(r -> r.queueUrl(url).maxNumberOfMessages(10).waitTimeSeconds(1))
                        .join().messages()) {
                    bodies.add(m.body());
                    manager.deleteMessage(r -> r.queueUrl(url).receiptHandle(m.receiptHandle())).join();
                }
            }
            assertEquals(List.of("m0", "m1", "m2"), bodies.stream().sorted().toList());
        } finally {
            manager.close();
            CLIENT.deleteQueue(r -> r.queueUrl(url)).join();
        }
    }

    private static void assertCoalesced(Map<String, Long> delta, String single, String batch) {
        assertEquals(0L, delta.get(single), () -> single + " was called: " + delta);
        long batches = delta.get(batch);
        assertTrue(batches >= 1 && batches <= 2, () -> COUNT + " calls took " + batches + " " + batch + " requests");
    }

    private static List<Message> receiveAll(String url) {
        List<Message> all = new ArrayList<>();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (all.size() < COUNT && System.nanoTime() < deadline) {
            all.addAll(CLIENT.receiveMessage(r -> r.queueUrl(url).maxNumberOfMessages(10).visibilityTimeout(30)
                    .waitTimeSeconds(1)).join().messages());
        }
        assertEquals(COUNT, all.size());
        return all;
    }
}
