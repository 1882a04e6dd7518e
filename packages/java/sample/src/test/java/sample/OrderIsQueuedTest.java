package sample;

import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.sqslite.junit.Sqslite;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The guide's Testcontainers example (testcontainers.md), whole. Its options differ from the
 * other classes' (no manual clock), so the run starts a second server for it.
 */
@Sqslite(config = "sqslite.toml")
class OrderIsQueuedTest {
    @Test
    void orderIsQueued(SqsClient sqs) {
        String url = sqs.getQueueUrl(b -> b.queueName("orders")).queueUrl();
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("42"));
        assertFalse(sqs.receiveMessage(b -> b.queueUrl(url)).messages().isEmpty());
    }
}
