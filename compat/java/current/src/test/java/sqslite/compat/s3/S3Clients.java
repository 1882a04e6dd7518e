package sqslite.compat.s3;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import sqslite.compat.Compat;
import sqslite.compat.sdk2.Clients;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * SDK v2 clients for the sqslite under test with the SDK's defaults but the endpoint (path style
 * follows: an IP address names no virtual host) and retries, which would hide a failure; every
 * request they send, as sent (signed, with its checksum headers), is kept in
 * {@link Clients#sent}.
 */
final class S3Clients {
    static final StaticCredentialsProvider CREDENTIALS =
            StaticCredentialsProvider.create(AwsBasicCredentials.create(Compat.ACCESS_KEY, Compat.SECRET_KEY));

    private S3Clients() {}

    static <B extends AwsClientBuilder<B, ?>> B local(B builder) {
        return builder.endpointOverride(Compat.endpointUri()).region(Region.of(Compat.REGION))
                .credentialsProvider(CREDENTIALS).overrideConfiguration(Clients.config());
    }

    static S3Client s3() {
        return local(S3Client.builder()).build();
    }

    static SqsClient sqs() {
        return local(SqsClient.builder()).build();
    }

    static SnsClient sns() {
        return local(SnsClient.builder()).build();
    }

    static URI endpoint() {
        return Compat.endpointUri();
    }

    /** A new bucket's name, created. */
    static String bucket(S3Client s3, String prefix) {
        String name = prefix + "-" + UUID.randomUUID().toString().substring(0, 12);
        s3.createBucket(b -> b.bucket(name));
        return name;
    }

    /** Deletes every object of the bucket, then the bucket. */
    static void dropBucket(S3Client s3, String bucket) {
        for (S3Object o : s3.listObjectsV2Paginator(ListObjectsV2Request.builder().bucket(bucket).build()).contents()) {
            s3.deleteObject(d -> d.bucket(bucket).key(o.key()));
        }
        s3.deleteBucket(d -> d.bucket(bucket));
    }

    /** The bucket's keys and sizes, in key order. */
    static List<String> objects(S3Client s3, String bucket) {
        List<String> out = new ArrayList<>();
        for (S3Object o : s3.listObjectsV2(l -> l.bucket(bucket)).contents()) {
            out.add(o.key() + "=" + o.size());
        }
        return out;
    }

    /** A new queue's URL. */
    static String queue(SqsClient sqs, String prefix) {
        return sqs.createQueue(c -> c.queueName(Compat.uniqueName(prefix, false))).queueUrl();
    }

    static String queueArn(SqsClient sqs, String url) {
        return sqs.getQueueAttributes(g -> g.queueUrl(url).attributeNames(QueueAttributeName.QUEUE_ARN))
                .attributes().get(QueueAttributeName.QUEUE_ARN);
    }
}
