package sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sqslite.junit.Sqslite;
import dev.sqslite.junit.SqsliteServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The sample suite packages/run.sh runs against the installed jar. Every test first checks that
 * it sees the started state and then leaves something behind, so the second proves the reset.
 */
@Sqslite(config = "sqslite.toml", clock = "manual")
class SampleTest {
    private static void assertStartedState(SqsClient sqs) {
        List<String> urls = sqs.listQueues().queueUrls();
        assertEquals(List.of("orders", "orders-dlq"),
                urls.stream().map(u -> u.substring(u.lastIndexOf('/') + 1)).sorted().toList());
        for (String url : urls) {
            List<QueueAttributeName> names = List.of(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                    QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE);
            var depth = sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNames(names)).attributes();
            assertEquals(List.of("0", "0"), names.stream().map(depth::get).toList(), url);
        }
    }

    private static List<Message> receive(SqsClient sqs, String url) {
        return sqs.receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(0)
                .messageSystemAttributeNames(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT)).messages();
    }

    @Test
    void runsTheBinaryFromTheJar() {
        assertTrue(System.getenv("SQSLITE_BIN") == null, "SQSLITE_BIN would bypass the bundled binary");
        assertTrue(SqsliteServer.binary().getFileName().toString().startsWith("sqslite-"));
    }

    @Test
    void poisonMessageReachesTheDlqOnTheManualClock(SqsliteServer server, SqsClient sqs) {
        assertStartedState(sqs);
        String orders = sqs.getQueueUrl(b -> b.queueName("orders")).queueUrl();
        sqs.sendMessage(b -> b.queueUrl(orders).messageBody("poison"));
        for (String attempt : List.of("1", "2")) {
            List<Message> got = receive(sqs, orders);
            assertEquals(1, got.size());
            assertEquals(attempt, got.get(0).attributes().get(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT));
            assertTrue(receive(sqs, orders).isEmpty(), "in flight for VisibilityTimeout = 30");
            server.advanceClock(Duration.ofSeconds(31));
        }
        assertTrue(receive(sqs, orders).isEmpty(), "a third receive moves it to the DLQ instead");
        String dlq = sqs.getQueueUrl(b -> b.queueName("orders-dlq")).queueUrl();
        List<Message> dead = receive(sqs, dlq);
        assertEquals("poison", dead.get(0).body());
    }

    @Test
    void createdQueuesAreGoneAfterReset(SqsClient sqs) {
        assertStartedState(sqs);
        String url = sqs.createQueue(b -> b.queueName("scratch")).queueUrl();
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("left behind"));
        String orders = sqs.getQueueUrl(b -> b.queueName("orders")).queueUrl();
        sqs.sendMessage(b -> b.queueUrl(orders).messageBody("left behind"));
    }

    @Nested
    class InANestedClass {
        @Test
        void getsTheSameServerReset(SqsClient sqs) {
            assertStartedState(sqs);
            sqs.createQueue(b -> b.queueName("scratch-nested"));
        }
    }

    /** S3 is served on the same port; the second repetition proves the reset drops buckets too. */
    @RepeatedTest(2)
    void s3IsServedOnTheSamePort(URI endpoint) {
        try (S3Client s3 = S3Client.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .build()) {
            assertEquals(List.of(), s3.listBuckets().buckets());
            s3.createBucket(b -> b.bucket("payloads"));
            s3.putObject(b -> b.bucket("payloads").key("orders/1.json"), RequestBody.fromString("{\"order\": 1}"));
            String got = s3.getObjectAsBytes(b -> b.bucket("payloads").key("orders/1.json")).asUtf8String();
            assertEquals("{\"order\": 1}", got);
        }
    }

    @Test
    void endpointServesAnyClient(URI endpoint) throws Exception {
        HttpResponse<String> health = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(endpoint.resolve("/health")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, health.statusCode());
        assertFalse(endpoint.toString().isBlank());
    }
}
