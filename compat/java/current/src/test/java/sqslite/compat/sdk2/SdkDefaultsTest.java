package sqslite.compat.sdk2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsAsyncClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The SDK defaults docs/src/scenarios.md records, pinned so that a version bump that changes them
 * fails here instead of silently making that page wrong.
 */
class SdkDefaultsTest {
    @Test
    void legacy_retries_by_default() {
        try (SqsClient sync = SqsClient.builder().region(Region.US_EAST_1)
                .credentialsProvider(AnonymousCredentialsProvider.create()).build();
                SqsAsyncClient async = SqsAsyncClient.builder().region(Region.US_EAST_1)
                        .credentialsProvider(AnonymousCredentialsProvider.create()).build()) {
            // RetryMode.defaultRetryMode(): AWS_RETRY_MODE, then the profile, else LEGACY (3 retries).
            for (var config : java.util.List.of(sync.serviceClientConfiguration(), async.serviceClientConfiguration())) {
                var strategy = config.overrideConfiguration().retryStrategy().orElseThrow();
                assertTrue(strategy.getClass().getSimpleName().contains("Legacy"), strategy.getClass().getName());
                assertEquals(4, strategy.maxAttempts());
            }
        }
    }

    /** The MD5 check is on by default: a SendMessage answer with a wrong digest is refused. */
    @Test
    void md5_mismatch_is_refused() throws Exception {
        HttpServer stub = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        byte[] answer = ("{\"MessageId\":\"5fea7756-0ea4-451a-a703-a558b933e274\","
                + "\"MD5OfMessageBody\":\"00000000000000000000000000000000\"}").getBytes(StandardCharsets.UTF_8);
        stub.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().add("Content-Type", "application/x-amz-json-1.0");
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        stub.start();
        try (SqsClient client = SqsClient.builder().region(Region.US_EAST_1)
                .endpointOverride(URI.create("http://127.0.0.1:" + stub.getAddress().getPort()))
                .credentialsProvider(AnonymousCredentialsProvider.create()).overrideConfiguration(Clients.config())
                .build()) {
            SdkClientException e = assertThrows(SdkClientException.class, () -> client.sendMessage(
                    r -> r.queueUrl("http://127.0.0.1/000000000000/q").messageBody("hello")));
            assertTrue(e.getMessage().contains("MD5"), e.getMessage());
        } finally {
            stub.stop(0);
        }
    }
}
