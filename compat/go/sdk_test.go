// What only the Go SDK does: its wire protocol, its MD5 middleware, its retries of throttled
// and failed calls (against faults injected through sqslite's admin API), and endpoint
// resolution from AWS_ENDPOINT_URL_SQS.
package compat

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
	"github.com/aws/smithy-go/middleware"
)

// tap is an HTTP client that records request headers and may rewrite response bodies.
type tap struct {
	headers []http.Header
	rewrite func([]byte) []byte
}

func (c *tap) Do(req *http.Request) (*http.Response, error) {
	c.headers = append(c.headers, req.Header.Clone())
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil || c.rewrite == nil {
		return res, err
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return nil, err
	}
	body = c.rewrite(body)
	res.Body = io.NopCloser(bytes.NewReader(body))
	res.ContentLength = int64(len(body))
	res.Header.Set("Content-Length", strconv.Itoa(len(body)))
	return res, nil
}

func Test_go_protocol(t *testing.T) {
	h := setup(t)
	recorder := &tap{}
	client := newClient(t, func(o *sqs.Options) { o.HTTPClient = recorder })
	_, err := client.ListQueues(ctx, &sqs.ListQueuesInput{})
	h.must(err)
	sent := recorder.headers[0]
	eq(t, sent.Get("Content-Type"), "application/x-amz-json-1.0", "Content-Type")
	eq(t, sent.Get("X-Amz-Target"), "AmazonSQS.ListQueues", "X-Amz-Target")
	// The SQS model is awsQueryCompatible: the SDK asks for, and reads, x-amzn-query-error.
	eq(t, sent.Get("X-Amzn-Query-Mode"), "true", "X-Amzn-Query-Mode")
}

// The SDK checks every received body against its MD5OfBody (and every sent body against
// MD5OfMessageBody) in the Initialize middleware "SQSValidateMessageChecksum"
// (service/sqs/cust_checksum_validation.go), on unless DisableMessageChecksumValidation: so
// each receive in the scenarios is checked. A digest altered on the way must fail the call.
func Test_go_md5_validation(t *testing.T) {
	h := setup(t)
	// Received messages stay visible: a call the SDK fails has still received one.
	url := h.makeQueue("md5", false, map[string]string{"VisibilityTimeout": "0"})
	var found bool
	h.send(url, "checked")
	out, err := h.sqs.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: &url},
		func(o *sqs.Options) {
			o.APIOptions = append(o.APIOptions, func(s *middleware.Stack) error {
				_, found = s.Initialize.Get("SQSValidateMessageChecksum")
				return nil
			})
		})
	h.must(err)
	eq(t, found, true, "the checksum middleware is in ReceiveMessage's stack")

	digest := regexp.MustCompile(`"MD5OfBody":"[0-9a-f]{32}"`)
	corrupt := func(b []byte) []byte {
		return digest.ReplaceAll(b, []byte(`"MD5OfBody":"00000000000000000000000000000000"`))
	}
	tampered := newClient(t, func(o *sqs.Options) { o.HTTPClient = &tap{rewrite: corrupt} })
	_, err = tampered.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: &url})
	if err == nil || !strings.Contains(err.Error(), "message checksum validation failed") {
		t.Fatalf("a wrong MD5OfBody was accepted: %v", err)
	}
	unchecked := newClient(t, func(o *sqs.Options) {
		o.HTTPClient = &tap{rewrite: corrupt}
		o.DisableMessageChecksumValidation = true
	})
	out, err = unchecked.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: &url})
	h.must(err)
	eq(t, bodies(out.Messages), []string{"checked"}, "unchecked receive")
}

// injectFault arms one rule on sqslite (docs/src/clock-and-faults.md) and returns its id.
func (h *harness) injectFault(action, queue, errorCode string, count int) int {
	h.t.Helper()
	var rule struct {
		ID int `json:"id"`
	}
	spec := map[string]any{"action": action, "queue": queue, "error": errorCode, "count": count}
	h.admin("POST", "/_sqslite/faults", spec, &rule)
	h.t.Cleanup(func() { h.admin("DELETE", "/_sqslite/faults", nil, nil) })
	return rule.ID
}

// attempts is the SDK's own record of the attempts a call made.
func attempts(t *testing.T, metadata middleware.Metadata) []retry.AttemptResult {
	t.Helper()
	results, ok := retry.GetAttemptResults(metadata)
	if !ok {
		t.Fatal("no attempt results in the metadata")
	}
	return results.Results
}

// The default retryer (standard mode, 3 attempts) treats RequestThrottled, SQS's throttling
// code, as a throttle (aws/retry DefaultThrottleErrorCodes) and retries it after up to 1 s,
// then 2 s; 5xx answers are retried after up to 50 ms, 100 ms (aws/retry/standard.go).
func Test_go_throttle_retry(t *testing.T) {
	h := setup(t)
	url := h.makeQueue("throttled", false, nil)
	name := url[strings.LastIndex(url, "/")+1:]
	retrying := sqs.NewFromConfig(loadConfig(t), func(o *sqs.Options) { o.BaseEndpoint = aws.String(h.base) })

	h.injectFault("SendMessage", name, "RequestThrottled", 2)
	out, err := retrying.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: &url, MessageBody: aws.String("third time")})
	h.must(err)
	tries := attempts(t, out.ResultMetadata)
	eq(t, len(tries), 3, "attempts")
	throttle := retry.IsErrorThrottles(retry.DefaultThrottles)
	for _, try := range tries[:2] {
		mustFailAs[*types.RequestThrottled](t, try.Err)
		eq(t, throttle.IsErrorThrottle(try.Err), aws.TrueTernary, "seen as a throttle")
		eq(t, try.Retryable && try.Retried, true, "retried")
	}
	eq(t, tries[2].Err, nil, "the third attempt")
	eq(t, bodies(h.receive(&sqs.ReceiveMessageInput{QueueUrl: &url})), []string{"third time"}, "sent once")

	// A 503 is retried too, and three of them exhaust the default attempts.
	h.injectFault("GetQueueAttributes", name, "ServiceUnavailable", 3)
	_, err = retrying.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{QueueUrl: &url})
	var exhausted *retry.MaxAttemptsError
	if !errors.As(err, &exhausted) {
		t.Fatalf("want MaxAttemptsError, got %v", err)
	}
	eq(t, exhausted.Attempt, 3, "attempts before giving up")
	eq(t, code(t, err), "ServiceUnavailable", "code")
	// Not retried: a client error that is no throttle.
	_, err = retrying.GetQueueUrl(ctx, &sqs.GetQueueUrlInput{QueueName: aws.String("no-such-queue")})
	mustFailAs[*types.QueueDoesNotExist](t, err)
	if errors.As(err, &exhausted) {
		t.Fatalf("QueueDoesNotExist was retried: %v", err)
	}
}

// With no endpoint in code, the SDK takes AWS_ENDPOINT_URL_SQS, which wins over the global
// AWS_ENDPOINT_URL (service/sqs/endpoints.go resolveBaseEndpoint), else AWS_ENDPOINT_URL.
func Test_go_endpoint_from_env(t *testing.T) {
	h := setup(t)
	// A closed loopback port: a call that took the global variable would fail.
	t.Setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:9")
	t.Setenv("AWS_ENDPOINT_URL_SQS", h.base)
	fromEnv := sqs.NewFromConfig(loadConfig(t))
	name := uniqueName("env")
	created, err := fromEnv.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: &name})
	h.must(err)
	h.queues = append(h.queues, *created.QueueUrl)
	if !strings.HasPrefix(*created.QueueUrl, h.base+"/") {
		t.Fatalf("queue URL %s is not on %s", *created.QueueUrl, h.base)
	}

	t.Setenv("AWS_ENDPOINT_URL", h.base)
	if err := unsetenv(t, "AWS_ENDPOINT_URL_SQS"); err != nil {
		t.Fatal(err)
	}
	global := sqs.NewFromConfig(loadConfig(t))
	got, err := global.GetQueueUrl(ctx, &sqs.GetQueueUrlInput{QueueName: &name})
	h.must(err)
	eq(t, *got.QueueUrl, *created.QueueUrl, "GetQueueUrl through AWS_ENDPOINT_URL")
}

// The Go SDK sends every call to its endpoint, whatever host the QueueUrl names; sqslite
// finds the queue by the URL's path, so a URL minted elsewhere (AWS, LocalStack) works.
func Test_go_queue_url_host(t *testing.T) {
	h := setup(t)
	url := h.makeQueue("foreign", false, nil)
	name := url[strings.LastIndex(url, "/")+1:]
	for _, foreign := range []string{
		"https://sqs.us-east-1.amazonaws.com/000000000000/" + name,
		"http://sqs.us-east-1.localhost.localstack.cloud:4566/000000000000/" + name,
	} {
		h.send(foreign, foreign)
	}
	eq(t, h.counts(url), [2]string{"2", "0"}, "counts")
}

// unsetenv removes a variable for the rest of the test (t.Setenv restores it afterwards).
func unsetenv(t *testing.T, key string) error {
	t.Setenv(key, "")
	return os.Unsetenv(key)
}
