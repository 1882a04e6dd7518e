package sqslite.compat.jms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazon.sqs.javamessaging.ProviderConfiguration;
import com.amazon.sqs.javamessaging.SQSConnection;
import com.amazon.sqs.javamessaging.SQSConnectionFactory;
import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import sqslite.compat.Compat;
import software.amazon.awssdk.services.sqs.SqsClient;
import sqslite.compat.sdk2.Clients;

/**
 * The Amazon SQS Java Messaging Library (JMS 3.1 over SDK v2): a producer, and a consumer in
 * CLIENT_ACKNOWLEDGE mode whose acknowledge() is what deletes the message.
 */
class SqsJmsTest {
    private static final SqsClient SQS = Clients.sync();
    private SQSConnection connection;
    private String url;

    @BeforeEach
    void connect() throws JMSException {
        url = SQS.createQueue(r -> r.queueName(Compat.uniqueName("jms", false))
                .attributesWithStrings(Map.of("VisibilityTimeout", "30"))).queueUrl();
        connection = new SQSConnectionFactory(new ProviderConfiguration(), SQS).createConnection();
    }

    @AfterEach
    void close() {
        // close() waits for the library's prefetch long poll (a fixed 20 s WaitTimeSeconds) to
        // return; the test does not, so it runs on a daemon thread.
        SQSConnection open = connection;
        Thread closer = new Thread(() -> {
            try {
                open.close();
            } catch (JMSException e) {
                // the test is over; nothing to report to
            }
        });
        closer.setDaemon(true);
        closer.start();
        SQS.deleteQueue(r -> r.queueUrl(url));
    }

    private List<Integer> counts() {
        Map<String, String> a = SQS.getQueueAttributes(r -> r.queueUrl(url).attributeNamesWithStrings(
                "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible")).attributesAsStrings();
        return List.of(Integer.valueOf(a.get("ApproximateNumberOfMessages")),
                Integer.valueOf(a.get("ApproximateNumberOfMessagesNotVisible")));
    }

    @Test
    void producer_and_client_acknowledge_consumer() throws JMSException {
        Session session = connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
        Queue queue = session.createQueue(Compat.queueName(url)); // resolved with GetQueueUrl
        MessageProducer producer = session.createProducer(queue);
        TextMessage text = session.createTextMessage("h\u00e9llo <jms> & \uD83D\uDE00");
        text.setStringProperty("kind", "greeting");
        text.setIntProperty("attempt", 7);
        text.setBooleanProperty("urgent", true);
        producer.send(text);
        assertTrue(text.getJMSMessageID().startsWith("ID:"), text.getJMSMessageID());
        BytesMessage bytes = session.createBytesMessage();
        bytes.writeBytes(new byte[] {0, 1, (byte) 0xfe, (byte) 0xff});
        producer.send(bytes);
        assertEquals(List.of(2, 0), counts());

        MessageConsumer consumer = session.createConsumer(queue);
        connection.start();
        TextMessage got = (TextMessage) consumer.receive(10_000);
        assertEquals(text.getJMSMessageID(), got.getJMSMessageID());
        assertEquals("h\u00e9llo <jms> & \uD83D\uDE00", got.getText());
        assertEquals("greeting", got.getStringProperty("kind"));
        assertEquals(7, got.getIntProperty("attempt"));
        assertTrue(got.getBooleanProperty("urgent"));
        assertEquals(1, got.getIntProperty("JMSXDeliveryCount"));
        BytesMessage gotBytes = (BytesMessage) consumer.receive(10_000);
        byte[] read = new byte[(int) gotBytes.getBodyLength()];
        gotBytes.readBytes(read);
        assertEquals(List.of((byte) 0, (byte) 1, (byte) 0xfe, (byte) 0xff),
                List.of(read[0], read[1], read[2], read[3]));
        // Received, not yet acknowledged: both in flight (the prefetch may hold none besides).
        assertEquals(List.of(0, 2), counts());
        // CLIENT_ACKNOWLEDGE: acknowledging one acknowledges all the session consumed so far.
        gotBytes.acknowledge();
        Compat.await(java.time.Duration.ofSeconds(10), () -> counts().equals(List.of(0, 0)), "acknowledged messages deleted");
    }

    @Test
    void recover_redelivers_unacknowledged() throws JMSException {
        Session session = connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
        Queue queue = session.createQueue(Compat.queueName(url));
        session.createProducer(queue).send(session.createTextMessage("again"));
        MessageConsumer consumer = session.createConsumer(queue);
        connection.start();
        Message first = consumer.receive(10_000);
        assertFalse(first.getJMSRedelivered());
        // recover(): the library makes the unacknowledged message visible again at once.
        session.recover();
        Message second = consumer.receive(10_000);
        assertEquals(first.getJMSMessageID(), second.getJMSMessageID());
        assertTrue(second.getJMSRedelivered());
        assertEquals(2, second.getIntProperty("JMSXDeliveryCount"));
        second.acknowledge();
        assertNull(consumer.receive(1_000));
        Compat.await(java.time.Duration.ofSeconds(10), () -> counts().equals(List.of(0, 0)), "acknowledged message deleted");
    }
}
