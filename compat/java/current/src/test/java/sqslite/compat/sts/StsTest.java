package sqslite.compat.sts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import sqslite.compat.Compat;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.model.AssumeRoleResponse;
import software.amazon.awssdk.services.sts.model.GetCallerIdentityResponse;

/**
 * STS through SDK v2's {@code StsClient} (AWS Query) on the two-account server on a manual clock
 * (compat/run.sh java-sts: python/accounts.toml and --clock manual): who each declared key is,
 * account B assuming account A's role {@code deployer} and using the temporary keys on SQS in A's
 * account, and those keys refused once the server's clock has passed their Expiration.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StsTest {
    static final String A = "111111111111";
    static final String B = "222222222222";
    static final String ROLE = "arn:aws:iam::" + A + ":role/deployer";
    /** The keys python/accounts.toml declares. */
    static final Map<String, AwsCredentials> KEYS = Map.of(
            A, AwsBasicCredentials.create("AKIDTEAMA", "team-a-secret"),
            B, AwsBasicCredentials.create("AKIDTEAMB", "team-b-secret"));
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /** No retries unless asked for: a retried request would hide a failure. */
    static ClientOverrideConfiguration attempts(boolean sdkDefault) {
        return sdkDefault
                ? ClientOverrideConfiguration.builder().build()
                : ClientOverrideConfiguration.builder().retryStrategy(AwsRetryStrategy.doNotRetry()).build();
    }

    static StsClient sts(AwsCredentials keys, boolean sdkRetries) {
        return StsClient.builder().endpointOverride(Compat.endpointUri()).region(Region.of(Compat.REGION))
                .credentialsProvider(StaticCredentialsProvider.create(keys))
                .overrideConfiguration(attempts(sdkRetries)).build();
    }

    static SqsClient sqs(AwsCredentials keys, boolean sdkRetries) {
        return SqsClient.builder().endpointOverride(Compat.endpointUri()).region(Region.of(Compat.REGION))
                .credentialsProvider(StaticCredentialsProvider.create(keys))
                .overrideConfiguration(attempts(sdkRetries)).build();
    }

    static AwsSessionCredentials sessionKeys(AssumeRoleResponse out) {
        var c = out.credentials();
        return AwsSessionCredentials.create(c.accessKeyId(), c.secretAccessKey(), c.sessionToken());
    }

    /** One call to sqslite's admin API (docs/src/clock-and-faults.md); its answer's body. */
    static String admin(String method, String path, String json) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(Compat.endpoint() + path))
                .header("Content-Type", "application/json")
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json))
                .build();
        try {
            HttpResponse<String> answer = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            assertEquals(200, answer.statusCode(), method + " " + path + ": " + answer.body());
            return answer.body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The server's manual clock. */
    static Instant clockNow() {
        String clock = admin("GET", "/_sqslite/clock", null);
        assertTrue(clock.replace(" ", "").contains("\"manual\":true"), "the STS suite needs --clock manual: " + clock);
        Matcher now = Pattern.compile("\"now\"\\s*:\\s*(\\d+)").matcher(clock);
        assertTrue(now.find(), clock);
        return Instant.ofEpochMilli(Long.parseLong(now.group(1)));
    }

    static void assertIdentity(GetCallerIdentityResponse me, String account, String arn, String userId) {
        assertEquals(List.of(account, arn, userId), List.of(me.account(), me.arn(), me.userId()));
    }

    static void assertRefused(AwsServiceException e, String code) {
        assertEquals(code, e.awsErrorDetails().errorCode(), e.getMessage());
        assertEquals(403, e.statusCode(), e.getMessage());
    }

    @Test
    @Order(1)
    void get_caller_identity_names_each_accounts_root() {
        for (String account : List.of(A, B)) {
            try (StsClient client = sts(KEYS.get(account), false)) {
                assertIdentity(client.getCallerIdentity(), account, "arn:aws:iam::" + account + ":root", account);
            }
        }
    }

    @Test
    @Order(2)
    void assumed_role_keys_act_in_the_roles_account() {
        AssumeRoleResponse out;
        try (StsClient b = sts(KEYS.get(B), false)) {
            out = b.assumeRole(r -> r.roleArn(ROLE).roleSessionName("compat-java"));
        }
        var user = out.assumedRoleUser();
        assertEquals("arn:aws:sts::" + A + ":assumed-role/deployer/compat-java", user.arn());
        assertTrue(user.assumedRoleId().matches("AROA[A-Z0-9]+:compat-java"), user.assumedRoleId());
        assertTrue(out.credentials().accessKeyId().matches("ASIA[A-Z0-9]{16}"), out.credentials().accessKeyId());
        assertNotNull(out.credentials().sessionToken());
        assertNotNull(out.credentials().expiration());

        AwsSessionCredentials session = sessionKeys(out);
        try (StsClient asRole = sts(session, false); SqsClient sqs = sqs(session, false);
                SqsClient owner = sqs(KEYS.get(A), false)) {
            assertIdentity(asRole.getCallerIdentity(), A, user.arn(), user.assumedRoleId());
            String url = sqs.createQueue(r -> r.queueName(Compat.uniqueName("sts", false))).queueUrl();
            try {
                assertTrue(url.contains("/" + A + "/"), url);
                sqs.sendMessage(r -> r.queueUrl(url).messageBody("as the role"));
                List<Message> got = sqs.receiveMessage(r -> r.queueUrl(url)
                        .messageSystemAttributeNames(MessageSystemAttributeName.SENDER_ID)).messages();
                assertEquals(1, got.size());
                assertEquals("as the role", got.get(0).body());
                assertEquals(user.assumedRoleId(), got.get(0).attributes().get(MessageSystemAttributeName.SENDER_ID));
            } finally {
                owner.deleteQueue(r -> r.queueUrl(url));
            }
        }
    }

    /**
     * Last: it moves the clock on, past the 15 minutes a signature's date may be from the
     * server's. sqslite tells the expired token before it checks the signature's date, so the
     * first attempt after that is already refused ExpiredToken; the clients used after the
     * advance keep the SDK's default retries, as an application's client does.
     */
    @Test
    @Order(3)
    void assumed_role_keys_are_refused_after_expiry() {
        AssumeRoleResponse out;
        try (StsClient b = sts(KEYS.get(B), false)) {
            out = b.assumeRole(r -> r.roleArn(ROLE).roleSessionName("compat-java-expiry").durationSeconds(900));
        }
        Instant now = clockNow();
        Duration off = Duration.between(now.plusSeconds(900), out.credentials().expiration()).abs();
        assertTrue(off.compareTo(Duration.ofSeconds(1)) < 0,
                "Expiration " + out.credentials().expiration() + " is not 900 s after the server's clock " + now);
        AwsSessionCredentials session = sessionKeys(out);
        try (SqsClient owner = sqs(KEYS.get(A), true); SqsClient before = sqs(session, false);
                SqsClient after = sqs(session, true); StsClient afterSts = sts(session, true)) {
            String url = owner.createQueue(r -> r.queueName(Compat.uniqueName("sts", false))).queueUrl();
            try {
                before.sendMessage(r -> r.queueUrl(url).messageBody("before expiry"));

                admin("POST", "/_sqslite/clock/advance", "{\"seconds\": 1200}");
                assertRefused(assertThrows(AwsServiceException.class,
                        () -> after.sendMessage(r -> r.queueUrl(url).messageBody("after expiry"))), "ExpiredToken");
                assertRefused(assertThrows(AwsServiceException.class, afterSts::getCallerIdentity), "ExpiredToken");

                // The declared key still works, and the queue holds only the message sent before expiry.
                List<String> bodies = owner.receiveMessage(r -> r.queueUrl(url).maxNumberOfMessages(10))
                        .messages().stream().map(Message::body).toList();
                assertEquals(List.of("before expiry"), bodies);
            } finally {
                owner.deleteQueue(r -> r.queueUrl(url));
            }
        }
    }
}
