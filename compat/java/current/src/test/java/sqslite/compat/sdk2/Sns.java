package sqslite.compat.sdk2;

import java.util.function.Consumer;
import software.amazon.awssdk.services.sns.SnsAsyncClient;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sns.model.CreateTopicRequest;
import software.amazon.awssdk.services.sns.model.CreateTopicResponse;
import software.amazon.awssdk.services.sns.model.DeleteTopicRequest;
import software.amazon.awssdk.services.sns.model.DeleteTopicResponse;
import software.amazon.awssdk.services.sns.model.GetSubscriptionAttributesRequest;
import software.amazon.awssdk.services.sns.model.GetSubscriptionAttributesResponse;
import software.amazon.awssdk.services.sns.model.GetTopicAttributesRequest;
import software.amazon.awssdk.services.sns.model.GetTopicAttributesResponse;
import software.amazon.awssdk.services.sns.model.ListSubscriptionsByTopicRequest;
import software.amazon.awssdk.services.sns.model.ListSubscriptionsByTopicResponse;
import software.amazon.awssdk.services.sns.model.PublishRequest;
import software.amazon.awssdk.services.sns.model.PublishResponse;
import software.amazon.awssdk.services.sns.model.SubscribeRequest;
import software.amazon.awssdk.services.sns.model.SubscribeResponse;

/**
 * The SNS operations the SNS rows call, with the signatures SnsClient and SnsAsyncClient share,
 * so that one scenario class drives both through {@link Bridge}.
 */
public interface Sns {
    CreateTopicResponse createTopic(Consumer<CreateTopicRequest.Builder> request);
    DeleteTopicResponse deleteTopic(Consumer<DeleteTopicRequest.Builder> request);
    GetSubscriptionAttributesResponse getSubscriptionAttributes(Consumer<GetSubscriptionAttributesRequest.Builder> request);
    GetTopicAttributesResponse getTopicAttributes(Consumer<GetTopicAttributesRequest.Builder> request);
    ListSubscriptionsByTopicResponse listSubscriptionsByTopic(Consumer<ListSubscriptionsByTopicRequest.Builder> request);
    PublishResponse publish(Consumer<PublishRequest.Builder> request);
    SubscribeResponse subscribe(Consumer<SubscribeRequest.Builder> request);

    static Sns sync(SnsClient client) {
        return Bridge.of(Sns.class, client, SnsClient.class, false);
    }

    static Sns async(SnsAsyncClient client) {
        return Bridge.of(Sns.class, client, SnsAsyncClient.class, true);
    }
}
