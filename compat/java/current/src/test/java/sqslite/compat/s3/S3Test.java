package sqslite.compat.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import sqslite.compat.Compat;
import sqslite.compat.sdk2.Clients;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.Event;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * S3 through SDK v2's {@code S3Client} and {@code S3AsyncClient} with their default checksums
 * (compat/run.sh java-s3): puts and gets (CRC32 by default, CRC32C on request, the response
 * checksum validated), the async client's multipart upload and download, presigned GET and PUT
 * ({@code S3Presigner}) sent with java.net.http, listing and DeleteObjects, and an upload's
 * event notification received from a queue.
 */
class S3Test {
    static final int MIB = 1024 * 1024;
    static final S3Client S3 = S3Clients.s3();
    static final SqsClient SQS = S3Clients.sqs();
    static final List<String> BUCKETS = new ArrayList<>();
    static final ObjectMapper JSON = new ObjectMapper();

    @AfterAll
    static void dropBuckets() {
        BUCKETS.forEach(b -> S3Clients.dropBucket(S3, b));
    }

    static String bucket(String prefix) {
        String name = S3Clients.bucket(S3, prefix);
        BUCKETS.add(name);
        return name;
    }

    static byte[] random(int n) {
        byte[] b = new byte[n];
        ThreadLocalRandom.current().nextBytes(b);
        return b;
    }

    static String crc32(byte[] data) {
        CRC32 crc = new CRC32();
        crc.update(data);
        return Base64.getEncoder().encodeToString(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
    }

    static String crc32c(byte[] data) {
        CRC32C crc = new CRC32C();
        crc.update(data);
        return Base64.getEncoder().encodeToString(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
    }

    static String etag(byte[] data) {
        return "\"" + Compat.md5Hex(data) + "\"";
    }

    static SdkHttpRequest lastSent() {
        return Clients.sent.get(Clients.sent.size() - 1);
    }

    @Test
    void putGetDefaultChecksums() {
        String bucket = bucket("java");
        byte[] body = random(300 * 1024);
        PutObjectResponse put = S3.putObject(p -> p.bucket(bucket).key("data/one.bin"), RequestBody.fromBytes(body));
        // The default (requestChecksumCalculation WHEN_SUPPORTED): a CRC32, sent over plain HTTP
        // in the trailer of a body of signed aws-chunked chunks.
        SdkHttpRequest sent = lastSent();
        assertEquals(List.of("x-amz-checksum-crc32"), sent.headers().get("x-amz-trailer"), sent.headers().toString());
        assertEquals(List.of("STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER"), sent.headers().get("x-amz-content-sha256"));
        assertEquals(etag(body), put.eTag());
        assertEquals(crc32(body), put.checksumCRC32());

        ResponseBytes<GetObjectResponse> got = S3.getObjectAsBytes(g -> g.bucket(bucket).key("data/one.bin")
                .checksumMode(ChecksumMode.ENABLED));
        assertArrayEquals(body, got.asByteArray());
        assertEquals(crc32(body), got.response().checksumCRC32());
        // The SDK names a content type for a byte body itself.
        assertEquals(List.of("application/octet-stream"), sent.headers().get("Content-Type"));
        assertEquals("application/octet-stream", got.response().contentType());

        // CRC32C: the SDK computes CRC64NVME only through the CRT (aws-crt), which this build
        // leaves out, as an application on the plain SDK would.
        byte[] small = "hello, crc32c".getBytes(StandardCharsets.UTF_8);
        PutObjectResponse crc32c = S3.putObject(p -> p.bucket(bucket).key("data/crc32c")
                .checksumAlgorithm(ChecksumAlgorithm.CRC32_C), RequestBody.fromBytes(small));
        assertEquals(crc32c(small), crc32c.checksumCRC32C());
        HeadObjectResponse head = S3.headObject(h -> h.bucket(bucket).key("data/crc32c").checksumMode(ChecksumMode.ENABLED));
        assertEquals(crc32c(small), head.checksumCRC32C());
        assertEquals(small.length, head.contentLength());

        S3Exception bad = assertThrows(S3Exception.class, () -> S3.putObject(
                p -> p.bucket(bucket).key("data/bad").checksumCRC32(crc32("other".getBytes(StandardCharsets.UTF_8))),
                RequestBody.fromBytes(small)));
        assertEquals("BadDigest", bad.awsErrorDetails().errorCode());
        assertEquals(400, bad.statusCode());
        assertThrows(NoSuchKeyException.class, () -> S3.getObjectAsBytes(g -> g.bucket(bucket).key("data/bad")));
    }

    @Test
    void asyncMultipartUploadAndDownload() {
        String bucket = bucket("java-mpu");
        byte[] data = random(12 * MIB);
        try (S3AsyncClient async = S3Clients.local(S3AsyncClient.builder()).multipartEnabled(true)
                .multipartConfiguration(m -> m.minimumPartSizeInBytes(5L * MIB).thresholdInBytes(5L * MIB)).build()) {
            int before = Clients.sent.size();
            PutObjectResponse put = async.putObject(p -> p.bucket(bucket).key("big/data.bin").contentType("application/x-test"),
                    AsyncRequestBody.fromBytes(data)).join();
            long parts = Clients.sent.subList(before, Clients.sent.size()).stream()
                    .filter(r -> r.rawQueryParameters().containsKey("partNumber")).count();
            assertEquals(3, parts);
            assertTrue(put.eTag().endsWith("-3\""), put.eTag());
            HeadObjectResponse head = S3.headObject(h -> h.bucket(bucket).key("big/data.bin"));
            assertEquals(data.length, head.contentLength());
            assertEquals("application/x-test", head.contentType());

            ResponseBytes<GetObjectResponse> got = async.getObject(g -> g.bucket(bucket).key("big/data.bin"),
                    AsyncResponseTransformer.toBytes()).join();
            assertEquals(Compat.md5Hex(data), Compat.md5Hex(got.asByteArray()));
        }
    }

    @Test
    void presignedGetAndPut() throws Exception {
        String bucket = bucket("java-presign");
        HttpClient http = HttpClient.newHttpClient();
        try (S3Presigner presigner = S3Presigner.builder().endpointOverride(S3Clients.endpoint())
                .region(software.amazon.awssdk.regions.Region.of(Compat.REGION)).credentialsProvider(S3Clients.CREDENTIALS).build()) {
            var put = presigner.presignPutObject(p -> p.signatureDuration(java.time.Duration.ofMinutes(5))
                    .putObjectRequest(o -> o.bucket(bucket).key("shared/note.txt").contentType("text/plain")));
            assertTrue(put.url().toString().contains("X-Amz-Signature="), put.url().toString());
            HttpRequest.Builder request = HttpRequest.newBuilder(put.url().toURI())
                    .PUT(HttpRequest.BodyPublishers.ofString("presigned hello"));
            put.signedHeaders().forEach((name, values) -> {
                if (!name.equalsIgnoreCase("host")) {
                    values.forEach(v -> request.header(name, v));
                }
            });
            HttpResponse<String> answer = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, answer.statusCode(), answer.body());
            assertEquals(etag("presigned hello".getBytes(StandardCharsets.UTF_8)), answer.headers().firstValue("ETag").orElse(""));

            var get = presigner.presignGetObject(p -> p.signatureDuration(java.time.Duration.ofMinutes(5))
                    .getObjectRequest(o -> o.bucket(bucket).key("shared/note.txt")));
            HttpResponse<String> got = http.send(HttpRequest.newBuilder(get.url().toURI()).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, got.statusCode());
            assertEquals("presigned hello", got.body());
            assertEquals("text/plain", got.headers().firstValue("Content-Type").orElse(""));
        }
    }

    @Test
    void listAndDeleteObjects() {
        String bucket = bucket("java-list");
        List<String> keys = List.of("a/1.txt", "a/2.txt", "a/b/3.txt", "a/c/4.txt", "z.txt");
        keys.forEach(k -> S3.putObject(p -> p.bucket(bucket).key(k), RequestBody.fromString(k)));
        ListObjectsV2Response out = S3.listObjectsV2(l -> l.bucket(bucket).prefix("a/").delimiter("/"));
        assertEquals(List.of("a/1.txt", "a/2.txt"), out.contents().stream().map(S3Object::key).toList());
        assertEquals(List.of("a/b/", "a/c/"), out.commonPrefixes().stream().map(CommonPrefix::prefix).toList());
        assertEquals(4, out.keyCount());
        List<List<String>> pages = new ArrayList<>();
        S3.listObjectsV2Paginator(l -> l.bucket(bucket).maxKeys(2))
                .forEach(page -> pages.add(page.contents().stream().map(S3Object::key).toList()));
        assertEquals(List.of(keys.subList(0, 2), keys.subList(2, 4), keys.subList(4, 5)), pages);

        DeleteObjectsResponse deleted = S3.deleteObjects(d -> d.bucket(bucket).delete(x -> x.objects(
                keys.stream().map(k -> ObjectIdentifier.builder().key(k).build()).toList())));
        // DeleteObjects requires an integrity check: the SDK's default is a CRC32 header.
        assertTrue(lastSent().firstMatchingHeader("x-amz-checksum-crc32").isPresent(), lastSent().headers().toString());
        assertEquals(keys.size(), deleted.deleted().size());
        assertEquals(0, S3.listObjectsV2(l -> l.bucket(bucket)).keyCount());
    }

    @Test
    void notificationIntoQueue() throws Exception {
        String bucket = bucket("java-events");
        String queue = S3Clients.queue(SQS, "java-s3-events");
        try {
            S3.putBucketNotificationConfiguration(p -> p.bucket(bucket).notificationConfiguration(n -> n.queueConfigurations(
                    q -> q.id("uploads").queueArn(S3Clients.queueArn(SQS, queue)).events(Event.S3_OBJECT_CREATED))));
            byte[] body = random(2048);
            S3.putObject(p -> p.bucket(bucket).key("in/report 1.csv"), RequestBody.fromBytes(body));
            S3.copyObject(c -> c.sourceBucket(bucket).sourceKey("in/report 1.csv").destinationBucket(bucket)
                    .destinationKey("in/copy.csv"));
            List<String> events = new ArrayList<>();
            while (events.size() < 3) {
                List<Message> messages = SQS.receiveMessage(r -> r.queueUrl(queue).maxNumberOfMessages(10).waitTimeSeconds(5))
                        .messages();
                assertTrue(!messages.isEmpty(), "only " + events + " arrived");
                for (Message m : messages) {
                    JsonNode doc = JSON.readTree(m.body());
                    if (doc.has("Event")) {
                        events.add(doc.get("Event").asText() + " " + doc.get("Bucket").asText().equals(bucket));
                    } else {
                        JsonNode r = doc.get("Records").get(0);
                        JsonNode object = r.get("s3").get("object");
                        events.add(r.get("eventName").asText() + " " + object.get("key").asText() + " "
                                + object.get("size").asLong() + " " + object.get("eTag").asText().equals(Compat.md5Hex(body)));
                    }
                    SQS.deleteMessage(d -> d.queueUrl(queue).receiptHandle(m.receiptHandle()));
                }
            }
            assertEquals(List.of("s3:TestEvent true", "ObjectCreated:Put in/report+1.csv 2048 true",
                    "ObjectCreated:Copy in/copy.csv 2048 true"), events);
        } finally {
            SQS.deleteQueue(d -> d.queueUrl(queue));
        }
    }
}
