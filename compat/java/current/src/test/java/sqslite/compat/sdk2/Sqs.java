package sqslite.compat.sdk2;

import java.util.function.Consumer;
import software.amazon.awssdk.services.sqs.SqsAsyncClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.AddPermissionRequest;
import software.amazon.awssdk.services.sqs.model.AddPermissionResponse;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityRequest;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityResponse;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchRequest;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchResponse;
import software.amazon.awssdk.services.sqs.model.CreateQueueRequest;
import software.amazon.awssdk.services.sqs.model.CreateQueueResponse;
import software.amazon.awssdk.services.sqs.model.DeleteMessageRequest;
import software.amazon.awssdk.services.sqs.model.DeleteMessageResponse;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.DeleteQueueRequest;
import software.amazon.awssdk.services.sqs.model.DeleteQueueResponse;
import software.amazon.awssdk.services.sqs.model.GetQueueAttributesRequest;
import software.amazon.awssdk.services.sqs.model.GetQueueAttributesResponse;
import software.amazon.awssdk.services.sqs.model.GetQueueUrlRequest;
import software.amazon.awssdk.services.sqs.model.GetQueueUrlResponse;
import software.amazon.awssdk.services.sqs.model.ListDeadLetterSourceQueuesRequest;
import software.amazon.awssdk.services.sqs.model.ListDeadLetterSourceQueuesResponse;
import software.amazon.awssdk.services.sqs.model.ListMessageMoveTasksRequest;
import software.amazon.awssdk.services.sqs.model.ListMessageMoveTasksResponse;
import software.amazon.awssdk.services.sqs.model.ListQueueTagsRequest;
import software.amazon.awssdk.services.sqs.model.ListQueueTagsResponse;
import software.amazon.awssdk.services.sqs.model.ListQueuesRequest;
import software.amazon.awssdk.services.sqs.model.ListQueuesResponse;
import software.amazon.awssdk.services.sqs.model.PurgeQueueRequest;
import software.amazon.awssdk.services.sqs.model.PurgeQueueResponse;
import software.amazon.awssdk.services.sqs.model.ReceiveMessageRequest;
import software.amazon.awssdk.services.sqs.model.ReceiveMessageResponse;
import software.amazon.awssdk.services.sqs.model.RemovePermissionRequest;
import software.amazon.awssdk.services.sqs.model.RemovePermissionResponse;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageResponse;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.SetQueueAttributesRequest;
import software.amazon.awssdk.services.sqs.model.SetQueueAttributesResponse;
import software.amazon.awssdk.services.sqs.model.StartMessageMoveTaskRequest;
import software.amazon.awssdk.services.sqs.model.StartMessageMoveTaskResponse;
import software.amazon.awssdk.services.sqs.model.TagQueueRequest;
import software.amazon.awssdk.services.sqs.model.TagQueueResponse;
import software.amazon.awssdk.services.sqs.model.UntagQueueRequest;
import software.amazon.awssdk.services.sqs.model.UntagQueueResponse;

/**
 * The SQS operations the scenarios call, with the signatures SqsClient and SqsAsyncClient share,
 * so that one scenario class drives both through {@link Bridge}.
 */
public interface Sqs {
    AddPermissionResponse addPermission(Consumer<AddPermissionRequest.Builder> request);
    ChangeMessageVisibilityResponse changeMessageVisibility(Consumer<ChangeMessageVisibilityRequest.Builder> request);
    ChangeMessageVisibilityBatchResponse changeMessageVisibilityBatch(Consumer<ChangeMessageVisibilityBatchRequest.Builder> request);
    CreateQueueResponse createQueue(Consumer<CreateQueueRequest.Builder> request);
    DeleteMessageResponse deleteMessage(Consumer<DeleteMessageRequest.Builder> request);
    DeleteMessageBatchResponse deleteMessageBatch(Consumer<DeleteMessageBatchRequest.Builder> request);
    DeleteQueueResponse deleteQueue(Consumer<DeleteQueueRequest.Builder> request);
    GetQueueAttributesResponse getQueueAttributes(Consumer<GetQueueAttributesRequest.Builder> request);
    GetQueueUrlResponse getQueueUrl(Consumer<GetQueueUrlRequest.Builder> request);
    ListDeadLetterSourceQueuesResponse listDeadLetterSourceQueues(Consumer<ListDeadLetterSourceQueuesRequest.Builder> request);
    ListMessageMoveTasksResponse listMessageMoveTasks(Consumer<ListMessageMoveTasksRequest.Builder> request);
    ListQueueTagsResponse listQueueTags(Consumer<ListQueueTagsRequest.Builder> request);
    ListQueuesResponse listQueues(Consumer<ListQueuesRequest.Builder> request);
    PurgeQueueResponse purgeQueue(Consumer<PurgeQueueRequest.Builder> request);
    ReceiveMessageResponse receiveMessage(Consumer<ReceiveMessageRequest.Builder> request);
    RemovePermissionResponse removePermission(Consumer<RemovePermissionRequest.Builder> request);
    SendMessageResponse sendMessage(Consumer<SendMessageRequest.Builder> request);
    SendMessageBatchResponse sendMessageBatch(Consumer<SendMessageBatchRequest.Builder> request);
    SetQueueAttributesResponse setQueueAttributes(Consumer<SetQueueAttributesRequest.Builder> request);
    StartMessageMoveTaskResponse startMessageMoveTask(Consumer<StartMessageMoveTaskRequest.Builder> request);
    TagQueueResponse tagQueue(Consumer<TagQueueRequest.Builder> request);
    UntagQueueResponse untagQueue(Consumer<UntagQueueRequest.Builder> request);

    static Sqs sync(SqsClient client) {
        return Bridge.of(Sqs.class, client, SqsClient.class, false);
    }

    static Sqs async(SqsAsyncClient client) {
        return Bridge.of(Sqs.class, client, SqsAsyncClient.class, true);
    }
}
