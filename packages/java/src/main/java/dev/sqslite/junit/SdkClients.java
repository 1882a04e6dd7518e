package dev.sqslite.junit;

import java.net.URI;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;

/** The SDK v2 side, in its own class so that it loads only when a client is asked for. */
final class SdkClients {
    private SdkClients() {}

    static SqsClient sqs(URI endpoint) {
        return SqsClient.builder()
                .endpointOverride(endpoint)
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .build();
    }

    static void closeQuietly(AutoCloseable client) {
        try {
            client.close();
        } catch (Exception ignored) {
            // stopping anyway
        }
    }
}
