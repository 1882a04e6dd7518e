package sample;

import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.sqslite.junit.Sqslite;
import dev.sqslite.junit.SqsliteServer;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;

/** The guide's JUnit example (java.md, testing-packages.md), whole: the guide's check keeps them equal. */
@Sqslite(config = "sqslite.toml", clock = "manual")
class OrdersTest {
    @Test
    void redelivered(SqsClient sqs, SqsliteServer server) {
        String url = sqs.getQueueUrl(b -> b.queueName("orders")).queueUrl();
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("hi"));
        sqs.receiveMessage(b -> b.queueUrl(url));
        server.advanceClock(Duration.ofSeconds(31));  // past the 30 s visibility timeout, at once
        assertFalse(sqs.receiveMessage(b -> b.queueUrl(url)).messages().isEmpty());
    }
}
