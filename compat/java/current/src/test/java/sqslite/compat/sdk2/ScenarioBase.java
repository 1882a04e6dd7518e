package sqslite.compat.sdk2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.function.Executable;
import sqslite.compat.Compat;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;
import software.amazon.awssdk.services.sqs.model.ReceiveMessageRequest;

/**
 * What the SDK v2 scenario classes share: the client under test (sync or async, behind
 * {@link Sqs}), throwaway queues deleted after each test, and small assertions.
 */
abstract class ScenarioBase {
    protected final Sqs sqs = client();
    private final List<String> created = new ArrayList<>();

    /** The client this run drives. */
    protected abstract Sqs client();

    protected String makeQueue(String prefix, boolean fifo, Map<String, String> attributes) {
        Map<String, String> attrs = new HashMap<>(attributes);
        if (fifo) {
            attrs.put("FifoQueue", "true");
        }
        String name = Compat.uniqueName(prefix, fifo);
        String url = sqs.createQueue(r -> r.queueName(name).attributesWithStrings(attrs)).queueUrl();
        created.add(url);
        return url;
    }

    protected String makeQueue() {
        return makeQueue("compat", false, Map.of());
    }

    @AfterEach
    void deleteQueues() {
        for (String url : created) {
            try {
                sqs.deleteQueue(r -> r.queueUrl(url));
            } catch (QueueDoesNotExistException e) {
                // deleted by the test itself
            }
        }
    }

    protected String arn(String url) {
        return sqs.getQueueAttributes(r -> r.queueUrl(url).attributeNamesWithStrings("QueueArn"))
                .attributesAsStrings().get("QueueArn");
    }

    /** (visible, in flight) */
    protected List<Integer> counts(String url) {
        Map<String, String> attrs = sqs.getQueueAttributes(r -> r.queueUrl(url).attributeNamesWithStrings(
                "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible")).attributesAsStrings();
        return List.of(Integer.valueOf(attrs.get("ApproximateNumberOfMessages")),
                Integer.valueOf(attrs.get("ApproximateNumberOfMessagesNotVisible")));
    }

    protected Message receiveOne(String url, java.util.function.Consumer<ReceiveMessageRequest.Builder> options) {
        List<Message> messages = sqs.receiveMessage(r -> options.accept(r.queueUrl(url))).messages();
        assertEquals(1, messages.size(), messages::toString);
        return messages.get(0);
    }

    protected Message receiveOne(String url) {
        return receiveOne(url, r -> { });
    }

    protected List<String> bodies(List<Message> messages) {
        return messages.stream().map(Message::body).toList();
    }

    /** Runs `call`, expects a service error and returns its code as the wire carried it. */
    protected static String errorCode(Executable call) {
        return assertThrows(AwsServiceException.class, call).awsErrorDetails().errorCode();
    }
}
