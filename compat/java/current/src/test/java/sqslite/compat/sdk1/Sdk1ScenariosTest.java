package sqslite.compat.sdk1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.AmazonServiceException;
import com.amazonaws.ClientConfiguration;
import com.amazonaws.Request;
import com.amazonaws.auth.AWSStaticCredentialsProvider;
import com.amazonaws.auth.BasicAWSCredentials;
import com.amazonaws.client.builder.AwsClientBuilder.EndpointConfiguration;
import com.amazonaws.handlers.RequestHandler2;
import com.amazonaws.services.sqs.AmazonSQS;
import com.amazonaws.services.sqs.AmazonSQSClientBuilder;
import com.amazonaws.services.sqs.model.BatchEntryIdsNotDistinctException;
import com.amazonaws.services.sqs.model.ChangeMessageVisibilityBatchRequestEntry;
import com.amazonaws.services.sqs.model.CreateQueueRequest;
import com.amazonaws.services.sqs.model.DeleteMessageBatchRequestEntry;
import com.amazonaws.services.sqs.model.EmptyBatchRequestException;
import com.amazonaws.services.sqs.model.GetQueueAttributesRequest;
import com.amazonaws.services.sqs.model.InvalidBatchEntryIdException;
import com.amazonaws.services.sqs.model.ListMessageMoveTasksRequest;
import com.amazonaws.services.sqs.model.ListMessageMoveTasksResultEntry;
import com.amazonaws.services.sqs.model.Message;
import com.amazonaws.services.sqs.model.MessageAttributeValue;
import com.amazonaws.services.sqs.model.QueueDoesNotExistException;
import com.amazonaws.services.sqs.model.ReceiveMessageRequest;
import com.amazonaws.services.sqs.model.SendMessageBatchRequestEntry;
import com.amazonaws.services.sqs.model.SendMessageBatchResult;
import com.amazonaws.services.sqs.model.SendMessageRequest;
import com.amazonaws.services.sqs.model.SendMessageResult;
import com.amazonaws.services.sqs.model.StartMessageMoveTaskRequest;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import sqslite.compat.Compat;

/**
 * The rows of docs/src/scenarios.md that SDK v1 adds something to, run by 1.12.797 (AWS JSON) and
 * by 1.12.583 (AWS Query; module sdk1-query). SDK v1 sends each request to the queue URL's host
 * and path (its QueueUrlHandler), not to the endpoint's root, and its MessageMD5ChecksumHandler
 * checks every body and attribute MD5 on send and receive, with no switch to turn it off.
 */
class Sdk1ScenariosTest {
    private static final List<Request<?>> SENT = new CopyOnWriteArrayList<>();
    private static final AmazonSQS SQS = AmazonSQSClientBuilder.standard()
            .withEndpointConfiguration(new EndpointConfiguration(Compat.endpoint(), Compat.REGION))
            .withCredentials(new AWSStaticCredentialsProvider(new BasicAWSCredentials(Compat.ACCESS_KEY, Compat.SECRET_KEY)))
            // No retries (a retry would hide a failure); long polls need more than 20 s.
            .withClientConfiguration(new ClientConfiguration().withMaxErrorRetry(0).withSocketTimeout(40_000))
            .withRequestHandlers(new RequestHandler2() {
                @Override
                public void beforeRequest(Request<?> request) {
                    SENT.add(request);
                }
            })
            .build();
    private final List<String> created = new ArrayList<>();

    private String makeQueue(String prefix, boolean fifo, Map<String, String> attributes) {
        Map<String, String> attrs = new LinkedHashMap<>(attributes);
        if (fifo) {
            attrs.put("FifoQueue", "true");
        }
        String url = SQS.createQueue(new CreateQueueRequest(Compat.uniqueName(prefix, fifo)).withAttributes(attrs)).getQueueUrl();
        created.add(url);
        return url;
    }

    @AfterEach
    void deleteQueues() {
        for (String url : created) {
            try {
                SQS.deleteQueue(url);
            } catch (QueueDoesNotExistException e) {
                // deleted by the test itself
            }
        }
    }

    private static List<Integer> counts(String url) {
        Map<String, String> a = SQS.getQueueAttributes(url,
                List.of("ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible")).getAttributes();
        return List.of(Integer.valueOf(a.get("ApproximateNumberOfMessages")),
                Integer.valueOf(a.get("ApproximateNumberOfMessagesNotVisible")));
    }

    private static Message receiveOne(ReceiveMessageRequest request) {
        List<Message> messages = SQS.receiveMessage(request).getMessages();
        assertEquals(1, messages.size(), messages::toString);
        return messages.get(0);
    }

    private static List<String> bodies(List<Message> messages) {
        return messages.stream().map(Message::getBody).toList();
    }

    private static String arn(String url) {
        return SQS.getQueueAttributes(url, List.of("QueueArn")).getAttributes().get("QueueArn");
    }

    private static String code(org.junit.jupiter.api.function.Executable call) {
        return assertThrows(AmazonServiceException.class, call).getErrorCode();
    }

    private static MessageAttributeValue string(String type, String value) {
        return new MessageAttributeValue().withDataType(type).withStringValue(value);
    }

    private static Map<String, MessageAttributeValue> allTypes() {
        Map<String, MessageAttributeValue> all = new LinkedHashMap<>();
        all.put("s", string("String", "h\u00e9llo <w\u00f6rld> & \"friends\""));
        all.put("n", string("Number", "-12.5e3"));
        all.put("b", new MessageAttributeValue().withDataType("Binary")
                .withBinaryValue(ByteBuffer.wrap(new byte[] {0, 1, (byte) 0xfe, (byte) 0xff})));
        all.put("s.label", string("String.custom-label", "labelled"));
        all.put("b.label", new MessageAttributeValue().withDataType("Binary.gif")
                .withBinaryValue(ByteBuffer.wrap("GIF89a".getBytes(StandardCharsets.US_ASCII))));
        return all;
    }

    @Test
    void protocol() {
        String url = makeQueue("proto", false, Map.of());
        SENT.clear();
        SQS.sendMessage(url, "where to");
        Request<?> request = SENT.get(0);
        // Both protocols go to the queue's own path on the queue URL's host.
        assertEquals(url, request.getEndpoint() + request.getResourcePath());
        boolean json = request.getHeaders().containsKey("X-Amz-Target");
        assertEquals(System.getenv().getOrDefault("COMPAT_PROTOCOL", "json"), json ? "json" : "query");
        if (!json) {
            assertEquals(List.of("SendMessage"), request.getParameters().get("Action"));
        }
    }

    @Test
    void queue_lifecycle() {
        String url = makeQueue("lifecycle", false, Map.of("VisibilityTimeout", "45"));
        String name = Compat.queueName(url);
        assertEquals(url, SQS.getQueueUrl(name).getQueueUrl());
        assertEquals(url, SQS.createQueue(new CreateQueueRequest(name).withAttributes(Map.of("VisibilityTimeout", "45")))
                .getQueueUrl());
        assertTrue(SQS.listQueues(name).getQueueUrls().contains(url));
        Map<String, String> attrs = SQS.getQueueAttributes(url, List.of("All")).getAttributes();
        assertEquals("45", attrs.get("VisibilityTimeout"));
        assertTrue(attrs.get("QueueArn").endsWith(":" + name));
        SQS.setQueueAttributes(url, Map.of("DelaySeconds", "2"));
        assertEquals(Map.of("DelaySeconds", "2"), SQS.getQueueAttributes(url, List.of("DelaySeconds")).getAttributes());
        SQS.tagQueue(url, Map.of("team", "core", "empty", ""));
        SQS.untagQueue(url, List.of("empty"));
        assertEquals(Map.of("team", "core"), SQS.listQueueTags(url).getTags());
        SQS.sendMessage(url, "x");
        SQS.purgeQueue(new com.amazonaws.services.sqs.model.PurgeQueueRequest(url));
        assertEquals(List.of(0, 0), counts(url));
        SQS.deleteQueue(url);
        assertThrows(QueueDoesNotExistException.class, () -> SQS.getQueueUrl(name));
    }

    @Test
    void message_attributes() {
        String url = makeQueue("compat", false, Map.of());
        String body = "line one\r\nline two\t<tag> & \"quotes\" 'single' \u00e9\u4e2d\uD83D\uDE00";
        SendMessageResult sent = SQS.sendMessage(new SendMessageRequest(url, body).withMessageAttributes(allTypes()));
        assertEquals(Compat.md5OfBody(body), sent.getMD5OfMessageBody());
        Message m = receiveOne(new ReceiveMessageRequest(url).withMessageAttributeNames("All")
                .withAttributeNames("All").withVisibilityTimeout(0));
        assertEquals(sent.getMessageId(), m.getMessageId());
        assertEquals(body, m.getBody());
        assertEquals(allTypes(), m.getMessageAttributes());
        assertEquals(sent.getMD5OfMessageAttributes(), m.getMD5OfMessageAttributes());
        assertEquals("1", m.getAttributes().get("ApproximateReceiveCount"));
        // A filtered receive: the SDK checks the MD5 over just the attributes returned.
        m = receiveOne(new ReceiveMessageRequest(url).withMessageAttributeNames("s", "b.*").withVisibilityTimeout(0));
        assertEquals(List.of("b", "b.label", "s"), m.getMessageAttributes().keySet().stream().sorted().toList());
        m = receiveOne(new ReceiveMessageRequest(url));
        assertTrue(m.getMessageAttributes().isEmpty());
        SQS.deleteMessage(url, m.getReceiptHandle());
        assertEquals(List.of(0, 0), counts(url));
    }

    @Test
    void large_message() {
        String url = makeQueue("compat", false, Map.of());
        String unit = "\u4e2d\uD83D\uDE00\r\n<&>\"x"; // 14 bytes
        StringBuilder sb = new StringBuilder(unit.repeat(1_048_576 / 14));
        sb.append("a".repeat(1_048_576 - sb.toString().getBytes(StandardCharsets.UTF_8).length));
        String body = sb.toString();
        assertEquals(Compat.md5OfBody(body), SQS.sendMessage(url, body).getMD5OfMessageBody());
        assertEquals(body, receiveOne(new ReceiveMessageRequest(url)).getBody());
        assertEquals("InvalidParameterValue", code(() -> SQS.sendMessage(url, body + "!")));
    }

    @Test
    void batch_partial_failure() {
        String url = makeQueue("compat", false, Map.of());
        SendMessageBatchResult out = SQS.sendMessageBatch(url, List.of(
                new SendMessageBatchRequestEntry("ok-1", "one"),
                new SendMessageBatchRequestEntry("bad_number", "two")
                        .withMessageAttributes(Map.of("n", string("Number", "not a number"))),
                new SendMessageBatchRequestEntry("ok-2", "three").withMessageAttributes(allTypes())));
        assertEquals(List.of("ok-1", "ok-2"), out.getSuccessful().stream().map(e -> e.getId()).sorted().toList());
        assertEquals(List.of(List.of("bad_number", "InvalidParameterValue", true)), out.getFailed().stream()
                .map(e -> List.<Object>of(e.getId(), e.getCode(), e.getSenderFault())).toList());
        List<Message> messages = SQS.receiveMessage(new ReceiveMessageRequest(url).withMaxNumberOfMessages(10)
                .withWaitTimeSeconds(1)).getMessages();
        List<DeleteMessageBatchRequestEntry> entries = new ArrayList<>();
        for (int i = 0; i < messages.size(); i++) {
            entries.add(new DeleteMessageBatchRequestEntry("m" + i, messages.get(i).getReceiptHandle()));
        }
        entries.add(new DeleteMessageBatchRequestEntry("bogus", "not-a-receipt-handle"));
        var deleted = SQS.deleteMessageBatch(url, entries);
        assertEquals(List.of("m0", "m1"), deleted.getSuccessful().stream().map(e -> e.getId()).sorted().toList());
        assertEquals("ReceiptHandleIsInvalid", deleted.getFailed().get(0).getCode());
        assertEquals(List.of(0, 0), counts(url));
    }

    @Test
    void batch_errors() {
        String url = makeQueue("compat", false, Map.of());
        BatchEntryIdsNotDistinctException e = assertThrows(BatchEntryIdsNotDistinctException.class,
                () -> SQS.sendMessageBatch(url, List.of(new SendMessageBatchRequestEntry("same", "a"),
                        new SendMessageBatchRequestEntry("same", "b"))));
        assertEquals("AWS.SimpleQueueService.BatchEntryIdsNotDistinct", e.getErrorCode());
        List<SendMessageBatchRequestEntry> eleven = new ArrayList<>();
        for (int i = 0; i < 11; i++) {
            eleven.add(new SendMessageBatchRequestEntry("e" + i, "x"));
        }
        assertThrows(com.amazonaws.services.sqs.model.TooManyEntriesInBatchRequestException.class,
                () -> SQS.sendMessageBatch(url, eleven));
        assertThrows(com.amazonaws.services.sqs.model.InvalidBatchEntryIdException.class,
                () -> SQS.deleteMessageBatch(url, List.of(new DeleteMessageBatchRequestEntry("no spaces", "h"))));
    }

    @Test
    void visibility() {
        String url = makeQueue("compat", false, Map.of("VisibilityTimeout", "30"));
        SQS.sendMessage(url, "hidden");
        Message m = receiveOne(new ReceiveMessageRequest(url));
        assertEquals(List.of(0, 1), counts(url));
        SQS.changeMessageVisibility(url, m.getReceiptHandle(), 0);
        Message again = receiveOne(new ReceiveMessageRequest(url).withAttributeNames("ApproximateReceiveCount"));
        assertEquals("2", again.getAttributes().get("ApproximateReceiveCount"));
        assertNotEquals(m.getReceiptHandle(), again.getReceiptHandle());
        var out = SQS.changeMessageVisibilityBatch(url, List.of(
                new ChangeMessageVisibilityBatchRequestEntry("real", again.getReceiptHandle()).withVisibilityTimeout(0),
                new ChangeMessageVisibilityBatchRequestEntry("fake", "garbage").withVisibilityTimeout(0)));
        assertEquals("real", out.getSuccessful().get(0).getId());
        assertEquals("ReceiptHandleIsInvalid", out.getFailed().get(0).getCode());
        assertEquals("ReceiptHandleIsInvalid", code(() -> SQS.changeMessageVisibility(url, "garbage", 5)));
    }

    @Test
    void queue_does_not_exist() {
        QueueDoesNotExistException e = assertThrows(QueueDoesNotExistException.class, () -> SQS.getQueueUrl("no-such-queue"));
        assertEquals("AWS.SimpleQueueService.NonExistentQueue", e.getErrorCode());
        assertEquals(400, e.getStatusCode());
        String url = makeQueue("compat", false, Map.of());
        SQS.deleteQueue(url);
        assertThrows(QueueDoesNotExistException.class, () -> SQS.sendMessage(url, "into the void"));
    }

    @Test
    void invalid_parameter_value() {
        String url = makeQueue("compat", false, Map.of());
        assertEquals("InvalidParameterValue", code(() -> SQS.receiveMessage(
                new ReceiveMessageRequest(url).withMaxNumberOfMessages(11))));
        assertEquals("InvalidParameterValue", code(() -> SQS.createQueue("bad name!")));
        assertEquals("InvalidAttributeName", code(() -> SQS.getQueueAttributes(
                new GetQueueAttributesRequest(url).withAttributeNames("NoSuchAttribute"))));
    }

    @Test
    void dlq_redrive() {
        String dlq = makeQueue("dlq", false, Map.of());
        String dlqArn = SQS.getQueueAttributes(dlq, List.of("QueueArn")).getAttributes().get("QueueArn");
        String source = makeQueue("src", false, Map.of("RedrivePolicy",
                "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":\"2\"}"));
        assertEquals(List.of(source), SQS.listDeadLetterSourceQueues(
                new com.amazonaws.services.sqs.model.ListDeadLetterSourceQueuesRequest(dlq)).getQueueUrls());
        String id = SQS.sendMessage(source, "poison").getMessageId();
        receiveOne(new ReceiveMessageRequest(source).withVisibilityTimeout(0));
        receiveOne(new ReceiveMessageRequest(source).withVisibilityTimeout(0));
        assertTrue(SQS.receiveMessage(new ReceiveMessageRequest(source).withVisibilityTimeout(0)).getMessages().isEmpty());
        Message moved = receiveOne(new ReceiveMessageRequest(dlq).withAttributeNames("All"));
        assertEquals(id, moved.getMessageId());
        assertTrue(moved.getAttributes().get("DeadLetterQueueSourceArn").endsWith(Compat.queueName(source)));
    }

    @Test
    void fifo_order_dedup() {
        String url = makeQueue("order", true, Map.of());
        List<String> ids = new ArrayList<>();
        for (String[] gb : new String[][] {{"g1", "a1"}, {"g2", "b1"}, {"g1", "a2"}}) {
            ids.add(SQS.sendMessage(new SendMessageRequest(url, gb[1]).withMessageGroupId(gb[0])
                    .withMessageDeduplicationId(gb[1])).getMessageId());
        }
        assertEquals(ids.get(0), SQS.sendMessage(new SendMessageRequest(url, "a1 again").withMessageGroupId("g1")
                .withMessageDeduplicationId("a1")).getMessageId());
        Message head = receiveOne(new ReceiveMessageRequest(url));
        assertEquals("a1", head.getBody());
        assertEquals(List.of("b1"), SQS.receiveMessage(new ReceiveMessageRequest(url).withMaxNumberOfMessages(10))
                .getMessages().stream().map(Message::getBody).toList());
        assertEquals("MissingParameter", code(() -> SQS.sendMessage(
                new SendMessageRequest(url, "no group").withMessageDeduplicationId("x"))));
    }

    @Test
    void long_poll_wakes_on_send() throws Exception {
        String url = makeQueue("compat", false, Map.of());
        long start = System.nanoTime();
        CompletableFuture<List<Message>> polled = CompletableFuture.supplyAsync(
                () -> SQS.receiveMessage(new ReceiveMessageRequest(url).withWaitTimeSeconds(20)).getMessages());
        Compat.waitParked(url);
        SQS.sendMessage(url, "wake up");
        List<Message> messages = polled.get(25, TimeUnit.SECONDS);
        double elapsed = (System.nanoTime() - start) / 1e9;
        assertEquals(List.of("wake up"), bodies(messages));
        assertTrue(elapsed < 10, "long poll took " + elapsed + " s to see the send");
    }

    @Test
    void receipt_handle_rules() {
        String url = makeQueue("compat", false, Map.of("VisibilityTimeout", "30"));
        SQS.sendMessage(url, "twice");
        Message old = receiveOne(new ReceiveMessageRequest(url).withVisibilityTimeout(0));
        Message newer = receiveOne(new ReceiveMessageRequest(url));
        assertNotEquals(old.getReceiptHandle(), newer.getReceiptHandle());
        // On a standard queue an older handle still changes the visibility of the message...
        SQS.changeMessageVisibility(url, old.getReceiptHandle(), 0);
        Message third = receiveOne(new ReceiveMessageRequest(url).withAttributeNames("ApproximateReceiveCount"));
        assertEquals("3", third.getAttributes().get("ApproximateReceiveCount"));
        // ...and deletes it.
        SQS.deleteMessage(url, old.getReceiptHandle());
        assertEquals(List.of(0, 0), counts(url));
    }

    @Test
    void move_task() throws InterruptedException {
        String dlq = makeQueue("dlq", false, Map.of());
        String dlqArn = arn(dlq);
        String source = makeQueue("src", false, Map.of("RedrivePolicy",
                "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":\"1\"}"));
        String id = SQS.sendMessage(source, "redrive me").getMessageId();
        receiveOne(new ReceiveMessageRequest(source).withVisibilityTimeout(0));
        assertTrue(SQS.receiveMessage(new ReceiveMessageRequest(source)).getMessages().isEmpty());
        assertEquals(List.of(1, 0), counts(dlq));

        assertFalse(SQS.startMessageMoveTask(new StartMessageMoveTaskRequest().withSourceArn(dlqArn))
                .getTaskHandle().isEmpty());
        // The move runs in the background; its own status is the event to wait for.
        long deadline = System.nanoTime() + 15_000_000_000L;
        ListMessageMoveTasksResultEntry task;
        while (true) {
            List<ListMessageMoveTasksResultEntry> tasks = SQS.listMessageMoveTasks(
                    new ListMessageMoveTasksRequest().withSourceArn(dlqArn)).getResults();
            assertEquals(1, tasks.size());
            task = tasks.get(0);
            if (!"RUNNING".equals(task.getStatus()) || System.nanoTime() > deadline) {
                break;
            }
            Thread.sleep(50);
        }
        assertEquals("COMPLETED", task.getStatus(), task::toString);
        assertEquals(dlqArn, task.getSourceArn());
        assertEquals(1L, task.getApproximateNumberOfMessagesMoved());
        assertNotNull(task.getStartedTimestamp());
        Message back = receiveOne(new ReceiveMessageRequest(source).withWaitTimeSeconds(1));
        assertEquals(List.of(id, "redrive me"), List.of(back.getMessageId(), back.getBody()));
        assertEquals(List.of(0, 0), counts(dlq));
    }

    @Test
    void fifo_group_visibility() throws Exception {
        String url = makeQueue("groups", true, Map.of("ContentBasedDeduplication", "true"));
        for (String body : List.of("a1", "a2", "a3")) {
            SQS.sendMessage(new SendMessageRequest(url, body).withMessageGroupId("g1"));
        }
        List<Message> both = SQS.receiveMessage(new ReceiveMessageRequest(url).withMaxNumberOfMessages(2)).getMessages();
        assertEquals(List.of("a1", "a2"), bodies(both));
        // Ending a1's visibility makes a1 receivable again; a2 stays in flight and a3 behind it.
        SQS.changeMessageVisibility(url, both.get(0).getReceiptHandle(), 0);
        List<Message> again = SQS.receiveMessage(new ReceiveMessageRequest(url).withMaxNumberOfMessages(10)).getMessages();
        assertEquals(List.of("a1"), bodies(again));

        // A long poll parked on the queue wakes when the group's in-flight head is deleted.
        SQS.deleteMessage(url, again.get(0).getReceiptHandle());
        SQS.changeMessageVisibility(url, both.get(1).getReceiptHandle(), 30);
        long start = System.nanoTime();
        CompletableFuture<List<Message>> polled = CompletableFuture.supplyAsync(
                () -> SQS.receiveMessage(new ReceiveMessageRequest(url).withWaitTimeSeconds(20)).getMessages());
        Compat.waitParked(url); // parked, so that the delete is what wakes it
        SQS.deleteMessage(url, both.get(1).getReceiptHandle());
        assertEquals(List.of("a3"), bodies(polled.get(25, TimeUnit.SECONDS)));
        double elapsed = (System.nanoTime() - start) / 1e9;
        assertTrue(elapsed < 10, "the delete woke the long poll after " + elapsed + " s");

        // Between groups, the group received last goes to the back.
        String rotation = makeQueue("rotation", true, Map.of("ContentBasedDeduplication", "true"));
        for (String group : List.of("g1", "g2", "g3")) {
            SQS.sendMessage(new SendMessageRequest(rotation, group).withMessageGroupId(group));
        }
        assertEquals(List.of("g1", "g2"), bodies(SQS.receiveMessage(new ReceiveMessageRequest(rotation)
                .withMaxNumberOfMessages(2).withVisibilityTimeout(0)).getMessages()));
        assertEquals(List.of("g3"), bodies(SQS.receiveMessage(new ReceiveMessageRequest(rotation)
                .withMaxNumberOfMessages(1)).getMessages()));
    }

    @Test
    void validation_fidelity() {
        AmazonServiceException e = assertThrows(AmazonServiceException.class, () -> SQS.createQueue(
                new CreateQueueRequest(Compat.uniqueName("std", false)).withAttributes(Map.of("FifoQueue", "false"))));
        assertEquals("InvalidAttributeName", e.getErrorCode());
        assertEquals("Unknown Attribute FifoQueue.", e.getErrorMessage());

        String fifo = makeQueue("vfifo", true, Map.of());
        assertEquals("InvalidParameterValue", code(() -> SQS.sendMessageBatch(fifo, List.of(
                new SendMessageBatchRequestEntry("a", "a").withMessageGroupId("g").withMessageDeduplicationId("a"),
                new SendMessageBatchRequestEntry("b", "b").withMessageDeduplicationId("b")))));
        assertEquals(List.of(0, 0), counts(fifo));

        String url = makeQueue("compat", false, Map.of());
        assertThrows(InvalidBatchEntryIdException.class, () -> SQS.sendMessageBatch(url,
                List.of(new SendMessageBatchRequestEntry("", "x"))));
        assertThrows(EmptyBatchRequestException.class, () -> SQS.sendMessageBatch(url, List.of()));

        Map<String, MessageAttributeValue> unicode = Map.of("attr.1\u00f8\u00df\u00e4", string("String", "Valida"));
        SQS.sendMessage(new SendMessageRequest(url, "m").withMessageAttributes(unicode));
        assertEquals("InvalidParameterValue", code(() -> SQS.sendMessage(new SendMessageRequest(url, "m")
                .withMessageAttributes(Map.of("attr1", string("String", "Invalid-\b,\u000b"))))));
        assertEquals(unicode, receiveOne(new ReceiveMessageRequest(url).withMessageAttributeNames("*")
                .withVisibilityTimeout(0)).getMessageAttributes());
        // No system attributes asked for: an empty list means none.
        assertTrue(receiveOne(new ReceiveMessageRequest(url).withAttributeNames(List.<String>of())
                .withVisibilityTimeout(0)).getAttributes().isEmpty());
    }

    @Test
    void recreate_deleted_queue() {
        String name = Compat.uniqueName("again", false);
        String url = SQS.createQueue(name).getQueueUrl();
        SQS.sendMessage(url, "old");
        SQS.deleteQueue(url);
        // SQS makes a name wait 60 s after a delete; sqslite does so only under --strict.
        String again = SQS.createQueue(name).getQueueUrl();
        assertEquals(url, again);
        assertEquals(List.of(0, 0), counts(again));
        SQS.deleteQueue(again);
    }
}
