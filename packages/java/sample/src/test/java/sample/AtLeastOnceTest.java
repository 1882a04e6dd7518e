package sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sqslite.junit.Sqslite;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * At-least-once delivery, as AWS's standard queues deliver: with the mode's default rates some
 * of a hundred deleted messages come back, each with a new receipt handle.
 */
@Sqslite(delivery = "at-least-once", deliverySeed = 7)
class AtLeastOnceTest {
    @Test
    void deletedMessagesComeBack(SqsClient sqs) {
        String url = sqs.createQueue(b -> b.queueName("payments")).queueUrl();
        for (int i = 0; i < 100; i++) {
            String body = "payment " + i;
            sqs.sendMessage(b -> b.queueUrl(url).messageBody(body));
        }
        Set<String> ids = new HashSet<>();
        Set<String> handles = new HashSet<>();
        int deliveries = 0;
        while (true) {
            List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)).messages();
            if (got.isEmpty()) {
                break;
            }
            for (Message m : got) {
                deliveries++;
                ids.add(m.messageId());
                assertTrue(handles.add(m.receiptHandle()), "every delivery has a new handle");
                sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(m.receiptHandle()));
            }
        }
        assertEquals(100, ids.size());
        assertTrue(deliveries > 100, "some deleted messages came back: " + deliveries);
    }
}
