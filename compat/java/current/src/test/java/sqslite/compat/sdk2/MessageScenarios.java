package sqslite.compat.sdk2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import sqslite.compat.Compat;
import software.amazon.awssdk.services.sqs.model.BatchEntryIdsNotDistinctException;
import software.amazon.awssdk.services.sqs.model.BatchResultErrorEntry;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchResponse;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.InvalidBatchEntryIdException;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeValue;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResultEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageResponse;
import software.amazon.awssdk.services.sqs.model.TooManyEntriesInBatchRequestException;

/**
 * The message rows of docs/src/scenarios.md. The SDK checks every MD5 sqslite returns on send and
 * receive by default (its MessageMD5ChecksumInterceptor), so each send or receive here also
 * passes only while sqslite's digests agree with the SDK's.
 */
abstract class MessageScenarios extends QueueScenarios {
    @Test
    void message_attributes() {
        String url = makeQueue();
        String body = "line one\r\nline two\t<tag> & \"quotes\" 'single' \u00e9\u4e2d\uD83D\uDE00";
        String trace = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1";
        SendMessageResponse sent = sqs.sendMessage(r -> r.queueUrl(url).messageBody(body)
                .messageAttributes(Attributes.ALL_TYPES)
                .messageSystemAttributesWithStrings(Map.of("AWSTraceHeader",
                        MessageSystemAttributeValue.builder().dataType("String").stringValue(trace).build())));
        assertEquals(Compat.md5OfBody(body), sent.md5OfMessageBody());
        assertEquals(Attributes.md5(Attributes.ALL_TYPES), sent.md5OfMessageAttributes());
        assertEquals("5ae4d5d7636402d80f4eb6d213245a88", sent.md5OfMessageSystemAttributes());

        Message m = receiveOne(url, r -> r.messageAttributeNames("All")
                .messageSystemAttributeNamesWithStrings("All").visibilityTimeout(0));
        assertEquals(sent.messageId(), m.messageId());
        assertEquals(body, m.body());
        assertEquals(Compat.md5OfBody(body), m.md5OfBody());
        assertEquals(Attributes.ALL_TYPES, m.messageAttributes());
        assertEquals(sent.md5OfMessageAttributes(), m.md5OfMessageAttributes());
        assertEquals("1", m.attributesAsStrings().get("ApproximateReceiveCount"));
        assertEquals(trace, m.attributesAsStrings().get("AWSTraceHeader"));
        assertTrue(Long.parseLong(m.attributesAsStrings().get("SentTimestamp")) > 1_600_000_000_000L);

        // A filtered receive returns, and digests, only the chosen attributes; `b.*` also takes `b`.
        m = receiveOne(url, r -> r.messageAttributeNames("s", "b.*").visibilityTimeout(0));
        Map<String, ?> chosen = Attributes.only("s", "b", "b.label");
        assertEquals(chosen, m.messageAttributes());
        assertEquals(Attributes.md5(Attributes.only("s", "b", "b.label")), m.md5OfMessageAttributes());

        Message plain = receiveOne(url);
        assertFalse(plain.hasMessageAttributes());
        assertNull(plain.md5OfMessageAttributes());
        sqs.deleteMessage(r -> r.queueUrl(url).receiptHandle(plain.receiptHandle()));
        assertEquals(List.of(0, 0), counts(url));
        assertTrue(sqs.receiveMessage(r -> r.queueUrl(url)).messages().isEmpty());
    }

    @Test
    void large_message() {
        String url = makeQueue();
        // 1 MiB exactly (the default MaximumMessageSize), with multi-byte characters and escapes.
        String unit = "\u4e2d\uD83D\uDE00\r\n<&>\"x"; // 3 + 4 + 2 + 3 + 2 = 14 bytes
        StringBuilder sb = new StringBuilder(unit.repeat(1_048_576 / 14));
        sb.append("a".repeat(1_048_576 - sb.toString().getBytes(StandardCharsets.UTF_8).length));
        String body = sb.toString();
        assertEquals(Compat.md5OfBody(body), sqs.sendMessage(r -> r.queueUrl(url).messageBody(body)).md5OfMessageBody());
        assertEquals(body, receiveOne(url).body());
        assertEquals("InvalidParameterValue", errorCode(() -> sqs.sendMessage(r -> r.queueUrl(url).messageBody(body + "!"))));
    }

    @Test
    void batch_partial_failure() {
        String url = makeQueue();
        SendMessageBatchResponse out = sqs.sendMessageBatch(r -> r.queueUrl(url).entries(
                SendMessageBatchRequestEntry.builder().id("ok-1").messageBody("one").build(),
                SendMessageBatchRequestEntry.builder().id("bad_number").messageBody("two")
                        .messageAttributes(Map.of("n", Attributes.string("Number", "not a number"))).build(),
                SendMessageBatchRequestEntry.builder().id("ok-2").messageBody("three")
                        .messageAttributes(Attributes.ALL_TYPES).build()));
        Map<String, SendMessageBatchResultEntry> ok = out.successful().stream()
                .collect(Collectors.toMap(SendMessageBatchResultEntry::id, Function.identity()));
        assertEquals(java.util.Set.of("ok-1", "ok-2"), ok.keySet());
        assertEquals(Compat.md5OfBody("one"), ok.get("ok-1").md5OfMessageBody());
        assertEquals(Attributes.md5(Attributes.ALL_TYPES), ok.get("ok-2").md5OfMessageAttributes());
        assertEquals(1, out.failed().size());
        BatchResultErrorEntry failed = out.failed().get(0);
        assertEquals(List.of("bad_number", "InvalidParameterValue", true),
                List.of(failed.id(), failed.code(), failed.senderFault()));

        List<Message> messages = sqs.receiveMessage(r -> r.queueUrl(url).maxNumberOfMessages(10).waitTimeSeconds(1))
                .messages();
        assertEquals(List.of("one", "three"), bodies(messages).stream().sorted().toList());
        List<DeleteMessageBatchRequestEntry> entries = new ArrayList<>();
        for (int i = 0; i < messages.size(); i++) {
            entries.add(DeleteMessageBatchRequestEntry.builder().id("m" + i)
                    .receiptHandle(messages.get(i).receiptHandle()).build());
        }
        entries.add(DeleteMessageBatchRequestEntry.builder().id("bogus").receiptHandle("not-a-receipt-handle").build());
        DeleteMessageBatchResponse deleted = sqs.deleteMessageBatch(r -> r.queueUrl(url).entries(entries));
        assertEquals(List.of("m0", "m1"), deleted.successful().stream().map(e -> e.id()).sorted().toList());
        BatchResultErrorEntry bogus = deleted.failed().get(0);
        assertEquals(List.of("bogus", "ReceiptHandleIsInvalid", true),
                List.of(bogus.id(), bogus.code(), bogus.senderFault()));
        assertEquals(List.of(0, 0), counts(url));
    }

    @Test
    void batch_errors() {
        String url = makeQueue();
        BatchEntryIdsNotDistinctException e = assertThrows(BatchEntryIdsNotDistinctException.class,
                () -> sqs.sendMessageBatch(r -> r.queueUrl(url).entries(
                        SendMessageBatchRequestEntry.builder().id("same").messageBody("a").build(),
                        SendMessageBatchRequestEntry.builder().id("same").messageBody("b").build())));
        assertEquals("AWS.SimpleQueueService.BatchEntryIdsNotDistinct", e.awsErrorDetails().errorCode());
        List<SendMessageBatchRequestEntry> eleven = new ArrayList<>();
        for (int i = 0; i < 11; i++) {
            eleven.add(SendMessageBatchRequestEntry.builder().id("e" + i).messageBody("x").build());
        }
        assertThrows(TooManyEntriesInBatchRequestException.class,
                () -> sqs.sendMessageBatch(r -> r.queueUrl(url).entries(eleven)));
        assertThrows(InvalidBatchEntryIdException.class, () -> sqs.deleteMessageBatch(r -> r.queueUrl(url)
                .entries(DeleteMessageBatchRequestEntry.builder().id("no spaces").receiptHandle("h").build())));
        assertEquals(List.of(0, 0), counts(url));
    }

    @Test
    void long_poll_wakes_on_send() throws Exception {
        String url = makeQueue();
        long start = System.nanoTime();
        CompletableFuture<List<Message>> polled = CompletableFuture.supplyAsync(
                () -> sqs.receiveMessage(r -> r.queueUrl(url).waitTimeSeconds(20)).messages());
        Compat.waitParked(url);
        sqs.sendMessage(r -> r.queueUrl(url).messageBody("wake up"));
        List<Message> messages = polled.get(25, TimeUnit.SECONDS);
        double elapsed = (System.nanoTime() - start) / 1e9;
        assertEquals(List.of("wake up"), bodies(messages));
        assertTrue(elapsed < 10, "long poll took " + elapsed + " s to see the send");
    }

    @Test
    void visibility() {
        String url = makeQueue("compat", false, Map.of("VisibilityTimeout", "30"));
        sqs.sendMessage(r -> r.queueUrl(url).messageBody("hidden"));
        Message m = receiveOne(url, r -> r.messageSystemAttributeNamesWithStrings("ApproximateReceiveCount"));
        assertTrue(sqs.receiveMessage(r -> r.queueUrl(url)).messages().isEmpty());
        assertEquals(List.of(0, 1), counts(url));

        sqs.changeMessageVisibility(r -> r.queueUrl(url).receiptHandle(m.receiptHandle()).visibilityTimeout(0));
        Message again = receiveOne(url, r -> r.messageSystemAttributeNamesWithStrings("ApproximateReceiveCount"));
        assertEquals(m.messageId(), again.messageId());
        assertEquals("2", again.attributesAsStrings().get("ApproximateReceiveCount"));
        assertNotEquals(m.receiptHandle(), again.receiptHandle());

        ChangeMessageVisibilityBatchResponse out = sqs.changeMessageVisibilityBatch(r -> r.queueUrl(url).entries(
                e -> e.id("real").receiptHandle(again.receiptHandle()).visibilityTimeout(0),
                e -> e.id("fake").receiptHandle("garbage").visibilityTimeout(0)));
        assertEquals(List.of("real"), out.successful().stream().map(e -> e.id()).toList());
        assertEquals(List.of(List.of("fake", "ReceiptHandleIsInvalid")),
                out.failed().stream().map(e -> List.of(e.id(), e.code())).toList());
        assertEquals(List.of(1, 0), counts(url));
        assertEquals("ReceiptHandleIsInvalid", errorCode(() -> sqs.changeMessageVisibility(
                r -> r.queueUrl(url).receiptHandle("garbage").visibilityTimeout(5))));
    }

    @Test
    void receipt_handle_rules() {
        String url = makeQueue("compat", false, Map.of("VisibilityTimeout", "30"));
        sqs.sendMessage(r -> r.queueUrl(url).messageBody("twice"));
        Message old = receiveOne(url, r -> r.visibilityTimeout(0));
        Message newer = receiveOne(url);
        assertNotEquals(old.receiptHandle(), newer.receiptHandle());
        // On a standard queue an older handle still changes the visibility of the message...
        sqs.changeMessageVisibility(r -> r.queueUrl(url).receiptHandle(old.receiptHandle()).visibilityTimeout(0));
        Message third = receiveOne(url, r -> r.messageSystemAttributeNamesWithStrings("ApproximateReceiveCount"));
        assertEquals("3", third.attributesAsStrings().get("ApproximateReceiveCount"));
        // ...and deletes it.
        sqs.deleteMessage(r -> r.queueUrl(url).receiptHandle(old.receiptHandle()));
        assertEquals(List.of(0, 0), counts(url));
    }
}
