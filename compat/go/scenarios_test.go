// The compatibility scenarios (docs/src/scenarios.md) driven by the AWS SDK for Go v2, which
// speaks AWS JSON 1.0 to its configured endpoint and checks body MD5s on send, batch send and
// receive. Each test is named after its row; the FIFO and validation rows are in
// scenarios_more_test.go.
package compat

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

func str(s string) types.MessageAttributeValue {
	return types.MessageAttributeValue{DataType: aws.String("String"), StringValue: aws.String(s)}
}

func typed(dataType, s string) types.MessageAttributeValue {
	return types.MessageAttributeValue{DataType: aws.String(dataType), StringValue: aws.String(s)}
}

func bin(dataType string, b []byte) types.MessageAttributeValue {
	return types.MessageAttributeValue{DataType: aws.String(dataType), BinaryValue: b}
}

var allTypes = map[string]types.MessageAttributeValue{
	"s":       str("h\u00e9llo <w\u00f6rld> & \"friends\""),
	"n":       typed("Number", "-12.5e3"),
	"b":       bin("Binary", []byte{0, 1, 0xfe, 0xff}),
	"s.label": typed("String.custom-label", "labelled"),
	"n.label": typed("Number.float", "3.14"),
	"b.label": bin("Binary.gif", []byte("GIF89a")),
}

var all = []types.MessageSystemAttributeName{types.MessageSystemAttributeNameAll}

func Test_queue_lifecycle(t *testing.T) {
	h := setup(t)
	url := h.makeQueue("lifecycle", false, map[string]string{"VisibilityTimeout": "45"})
	name := url[strings.LastIndex(url, "/")+1:]
	tagged, err := h.sqs.CreateQueue(ctx, &sqs.CreateQueueInput{
		QueueName: aws.String(name + "-tagged"), Tags: map[string]string{"env": "test"},
	})
	h.must(err)
	tags, err := h.sqs.ListQueueTags(ctx, &sqs.ListQueueTagsInput{QueueUrl: tagged.QueueUrl})
	h.must(err)
	eq(t, tags.Tags, map[string]string{"env": "test"}, "tags")
	page, err := h.sqs.ListQueues(ctx, &sqs.ListQueuesInput{QueueNamePrefix: &name, MaxResults: aws.Int32(1)})
	h.must(err)
	eq(t, page.QueueUrls, []string{url}, "first page")
	if page.NextToken == nil {
		t.Fatal("no NextToken on the first page")
	}
	page, err = h.sqs.ListQueues(ctx, &sqs.ListQueuesInput{
		QueueNamePrefix: &name, MaxResults: aws.Int32(1), NextToken: page.NextToken,
	})
	h.must(err)
	eq(t, page.QueueUrls, []string{*tagged.QueueUrl}, "second page")
	eq(t, page.NextToken, nil, "NextToken on the last page")
	_, err = h.sqs.DeleteQueue(ctx, &sqs.DeleteQueueInput{QueueUrl: tagged.QueueUrl})
	h.must(err)
	got, err := h.sqs.GetQueueUrl(ctx, &sqs.GetQueueUrlInput{QueueName: &name})
	h.must(err)
	eq(t, *got.QueueUrl, url, "GetQueueUrl")
	// Same name and attributes: the existing queue comes back.
	again, err := h.sqs.CreateQueue(ctx, &sqs.CreateQueueInput{
		QueueName: &name, Attributes: map[string]string{"VisibilityTimeout": "45"},
	})
	h.must(err)
	eq(t, *again.QueueUrl, url, "re-created URL")

	attrs, err := h.sqs.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{
		QueueUrl: &url, AttributeNames: []types.QueueAttributeName{types.QueueAttributeNameAll},
	})
	h.must(err)
	eq(t, attrs.Attributes["VisibilityTimeout"], "45", "VisibilityTimeout")
	eq(t, attrs.Attributes["MaximumMessageSize"], "1048576", "MaximumMessageSize")
	if !strings.HasSuffix(attrs.Attributes["QueueArn"], ":"+name) {
		t.Fatalf("QueueArn %q", attrs.Attributes["QueueArn"])
	}
	_, err = h.sqs.SetQueueAttributes(ctx, &sqs.SetQueueAttributesInput{
		QueueUrl: &url, Attributes: map[string]string{"DelaySeconds": "2"},
	})
	h.must(err)
	eq(t, h.attribute(url, types.QueueAttributeNameDelaySeconds), "2", "DelaySeconds")

	_, err = h.sqs.AddPermission(ctx, &sqs.AddPermissionInput{
		QueueUrl: &url, Label: aws.String("send-only"),
		AWSAccountIds: []string{"111122223333"}, Actions: []string{"SendMessage"},
	})
	h.must(err)
	if !strings.Contains(h.attribute(url, types.QueueAttributeNamePolicy), "send-only") {
		t.Fatal("the permission is not in the Policy")
	}
	_, err = h.sqs.RemovePermission(ctx, &sqs.RemovePermissionInput{QueueUrl: &url, Label: aws.String("send-only")})
	h.must(err)

	_, err = h.sqs.TagQueue(ctx, &sqs.TagQueueInput{QueueUrl: &url, Tags: map[string]string{"team": "core", "empty": ""}})
	h.must(err)
	_, err = h.sqs.UntagQueue(ctx, &sqs.UntagQueueInput{QueueUrl: &url, TagKeys: []string{"empty"}})
	h.must(err)
	tags, err = h.sqs.ListQueueTags(ctx, &sqs.ListQueueTagsInput{QueueUrl: &url})
	h.must(err)
	eq(t, tags.Tags, map[string]string{"team": "core"}, "tags after untag")

	_, err = h.sqs.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: &url, MessageBody: aws.String("x"), DelaySeconds: 0})
	h.must(err)
	_, err = h.sqs.PurgeQueue(ctx, &sqs.PurgeQueueInput{QueueUrl: &url})
	h.must(err)
	eq(t, h.counts(url), [2]string{"0", "0"}, "counts after purge")
	// SQS's 60-second purge guard is off by default (--strict restores it).
	_, err = h.sqs.PurgeQueue(ctx, &sqs.PurgeQueueInput{QueueUrl: &url})
	h.must(err)

	_, err = h.sqs.DeleteQueue(ctx, &sqs.DeleteQueueInput{QueueUrl: &url})
	h.must(err)
	_, err = h.sqs.GetQueueUrl(ctx, &sqs.GetQueueUrlInput{QueueName: &name})
	mustFailAs[*types.QueueDoesNotExist](t, err)
	listed, err := h.sqs.ListQueues(ctx, &sqs.ListQueuesInput{QueueNamePrefix: aws.String("lifecycle-")})
	h.must(err)
	for _, u := range listed.QueueUrls {
		if u == url {
			t.Fatal("the deleted queue is still listed")
		}
	}
}

func Test_message_attributes(t *testing.T) {
	h := setup(t)
	url := h.makeQueue("compat", false, nil)
	body := "line one\r\nline two\t<tag> & \"quotes\" 'single' \u00e9\u4e2d\U0001F600"
	trace := "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1"
	sent, err := h.sqs.SendMessage(ctx, &sqs.SendMessageInput{
		QueueUrl: &url, MessageBody: &body, MessageAttributes: allTypes,
		MessageSystemAttributes: map[string]types.MessageSystemAttributeValue{
			"AWSTraceHeader": {DataType: aws.String("String"), StringValue: &trace},
		},
	})
	h.must(err)
	eq(t, *sent.MD5OfMessageBody, md5Hex([]byte(body)), "MD5OfMessageBody")
	eq(t, *sent.MD5OfMessageAttributes, md5OfAttributes(allTypes), "MD5OfMessageAttributes")
	eq(t, *sent.MD5OfMessageSystemAttributes, "5ae4d5d7636402d80f4eb6d213245a88", "MD5OfMessageSystemAttributes")

	m := h.receiveOne(&sqs.ReceiveMessageInput{
		QueueUrl: &url, MessageAttributeNames: []string{"All"}, MessageSystemAttributeNames: all,
	})
	h.changeVisibility(url, m.ReceiptHandle, 0)
	eq(t, *m.MessageId, *sent.MessageId, "MessageId")
	eq(t, *m.Body, body, "Body")
	eq(t, *m.MD5OfBody, md5Hex([]byte(body)), "MD5OfBody")
	eq(t, plain(m.MessageAttributes), plain(allTypes), "MessageAttributes")
	eq(t, *m.MD5OfMessageAttributes, *sent.MD5OfMessageAttributes, "received MD5OfMessageAttributes")
	eq(t, m.Attributes["ApproximateReceiveCount"], "1", "ApproximateReceiveCount")
	eq(t, m.Attributes["AWSTraceHeader"], trace, "AWSTraceHeader")
	if len(m.Attributes["SentTimestamp"]) != 13 {
		t.Fatalf("SentTimestamp %q is not in milliseconds", m.Attributes["SentTimestamp"])
	}

	// A filtered receive returns, and digests, only the chosen attributes. As on AWS, `b.*`
	// is a plain prefix: it takes `b` itself as well as `b.label`.
	m = h.receiveOne(&sqs.ReceiveMessageInput{QueueUrl: &url, MessageAttributeNames: []string{"s", "b.*"}})
	h.changeVisibility(url, m.ReceiptHandle, 0)
	chosen := map[string]types.MessageAttributeValue{"s": allTypes["s"], "b": allTypes["b"], "b.label": allTypes["b.label"]}
	eq(t, plain(m.MessageAttributes), plain(chosen), "filtered attributes")
	eq(t, *m.MD5OfMessageAttributes, md5OfAttributes(chosen), "filtered MD5")

	m = h.receiveOne(&sqs.ReceiveMessageInput{QueueUrl: &url})
	eq(t, len(m.MessageAttributes), 0, "attributes not asked for")
	eq(t, m.MD5OfMessageAttributes, nil, "MD5 of attributes not asked for")
	h.deleteMessage(url, m.ReceiptHandle)
	eq(t, h.counts(url), [2]string{"0", "0"}, "counts")
	eq(t, len(h.receive(&sqs.ReceiveMessageInput{QueueUrl: &url})), 0, "empty receive")
}

func Test_large_message(t *testing.T) {
	h := setup(t)
	url := h.makeQueue("compat", false, nil)
	// 1 MiB exactly (the default MaximumMessageSize), with multi-byte characters and escapes.
	unit := "\u4e2d\U0001F600\r\n<&>\"x" // 3 + 4 + 2 + 3 + 2 = 14 bytes
	body := strings.Repeat(unit, 1_048_576/14)
	body += strings.Repeat("a", 1_048_576-len(body))
	sent := h.send(url, body)
	eq(t, *sent.MD5OfMessageBody, md5Hex([]byte(body)), "MD5OfMessageBody")
	m := h.receiveOne(&sqs.ReceiveMessageInput{QueueUrl: &url})
	eq(t, *m.Body == body, true, "the body round-trips")
	_, err := h.sqs.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: &url, MessageBody: aws.String(body + "!")})
	eq(t, code(t, err), "InvalidParameterValue", "one byte too many")
}

func Test_batch_partial_failure(t *testing.T) {
	h := setup(t)
	url := h.makeQueue("compat", false, nil)
	out, err := h.sqs.SendMessageBatch(ctx, &sqs.SendMessageBatchInput{QueueUrl: &url, Entries: []types.SendMessageBatchRequestEntry{
		{Id: aws.String("ok-1"), MessageBody: aws.String("one")},
		{Id: aws.String("bad_number"), MessageBody: aws.String("two"),
			MessageAttributes: map[string]types.MessageAttributeValue{"n": typed("Number", "not a number")}},
		{Id: aws.String("ok-2"), MessageBody: aws.String("three"), MessageAttributes: allTypes},
	}})
	h.must(err)
	ok := map[string]types.SendMessageBatchResultEntry{}
	for _, e := range out.Successful {
		ok[*e.Id] = e
	}
	eq(t, len(ok), 2, "successful entries")
	eq(t, *ok["ok-1"].MD5OfMessageBody, md5Hex([]byte("one")), "ok-1 MD5")
	eq(t, *ok["ok-2"].MD5OfMessageAttributes, md5OfAttributes(allTypes), "ok-2 attribute MD5")
	eq(t, len(out.Failed), 1, "failed entries")
	f := out.Failed[0]
	eq(t, []any{*f.Id, *f.Code, f.SenderFault}, []any{"bad_number", "InvalidParameterValue", true}, "failed entry")

	messages := h.receive(&sqs.ReceiveMessageInput{QueueUrl: &url, MaxNumberOfMessages: 10, WaitTimeSeconds: 1})
	got := bodies(messages)
	if len(got) != 2 || !(got[0] == "one" && got[1] == "three" || got[0] == "three" && got[1] == "one") {
		t.Fatalf("received %v", got)
	}
	entries := []types.DeleteMessageBatchRequestEntry{
		{Id: aws.String("m0"), ReceiptHandle: messages[0].ReceiptHandle},
		{Id: aws.String("m1"), ReceiptHandle: messages[1].ReceiptHandle},
		{Id: aws.String("bogus"), ReceiptHandle: aws.String("not-a-receipt-handle")},
	}
	deleted, err := h.sqs.DeleteMessageBatch(ctx, &sqs.DeleteMessageBatchInput{QueueUrl: &url, Entries: entries})
	h.must(err)
	eq(t, len(deleted.Successful), 2, "deleted")
	eq(t, len(deleted.Failed), 1, "not deleted")
	f = deleted.Failed[0]
	eq(t, []any{*f.Id, *f.Code, f.SenderFault}, []any{"bogus", "ReceiptHandleIsInvalid", true}, "bogus handle")
	eq(t, h.counts(url), [2]string{"0", "0"}, "counts")
}

func Test_batch_errors(t *testing.T) {
	h := setup(t)
	url := h.makeQueue("compat", false, nil)
	_, err := h.sqs.SendMessageBatch(ctx, &sqs.SendMessageBatchInput{QueueUrl: &url, Entries: []types.SendMessageBatchRequestEntry{
		{Id: aws.String("same"), MessageBody: aws.String("a")},
		{Id: aws.String("same"), MessageBody: aws.String("b")},
	}})
	mustFailAs[*types.BatchEntryIdsNotDistinct](t, err)
	eq(t, code(t, err), "AWS.SimpleQueueService.BatchEntryIdsNotDistinct", "code")
	eleven := []types.SendMessageBatchRequestEntry{}
	for i := range 11 {
		eleven = append(eleven, types.SendMessageBatchRequestEntry{Id: aws.String(string(rune('a' + i))), MessageBody: aws.String("x")})
	}
	_, err = h.sqs.SendMessageBatch(ctx, &sqs.SendMessageBatchInput{QueueUrl: &url, Entries: eleven})
	mustFailAs[*types.TooManyEntriesInBatchRequest](t, err)
	_, err = h.sqs.DeleteMessageBatch(ctx, &sqs.DeleteMessageBatchInput{QueueUrl: &url, Entries: []types.DeleteMessageBatchRequestEntry{
		{Id: aws.String("no spaces"), ReceiptHandle: aws.String("h")},
	}})
	mustFailAs[*types.InvalidBatchEntryId](t, err)
	eq(t, h.counts(url), [2]string{"0", "0"}, "counts")
}

// parkedReceive starts a 20-second long poll and waits until sqslite has parked it.
func (h *harness) parkedReceive(url string) <-chan polled {
	done := make(chan polled, 1)
	go func() {
		start := time.Now()
		out, err := h.sqs.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: &url, WaitTimeSeconds: 20})
		p := polled{err: err, elapsed: time.Since(start)}
		if out != nil {
			p.messages = out.Messages
		}
		done <- p
	}()
	h.waitParked(url)
	return done
}

type polled struct {
	messages []types.Message
	err      error
	elapsed  time.Duration
}

func (h *harness) awaitPoll(done <-chan polled, want []string) {
	h.t.Helper()
	p := <-done
	h.must(p.err)
	eq(h.t, bodies(p.messages), want, "long poll")
	if p.elapsed > 10*time.Second {
		h.t.Fatalf("the long poll took %v to wake", p.elapsed)
	}
}

func Test_long_poll_wakes_on_send(t *testing.T) {
	h := setup(t)
	url := h.makeQueue("compat", false, nil)
	done := h.parkedReceive(url)
	h.send(url, "wake up")
	h.awaitPoll(done, []string{"wake up"})
}

func Test_visibility(t *testing.T) {
	h := setup(t)
	url := h.makeQueue("vis", false, map[string]string{"VisibilityTimeout": "30"})
	h.send(url, "hidden")
	count := []types.MessageSystemAttributeName{types.MessageSystemAttributeNameApproximateReceiveCount}
	m := h.receiveOne(&sqs.ReceiveMessageInput{QueueUrl: &url, MessageSystemAttributeNames: count})
	eq(t, len(h.receive(&sqs.ReceiveMessageInput{QueueUrl: &url})), 0, "hidden while in flight")
	eq(t, h.counts(url), [2]string{"0", "1"}, "counts in flight")

	h.changeVisibility(url, m.ReceiptHandle, 0)
	again := h.receiveOne(&sqs.ReceiveMessageInput{QueueUrl: &url, MessageSystemAttributeNames: count})
	eq(t, *again.MessageId, *m.MessageId, "MessageId")
	eq(t, again.Attributes["ApproximateReceiveCount"], "2", "receive count")
	if *again.ReceiptHandle == *m.ReceiptHandle {
		t.Fatal("the second receive has the first handle")
	}

	out, err := h.sqs.ChangeMessageVisibilityBatch(ctx, &sqs.ChangeMessageVisibilityBatchInput{
		QueueUrl: &url, Entries: []types.ChangeMessageVisibilityBatchRequestEntry{
			{Id: aws.String("real"), ReceiptHandle: again.ReceiptHandle, VisibilityTimeout: 0},
			{Id: aws.String("fake"), ReceiptHandle: aws.String("garbage"), VisibilityTimeout: 0},
		},
	})
	h.must(err)
	eq(t, len(out.Successful), 1, "changed")
	eq(t, *out.Successful[0].Id, "real", "changed entry")
	eq(t, len(out.Failed), 1, "not changed")
	eq(t, []string{*out.Failed[0].Id, *out.Failed[0].Code}, []string{"fake", "ReceiptHandleIsInvalid"}, "failed entry")
	eq(t, h.counts(url), [2]string{"1", "0"}, "counts")

	_, err = h.sqs.ChangeMessageVisibility(ctx, &sqs.ChangeMessageVisibilityInput{
		QueueUrl: &url, ReceiptHandle: aws.String("garbage"), VisibilityTimeout: 5,
	})
	mustFailAs[*types.ReceiptHandleIsInvalid](t, err)
}

func Test_queue_does_not_exist(t *testing.T) {
	h := setup(t)
	_, err := h.sqs.GetQueueUrl(ctx, &sqs.GetQueueUrlInput{QueueName: aws.String("no-such-queue")})
	mustFailAs[*types.QueueDoesNotExist](t, err)
	eq(t, code(t, err), "AWS.SimpleQueueService.NonExistentQueue", "code")
	var res *awshttp.ResponseError
	if !errors.As(err, &res) {
		t.Fatalf("no HTTP response in %v", err)
	}
	eq(t, res.HTTPStatusCode(), 400, "status")

	url := h.makeQueue("compat", false, nil)
	_, err = h.sqs.DeleteQueue(ctx, &sqs.DeleteQueueInput{QueueUrl: &url})
	h.must(err)
	_, err = h.sqs.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: &url, MessageBody: aws.String("into the void")})
	mustFailAs[*types.QueueDoesNotExist](t, err)
}

func Test_invalid_parameter_value(t *testing.T) {
	h := setup(t)
	url := h.makeQueue("compat", false, nil)
	_, err := h.sqs.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: &url, MaxNumberOfMessages: 11})
	eq(t, code(t, err), "InvalidParameterValue", "MaxNumberOfMessages=11")
	if !strings.Contains(err.Error(), "MaxNumberOfMessages") {
		t.Fatalf("the message does not name the parameter: %v", err)
	}
	_, err = h.sqs.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("bad name!")})
	eq(t, code(t, err), "InvalidParameterValue", "bad queue name")
	_, err = h.sqs.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{
		QueueUrl: &url, AttributeNames: []types.QueueAttributeName{"NoSuchAttribute"},
	})
	mustFailAs[*types.InvalidAttributeName](t, err)
}
