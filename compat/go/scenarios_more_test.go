// The redrive, FIFO, receipt-handle and validation rows of docs/src/scenarios.md, driven by the
// AWS SDK for Go v2.
package compat

import (
	"fmt"
	"math/big"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

type redrive struct{ dlq, dlqArn, source, sourceArn string }

func (h *harness) redriveSetup(maxReceiveCount int) redrive {
	var r redrive
	r.dlq = h.makeQueue("dlq", false, nil)
	r.dlqArn = h.attribute(r.dlq, types.QueueAttributeNameQueueArn)
	policy := fmt.Sprintf(`{"deadLetterTargetArn":"%s","maxReceiveCount":"%d"}`, r.dlqArn, maxReceiveCount)
	r.source = h.makeQueue("src", false, map[string]string{"RedrivePolicy": policy})
	r.sourceArn = h.attribute(r.source, types.QueueAttributeNameQueueArn)
	return r
}

func Test_dlq_redrive(t *testing.T) {
	h := setup(t)
	r := h.redriveSetup(2)
	sources, err := h.sqs.ListDeadLetterSourceQueues(ctx, &sqs.ListDeadLetterSourceQueuesInput{QueueUrl: &r.dlq})
	h.must(err)
	eq(t, sources.QueueUrls, []string{r.source}, "source queues")

	sent := h.send(r.source, "poison")
	for _, count := range []string{"1", "2"} {
		m := h.receiveOne(&sqs.ReceiveMessageInput{QueueUrl: &r.source, MessageSystemAttributeNames: all})
		eq(t, m.Attributes["ApproximateReceiveCount"], count, "receive count")
		h.changeVisibility(r.source, m.ReceiptHandle, 0)
	}
	// The third receive moves it to the DLQ instead of delivering it.
	eq(t, len(h.receive(&sqs.ReceiveMessageInput{QueueUrl: &r.source})), 0, "third receive")
	moved := h.receiveOne(&sqs.ReceiveMessageInput{QueueUrl: &r.dlq, MessageSystemAttributeNames: all})
	eq(t, *moved.MessageId, *sent.MessageId, "MessageId")
	eq(t, *moved.Body, "poison", "Body")
	eq(t, moved.Attributes["DeadLetterQueueSourceArn"], r.sourceArn, "DeadLetterQueueSourceArn")
	eq(t, h.counts(r.source), [2]string{"0", "0"}, "source counts")
}

func Test_move_task(t *testing.T) {
	h := setup(t)
	r := h.redriveSetup(1)
	sent := h.send(r.source, "redrive me")
	m := h.receiveOne(&sqs.ReceiveMessageInput{QueueUrl: &r.source})
	h.changeVisibility(r.source, m.ReceiptHandle, 0)
	eq(t, len(h.receive(&sqs.ReceiveMessageInput{QueueUrl: &r.source})), 0, "moved on the second receive")
	eq(t, h.counts(r.dlq), [2]string{"1", "0"}, "DLQ counts")

	started, err := h.sqs.StartMessageMoveTask(ctx, &sqs.StartMessageMoveTaskInput{SourceArn: &r.dlqArn})
	h.must(err)
	if aws.ToString(started.TaskHandle) == "" {
		t.Fatal("no TaskHandle")
	}
	// The move runs in the background; its own status is the event to wait for.
	deadline := time.Now().Add(15 * time.Second)
	var task types.ListMessageMoveTasksResultEntry
	for {
		out, err := h.sqs.ListMessageMoveTasks(ctx, &sqs.ListMessageMoveTasksInput{SourceArn: &r.dlqArn})
		h.must(err)
		eq(t, len(out.Results), 1, "tasks")
		task = out.Results[0]
		if aws.ToString(task.Status) != "RUNNING" || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	eq(t, aws.ToString(task.Status), "COMPLETED", "status")
	eq(t, aws.ToString(task.SourceArn), r.dlqArn, "SourceArn")
	eq(t, task.ApproximateNumberOfMessagesMoved, int64(1), "moved")
	if task.StartedTimestamp < 1_600_000_000_000 {
		t.Fatalf("StartedTimestamp %d", task.StartedTimestamp)
	}
	back := h.receiveOne(&sqs.ReceiveMessageInput{QueueUrl: &r.source, WaitTimeSeconds: 1})
	eq(t, []string{*back.MessageId, *back.Body}, []string{*sent.MessageId, "redrive me"}, "moved back")
	eq(t, h.counts(r.dlq), [2]string{"0", "0"}, "DLQ counts after")
}

func (h *harness) sendFifo(url, body, group string, dedup *string) *sqs.SendMessageOutput {
	h.t.Helper()
	out, err := h.sqs.SendMessage(ctx, &sqs.SendMessageInput{
		QueueUrl: &url, MessageBody: &body, MessageGroupId: &group, MessageDeduplicationId: dedup,
	})
	h.must(err)
	return out
}

func Test_fifo_order_dedup(t *testing.T) {
	h := setup(t)
	url := h.makeQueue("order", true, nil)
	var sent []*sqs.SendMessageOutput
	last := big.NewInt(-1)
	for _, gb := range [][2]string{{"g1", "a1"}, {"g2", "b1"}, {"g1", "a2"}, {"g2", "b2"}, {"g1", "a3"}} {
		out := h.sendFifo(url, gb[1], gb[0], aws.String(gb[1]))
		// SQS's sequence numbers are 20 digits, past int64.
		seq, ok := new(big.Int).SetString(*out.SequenceNumber, 10)
		if !ok || seq.Cmp(last) <= 0 {
			t.Fatalf("sequence number %s after %s", *out.SequenceNumber, last)
		}
		last = seq
		sent = append(sent, out)
	}
	// A duplicate within 5 minutes is accepted, answered with the original, and not queued.
	again := h.sendFifo(url, "a1 again", "g1", aws.String("a1"))
	eq(t, *again.MessageId, *sent[0].MessageId, "deduplicated MessageId")
	eq(t, h.counts(url), [2]string{"5", "0"}, "counts")

	head := h.receiveOne(&sqs.ReceiveMessageInput{QueueUrl: &url, MessageSystemAttributeNames: all})
	eq(t, *head.Body, "a1", "head")
	eq(t, head.Attributes["MessageGroupId"], "g1", "MessageGroupId")
	eq(t, head.Attributes["MessageDeduplicationId"], "a1", "MessageDeduplicationId")
	// g1 is locked while a1 is in flight; only g2 is served, in order.
	eq(t, bodies(h.receive(&sqs.ReceiveMessageInput{QueueUrl: &url, MaxNumberOfMessages: 10})), []string{"b1", "b2"}, "g2")
	h.deleteMessage(url, head.ReceiptHandle)
	eq(t, bodies(h.receive(&sqs.ReceiveMessageInput{QueueUrl: &url, MaxNumberOfMessages: 10})), []string{"a2", "a3"}, "g1")

	_, err := h.sqs.SendMessage(ctx, &sqs.SendMessageInput{
		QueueUrl: &url, MessageBody: aws.String("no group"), MessageDeduplicationId: aws.String("x"),
	})
	eq(t, code(t, err), "MissingParameter", "no MessageGroupId")
}

func Test_fifo_group_visibility(t *testing.T) {
	h := setup(t)
	content := map[string]string{"ContentBasedDeduplication": "true"}
	url := h.makeQueue("groups", true, content)
	for _, body := range []string{"a1", "a2", "a3"} {
		h.sendFifo(url, body, "g1", nil)
	}
	both := h.receive(&sqs.ReceiveMessageInput{QueueUrl: &url, MaxNumberOfMessages: 2})
	eq(t, bodies(both), []string{"a1", "a2"}, "two of the group")
	// Ending a1's visibility makes a1 receivable again; a2 stays in flight and a3 behind it.
	h.changeVisibility(url, both[0].ReceiptHandle, 0)
	again := h.receive(&sqs.ReceiveMessageInput{QueueUrl: &url, MaxNumberOfMessages: 10})
	eq(t, bodies(again), []string{"a1"}, "only a1 comes back")

	// A long poll parked on the queue wakes when the group's in-flight head is deleted.
	h.deleteMessage(url, again[0].ReceiptHandle)
	done := h.parkedReceive(url)
	h.deleteMessage(url, both[1].ReceiptHandle)
	h.awaitPoll(done, []string{"a3"})

	// Between groups, the group received last goes to the back.
	rotation := h.makeQueue("rotation", true, content)
	for _, g := range []string{"g1", "g2", "g3"} {
		h.sendFifo(rotation, g, g, nil)
	}
	first := h.receive(&sqs.ReceiveMessageInput{QueueUrl: &rotation, MaxNumberOfMessages: 2})
	eq(t, bodies(first), []string{"g1", "g2"}, "first two groups")
	for _, m := range first {
		h.changeVisibility(rotation, m.ReceiptHandle, 0)
	}
	next := h.receive(&sqs.ReceiveMessageInput{QueueUrl: &rotation, MaxNumberOfMessages: 1})
	eq(t, bodies(next), []string{"g3"}, "the group never received")
}

func Test_receipt_handle_rules(t *testing.T) {
	h := setup(t)
	url := h.makeQueue("handles", false, map[string]string{"VisibilityTimeout": "30"})
	h.send(url, "twice")
	old := h.receiveOne(&sqs.ReceiveMessageInput{QueueUrl: &url})
	h.changeVisibility(url, old.ReceiptHandle, 0)
	newer := h.receiveOne(&sqs.ReceiveMessageInput{QueueUrl: &url})
	if *newer.ReceiptHandle == *old.ReceiptHandle {
		t.Fatal("the second receive has the first handle")
	}
	// On a standard queue an older handle still changes the visibility of the message...
	h.changeVisibility(url, old.ReceiptHandle, 0)
	third := h.receiveOne(&sqs.ReceiveMessageInput{
		QueueUrl: &url, MessageSystemAttributeNames: []types.MessageSystemAttributeName{types.MessageSystemAttributeNameApproximateReceiveCount},
	})
	eq(t, third.Attributes["ApproximateReceiveCount"], "3", "receive count")
	// ...and deletes it.
	h.deleteMessage(url, old.ReceiptHandle)
	eq(t, h.counts(url), [2]string{"0", "0"}, "counts")
}

func Test_validation_fidelity(t *testing.T) {
	h := setup(t)
	_, err := h.sqs.CreateQueue(ctx, &sqs.CreateQueueInput{
		QueueName: aws.String(uniqueName("std")), Attributes: map[string]string{"FifoQueue": "false"},
	})
	bad := mustFailAs[*types.InvalidAttributeName](t, err)
	eq(t, bad.ErrorMessage(), "Unknown Attribute FifoQueue.", "message")

	fifo := h.makeQueue("vfifo", true, nil)
	_, err = h.sqs.SendMessageBatch(ctx, &sqs.SendMessageBatchInput{QueueUrl: &fifo, Entries: []types.SendMessageBatchRequestEntry{
		{Id: aws.String("a"), MessageBody: aws.String("a"), MessageGroupId: aws.String("g"), MessageDeduplicationId: aws.String("a")},
		{Id: aws.String("b"), MessageBody: aws.String("b"), MessageDeduplicationId: aws.String("b")},
	}})
	eq(t, code(t, err), "InvalidParameterValue", "FIFO entry without a group")
	eq(t, h.counts(fifo), [2]string{"0", "0"}, "FIFO counts")

	url := h.makeQueue("compat", false, nil)
	_, err = h.sqs.SendMessageBatch(ctx, &sqs.SendMessageBatchInput{QueueUrl: &url, Entries: []types.SendMessageBatchRequestEntry{
		{Id: aws.String(""), MessageBody: aws.String("x")},
	}})
	mustFailAs[*types.InvalidBatchEntryId](t, err)
	_, err = h.sqs.SendMessageBatch(ctx, &sqs.SendMessageBatchInput{QueueUrl: &url, Entries: []types.SendMessageBatchRequestEntry{}})
	mustFailAs[*types.EmptyBatchRequest](t, err)

	unicode := map[string]types.MessageAttributeValue{"attr.1\u00f8\u00df\u00e4": str("Valida")}
	_, err = h.sqs.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: &url, MessageBody: aws.String("m"), MessageAttributes: unicode})
	h.must(err)
	_, err = h.sqs.SendMessage(ctx, &sqs.SendMessageInput{
		QueueUrl: &url, MessageBody: aws.String("m"),
		MessageAttributes: map[string]types.MessageAttributeValue{"attr1": str("Invalid-\u0008,\u000b")},
	})
	eq(t, code(t, err), "InvalidParameterValue", "control character")
	m := h.receiveOne(&sqs.ReceiveMessageInput{QueueUrl: &url, MessageAttributeNames: []string{"*"}})
	eq(t, plain(m.MessageAttributes), plain(unicode), "Unicode attribute name")
	h.changeVisibility(url, m.ReceiptHandle, 0)
	// No system attributes asked for: an empty list means none.
	m = h.receiveOne(&sqs.ReceiveMessageInput{
		QueueUrl: &url, MessageSystemAttributeNames: []types.MessageSystemAttributeName{},
	})
	eq(t, len(m.Attributes), 0, "attributes")
}

func Test_recreate_deleted_queue(t *testing.T) {
	h := setup(t)
	name := uniqueName("again")
	out, err := h.sqs.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: &name})
	h.must(err)
	h.send(*out.QueueUrl, "old")
	_, err = h.sqs.DeleteQueue(ctx, &sqs.DeleteQueueInput{QueueUrl: out.QueueUrl})
	h.must(err)
	// SQS makes a name wait 60 s after a delete; sqslite does so only under --strict.
	again, err := h.sqs.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: &name})
	h.must(err)
	eq(t, *again.QueueUrl, *out.QueueUrl, "URL")
	h.queues = append(h.queues, *again.QueueUrl)
	eq(t, h.counts(*again.QueueUrl), [2]string{"0", "0"}, "counts")
}
