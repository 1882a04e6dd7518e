package sqslite.compat.sdk2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import sqslite.compat.Compat;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.sns.model.InvalidParameterException;
import software.amazon.awssdk.services.sns.model.MessageAttributeValue;
import software.amazon.awssdk.services.sns.model.NotFoundException;
import software.amazon.awssdk.services.sns.model.PublishResponse;
import software.amazon.awssdk.services.sns.model.Subscription;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;

/**
 * The SNS rows of docs/src/scenarios.md through one of SDK v2's SNS clients (AWS Query, behind
 * {@link Sns}), fanning out into sqslite's queues, which the synchronous SqsClient sets up and reads.
 */
abstract class SnsScenarios {
    private static final SqsClient SQS = Clients.sync();
    // What every SNS suite publishes and expects (docs/src/scenarios.md, "SNS fan-out").
    private static final byte[] BLOB = {0, 1, (byte) 0xfe, (byte) 0xff};
    private static final List<String> ENVELOPE_KEYS = List.copyOf(new TreeSet<>(List.of("Type", "MessageId",
            "TopicArn", "Subject", "Message", "Timestamp", "SignatureVersion", "Signature", "SigningCertURL",
            "UnsubscribeURL", "MessageAttributes")));
    private static final String TIMESTAMP = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z";

    private final Sns sns = client();
    private final List<String> topics = new ArrayList<>();

    /** The SNS client this run drives. */
    protected abstract Sns client();
    private final List<String> queues = new ArrayList<>();

    @AfterEach
    void cleanUp() {
        topics.forEach(arn -> sns.deleteTopic(r -> r.topicArn(arn)));
        for (String url : queues) {
            try {
                SQS.deleteQueue(r -> r.queueUrl(url));
            } catch (QueueDoesNotExistException e) {
                // deleted by the test itself
            }
        }
    }

    private String makeTopic(boolean fifo) {
        Map<String, String> attributes = fifo ? Map.of("FifoTopic", "true") : Map.of();
        String arn = sns.createTopic(r -> r.name(Compat.uniqueName("compat", fifo)).attributes(attributes)).topicArn();
        topics.add(arn);
        return arn;
    }

    private String makeQueue(String prefix, boolean fifo) {
        Map<String, String> attributes = fifo ? Map.of("FifoQueue", "true") : Map.of();
        String url = SQS.createQueue(r -> r.queueName(Compat.uniqueName(prefix, fifo)).attributesWithStrings(attributes))
                .queueUrl();
        queues.add(url);
        return url;
    }

    private static String queueArn(String url) {
        return SQS.getQueueAttributes(r -> r.queueUrl(url).attributeNamesWithStrings("QueueArn"))
                .attributesAsStrings().get("QueueArn");
    }

    private String subscribe(String topic, String queueArn, Map<String, String> attributes) {
        String sub = sns.subscribe(r -> r.topicArn(topic).protocol("sqs").endpoint(queueArn).attributes(attributes)
                .returnSubscriptionArn(true)).subscriptionArn();
        assertTrue(sub.startsWith(topic + ":"), sub);
        return sub;
    }

    private static MessageAttributeValue attr(String type, String value) {
        return MessageAttributeValue.builder().dataType(type).stringValue(value).build();
    }

    /** Every message the queue holds: receives (and deletes) until one comes back empty. */
    private static List<Message> drain(String url) {
        List<Message> got = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            List<Message> batch = SQS.receiveMessage(r -> r.queueUrl(url).maxNumberOfMessages(10)
                    .messageAttributeNames("All").messageSystemAttributeNamesWithStrings("All")).messages();
            if (batch.isEmpty()) {
                return got;
            }
            got.addAll(batch);
            batch.forEach(m -> SQS.deleteMessage(r -> r.queueUrl(url).receiptHandle(m.receiptHandle())));
        }
        throw new AssertionError(url + " never ran dry");
    }

    private static Map<String, String> typed(String type, String value) {
        return Map.of("Type", type, "Value", value);
    }

    private static void checkEnvelope(String body, String topic, String sub, String messageId, String message) {
        Map<String, JsonNode> envelope = JsonNode.parser().parse(body).asObject();
        assertEquals(ENVELOPE_KEYS, List.copyOf(new TreeSet<>(envelope.keySet())));
        assertEquals("Notification", envelope.get("Type").asString());
        assertEquals(messageId, envelope.get("MessageId").asString());
        assertEquals(topic, envelope.get("TopicArn").asString());
        assertEquals("compat fan-out", envelope.get("Subject").asString());
        assertEquals(message, envelope.get("Message").asString());
        assertTrue(envelope.get("Timestamp").asString().matches(TIMESTAMP), envelope.get("Timestamp").asString());
        assertEquals("1", envelope.get("SignatureVersion").asString());
        assertTrue(envelope.get("Signature").asString().matches("[A-Za-z0-9+/]+={0,2}"));
        String cert = envelope.get("SigningCertURL").asString();
        assertTrue(cert.startsWith(Compat.endpoint() + "/") && cert.endsWith(".pem"), cert);
        assertEquals(Compat.endpoint() + "/?Action=Unsubscribe&SubscriptionArn=" + sub,
                envelope.get("UnsubscribeURL").asString());
        Map<String, Map<String, String>> attributes = new HashMap<>();
        envelope.get("MessageAttributes").asObject().forEach((name, value) -> {
            Map<String, String> fields = new HashMap<>();
            value.asObject().forEach((k, v) -> fields.put(k, v.asString()));
            attributes.put(name, fields);
        });
        assertEquals(Map.of(
                "color", typed("String", "red"),
                "size", typed("Number", "3"),
                "tags", typed("String.Array", "[\"urgent\",\"late\"]"),
                "blob", typed("Binary", Base64.getEncoder().encodeToString(BLOB))), attributes);
    }

    /** SQS message attributes as comparable text: type, string value, hex binary value. */
    private static Map<String, String> plain(
            Map<String, software.amazon.awssdk.services.sqs.model.MessageAttributeValue> attributes) {
        Map<String, String> out = new HashMap<>();
        attributes.forEach((name, v) -> out.put(name, v.dataType() + "|"
                + (v.stringValue() == null ? "" : v.stringValue()) + "|"
                + (v.binaryValue() == null ? "" : HexFormat.of().formatHex(v.binaryValue().asByteArray()))));
        return out;
    }

    @Test
    void sns_fan_out() {
        String topic = makeTopic(false);
        String envUrl = makeQueue("sns-env", false);
        String rawUrl = makeQueue("sns-raw", false);
        String bodyUrl = makeQueue("sns-body", false);
        String envSub = subscribe(topic, queueArn(envUrl), Map.of(
                "FilterPolicy", "{\"color\": [\"red\"], \"size\": [{\"numeric\": [\">=\", 3]}], \"tags\": [\"urgent\"]}"));
        String rawSub = subscribe(topic, queueArn(rawUrl), Map.of("RawMessageDelivery", "true"));
        String bodySub = subscribe(topic, queueArn(bodyUrl), Map.of("FilterPolicyScope", "MessageBody",
                "FilterPolicy", "{\"kind\": [\"order\"], \"total\": [{\"numeric\": [\">\", 100]}]}"));
        List<Subscription> listed = sns.listSubscriptionsByTopic(r -> r.topicArn(topic)).subscriptions();
        assertEquals(new TreeSet<>(List.of(envSub, rawSub, bodySub)),
                new TreeSet<>(listed.stream().map(Subscription::subscriptionArn).toList()));
        assertEquals(List.of("sqs"), listed.stream().map(Subscription::protocol).distinct().toList());
        assertEquals("true", sns.getSubscriptionAttributes(r -> r.subscriptionArn(rawSub)).attributes()
                .get("RawMessageDelivery"));
        assertEquals("MessageBody", sns.getSubscriptionAttributes(r -> r.subscriptionArn(bodySub)).attributes()
                .get("FilterPolicyScope"));

        // 1 matches every filter; 2 fails the envelope one on color and the body one on total;
        // 3 fails the envelope one on size and the body one on kind. Raw takes all three.
        String first = "{\"kind\":\"order\",\"total\":120}";
        String second = "{\"kind\":\"order\",\"total\":50}";
        String third = "{\"kind\":\"refund\",\"total\":500}";
        Map<String, MessageAttributeValue> full = new LinkedHashMap<>();
        full.put("color", attr("String", "red"));
        full.put("size", attr("Number", "3"));
        full.put("tags", attr("String.Array", "[\"urgent\",\"late\"]"));
        full.put("blob", MessageAttributeValue.builder().dataType("Binary").binaryValue(SdkBytes.fromByteArray(BLOB))
                .build());
        String firstId = sns.publish(r -> r.topicArn(topic).message(first).subject("compat fan-out")
                .messageAttributes(full)).messageId();
        sns.publish(r -> r.topicArn(topic).message(second).messageAttributes(Map.of(
                "color", attr("String", "blue"), "size", attr("Number", "5"))));
        sns.publish(r -> r.topicArn(topic).message(third).messageAttributes(Map.of(
                "color", attr("String", "red"), "size", attr("Number", "2"), "tags", attr("String.Array", "[\"urgent\"]"))));

        for (String[] q : new String[][] {{envUrl, envSub}, {bodyUrl, bodySub}}) {
            List<Message> got = drain(q[0]);
            assertEquals(1, got.size(), got::toString);
            checkEnvelope(got.get(0).body(), topic, q[1], firstId, first);
            assertEquals(Map.of(), got.get(0).messageAttributes());
        }

        Map<String, Message> raw = new HashMap<>();
        drain(rawUrl).forEach(m -> raw.put(m.body(), m));
        assertEquals(new TreeSet<>(List.of(first, second, third)), new TreeSet<>(raw.keySet()));
        assertEquals(Map.of("color", "String|red|", "size", "Number|3|", "tags", "String.Array|[\"urgent\",\"late\"]|",
                "blob", "Binary||0001feff"), plain(raw.get(first).messageAttributes()));
        assertArrayEquals(BLOB, raw.get(first).messageAttributes().get("blob").binaryValue().asByteArray());
        assertEquals(Map.of("color", "String|blue|", "size", "Number|5|"), plain(raw.get(second).messageAttributes()));
        assertEquals(new TreeSet<>(List.of("color", "size", "tags")),
                new TreeSet<>(raw.get(third).messageAttributes().keySet()));
    }

    @Test
    void sns_fifo_order_dedup() {
        String topic = makeTopic(true);
        Map<String, String> attrs = sns.getTopicAttributes(r -> r.topicArn(topic)).attributes();
        assertEquals("true", attrs.get("FifoTopic"));
        assertEquals("false", attrs.get("ContentBasedDeduplication"));
        String url = makeQueue("sns-fifo", true);
        subscribe(topic, queueArn(url), Map.of("RawMessageDelivery", "true"));

        Map<String, PublishResponse> published = new HashMap<>();
        BigInteger last = BigInteger.valueOf(-1);
        for (String[] gb : new String[][] {{"g1", "a1"}, {"g2", "b1"}, {"g1", "a2"}, {"g2", "b2"}}) {
            PublishResponse out = sns.publish(r -> r.topicArn(topic).message(gb[1]).messageGroupId(gb[0])
                    .messageDeduplicationId("d-" + gb[1]));
            BigInteger seq = new BigInteger(out.sequenceNumber());
            assertTrue(seq.compareTo(last) > 0, seq + " after " + last);
            last = seq;
            published.put(gb[1], out);
        }
        // A repeated deduplication id is accepted, answered as the first, and delivers nothing.
        PublishResponse again = sns.publish(r -> r.topicArn(topic).message("a1 again").messageGroupId("g1")
                .messageDeduplicationId("d-a1"));
        assertEquals(published.get("a1").messageId(), again.messageId());
        assertEquals(new BigInteger(published.get("a1").sequenceNumber()), new BigInteger(again.sequenceNumber()));

        Map<String, List<String>> groups = new HashMap<>();
        for (Message m : drain(url)) {
            groups.computeIfAbsent(m.attributesAsStrings().get("MessageGroupId"), g -> new ArrayList<>()).add(m.body());
        }
        assertEquals(Map.of("g1", List.of("a1", "a2"), "g2", List.of("b1", "b2")), groups);

        fails(InvalidParameterException.class, "InvalidParameter", 400,
                "Invalid parameter: The MessageGroupId parameter is required for FIFO topics",
                () -> sns.publish(r -> r.topicArn(topic).message("no group").messageDeduplicationId("d-x")));
        fails(InvalidParameterException.class, "InvalidParameter", 400,
                "Invalid parameter: The topic should either have ContentBasedDeduplication enabled or "
                        + "MessageDeduplicationId provided explicitly",
                () -> sns.publish(r -> r.topicArn(topic).message("no dedup").messageGroupId("g1")));
    }

    /** `call` fails with the SDK's modelled type (chosen by the wire code), code, status, message, fault. */
    private static void fails(Class<? extends AwsServiceException> type, String code, int status, String message,
            Executable call) {
        AwsServiceException e = assertThrows(AwsServiceException.class, call);
        assertInstanceOf(type, e);
        assertEquals(code, e.awsErrorDetails().errorCode());
        assertEquals(status, e.statusCode());
        assertEquals(message, e.awsErrorDetails().errorMessage());
        String raw = e.awsErrorDetails().rawResponse().asUtf8String();
        assertTrue(raw.contains("<Type>Sender</Type>"), raw);
    }

    @Test
    void sns_errors() {
        String missing = "arn:aws:sns:us-east-1:000000000000:compat-missing";
        fails(NotFoundException.class, "NotFound", 404, "Topic does not exist",
                () -> sns.getTopicAttributes(r -> r.topicArn(missing)));
        fails(NotFoundException.class, "NotFound", 404, "Topic does not exist",
                () -> sns.publish(r -> r.topicArn(missing).message("m")));
        String topic = makeTopic(false);
        fails(NotFoundException.class, "NotFound", 404, "Subscription does not exist",
                () -> sns.getSubscriptionAttributes(r -> r.subscriptionArn(topic + ":00000000-0000-0000-0000-000000000000")));
        fails(InvalidParameterException.class, "InvalidParameter", 400, "Invalid parameter: Topic Name",
                () -> sns.createTopic(r -> r.name("bad name")));
        String arn = queueArn(makeQueue("sns-errors", false));
        fails(InvalidParameterException.class, "InvalidParameter", 400,
                "Invalid parameter: Attributes Reason: FilterPolicy: Only one key allowed in match expression",
                () -> subscribe(topic, arn, Map.of("FilterPolicy", "{\"color\": [{\"prefix\": \"r\", \"suffix\": \"d\"}]}")));
        String fifoArn = queueArn(makeQueue("sns-errors", true));
        fails(InvalidParameterException.class, "InvalidParameter", 400,
                "Invalid parameter: Invalid parameter: Endpoint Reason: FIFO SQS Queues can not be subscribed to "
                        + "standard SNS topics",
                () -> subscribe(topic, fifoArn, Map.of()));
        fails(InvalidParameterException.class, "InvalidParameter", 400,
                "Invalid parameter: MessageDeduplicationId Reason: The request includes MessageDeduplicationId "
                        + "parameter that is not valid for this topic type",
                () -> sns.publish(r -> r.topicArn(topic).message("m").messageDeduplicationId("d")));
    }
}
