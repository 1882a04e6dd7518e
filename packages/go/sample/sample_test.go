// The sample suite packages/run.sh runs against the sqslitetest package (a replace directive
// stands in for its published version). One server for the package's tests, reset per subtest:
// each first checks the started state and then leaves something behind.
package sample

import (
	"context"
	"io"
	"path"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
	"sqslite.dev/sqslitetest"
)

func TestQueues(t *testing.T) {
	server := sqslitetest.Start(t, sqslitetest.Options{Config: "sqslite.toml", Clock: "manual"})
	for _, tc := range []struct {
		name string
		run  func(*testing.T, *sqslitetest.Server)
	}{
		{"poison message reaches the DLQ on the manual clock", poison},
		{"created queues are gone after reset", leaveSomethingBehind},
		{"and again", leaveSomethingBehind},
	} {
		t.Run(tc.name, func(t *testing.T) {
			server.Reset(t)
			assertStartedState(t, server.Client)
			tc.run(t, server)
		})
	}
}

// The guide's example (go.md, testing-packages.md), whole: the guide's check keeps them equal.
func TestOrders(t *testing.T) {
	server := sqslitetest.Start(t, sqslitetest.Options{Config: "sqslite.toml", Clock: "manual"})
	ctx := context.Background()
	// server.Client is an *sqs.Client for it; server.Endpoint is its URL, for other clients.
	out, err := server.Client.GetQueueUrl(ctx, &sqs.GetQueueUrlInput{QueueName: aws.String("orders")})
	if err != nil {
		t.Fatal(err)
	}
	send := &sqs.SendMessageInput{QueueUrl: out.QueueUrl, MessageBody: aws.String("hi")}
	if _, err := server.Client.SendMessage(ctx, send); err != nil {
		t.Fatal(err)
	}
	receive := &sqs.ReceiveMessageInput{QueueUrl: out.QueueUrl}
	if got, err := server.Client.ReceiveMessage(ctx, receive); err != nil || len(got.Messages) != 1 {
		t.Fatal("not received:", got, err)
	}
	server.AdvanceClock(t, 31*time.Second) // past the 30 s visibility timeout, at once
	if got, err := server.Client.ReceiveMessage(ctx, receive); err != nil || len(got.Messages) != 1 {
		t.Fatal("not redelivered:", got, err)
	}
	server.Reset(t) // declared queues empty, the others gone
}

func poison(t *testing.T, server *sqslitetest.Server) {
	ctx, sqsc := context.Background(), server.Client
	orders := queueURL(t, sqsc, "orders")
	if _, err := sqsc.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: orders, MessageBody: aws.String("poison")}); err != nil {
		t.Fatal(err)
	}
	for _, attempt := range []string{"1", "2"} {
		got := receive(t, sqsc, orders)
		if len(got) != 1 || got[0].Attributes["ApproximateReceiveCount"] != attempt {
			t.Fatalf("receive %s: %+v", attempt, got)
		}
		if got := receive(t, sqsc, orders); len(got) != 0 {
			t.Fatalf("in flight for VisibilityTimeout = 30, yet received %+v", got)
		}
		server.AdvanceClock(t, 31*time.Second)
	}
	if got := receive(t, sqsc, orders); len(got) != 0 {
		t.Fatalf("a third receive should move it to the DLQ, got %+v", got)
	}
	dead := receive(t, sqsc, queueURL(t, sqsc, "orders-dlq"))
	if len(dead) != 1 || aws.ToString(dead[0].Body) != "poison" {
		t.Fatalf("DLQ: %+v", dead)
	}
}

func leaveSomethingBehind(t *testing.T, server *sqslitetest.Server) {
	ctx, sqsc := context.Background(), server.Client
	created, err := sqsc.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("scratch")})
	if err != nil {
		t.Fatal(err)
	}
	for _, url := range []*string{created.QueueUrl, queueURL(t, sqsc, "orders")} {
		if _, err := sqsc.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: url, MessageBody: aws.String("left behind")}); err != nil {
			t.Fatal(err)
		}
	}
}

func assertStartedState(t *testing.T, sqsc *sqs.Client) {
	t.Helper()
	list, err := sqsc.ListQueues(context.Background(), &sqs.ListQueuesInput{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, url := range list.QueueUrls {
		names = append(names, path.Base(url))
		attrs, err := sqsc.GetQueueAttributes(context.Background(), &sqs.GetQueueAttributesInput{
			QueueUrl: aws.String(url), AttributeNames: []types.QueueAttributeName{
				types.QueueAttributeNameApproximateNumberOfMessages, types.QueueAttributeNameApproximateNumberOfMessagesNotVisible,
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"} {
			if n := attrs.Attributes[name]; n != "0" {
				t.Errorf("%s: %s is %s after reset", url, name, n)
			}
		}
	}
	sort.Strings(names)
	if len(names) != 2 || names[0] != "orders" || names[1] != "orders-dlq" {
		t.Fatalf("queues after reset: %v", names)
	}
}

func queueURL(t *testing.T, sqsc *sqs.Client, name string) *string {
	t.Helper()
	out, err := sqsc.GetQueueUrl(context.Background(), &sqs.GetQueueUrlInput{QueueName: aws.String(name)})
	if err != nil {
		t.Fatal(err)
	}
	return out.QueueUrl
}

func receive(t *testing.T, sqsc *sqs.Client, url *string) []types.Message {
	t.Helper()
	out, err := sqsc.ReceiveMessage(context.Background(), &sqs.ReceiveMessageInput{
		QueueUrl: url, WaitTimeSeconds: 0,
		MessageSystemAttributeNames: []types.MessageSystemAttributeName{types.MessageSystemAttributeNameApproximateReceiveCount},
	})
	if err != nil {
		t.Fatal(err)
	}
	return out.Messages
}

// S3 is served on the same port: an S3 client from AWSConfig with BaseEndpoint set to
// Endpoint, as for any other client; Reset drops the buckets too.
func TestS3(t *testing.T) {
	server := sqslitetest.Start(t, sqslitetest.Options{Config: "sqslite.toml", Clock: "manual"})
	ctx := context.Background()
	client := s3.NewFromConfig(server.AWSConfig(), func(o *s3.Options) { o.BaseEndpoint = aws.String(server.Endpoint) })
	if _, err := client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String("payloads")}); err != nil {
		t.Fatal(err)
	}
	put := &s3.PutObjectInput{Bucket: aws.String("payloads"), Key: aws.String("orders/1.json"), Body: strings.NewReader(`{"order": 1}`)}
	if _, err := client.PutObject(ctx, put); err != nil {
		t.Fatal(err)
	}
	got, err := client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("payloads"), Key: aws.String("orders/1.json")})
	if err != nil {
		t.Fatal(err)
	}
	defer got.Body.Close()
	if body, err := io.ReadAll(got.Body); err != nil || string(body) != `{"order": 1}` {
		t.Fatalf("read back %q, %v", body, err)
	}
	server.Reset(t)
	if out, err := client.ListBuckets(ctx, &s3.ListBucketsInput{}); err != nil || len(out.Buckets) != 0 {
		t.Fatalf("buckets after reset: %+v, %v", out, err)
	}
}

// Every delete leaves the message to come back once more: what a consumer must survive.
func TestAtLeastOnceDelivery(t *testing.T) {
	seed := uint64(7)
	server := sqslitetest.Start(t, sqslitetest.Options{
		Delivery: "at-least-once", DeliverySeed: &seed, Args: []string{"--delivery-duplicate", "1"},
	})
	ctx := context.Background()
	created, err := server.Client.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("payments")})
	if err != nil {
		t.Fatal(err)
	}
	sent, err := server.Client.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: created.QueueUrl, MessageBody: aws.String("charge once")})
	if err != nil {
		t.Fatal(err)
	}
	take := func() types.Message {
		out, err := server.Client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: created.QueueUrl})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Messages) != 1 {
			t.Fatalf("receive: %d messages", len(out.Messages))
		}
		return out.Messages[0]
	}
	first := take()
	if _, err := server.Client.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: created.QueueUrl, ReceiptHandle: first.ReceiptHandle}); err != nil {
		t.Fatal(err)
	}
	again := take()
	if *again.MessageId != *sent.MessageId || *again.ReceiptHandle == *first.ReceiptHandle {
		t.Fatalf("the duplicate: id %s (sent %s), the same handle: %v", *again.MessageId, *sent.MessageId, *again.ReceiptHandle == *first.ReceiptHandle)
	}
}
