package sqslite.compat.sdk2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import sqslite.compat.Compat;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.sqs.model.EmptyBatchRequestException;
import software.amazon.awssdk.services.sqs.model.InvalidBatchEntryIdException;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageResponse;

/** The FIFO rows and the validation row of docs/src/scenarios.md. */
abstract class FifoScenarios extends MessageScenarios {
    @Test
    void fifo_order_dedup() {
        String url = makeQueue("order", true, Map.of());
        List<SendMessageResponse> sent = new ArrayList<>();
        for (String[] gb : new String[][] {{"g1", "a1"}, {"g2", "b1"}, {"g1", "a2"}, {"g2", "b2"}, {"g1", "a3"}}) {
            sent.add(sqs.sendMessage(r -> r.queueUrl(url).messageBody(gb[1]).messageGroupId(gb[0])
                    .messageDeduplicationId(gb[1])));
        }
        List<BigInteger> sequence = sent.stream().map(s -> new BigInteger(s.sequenceNumber())).toList();
        assertEquals(sequence.stream().sorted().distinct().toList(), sequence);
        // A duplicate within 5 minutes is accepted, answered with the original, and not queued.
        SendMessageResponse again = sqs.sendMessage(r -> r.queueUrl(url).messageBody("a1 again")
                .messageGroupId("g1").messageDeduplicationId("a1"));
        assertEquals(sent.get(0).messageId(), again.messageId());
        assertEquals(List.of(5, 0), counts(url));

        Message head = receiveOne(url, r -> r.messageSystemAttributeNamesWithStrings("All"));
        assertEquals("a1", head.body());
        assertEquals("g1", head.attributesAsStrings().get("MessageGroupId"));
        assertEquals("a1", head.attributesAsStrings().get("MessageDeduplicationId"));
        // g1 is locked while a1 is in flight; only g2 is served, in order.
        assertEquals(List.of("b1", "b2"), bodies(sqs.receiveMessage(r -> r.queueUrl(url).maxNumberOfMessages(10)).messages()));
        sqs.deleteMessage(r -> r.queueUrl(url).receiptHandle(head.receiptHandle()));
        assertEquals(List.of("a2", "a3"), bodies(sqs.receiveMessage(r -> r.queueUrl(url).maxNumberOfMessages(10)).messages()));

        assertEquals("MissingParameter", errorCode(() -> sqs.sendMessage(
                r -> r.queueUrl(url).messageBody("no group").messageDeduplicationId("x"))));
    }

    @Test
    void fifo_group_visibility() throws Exception {
        String url = makeQueue("groups", true, Map.of("ContentBasedDeduplication", "true"));
        for (String body : List.of("a1", "a2", "a3")) {
            sqs.sendMessage(r -> r.queueUrl(url).messageBody(body).messageGroupId("g1"));
        }
        List<Message> both = sqs.receiveMessage(r -> r.queueUrl(url).maxNumberOfMessages(2)).messages();
        assertEquals(List.of("a1", "a2"), bodies(both));
        // Ending a1's visibility makes a1 receivable again; a2 stays in flight and a3 behind it.
        sqs.changeMessageVisibility(r -> r.queueUrl(url).receiptHandle(both.get(0).receiptHandle()).visibilityTimeout(0));
        List<Message> again = sqs.receiveMessage(r -> r.queueUrl(url).maxNumberOfMessages(10)).messages();
        assertEquals(List.of("a1"), bodies(again));

        // A long poll parked on the queue wakes when the group's in-flight head is deleted.
        sqs.deleteMessage(r -> r.queueUrl(url).receiptHandle(again.get(0).receiptHandle()));
        sqs.changeMessageVisibility(r -> r.queueUrl(url).receiptHandle(both.get(1).receiptHandle()).visibilityTimeout(30));
        long start = System.nanoTime();
        CompletableFuture<List<Message>> polled = CompletableFuture.supplyAsync(
                () -> sqs.receiveMessage(r -> r.queueUrl(url).waitTimeSeconds(20)).messages());
        Compat.waitParked(url); // parked, so that the delete is what wakes it
        sqs.deleteMessage(r -> r.queueUrl(url).receiptHandle(both.get(1).receiptHandle()));
        assertEquals(List.of("a3"), bodies(polled.get(25, TimeUnit.SECONDS)));
        double elapsed = (System.nanoTime() - start) / 1e9;
        assertTrue(elapsed < 10, "the delete woke the long poll after " + elapsed + " s");

        // Between groups, the group received last goes to the back.
        String rotation = makeQueue("rotation", true, Map.of("ContentBasedDeduplication", "true"));
        for (String group : List.of("g1", "g2", "g3")) {
            sqs.sendMessage(r -> r.queueUrl(rotation).messageBody(group).messageGroupId(group));
        }
        assertEquals(List.of("g1", "g2"), bodies(sqs.receiveMessage(
                r -> r.queueUrl(rotation).maxNumberOfMessages(2).visibilityTimeout(0)).messages()));
        assertEquals(List.of("g3"), bodies(sqs.receiveMessage(r -> r.queueUrl(rotation).maxNumberOfMessages(1)).messages()));
    }

    @Test
    void validation_fidelity() {
        AwsServiceException e = assertThrows(AwsServiceException.class, () -> sqs.createQueue(
                r -> r.queueName(Compat.uniqueName("std", false)).attributesWithStrings(Map.of("FifoQueue", "false"))));
        assertEquals("InvalidAttributeName", e.awsErrorDetails().errorCode());
        assertEquals("Unknown Attribute FifoQueue.", e.awsErrorDetails().errorMessage());

        String fifo = makeQueue("vfifo", true, Map.of());
        assertEquals("InvalidParameterValue", errorCode(() -> sqs.sendMessageBatch(r -> r.queueUrl(fifo).entries(
                SendMessageBatchRequestEntry.builder().id("a").messageBody("a").messageGroupId("g")
                        .messageDeduplicationId("a").build(),
                SendMessageBatchRequestEntry.builder().id("b").messageBody("b").messageDeduplicationId("b").build()))));
        assertEquals(List.of(0, 0), counts(fifo));

        String url = makeQueue();
        assertThrows(InvalidBatchEntryIdException.class, () -> sqs.sendMessageBatch(r -> r.queueUrl(url)
                .entries(SendMessageBatchRequestEntry.builder().id("").messageBody("x").build())));
        assertThrows(EmptyBatchRequestException.class, () -> sqs.sendMessageBatch(r -> r.queueUrl(url)
                .entries(List.of())));

        Map<String, MessageAttributeValue> unicode = Map.of("attr.1\u00f8\u00df\u00e4", Attributes.string("String", "Valida"));
        sqs.sendMessage(r -> r.queueUrl(url).messageBody("m").messageAttributes(unicode));
        assertEquals("InvalidParameterValue", errorCode(() -> sqs.sendMessage(r -> r.queueUrl(url).messageBody("m")
                .messageAttributes(Map.of("attr1", Attributes.string("String", "Invalid-\b,\u000b"))))));
        assertEquals(unicode, receiveOne(url, r -> r.messageAttributeNames("*").visibilityTimeout(0)).messageAttributes());
        // No system attributes asked for: an empty list means none.
        assertTrue(receiveOne(url, r -> r.messageSystemAttributeNamesWithStrings(List.of()).visibilityTimeout(0))
                .attributes().isEmpty());
    }
}
