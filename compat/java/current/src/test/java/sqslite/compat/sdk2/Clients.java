package sqslite.compat.sdk2;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import sqslite.compat.Compat;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sns.SnsAsyncClient;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsAsyncClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * SDK v2 clients (SQS's and SNS's) for the sqslite under test; every HTTP request they send is
 * kept in {@link #sent}.
 */
public final class Clients {
    /** The requests as they went on the wire (after signing), across all clients made here. */
    public static final List<SdkHttpRequest> sent = new CopyOnWriteArrayList<>();

    private Clients() {}

    /** No retries, and every request kept in {@link #sent}. */
    public static ClientOverrideConfiguration config() {
        return ClientOverrideConfiguration.builder()
                // No retries: a retried request would hide a failure.
                .retryStrategy(AwsRetryStrategy.doNotRetry())
                .addExecutionInterceptor(new ExecutionInterceptor() {
                    @Override
                    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                        sent.add(context.httpRequest());
                    }
                })
                .build();
    }

    private static StaticCredentialsProvider credentials() {
        return StaticCredentialsProvider.create(AwsBasicCredentials.create(Compat.ACCESS_KEY, Compat.SECRET_KEY));
    }

    /** A builder pointed at the sqslite under test, with the test credentials and no retries. */
    private static <B extends AwsClientBuilder<B, ?>> B local(B builder) {
        return builder.endpointOverride(Compat.endpointUri())
                .region(Region.of(Compat.REGION))
                .credentialsProvider(credentials())
                .overrideConfiguration(config());
    }

    public static SqsClient sync() {
        return local(SqsClient.builder()).build();
    }

    public static SqsAsyncClient async() {
        return local(SqsAsyncClient.builder())
                .overrideConfiguration(config().toBuilder().apiCallTimeout(Duration.ofSeconds(40)).build())
                .build();
    }

    /** SNS's synchronous client (AWS Query), on the same endpoint as SQS's. */
    public static SnsClient sns() {
        return local(SnsClient.builder()).build();
    }

    /** SNS's asynchronous client (AWS Query, Netty), on the same endpoint as SQS's. */
    public static SnsAsyncClient snsAsync() {
        return local(SnsAsyncClient.builder()).build();
    }
}
