package sqslite.compat.sdk2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import sqslite.compat.Compat;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.services.sqs.model.ListMessageMoveTasksResultEntry;
import software.amazon.awssdk.services.sqs.model.ListQueuesResponse;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;

/** The queue-level rows of docs/src/scenarios.md, plus the wire protocol check. */
abstract class QueueScenarios extends ScenarioBase {
    @Test
    void protocol() {
        Clients.sent.clear();
        makeQueue();
        SdkHttpRequest request = Clients.sent.get(0);
        assertEquals("application/x-amz-json-1.0", request.firstMatchingHeader("Content-Type").orElse(""));
        assertEquals("AmazonSQS.CreateQueue", request.firstMatchingHeader("X-Amz-Target").orElse(""));
        // SDK v2 posts every action to the endpoint's root, the queue URL travels in the body.
        assertEquals("/", request.encodedPath().isEmpty() ? "/" : request.encodedPath());
    }

    @Test
    void queue_lifecycle() {
        String url = makeQueue("lifecycle", false, Map.of("VisibilityTimeout", "45"));
        String name = Compat.queueName(url);
        String tagged = sqs.createQueue(r -> r.queueName(name + "-tagged").tags(Map.of("env", "test"))).queueUrl();
        assertEquals(Map.of("env", "test"), sqs.listQueueTags(r -> r.queueUrl(tagged)).tags());
        ListQueuesResponse page = sqs.listQueues(r -> r.queueNamePrefix(name).maxResults(1));
        assertEquals(List.of(url), page.queueUrls());
        assertNotNull(page.nextToken());
        String token = page.nextToken();
        page = sqs.listQueues(r -> r.queueNamePrefix(name).maxResults(1).nextToken(token));
        assertEquals(List.of(tagged), page.queueUrls());
        assertNull(page.nextToken());
        sqs.deleteQueue(r -> r.queueUrl(tagged));
        assertEquals(url, sqs.getQueueUrl(r -> r.queueName(name)).queueUrl());
        // Same name and attributes: the existing queue comes back.
        assertEquals(url, sqs.createQueue(r -> r.queueName(name).attributesWithStrings(
                Map.of("VisibilityTimeout", "45"))).queueUrl());
        assertTrue(sqs.listQueues(r -> r.queueNamePrefix("lifecycle-")).queueUrls().contains(url));

        Map<String, String> attrs = sqs.getQueueAttributes(r -> r.queueUrl(url).attributeNamesWithStrings("All"))
                .attributesAsStrings();
        assertEquals("45", attrs.get("VisibilityTimeout"));
        assertTrue(attrs.get("QueueArn").endsWith(":" + name));
        assertEquals("1048576", attrs.get("MaximumMessageSize"));
        sqs.setQueueAttributes(r -> r.queueUrl(url).attributesWithStrings(Map.of("DelaySeconds", "2")));
        assertEquals(Map.of("DelaySeconds", "2"), sqs.getQueueAttributes(
                r -> r.queueUrl(url).attributeNamesWithStrings("DelaySeconds")).attributesAsStrings());

        sqs.addPermission(r -> r.queueUrl(url).label("send-only").awsAccountIds("111122223333").actions("SendMessage"));
        String policy = sqs.getQueueAttributes(r -> r.queueUrl(url).attributeNamesWithStrings("Policy"))
                .attributesAsStrings().get("Policy");
        assertTrue(policy.contains("send-only"), policy);
        sqs.removePermission(r -> r.queueUrl(url).label("send-only"));

        sqs.tagQueue(r -> r.queueUrl(url).tags(Map.of("team", "core", "empty", "")));
        sqs.untagQueue(r -> r.queueUrl(url).tagKeys("empty"));
        assertEquals(Map.of("team", "core"), sqs.listQueueTags(r -> r.queueUrl(url)).tags());

        sqs.sendMessage(r -> r.queueUrl(url).messageBody("x").delaySeconds(0));
        sqs.purgeQueue(r -> r.queueUrl(url));
        assertEquals(List.of(0, 0), counts(url));
        // SQS's 60-second purge guard is off by default (--strict restores it).
        sqs.purgeQueue(r -> r.queueUrl(url));

        sqs.deleteQueue(r -> r.queueUrl(url));
        assertThrows(QueueDoesNotExistException.class, () -> sqs.getQueueUrl(r -> r.queueName(name)));
        assertFalse(sqs.listQueues(r -> r.queueNamePrefix("lifecycle-")).queueUrls().contains(url));
    }

    @Test
    void queue_does_not_exist() {
        QueueDoesNotExistException e = assertThrows(QueueDoesNotExistException.class,
                () -> sqs.getQueueUrl(r -> r.queueName("no-such-queue")));
        assertEquals("AWS.SimpleQueueService.NonExistentQueue", e.awsErrorDetails().errorCode());
        assertEquals(400, e.statusCode());
        String url = makeQueue();
        sqs.deleteQueue(r -> r.queueUrl(url));
        assertThrows(QueueDoesNotExistException.class,
                () -> sqs.sendMessage(r -> r.queueUrl(url).messageBody("into the void")));
    }

    @Test
    void invalid_parameter_value() {
        String url = makeQueue();
        AwsServiceException e = assertThrows(AwsServiceException.class,
                () -> sqs.receiveMessage(r -> r.queueUrl(url).maxNumberOfMessages(11)));
        assertEquals("InvalidParameterValue", e.awsErrorDetails().errorCode());
        assertTrue(e.awsErrorDetails().errorMessage().contains("MaxNumberOfMessages"));
        assertEquals("InvalidParameterValue", errorCode(() -> sqs.createQueue(r -> r.queueName("bad name!"))));
        assertEquals("InvalidAttributeName", errorCode(() -> sqs.getQueueAttributes(
                r -> r.queueUrl(url).attributeNamesWithStrings("NoSuchAttribute"))));
    }

    @Test
    void dlq_redrive() {
        String dlq = makeQueue("dlq", false, Map.of());
        String dlqArn = arn(dlq);
        String policy = "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":\"2\"}";
        String source = makeQueue("src", false, Map.of("RedrivePolicy", policy));
        String sourceArn = arn(source);
        assertEquals(List.of(source), sqs.listDeadLetterSourceQueues(r -> r.queueUrl(dlq)).queueUrls());

        String id = sqs.sendMessage(r -> r.queueUrl(source).messageBody("poison")).messageId();
        for (String count : List.of("1", "2")) {
            Message m = receiveOne(source, r -> r.visibilityTimeout(0).messageSystemAttributeNamesWithStrings("All"));
            assertEquals(count, m.attributesAsStrings().get("ApproximateReceiveCount"));
        }
        // The third receive moves it to the DLQ instead of delivering it.
        assertTrue(sqs.receiveMessage(r -> r.queueUrl(source).visibilityTimeout(0)).messages().isEmpty());
        Message moved = receiveOne(dlq, r -> r.visibilityTimeout(0).messageSystemAttributeNamesWithStrings("All"));
        assertEquals(id, moved.messageId());
        assertEquals("poison", moved.body());
        assertEquals(sourceArn, moved.attributesAsStrings().get("DeadLetterQueueSourceArn"));
        assertEquals(List.of(0, 0), counts(source));
    }

    @Test
    void move_task() throws InterruptedException {
        String dlq = makeQueue("dlq", false, Map.of());
        String dlqArn = arn(dlq);
        String policy = "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":\"1\"}";
        String source = makeQueue("src", false, Map.of("RedrivePolicy", policy));
        String id = sqs.sendMessage(r -> r.queueUrl(source).messageBody("redrive me")).messageId();
        receiveOne(source, r -> r.visibilityTimeout(0));
        assertTrue(sqs.receiveMessage(r -> r.queueUrl(source)).messages().isEmpty());
        assertEquals(List.of(1, 0), counts(dlq));

        assertFalse(sqs.startMessageMoveTask(r -> r.sourceArn(dlqArn)).taskHandle().isEmpty());
        // The move runs in the background; its own status is the event to wait for.
        long deadline = System.nanoTime() + 15_000_000_000L;
        ListMessageMoveTasksResultEntry task;
        while (true) {
            List<ListMessageMoveTasksResultEntry> tasks = sqs.listMessageMoveTasks(r -> r.sourceArn(dlqArn)).results();
            assertEquals(1, tasks.size());
            task = tasks.get(0);
            if (!"RUNNING".equals(task.status()) || System.nanoTime() > deadline) {
                break;
            }
            Thread.sleep(50);
        }
        assertEquals("COMPLETED", task.status(), task::toString);
        assertEquals(dlqArn, task.sourceArn());
        assertEquals(1L, task.approximateNumberOfMessagesMoved());
        assertNotNull(task.startedTimestamp());
        Message back = receiveOne(source, r -> r.waitTimeSeconds(1));
        assertEquals(List.of(id, "redrive me"), List.of(back.messageId(), back.body()));
        assertEquals(List.of(0, 0), counts(dlq));
    }

    @Test
    void recreate_deleted_queue() {
        String name = Compat.uniqueName("again", false);
        String url = sqs.createQueue(r -> r.queueName(name)).queueUrl();
        sqs.sendMessage(r -> r.queueUrl(url).messageBody("old"));
        sqs.deleteQueue(r -> r.queueUrl(url));
        // SQS makes a name wait 60 s after a delete; sqslite does so only under --strict.
        String again = sqs.createQueue(r -> r.queueName(name)).queueUrl();
        assertEquals(url, again);
        assertEquals(List.of(0, 0), counts(again));
        sqs.deleteQueue(r -> r.queueUrl(again));
    }
}
