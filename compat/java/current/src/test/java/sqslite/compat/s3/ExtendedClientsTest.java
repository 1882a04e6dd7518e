package sqslite.compat.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazon.sqs.javamessaging.AmazonSQSExtendedAsyncClient;
import com.amazon.sqs.javamessaging.AmazonSQSExtendedClient;
import com.amazon.sqs.javamessaging.ExtendedAsyncClientConfiguration;
import com.amazon.sqs.javamessaging.ExtendedClientConfiguration;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import sqslite.compat.Compat;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sns.model.PublishResponse;
import software.amazon.awssdk.services.sqs.SqsAsyncClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.sns.AmazonSNSExtendedClient;
import software.amazon.sns.SNSExtendedClientConfiguration;

/**
 * The payload-offloading libraries on SDK v2 (compat/run.sh java-s3): the Amazon SQS Extended
 * Client Library for Java, sync and async, and the Amazon SNS Extended Client Library, each
 * storing a payload past 1 MiB in a bucket and sending a pointer, the SQS library reading it
 * back on receive and deleting the object with the message.
 */
class ExtendedClientsTest {
    static final S3Client S3 = S3Clients.s3();
    static final SqsClient SQS = S3Clients.sqs();
    static final List<String> BUCKETS = new ArrayList<>();
    static final List<String> QUEUES = new ArrayList<>();

    @AfterAll
    static void cleanUp() {
        BUCKETS.forEach(b -> S3Clients.dropBucket(S3, b));
        QUEUES.forEach(q -> SQS.deleteQueue(d -> d.queueUrl(q)));
    }

    static String bucket() {
        String name = S3Clients.bucket(S3, "java-payloads");
        BUCKETS.add(name);
        return name;
    }

    static String queue(String prefix) {
        String url = S3Clients.queue(SQS, prefix);
        QUEUES.add(url);
        return url;
    }

    /** Text past 1 MiB with multi-byte characters, unique per call. */
    static String payload(int bytes) {
        String unit = UUID.randomUUID() + " café 日本 \uD83D\uDE00\n";
        int unitBytes = unit.getBytes(StandardCharsets.UTF_8).length;
        return unit.repeat(bytes / unitBytes + 1);
    }

    static int size(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    static void assertQueueEmpty(String queue) {
        Map<QueueAttributeName, String> counts = SQS.getQueueAttributes(g -> g.queueUrl(queue).attributeNames(
                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE))
                .attributes();
        assertEquals("0", counts.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES), counts.toString());
        assertEquals("0", counts.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE), counts.toString());
    }

    @Test
    void sqsExtendedClientSync() {
        String bucket = bucket();
        String queue = queue("java-extended");
        SqsClient extended = new AmazonSQSExtendedClient(SQS, new ExtendedClientConfiguration()
                .withPayloadSupportEnabled(S3, bucket));
        String body = payload(3 * 1024 * 1024 / 2);
        extended.sendMessage(s -> s.queueUrl(queue).messageBody(body).messageAttributes(Map.of("kind",
                MessageAttributeValue.builder().dataType("String").stringValue("big").build())));
        List<String> stored = S3Clients.objects(S3, bucket);
        assertEquals(1, stored.size(), stored.toString());
        assertTrue(stored.get(0).endsWith("=" + size(body)), stored.toString());

        List<Message> got = extended.receiveMessage(r -> r.queueUrl(queue).messageAttributeNames("All").waitTimeSeconds(5))
                .messages();
        assertEquals(1, got.size());
        assertEquals(body, got.get(0).body());
        assertEquals("big", got.get(0).messageAttributes().get("kind").stringValue());
        extended.deleteMessage(d -> d.queueUrl(queue).receiptHandle(got.get(0).receiptHandle()));
        assertEquals(List.of(), S3Clients.objects(S3, bucket));
        assertQueueEmpty(queue);
    }

    @Test
    void sqsExtendedClientAsync() {
        String bucket = bucket();
        String queue = queue("java-extended-async");
        try (S3AsyncClient s3 = S3Clients.local(S3AsyncClient.builder()).build();
                SqsAsyncClient sqs = S3Clients.local(SqsAsyncClient.builder()).build()) {
            SqsAsyncClient extended = new AmazonSQSExtendedAsyncClient(sqs, new ExtendedAsyncClientConfiguration()
                    .withPayloadSupportEnabled(s3, bucket));
            String body = payload(1024 * 1024 + 1);
            extended.sendMessage(s -> s.queueUrl(queue).messageBody(body)).join();
            List<String> stored = S3Clients.objects(S3, bucket);
            assertEquals(1, stored.size(), stored.toString());

            List<Message> got = extended.receiveMessage(r -> r.queueUrl(queue).waitTimeSeconds(5)).join().messages();
            assertEquals(1, got.size());
            assertEquals(body, got.get(0).body());
            extended.deleteMessage(d -> d.queueUrl(queue).receiptHandle(got.get(0).receiptHandle())).join();
            assertEquals(List.of(), S3Clients.objects(S3, bucket));
            assertQueueEmpty(queue);
        }
    }

    @Test
    void snsExtendedClientIntoSqsExtendedClient() {
        String bucket = bucket();
        String queue = queue("java-sns-extended");
        try (SnsClient sns = S3Clients.sns()) {
            String topic = sns.createTopic(c -> c.name(Compat.uniqueName("java-big", false))).topicArn();
            // Raw delivery, as the library's guide sets it up: the queue gets the pointer itself,
            // with the size attribute the SQS library looks for.
            sns.subscribe(s -> s.topicArn(topic).protocol("sqs").endpoint(S3Clients.queueArn(SQS, queue))
                    .attributes(Map.of("RawMessageDelivery", "true")));
            SnsClient extendedSns = new AmazonSNSExtendedClient(sns, new SNSExtendedClientConfiguration()
                    .withPayloadSupportEnabled(S3, bucket));
            String body = payload(2 * 1024 * 1024);
            PublishResponse published = extendedSns.publish(p -> p.topicArn(topic).message(body));
            assertTrue(published.messageId() != null);
            List<String> stored = S3Clients.objects(S3, bucket);
            assertEquals(1, stored.size(), stored.toString());
            assertTrue(stored.get(0).endsWith("=" + size(body)), stored.toString());

            SqsClient extendedSqs = new AmazonSQSExtendedClient(SQS, new ExtendedClientConfiguration()
                    .withPayloadSupportEnabled(S3, bucket));
            List<Message> got = extendedSqs.receiveMessage(r -> r.queueUrl(queue).messageAttributeNames("All")
                    .waitTimeSeconds(5)).messages();
            assertEquals(1, got.size());
            assertEquals(body, got.get(0).body());
            extendedSqs.deleteMessage(d -> d.queueUrl(queue).receiptHandle(got.get(0).receiptHandle()));
            assertEquals(List.of(), S3Clients.objects(S3, bucket));
            assertQueueEmpty(queue);
            sns.deleteTopic(d -> d.topicArn(topic));
        }
    }
}
