package sqslite.compat.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.awspring.cloud.sqs.operations.SendResult;
import io.awspring.cloud.sqs.operations.SqsTemplate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.messaging.Message;
import sqslite.compat.Compat;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import sqslite.compat.sdk2.Clients;

/** Spring Cloud AWS SQS on Spring Boot: listeners, acknowledgement, redrive, visibility, FIFO, SqsTemplate. */
class SpringCloudAwsTest {
    private static final SqsClient SQS = Clients.sync();
    private static final Map<String, String> QUEUES = new HashMap<>();
    private static ConfigurableApplicationContext context;
    private static ListenerApp.Listeners seen;

    private static String create(String name, Map<String, String> attributes) {
        return SQS.createQueue(r -> r.queueName(name).attributesWithStrings(attributes)).queueUrl();
    }

    @BeforeAll
    static void start() {
        String dlq = create(Compat.uniqueName("spring-dlq", false), Map.of());
        String dlqArn = SQS.getQueueAttributes(r -> r.queueUrl(dlq).attributeNamesWithStrings("QueueArn"))
                .attributesAsStrings().get("QueueArn");
        QUEUES.put("dlq", dlq);
        QUEUES.put("ack", create(Compat.uniqueName("spring-ack", false), Map.of()));
        QUEUES.put("failing", create(Compat.uniqueName("spring-failing", false), Map.of("VisibilityTimeout", "1",
                "RedrivePolicy", "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":\"2\"}")));
        QUEUES.put("slow", create(Compat.uniqueName("spring-slow", false), Map.of("VisibilityTimeout", "1")));
        QUEUES.put("fifo", create(Compat.uniqueName("spring-fifo", true), Map.of("FifoQueue", "true",
                "ContentBasedDeduplication", "true")));
        QUEUES.put("template", create(Compat.uniqueName("spring-template", false), Map.of()));
        Map<String, Object> properties = new HashMap<>();
        properties.put("spring.cloud.aws.sqs.endpoint", Compat.endpoint());
        properties.put("spring.cloud.aws.region.static", Compat.REGION);
        properties.put("spring.cloud.aws.credentials.access-key", Compat.ACCESS_KEY);
        properties.put("spring.cloud.aws.credentials.secret-key", Compat.SECRET_KEY);
        // Long polls of 1 s (default 10 s), so that closing the context at the end is quick.
        properties.put("spring.cloud.aws.sqs.listener.poll-timeout", "1s");
        QUEUES.forEach((role, url) -> properties.put("compat.queue." + role, Compat.queueName(url)));
        context = new SpringApplicationBuilder(ListenerApp.class).web(WebApplicationType.NONE)
                .properties(properties).run();
        seen = context.getBean(ListenerApp.Listeners.class);
    }

    @AfterAll
    static void stop() {
        if (context != null) {
            context.close();
        }
        QUEUES.values().forEach(url -> SQS.deleteQueue(r -> r.queueUrl(url)));
    }

    private static List<Integer> counts(String url) {
        Map<String, String> a = SQS.getQueueAttributes(r -> r.queueUrl(url).attributeNamesWithStrings(
                "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible")).attributesAsStrings();
        return List.of(Integer.valueOf(a.get("ApproximateNumberOfMessages")),
                Integer.valueOf(a.get("ApproximateNumberOfMessagesNotVisible")));
    }

    @Test
    void listener_acknowledges_on_success() throws InterruptedException {
        String url = QUEUES.get("ack");
        SQS.sendMessageBatch(r -> r.queueUrl(url).entries(
                SendMessageBatchRequestEntry.builder().id("a").messageBody("first").build(),
                SendMessageBatchRequestEntry.builder().id("b").messageBody("second").build()));
        List<String> got = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            got.add(seen.acknowledged.poll(15, TimeUnit.SECONDS));
        }
        assertEquals(List.of("first", "second"), got.stream().sorted().toList());
        // Acknowledgements are batched (DeleteMessageBatch about once a second): wait for them.
        Compat.await(Duration.ofSeconds(10), () -> counts(url).equals(List.of(0, 0)), "acknowledged messages deleted");
    }

    @Test
    void failing_listener_dead_letters() {
        String id = SQS.sendMessage(r -> r.queueUrl(QUEUES.get("failing")).messageBody("poison")).messageId();
        List<software.amazon.awssdk.services.sqs.model.Message> moved = new ArrayList<>();
        Compat.await(Duration.ofSeconds(20), () -> {
            moved.addAll(SQS.receiveMessage(r -> r.queueUrl(QUEUES.get("dlq")).waitTimeSeconds(1)
                    .messageSystemAttributeNamesWithStrings("All")).messages());
            return !moved.isEmpty();
        }, "the failing message reached the DLQ");
        assertEquals(id, moved.get(0).messageId());
        assertEquals("poison", moved.get(0).body());
        assertEquals(2, seen.failures.get(), "maxReceiveCount=2: two deliveries, then the DLQ");
    }

    @Test
    void slow_listener_extends_visibility() {
        String url = QUEUES.get("slow");
        SQS.sendMessage(r -> r.queueUrl(url).messageBody("slow"));
        Compat.await(Duration.ofSeconds(15), () -> counts(url).equals(List.of(0, 0)) && !seen.slowReceiveCounts.isEmpty(),
                "the slow message handled and deleted");
        // Extended past the queue's 1-second visibility: delivered once, never redelivered.
        assertEquals(List.of("1"), seen.slowReceiveCounts);
        double extensions = Compat.metric(Compat.metrics(), "sqslite_visibility_extension_seconds_count",
                "queue=\"" + Compat.queueName(url) + "\"");
        assertTrue(extensions >= 1, "sqslite saw no extending ChangeMessageVisibility");
    }

    @Test
    void fifo_listener_keeps_group_order() {
        String url = QUEUES.get("fifo");
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            String body = "m" + i;
            expected.add(body);
            // Each message goes to group g0 or g1; the bodies are unique, so content dedup keeps them all.
            SQS.sendMessage(r -> r.queueUrl(url).messageBody(body).messageGroupId("g" + (Integer.parseInt(body.substring(1)) % 2)));
        }
        Compat.await(Duration.ofSeconds(20), () -> seen.fifoByGroup.values().stream().mapToInt(List::size).sum() >= 10,
                "all FIFO messages handled");
        assertEquals(List.of("m0", "m2", "m4", "m6", "m8"), seen.fifoByGroup.get("g0"));
        assertEquals(List.of("m1", "m3", "m5", "m7", "m9"), seen.fifoByGroup.get("g1"));
        Compat.await(Duration.ofSeconds(10), () -> counts(url).equals(List.of(0, 0)), "FIFO messages deleted");
    }

    @Test
    void sqs_template_send_and_receive() {
        SqsTemplate template = context.getBean(SqsTemplate.class);
        String queue = Compat.queueName(QUEUES.get("template"));
        SendResult<String> sent = template.send(to -> to.queue(queue).payload("hello from spring").header("kind", "greeting"));
        Optional<Message<String>> got = template.receive(from -> from.queue(queue).pollTimeout(Duration.ofSeconds(5)),
                String.class);
        assertTrue(got.isPresent());
        assertEquals("hello from spring", got.get().getPayload());
        assertEquals("greeting", got.get().getHeaders().get("kind"));
        assertEquals(sent.messageId().toString(), got.get().getHeaders().get("id").toString());
        // receive() acknowledges what it returns.
        Compat.await(Duration.ofSeconds(10), () -> counts(QUEUES.get("template")).equals(List.of(0, 0)), "received message deleted");
    }
}
