// Shared by the Go suites: a client for the sqslite under test (compat/run.sh passes its URL in
// SQSLITE_ENDPOINT), throwaway queues, SQS's attribute MD5 (reference section 6) computed here
// to check what sqslite returns, and sqslite's admin API for parked receives and faults.
package compat

import (
	"bytes"
	"context"
	"crypto/md5"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
	"github.com/aws/smithy-go"
)

var ctx = context.Background()

func endpoint(t *testing.T) string {
	t.Helper()
	url := os.Getenv("SQSLITE_ENDPOINT")
	if url == "" {
		t.Fatal("SQSLITE_ENDPOINT is not set: run the suite through compat/run.sh")
	}
	return url
}

// loadConfig is the shared configuration an application would load, with fixed test
// credentials and region so that nothing on the machine (profiles, IMDS) is consulted.
func loadConfig(t *testing.T, opts ...func(*config.LoadOptions) error) aws.Config {
	t.Helper()
	opts = append([]func(*config.LoadOptions) error{
		config.WithRegion("us-east-1"),
		config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider("test", "test", "")),
	}, opts...)
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// newClient is the suite's client: the endpoint set in code and no retries, since a retried
// request would hide a failure. The SDK's MD5 checks stay on (their default).
func newClient(t *testing.T, optFns ...func(*sqs.Options)) *sqs.Client {
	t.Helper()
	cfg := loadConfig(t, config.WithRetryMaxAttempts(1))
	base := func(o *sqs.Options) { o.BaseEndpoint = aws.String(endpoint(t)) }
	return sqs.NewFromConfig(cfg, append([]func(*sqs.Options){base}, optFns...)...)
}

type harness struct {
	t      *testing.T
	sqs    *sqs.Client
	base   string
	queues []string
}

// setup gives a test the client and a queue maker; queues left over are deleted at the end.
func setup(t *testing.T) *harness {
	h := &harness{t: t, sqs: newClient(t), base: endpoint(t)}
	t.Cleanup(func() {
		for _, url := range h.queues {
			_, err := h.sqs.DeleteQueue(ctx, &sqs.DeleteQueueInput{QueueUrl: &url})
			var gone *types.QueueDoesNotExist
			if err != nil && !errors.As(err, &gone) {
				t.Errorf("cleanup of %s: %v", url, err)
			}
		}
	})
	return h
}

func uniqueName(prefix string) string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return prefix + "-" + hex.EncodeToString(b)
}

// makeQueue creates a uniquely named queue; `fifo` adds the suffix and FifoQueue=true.
func (h *harness) makeQueue(prefix string, fifo bool, attributes map[string]string) string {
	h.t.Helper()
	name := uniqueName(prefix)
	attrs := map[string]string{}
	for k, v := range attributes {
		attrs[k] = v
	}
	if fifo {
		name += ".fifo"
		attrs["FifoQueue"] = "true"
	}
	out, err := h.sqs.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: &name, Attributes: attrs})
	h.must(err)
	h.queues = append(h.queues, *out.QueueUrl)
	return *out.QueueUrl
}

func (h *harness) must(err error) {
	h.t.Helper()
	if err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) send(url, body string) *sqs.SendMessageOutput {
	h.t.Helper()
	out, err := h.sqs.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: &url, MessageBody: &body})
	h.must(err)
	return out
}

func (h *harness) receive(in *sqs.ReceiveMessageInput) []types.Message {
	h.t.Helper()
	out, err := h.sqs.ReceiveMessage(ctx, in)
	h.must(err)
	return out.Messages
}

func (h *harness) receiveOne(in *sqs.ReceiveMessageInput) types.Message {
	h.t.Helper()
	messages := h.receive(in)
	if len(messages) != 1 {
		h.t.Fatalf("want 1 message, got %d: %v", len(messages), bodies(messages))
	}
	return messages[0]
}

func (h *harness) deleteMessage(url string, handle *string) {
	h.t.Helper()
	_, err := h.sqs.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: &url, ReceiptHandle: handle})
	h.must(err)
}

func (h *harness) changeVisibility(url string, handle *string, seconds int32) {
	h.t.Helper()
	_, err := h.sqs.ChangeMessageVisibility(ctx, &sqs.ChangeMessageVisibilityInput{
		QueueUrl: &url, ReceiptHandle: handle, VisibilityTimeout: seconds,
	})
	h.must(err)
}

func (h *harness) attribute(url string, name types.QueueAttributeName) string {
	h.t.Helper()
	out, err := h.sqs.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{
		QueueUrl: &url, AttributeNames: []types.QueueAttributeName{name},
	})
	h.must(err)
	return out.Attributes[string(name)]
}

// counts is (visible, in flight).
func (h *harness) counts(url string) [2]string {
	h.t.Helper()
	return [2]string{
		h.attribute(url, types.QueueAttributeNameApproximateNumberOfMessages),
		h.attribute(url, types.QueueAttributeNameApproximateNumberOfMessagesNotVisible),
	}
}

// waitParked waits until a ReceiveMessage is parked on the queue (sqslite's admin API), so
// that what the test does next is what wakes it.
func (h *harness) waitParked(url string) {
	h.t.Helper()
	name := url[bytes.LastIndexByte([]byte(url), '/')+1:]
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		var waiters struct {
			Queues []struct {
				Name   string `json:"name"`
				Parked int    `json:"parked"`
			} `json:"queues"`
		}
		h.admin("GET", "/_sqslite/waiters", nil, &waiters)
		for _, q := range waiters.Queues {
			if q.Name == name && q.Parked >= 1 {
				return
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	h.t.Fatalf("no receive parked on %s", name)
}

// admin calls sqslite's admin API with a JSON body and decodes a JSON answer into `into`.
func (h *harness) admin(method, path string, body, into any) {
	h.t.Helper()
	var payload []byte
	if body != nil {
		var err error
		payload, err = json.Marshal(body)
		h.must(err)
	}
	req, err := http.NewRequest(method, h.base+path, bytes.NewReader(payload))
	h.must(err)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	h.must(err)
	defer res.Body.Close()
	if res.StatusCode >= 300 {
		h.t.Fatalf("%s %s: HTTP %d", method, path, res.StatusCode)
	}
	if into != nil {
		h.must(json.NewDecoder(res.Body).Decode(into))
	}
}

// code is the error code the SDK reports: the Query code, as SQS sends it in
// x-amzn-query-error (e.g. AWS.SimpleQueueService.NonExistentQueue).
func code(t *testing.T, err error) string {
	t.Helper()
	var api smithy.APIError
	if !errors.As(err, &api) {
		t.Fatalf("want an API error, got %v", err)
	}
	return api.ErrorCode()
}

// mustFailAs asserts that err is, or wraps, an error of type *E (the SDK's modeled error).
func mustFailAs[E error](t *testing.T, err error) E {
	t.Helper()
	var target E
	if !errors.As(err, &target) {
		t.Fatalf("want %T, got %v", target, err)
	}
	return target
}

func bodies(messages []types.Message) []string {
	out := []string{}
	for _, m := range messages {
		out = append(out, aws.ToString(m.Body))
	}
	return out
}

func md5Hex(b []byte) string {
	sum := md5.Sum(b)
	return hex.EncodeToString(sum[:])
}

// md5OfAttributes is SQS's digest of message attributes: names sorted by their bytes, each
// with a 4-byte big-endian length before name, type and value, and a 1 (string) or 2 (binary)
// transport byte before the value.
func md5OfAttributes(attributes map[string]types.MessageAttributeValue) string {
	var buf bytes.Buffer
	field := func(b []byte) {
		_ = binary.Write(&buf, binary.BigEndian, uint32(len(b)))
		buf.Write(b)
	}
	names := make([]string, 0, len(attributes))
	for name := range attributes {
		names = append(names, name)
	}
	sort.Strings(names) // Go compares strings bytewise
	for _, name := range names {
		value := attributes[name]
		field([]byte(name))
		field([]byte(aws.ToString(value.DataType)))
		if value.BinaryValue != nil {
			buf.WriteByte(2)
			field(value.BinaryValue)
		} else {
			buf.WriteByte(1)
			field([]byte(aws.ToString(value.StringValue)))
		}
	}
	return md5Hex(buf.Bytes())
}

// plain renders attributes as comparable text (type, string or hex binary value).
func plain(attributes map[string]types.MessageAttributeValue) map[string]string {
	out := map[string]string{}
	for name, v := range attributes {
		out[name] = fmt.Sprintf("%s|%s|%x", aws.ToString(v.DataType), aws.ToString(v.StringValue), v.BinaryValue)
	}
	return out
}

// eq fails the test unless got and want are deeply equal.
func eq[T any](t *testing.T, got, want T, what string) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: got %#v, want %#v", what, got, want)
	}
}
