// The Go CDK's SNS/SQS pubsub driver (gocloud.dev/pubsub/awssnssqs) on sqslite: what go-cloud's
// own conformance suite asks of a topic and a subscription, through SDK v2 clients whose
// endpoint is sqslite's. Three topic kinds (an SQS queue used as the topic; an SNS topic with a
// plain and with a raw sqs subscription) plus FIFO pairs. Every driver call goes through a
// recorder, so a test can check the batch calls on the wire and what sqslite answered.
//
// The tests run in parallel with each other (after the rest of the package), so the waits they
// cannot avoid, the driver's one-second nack visibility, overlap.
package compat

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	snstypes "github.com/aws/aws-sdk-go-v2/service/sns/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/middleware"
	"gocloud.dev/gcerrors"
	"gocloud.dev/pubsub"
	"gocloud.dev/pubsub/awssnssqs"
	"gocloud.dev/pubsub/batcher"
	"gocloud.dev/pubsub/driver"
)

// The driver's nack sets the message's visibility to this many seconds (it is not 0).
const cdkNackVisibility = 1

// How long a test waits for a message before it fails.
const cdkPatience = 10 * time.Second

type cdkKind string

const (
	cdkSQS    cdkKind = "sqs_topic"     // the topic is the queue the subscription reads
	cdkSNS    cdkKind = "sns_topic"     // an SNS topic; the queue gets the JSON envelope
	cdkSNSRaw cdkKind = "sns_topic_raw" // an SNS topic; RawMessageDelivery=true
)

// wireCall is one SDK call the driver made: its entries and, for the batch calls, the entries
// sqslite failed (entry id -> error code).
type wireCall struct {
	op         string
	entries    int
	visibility []int32
	failed     map[string]string
	succeeded  []string
	err        error
}

type wireLog struct {
	mu    sync.Mutex
	calls []wireCall
}

// record is an SDK middleware (Initialize step, so it sees the typed input and output).
func (l *wireLog) record(stack *middleware.Stack) error {
	return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("compatWireLog",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (
			middleware.InitializeOutput, middleware.Metadata, error,
		) {
			out, md, err := next.HandleInitialize(ctx, in)
			call := wireCall{op: awsmiddleware.GetOperationName(ctx), err: err, failed: map[string]string{}}
			switch p := in.Parameters.(type) {
			case *sqs.SendMessageBatchInput:
				call.entries = len(p.Entries)
			case *sqs.DeleteMessageBatchInput:
				call.entries = len(p.Entries)
			case *sqs.ChangeMessageVisibilityBatchInput:
				call.entries = len(p.Entries)
				for _, e := range p.Entries {
					call.visibility = append(call.visibility, e.VisibilityTimeout)
				}
			case *sns.PublishBatchInput:
				call.entries = len(p.PublishBatchRequestEntries)
			}
			collect := func(failed []types.BatchResultErrorEntry) {
				for _, f := range failed {
					call.failed[aws.ToString(f.Id)] = aws.ToString(f.Code)
				}
			}
			switch r := out.Result.(type) {
			case *sqs.SendMessageBatchOutput:
				collect(r.Failed)
			case *sqs.DeleteMessageBatchOutput:
				collect(r.Failed)
				for _, s := range r.Successful {
					call.succeeded = append(call.succeeded, aws.ToString(s.Id))
				}
			case *sqs.ChangeMessageVisibilityBatchOutput:
				collect(r.Failed)
				for _, s := range r.Successful {
					call.succeeded = append(call.succeeded, aws.ToString(s.Id))
				}
			case *sns.PublishBatchOutput:
				for _, f := range r.Failed {
					call.failed[aws.ToString(f.Id)] = aws.ToString(f.Code)
				}
			}
			sort.Strings(call.succeeded)
			l.mu.Lock()
			l.calls = append(l.calls, call)
			l.mu.Unlock()
			return out, md, err
		}), middleware.After)
}

// of is every recorded call of one operation, in order.
func (l *wireLog) of(op string) []wireCall {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []wireCall
	for _, c := range l.calls {
		if c.op == op {
			out = append(out, c)
		}
	}
	return out
}

// cdk is one test's pair maker: the plain clients of the other suites for setup and cleanup,
// and the driver's own clients (no retries, the endpoint in code, every call recorded).
type cdk struct {
	*snsHarness
	kind    cdkKind
	wire    *wireLog
	drvSQS  *sqs.Client
	drvSNS  *sns.Client
	closers []func() error
}

func newCDK(t *testing.T, kind cdkKind) *cdk {
	c := &cdk{snsHarness: setupSNS(t), kind: kind, wire: &wireLog{}}
	c.drvSQS = newClient(t, func(o *sqs.Options) { o.APIOptions = append(o.APIOptions, c.wire.record) })
	cfg := loadConfig(t, config.WithRetryMaxAttempts(1))
	c.drvSNS = sns.NewFromConfig(cfg, func(o *sns.Options) {
		o.BaseEndpoint = aws.String(endpoint(t))
		o.APIOptions = append(o.APIOptions, c.wire.record)
	})
	// Registered after setupSNS's cleanup, so it runs before the queues go (the topics and
	// subscriptions a test makes later are removed before it).
	t.Cleanup(c.shutdown)
	return c
}

// shutdown shuts every topic and subscription the test opened (flushing their pending sends,
// acks and nacks); an error any of them reports fails the test.
func (c *cdk) shutdown() {
	c.t.Helper()
	closers := c.closers
	c.closers = nil
	for i := len(closers) - 1; i >= 0; i-- {
		if err := closers[i](); err != nil {
			c.t.Errorf("shutdown: %v", err)
		}
	}
}

// topicWithQueue creates what the kind publishes to and the queue a subscription reads.
func (c *cdk) topicWithQueue(fifo bool, attributes map[string]string, topicOpts *awssnssqs.TopicOptions) (
	*pubsub.Topic, string, string,
) {
	c.t.Helper()
	var topic *pubsub.Topic
	var queue, arn string
	if c.kind == cdkSQS {
		queue = c.makeQueue("gocloud", fifo, attributes)
		topic = awssnssqs.OpenSQSTopicV2(ctx, c.drvSQS, queue, topicOpts)
	} else {
		arn = c.snsTopic(fifo, attributes)
		queue = c.subscribedQueue(arn, fifo)
		topic = awssnssqs.OpenSNSTopicV2(ctx, c.drvSNS, arn, topicOpts)
	}
	c.closers = append(c.closers, func() error { return topic.Shutdown(ctx) })
	return topic, queue, arn
}

func (c *cdk) snsTopic(fifo bool, attributes map[string]string) string {
	c.t.Helper()
	name, attrs := uniqueName("gocloud"), map[string]string{}
	for k, v := range attributes {
		attrs[k] = v
	}
	if fifo {
		name += ".fifo"
		attrs["FifoTopic"] = "true"
	}
	out, err := c.sns.CreateTopic(ctx, &sns.CreateTopicInput{Name: &name, Attributes: attrs})
	c.must(err)
	c.t.Cleanup(func() {
		if _, err := c.sns.DeleteTopic(ctx, &sns.DeleteTopicInput{TopicArn: out.TopicArn}); err != nil {
			c.t.Errorf("DeleteTopic: %v", err)
		}
	})
	return *out.TopicArn
}

// subscribedQueue is a new queue that lets the topic send to it (its Policy) and is
// subscribed to it, raw or not as the kind says.
func (c *cdk) subscribedQueue(topic string, fifo bool) string {
	c.t.Helper()
	queue := c.makeQueue("gocloud-sub", fifo, nil)
	arn := c.queueArn(queue)
	policy := fmt.Sprintf(`{"Version": "2012-10-17", "Statement": [{"Sid": "topic-to-queue",
		"Effect": "Allow", "Principal": {"Service": "sns.amazonaws.com"}, "Action": "sqs:SendMessage",
		"Resource": %q, "Condition": {"ArnEquals": {"aws:SourceArn": %q}}}]}`, arn, topic)
	_, err := c.harness.sqs.SetQueueAttributes(ctx, &sqs.SetQueueAttributesInput{
		QueueUrl: &queue, Attributes: map[string]string{"Policy": policy},
	})
	c.must(err)
	var attrs map[string]string
	if c.kind == cdkSNSRaw {
		attrs = map[string]string{"RawMessageDelivery": "true"}
	}
	sub := c.mustSubscribe(topic, arn, attrs)
	c.t.Cleanup(func() {
		if _, err := c.sns.Unsubscribe(ctx, &sns.UnsubscribeInput{SubscriptionArn: &sub}); err != nil {
			c.t.Errorf("Unsubscribe: %v", err)
		}
	})
	return queue
}

// subscription opens the driver on a queue. It long-polls (1 s) rather than sleeping between
// empty short polls; a raw subscription is told so.
func (c *cdk) subscription(queue string, opts *awssnssqs.SubscriptionOptions) *pubsub.Subscription {
	if opts == nil {
		opts = &awssnssqs.SubscriptionOptions{}
	}
	opts.WaitTime = time.Second
	opts.Raw = c.kind == cdkSNSRaw
	sub := awssnssqs.OpenSubscriptionV2(ctx, c.drvSQS, queue, opts)
	c.closers = append(c.closers, func() error { return sub.Shutdown(ctx) })
	return sub
}

// pair is a topic and one subscription that gets what it publishes.
func (c *cdk) pair() (*pubsub.Topic, *pubsub.Subscription) {
	c.t.Helper()
	topic, queue, _ := c.topicWithQueue(false, nil, nil)
	return topic, c.subscription(queue, nil)
}

func (c *cdk) send(topic *pubsub.Topic, messages ...*pubsub.Message) {
	c.t.Helper()
	for _, m := range messages {
		if err := topic.Send(ctx, m); err != nil {
			c.t.Fatalf("Send %q: %v", m.Body, err)
		}
	}
}

// receive gets n messages, acking each when asked to.
func (c *cdk) receive(sub *pubsub.Subscription, n int, ack bool) []*pubsub.Message {
	c.t.Helper()
	wait, cancel := context.WithTimeout(ctx, cdkPatience)
	defer cancel()
	var got []*pubsub.Message
	for len(got) < n {
		m, err := sub.Receive(wait)
		if err != nil {
			c.t.Fatalf("Receive (%d of %d so far): %v", len(got), n, err)
		}
		if ack {
			m.Ack()
		}
		got = append(got, m)
	}
	return got
}

// numbered is n messages with bodies "0".."n-1", each with one metadata pair.
func numbered(n int) []*pubsub.Message {
	var out []*pubsub.Message
	for i := range n {
		out = append(out, &pubsub.Message{
			Body: []byte(strconv.Itoa(i)), Metadata: map[string]string{"n": strconv.Itoa(i)},
		})
	}
	return out
}

// sameMessages compares bodies and metadata as multisets (no metadata equals empty metadata).
func sameMessages(t *testing.T, got, want []*pubsub.Message) {
	t.Helper()
	render := func(ms []*pubsub.Message) []string {
		out := []string{}
		for _, m := range ms {
			md := map[string]string{}
			for k, v := range m.Metadata {
				md[k] = v
			}
			out = append(out, fmt.Sprintf("%q %q", m.Body, md))
		}
		sort.Strings(out)
		return out
	}
	eq(t, render(got), render(want), "messages (body, metadata)")
}

// sqsMessage is what the driver received for m: SQS's message, through the driver's As.
func sqsMessage(t *testing.T, m *pubsub.Message) types.Message {
	t.Helper()
	var raw types.Message
	if !m.As(&raw) {
		t.Fatal("Message.As(*types.Message) failed")
	}
	return raw
}

// subscriptionDriver is the driver under a portable subscription. pubsub.Message panics on a
// second Ack, so the double-ack test calls the driver itself, as go-cloud's conformance suite
// does; the portable type has no accessor for it, hence reflection on its field.
func subscriptionDriver(t *testing.T, sub *pubsub.Subscription) driver.Subscription {
	t.Helper()
	field := reflect.ValueOf(sub).Elem().FieldByName("driver")
	if !field.IsValid() {
		t.Fatal("pubsub.Subscription has no field `driver` (gocloud.dev changed?)")
	}
	ds, ok := reflect.NewAt(field.Type(), unsafe.Pointer(field.UnsafeAddr())).Elem().Interface().(driver.Subscription)
	if !ok || ds == nil {
		t.Fatal("pubsub.Subscription.driver is not a driver.Subscription")
	}
	return ds
}

// weirdStrings are metadata keys and values the driver must escape (keys to SQS's attribute
// name alphabet, values URL-style): separators, quotes, whitespace, non-ASCII, and every ASCII
// byte 0-127 in runs of 16.
func weirdStrings() []string {
	out := []string{
		"a/b//c", `..\up\..\`, `say "hi"`, "it's", "tab\there", "line\nbreak", "naïve café",
		"☃☃☃", "日本語", "100%", "#x?y=1&z", "+plus=eq", "~tilde`tick`", "under_score-dash",
		"dots.in.name", "..leading", "007", "{\"k\": [1]}", "<x/>", "party 🎉",
	}
	for start := 0; start < 128; start += 16 {
		b := make([]byte, 16)
		for i := range b {
			b[i] = byte(start + i)
		}
		out = append(out, string(b))
	}
	sort.Strings(out)
	return out
}

// The SQS topic, the SNS topic and the raw SNS subscription each pass the same cases.
func Test_gocloud_sqs_topic(t *testing.T)     { t.Parallel(); cdkConformance(t, cdkSQS) }
func Test_gocloud_sns_topic(t *testing.T)     { t.Parallel(); cdkConformance(t, cdkSNS) }
func Test_gocloud_sns_topic_raw(t *testing.T) { t.Parallel(); cdkConformance(t, cdkSNSRaw) }

func cdkConformance(t *testing.T, kind cdkKind) {
	cases := []struct {
		name string
		run  func(*cdk)
	}{
		{"send_receive", cdkSendReceive},
		{"send_receive_two", cdkSendReceiveTwo},
		{"json_body", cdkJSONBody},
		{"metadata", cdkMetadata},
		{"non_utf8_body", cdkNonUTF8Body},
		{"batching", cdkBatching},
		{"nack", cdkNack},
		{"double_ack", cdkDoubleAck},
		{"missing_topic", cdkMissingTopic},
		{"missing_subscription", cdkMissingSubscription},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.run(newCDK(t, kind))
		})
	}
}

// Three messages with metadata, each received once with its id and SQS's attributes; the
// driver's As hands out its clients and SQS's message.
func cdkSendReceive(c *cdk) {
	t := c.t
	topic, sub := c.pair()
	want := numbered(3)
	c.send(topic, want...)
	got := c.receive(sub, 3, true)
	sameMessages(t, got, want)
	for _, m := range got {
		raw := sqsMessage(t, m)
		if m.LoggableID == "" || m.LoggableID != aws.ToString(raw.MessageId) {
			t.Fatalf("LoggableID %q, SQS MessageId %q", m.LoggableID, aws.ToString(raw.MessageId))
		}
		eq(t, raw.Attributes["ApproximateReceiveCount"], "1", "ApproximateReceiveCount")
		if raw.Attributes["SentTimestamp"] == "" || raw.ReceiptHandle == nil {
			t.Fatalf("no SentTimestamp or receipt handle: %+v", raw)
		}
	}
	var sqsClient *sqs.Client
	var snsClient *sns.Client
	if c.kind == cdkSQS && !topic.As(&sqsClient) || c.kind != cdkSQS && !topic.As(&snsClient) {
		t.Fatal("Topic.As(client) failed")
	}
	if !sub.As(&sqsClient) {
		t.Fatal("Subscription.As(*sqs.Client) failed")
	}
	c.shutdown()
	for _, call := range c.wire.of("DeleteMessageBatch") {
		if call.err != nil || len(call.failed) > 0 {
			t.Fatalf("DeleteMessageBatch: %v %v", call.err, call.failed)
		}
	}
}

// Two queues subscribed to one SNS topic each get every message.
func cdkSendReceiveTwo(c *cdk) {
	t := c.t
	if c.kind == cdkSQS {
		t.Skip("an SQS topic has one reader")
	}
	topic, first, arn := c.topicWithQueue(false, nil, nil)
	second := c.subscribedQueue(arn, false)
	want := numbered(3)
	c.send(topic, want...)
	for _, queue := range []string{first, second} {
		sameMessages(t, c.receive(c.subscription(queue, nil), 3, true), want)
	}
}

// A JSON body that is not an SNS envelope comes back as sent.
func cdkJSONBody(c *cdk) {
	topic, sub := c.pair()
	want := &pubsub.Message{Body: []byte(`{"Foo": "Bar", "n": [1, 2]}`)}
	c.send(topic, want)
	sameMessages(c.t, c.receive(sub, 1, true), []*pubsub.Message{want})
}

// Metadata with every awkward character round-trips, ten pairs a message (SQS's limit); a key
// or value that is not UTF-8 is refused before anything is sent.
func cdkMetadata(c *cdk) {
	t := c.t
	topic, sub := c.pair()
	var groups []map[string]string
	for i, s := range weirdStrings() {
		if i%10 == 0 {
			groups = append(groups, map[string]string{})
		}
		groups[len(groups)-1][s] = s
	}
	for _, md := range groups {
		want := &pubsub.Message{Body: []byte("metadata"), Metadata: md}
		c.send(topic, want)
		got := c.receive(sub, 1, true)
		sameMessages(t, got, []*pubsub.Message{want})
	}
	for _, md := range []map[string]string{{"k\xff": "v"}, {"k": "v\xff"}} {
		if err := topic.Send(ctx, &pubsub.Message{Body: []byte("x"), Metadata: md}); err == nil {
			t.Fatalf("Send with metadata %q succeeded", md)
		}
	}
}

// A body that is not UTF-8 travels base64-encoded with a `base64encoded` attribute, and comes
// back as the bytes sent.
func cdkNonUTF8Body(c *cdk) {
	t := c.t
	topic, sub := c.pair()
	body := []byte(strings.Join(weirdStrings(), ""))
	body = append(body, 0xff, 0xfe, 0xc3, 0x28, 0x80)
	want := &pubsub.Message{Body: body}
	c.send(topic, want)
	got := c.receive(sub, 1, true)
	eq(t, got[0].Body, body, "body")
	eq(t, len(got[0].Metadata), 0, "metadata count")
}

// Twelve sends go out as two 6-entry batch calls and twelve acks as two 6-entry
// DeleteMessageBatch calls, all entries succeeding.
func cdkBatching(c *cdk) {
	t := c.t
	six := batcher.Options{MinBatchSize: 6, MaxBatchSize: 6}
	topic, queue, _ := c.topicWithQueue(false, nil, &awssnssqs.TopicOptions{BatcherOptions: six})
	sub := c.subscription(queue, &awssnssqs.SubscriptionOptions{AckBatcherOptions: six})
	var want []*pubsub.Message
	var sends sync.WaitGroup
	errs := make(chan error, 12)
	for range 12 {
		m := &pubsub.Message{Body: []byte("batched")}
		want = append(want, m)
		sends.Add(1)
		go func() { defer sends.Done(); errs <- topic.Send(ctx, m) }()
	}
	sends.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("Send: %v", err)
		}
	}
	sameMessages(t, c.receive(sub, 12, true), want)
	c.shutdown()
	sendOp := "PublishBatch"
	if c.kind == cdkSQS {
		sendOp = "SendMessageBatch"
	}
	for _, op := range []string{sendOp, "DeleteMessageBatch"} {
		var sizes []int
		for _, call := range c.wire.of(op) {
			if call.err != nil || len(call.failed) > 0 {
				t.Fatalf("%s: %v %v", op, call.err, call.failed)
			}
			sizes = append(sizes, call.entries)
		}
		eq(t, sizes, []int{6, 6}, op+" entries per call")
	}
}

// Nacked messages come back (the driver's ChangeMessageVisibilityBatch, every entry
// accepted), received a second time.
func cdkNack(c *cdk) {
	t := c.t
	topic, sub := c.pair()
	want := numbered(2)
	c.send(topic, want...)
	first := c.receive(sub, 2, false)
	for _, m := range first {
		m.Nack()
	}
	sameMessages(t, first, want)
	again := c.receive(sub, 2, true)
	sameMessages(t, again, want)
	for _, m := range again {
		eq(t, sqsMessage(t, m).Attributes["ApproximateReceiveCount"], "2", "ApproximateReceiveCount")
	}
	c.shutdown()
	nacks := c.wire.of("ChangeMessageVisibilityBatch")
	entries := 0
	for _, call := range nacks {
		if call.err != nil || len(call.failed) > 0 {
			t.Fatalf("ChangeMessageVisibilityBatch: %v %v", call.err, call.failed)
		}
		for _, v := range call.visibility {
			eq(t, v, int32(cdkNackVisibility), "nack VisibilityTimeout")
		}
		entries += call.entries
	}
	eq(t, entries, 2, "nacked entries")
}

// Acking twice and nacking after an ack are not errors: SQS accepts the second delete and
// fails the nack of a deleted message per entry with ReceiptHandleIsInvalid, which the driver
// drops. The nack of the message not acked takes effect.
func cdkDoubleAck(c *cdk) {
	t := c.t
	topic, queue, _ := c.topicWithQueue(false, nil, nil)
	ds := subscriptionDriver(t, c.subscription(queue, nil))
	c.send(topic, numbered(3)...)
	wait, cancel := context.WithTimeout(ctx, cdkPatience)
	defer cancel()
	var got []*driver.Message
	for len(got) < 3 {
		batch, err := ds.ReceiveBatch(wait, 3)
		if err != nil {
			t.Fatalf("ReceiveBatch: %v", err)
		}
		got = append(got, batch...)
	}
	eq(t, len(got), 3, "received")
	acked := []driver.AckID{got[0].AckID, got[1].AckID}
	for round := 1; round <= 2; round++ {
		if err := ds.SendAcks(ctx, acked); err != nil {
			t.Fatalf("SendAcks, round %d: %v", round, err)
		}
	}
	if err := ds.SendNacks(ctx, append(acked, got[2].AckID)); err != nil {
		t.Fatalf("SendNacks after acks: %v", err)
	}
	for found := false; !found; {
		batch, err := ds.ReceiveBatch(wait, 1)
		if err != nil {
			t.Fatalf("ReceiveBatch after the nack: %v", err)
		}
		for _, m := range batch {
			if string(m.Body) != string(got[2].Body) {
				t.Fatalf("got %q back, acked before", m.Body)
			}
			found = true
			if err := ds.SendAcks(ctx, []driver.AckID{m.AckID}); err != nil {
				t.Fatalf("SendAcks: %v", err)
			}
		}
	}
	deletes := c.wire.of("DeleteMessageBatch")
	if len(deletes) < 2 {
		t.Fatalf("want 2 DeleteMessageBatch calls, got %d", len(deletes))
	}
	for i, call := range deletes[:2] {
		eq(t, call.succeeded, []string{"0", "1"}, fmt.Sprintf("DeleteMessageBatch %d: successful ids", i+1))
		eq(t, call.failed, map[string]string{}, fmt.Sprintf("DeleteMessageBatch %d: failed ids", i+1))
	}
	nacks := c.wire.of("ChangeMessageVisibilityBatch")
	eq(t, len(nacks), 1, "ChangeMessageVisibilityBatch calls")
	eq(t, nacks[0].failed, map[string]string{"0": "ReceiptHandleIsInvalid", "1": "ReceiptHandleIsInvalid"},
		"ChangeMessageVisibilityBatch: failed entries (deleted messages)")
	eq(t, nacks[0].succeeded, []string{"2"}, "ChangeMessageVisibilityBatch: successful entries")
}

// Sending to a topic that does not exist fails with NotFound and SQS's or SNS's own code.
func cdkMissingTopic(c *cdk) {
	t := c.t
	var topic *pubsub.Topic
	want := "AWS.SimpleQueueService.NonExistentQueue"
	if c.kind == cdkSQS {
		topic = awssnssqs.OpenSQSTopicV2(ctx, c.drvSQS, c.base+"/000000000000/"+uniqueName("gocloud-missing"), nil)
	} else {
		arn := "arn:aws:sns:us-east-1:000000000000:" + uniqueName("gocloud-missing")
		topic = awssnssqs.OpenSNSTopicV2(ctx, c.drvSNS, arn, nil)
		want = (&snstypes.NotFoundException{}).ErrorCode()
	}
	c.closers = append(c.closers, func() error { return topic.Shutdown(ctx) })
	err := topic.Send(ctx, &pubsub.Message{Body: []byte("x")})
	if gcerrors.Code(err) != gcerrors.NotFound {
		t.Fatalf("Send to a missing topic: %v (code %v), want NotFound", err, gcerrors.Code(err))
	}
	var api smithy.APIError
	if !topic.ErrorAs(err, &api) || !errors.As(err, &api) {
		t.Fatalf("ErrorAs(smithy.APIError) failed for %v", err)
	}
	eq(t, api.ErrorCode(), want, "error code")
}

// Receiving from a queue that does not exist fails with NotFound.
func cdkMissingSubscription(c *cdk) {
	t := c.t
	sub := awssnssqs.OpenSubscriptionV2(ctx, c.drvSQS, c.base+"/000000000000/"+uniqueName("gocloud-missing"), nil)
	wait, cancel := context.WithTimeout(ctx, cdkPatience)
	defer cancel()
	_, err := sub.Receive(wait)
	if wait.Err() != nil || gcerrors.Code(err) != gcerrors.NotFound {
		t.Fatalf("Receive from a missing queue: %v (code %v), want NotFound", err, gcerrors.Code(err))
	}
	var api smithy.APIError
	if !sub.ErrorAs(err, &api) {
		t.Fatalf("ErrorAs(smithy.APIError) failed for %v", err)
	}
	eq(t, api.ErrorCode(), "AWS.SimpleQueueService.NonExistentQueue", "error code")
	if err := sub.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown after the failed receive: %v", err)
	}
}

// FIFO pairs, an SQS FIFO queue and an SNS FIFO topic into a FIFO queue: a message with a
// group id and content-based deduplication arrives with its group id; a send without a group
// id, or without a deduplication id where content-based deduplication is off, fails.
func Test_gocloud_fifo(t *testing.T) {
	t.Parallel()
	for _, kind := range []cdkKind{cdkSQS, cdkSNS} {
		cases := []struct {
			name      string
			dedup     bool
			metadata  map[string]string
			wantError bool
		}{
			{"valid", true, map[string]string{awssnssqs.MetadataKeyMessageGroupID: "g1"}, false},
			{"explicit_dedup_id", false, map[string]string{
				awssnssqs.MetadataKeyMessageGroupID: "g1", awssnssqs.MetadataKeyDeduplicationID: "d1",
			}, false},
			{"no_group_id", true, map[string]string{awssnssqs.MetadataKeyDeduplicationID: "d1"}, true},
			{"no_dedup_id", false, map[string]string{awssnssqs.MetadataKeyMessageGroupID: "g1"}, true},
		}
		for _, tc := range cases {
			t.Run(string(kind)+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				c := newCDK(t, kind)
				attrs := map[string]string{}
				if tc.dedup {
					attrs["ContentBasedDeduplication"] = "true"
				}
				topic, queue, _ := c.topicWithQueue(true, attrs, nil)
				sub := c.subscription(queue, nil)
				sent := &pubsub.Message{Body: []byte("fifo " + tc.name), Metadata: tc.metadata}
				err := topic.Send(ctx, sent)
				if tc.wantError {
					// SQS refuses the whole batch call with InvalidParameterValue, SNS with
					// InvalidParameter.
					want := "InvalidParameterValue"
					if kind == cdkSNS {
						want = "InvalidParameter"
					}
					var api smithy.APIError
					if !errors.As(err, &api) {
						t.Fatalf("Send: want an API error, got %v", err)
					}
					eq(t, api.ErrorCode(), want, "error code of "+api.ErrorMessage())
					return
				}
				if err != nil {
					t.Fatalf("Send: %v", err)
				}
				got := c.receive(sub, 1, true)
				sameMessages(t, got, []*pubsub.Message{sent})
				system := sqsMessage(t, got[0]).Attributes
				eq(t, system["MessageGroupId"], "g1", "MessageGroupId")
				if system["SequenceNumber"] == "" {
					t.Fatalf("no SequenceNumber: %v", system)
				}
				if kind == cdkSQS {
					// Content-based deduplication is the SHA-256 of the body, in hex.
					dedup := fmt.Sprintf("%x", sha256.Sum256(sent.Body))
					if !tc.dedup {
						dedup = "d1"
					}
					eq(t, system["MessageDeduplicationId"], dedup, "MessageDeduplicationId")
				}
			})
		}
	}
}
