// The SNS rows of docs/src/scenarios.md through the Go SDK v2's SNS client (AWS Query), fanning
// out into sqslite's queues on the same endpoint as the SQS client.
package compat

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"math/big"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	snstypes "github.com/aws/aws-sdk-go-v2/service/sns/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
	"github.com/aws/smithy-go"
)

// What every SNS suite publishes and expects (docs/src/scenarios.md, "SNS fan-out").
var (
	blob          = []byte{0, 1, 254, 255}
	envelopeKeys  = []string{"Message", "MessageAttributes", "MessageId", "Signature", "SignatureVersion", "SigningCertURL", "Subject", "Timestamp", "TopicArn", "Type", "UnsubscribeURL"}
	timestampForm = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$`)
	base64Form    = regexp.MustCompile(`^[A-Za-z0-9+/]+={0,2}$`)
)

func snsAttr(dataType, value string) snstypes.MessageAttributeValue {
	return snstypes.MessageAttributeValue{DataType: aws.String(dataType), StringValue: aws.String(value)}
}

type snsHarness struct {
	*harness
	sns *sns.Client
}

// setupSNS adds an SNS client (no retries, the endpoint in code) to the queue harness; the
// topics it made are deleted at the end.
func setupSNS(t *testing.T) *snsHarness {
	h := &snsHarness{harness: setup(t)}
	cfg := loadConfig(t, config.WithRetryMaxAttempts(1))
	h.sns = sns.NewFromConfig(cfg, func(o *sns.Options) { o.BaseEndpoint = aws.String(endpoint(t)) })
	return h
}

func (h *snsHarness) makeTopic(fifo bool) string {
	h.t.Helper()
	name, attrs := uniqueName("compat"), map[string]string{}
	if fifo {
		name += ".fifo"
		attrs["FifoTopic"] = "true"
	}
	out, err := h.sns.CreateTopic(ctx, &sns.CreateTopicInput{Name: &name, Attributes: attrs})
	h.must(err)
	h.t.Cleanup(func() {
		_, err := h.sns.DeleteTopic(ctx, &sns.DeleteTopicInput{TopicArn: out.TopicArn})
		h.must(err)
	})
	return *out.TopicArn
}

func (h *snsHarness) subscribe(topic, queueArn string, attributes map[string]string) (string, error) {
	out, err := h.sns.Subscribe(ctx, &sns.SubscribeInput{
		TopicArn: &topic, Protocol: aws.String("sqs"), Endpoint: &queueArn,
		Attributes: attributes, ReturnSubscriptionArn: true,
	})
	if err != nil {
		return "", err
	}
	if !strings.HasPrefix(*out.SubscriptionArn, topic+":") {
		h.t.Fatalf("subscription %s is not under %s", *out.SubscriptionArn, topic)
	}
	return *out.SubscriptionArn, nil
}

func (h *snsHarness) mustSubscribe(topic, queueArn string, attributes map[string]string) string {
	h.t.Helper()
	sub, err := h.subscribe(topic, queueArn, attributes)
	h.must(err)
	return sub
}

func (h *snsHarness) queueArn(url string) string {
	h.t.Helper()
	return h.attribute(url, types.QueueAttributeNameQueueArn)
}

func (h *snsHarness) publish(in *sns.PublishInput) *sns.PublishOutput {
	h.t.Helper()
	out, err := h.sns.Publish(ctx, in)
	h.must(err)
	return out
}

// drain is every message the queue holds: receives (and deletes) until one comes back empty.
func (h *snsHarness) drain(url string) []types.Message {
	h.t.Helper()
	var got []types.Message
	for range 10 {
		batch := h.receive(&sqs.ReceiveMessageInput{
			QueueUrl: &url, MaxNumberOfMessages: 10, MessageAttributeNames: []string{"All"},
			MessageSystemAttributeNames: []types.MessageSystemAttributeName{"All"},
		})
		if len(batch) == 0 {
			return got
		}
		got = append(got, batch...)
		for _, m := range batch {
			h.deleteMessage(url, m.ReceiptHandle)
		}
	}
	h.t.Fatalf("%s never ran dry", url)
	return nil
}

func (h *snsHarness) checkEnvelope(body, topic, sub, messageID, message string) {
	t := h.t
	t.Helper()
	var envelope map[string]any
	h.must(json.Unmarshal([]byte(body), &envelope))
	keys := make([]string, 0, len(envelope))
	for k := range envelope {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	eq(t, keys, envelopeKeys, "envelope keys")
	eq(t, envelope["Type"], any("Notification"), "Type")
	eq(t, envelope["MessageId"], any(messageID), "MessageId")
	eq(t, envelope["TopicArn"], any(topic), "TopicArn")
	eq(t, envelope["Subject"], any("compat fan-out"), "Subject")
	eq(t, envelope["Message"], any(message), "Message")
	if ts, _ := envelope["Timestamp"].(string); !timestampForm.MatchString(ts) {
		t.Fatalf("Timestamp %q", ts)
	}
	eq(t, envelope["SignatureVersion"], any("1"), "SignatureVersion")
	if sig, _ := envelope["Signature"].(string); !base64Form.MatchString(sig) {
		t.Fatalf("Signature %q", sig)
	}
	if cert, _ := envelope["SigningCertURL"].(string); !strings.HasPrefix(cert, h.base+"/") || !strings.HasSuffix(cert, ".pem") {
		t.Fatalf("SigningCertURL %q", cert)
	}
	eq(t, envelope["UnsubscribeURL"], any(h.base+"/?Action=Unsubscribe&SubscriptionArn="+sub), "UnsubscribeURL")
	typed := func(kind, value string) any { return map[string]any{"Type": kind, "Value": value} }
	eq(t, envelope["MessageAttributes"], any(map[string]any{
		"color": typed("String", "red"),
		"size":  typed("Number", "3"),
		"tags":  typed("String.Array", `["urgent","late"]`),
		"blob":  typed("Binary", base64.StdEncoding.EncodeToString(blob)),
	}), "MessageAttributes")
}

func Test_sns_fan_out(t *testing.T) {
	h := setupSNS(t)
	topic := h.makeTopic(false)
	envURL, rawURL, bodyURL := h.makeQueue("sns-env", false, nil), h.makeQueue("sns-raw", false, nil), h.makeQueue("sns-body", false, nil)
	envSub := h.mustSubscribe(topic, h.queueArn(envURL), map[string]string{
		"FilterPolicy": `{"color": ["red"], "size": [{"numeric": [">=", 3]}], "tags": ["urgent"]}`,
	})
	rawSub := h.mustSubscribe(topic, h.queueArn(rawURL), map[string]string{"RawMessageDelivery": "true"})
	bodySub := h.mustSubscribe(topic, h.queueArn(bodyURL), map[string]string{
		"FilterPolicyScope": "MessageBody",
		"FilterPolicy":      `{"kind": ["order"], "total": [{"numeric": [">", 100]}]}`,
	})
	listed, err := h.sns.ListSubscriptionsByTopic(ctx, &sns.ListSubscriptionsByTopicInput{TopicArn: &topic})
	h.must(err)
	var arns []string
	for _, s := range listed.Subscriptions {
		arns = append(arns, *s.SubscriptionArn)
		eq(t, *s.Protocol, "sqs", "Protocol")
	}
	want := []string{envSub, rawSub, bodySub}
	sort.Strings(arns)
	sort.Strings(want)
	eq(t, arns, want, "subscriptions")
	subAttrs := func(arn string) map[string]string {
		out, err := h.sns.GetSubscriptionAttributes(ctx, &sns.GetSubscriptionAttributesInput{SubscriptionArn: &arn})
		h.must(err)
		return out.Attributes
	}
	eq(t, subAttrs(rawSub)["RawMessageDelivery"], "true", "RawMessageDelivery")
	eq(t, subAttrs(bodySub)["FilterPolicyScope"], "MessageBody", "FilterPolicyScope")

	// 1 matches every filter; 2 fails the envelope one on color and the body one on total;
	// 3 fails the envelope one on size and the body one on kind. Raw takes all three.
	first, second, third := `{"kind":"order","total":120}`, `{"kind":"order","total":50}`, `{"kind":"refund","total":500}`
	firstID := *h.publish(&sns.PublishInput{
		TopicArn: &topic, Message: &first, Subject: aws.String("compat fan-out"),
		MessageAttributes: map[string]snstypes.MessageAttributeValue{
			"color": snsAttr("String", "red"),
			"size":  snsAttr("Number", "3"),
			"tags":  snsAttr("String.Array", `["urgent","late"]`),
			"blob":  {DataType: aws.String("Binary"), BinaryValue: blob},
		},
	}).MessageId
	h.publish(&sns.PublishInput{TopicArn: &topic, Message: &second, MessageAttributes: map[string]snstypes.MessageAttributeValue{
		"color": snsAttr("String", "blue"), "size": snsAttr("Number", "5"),
	}})
	h.publish(&sns.PublishInput{TopicArn: &topic, Message: &third, MessageAttributes: map[string]snstypes.MessageAttributeValue{
		"color": snsAttr("String", "red"), "size": snsAttr("Number", "2"), "tags": snsAttr("String.Array", `["urgent"]`),
	}})

	for _, q := range []struct{ url, sub string }{{envURL, envSub}, {bodyURL, bodySub}} {
		got := h.drain(q.url)
		if len(got) != 1 {
			t.Fatalf("%s: want 1 notification, got %d", q.url, len(got))
		}
		h.checkEnvelope(*got[0].Body, topic, q.sub, firstID, first)
		eq(t, len(got[0].MessageAttributes), 0, "SQS attributes of a notification")
	}

	raw := map[string]types.Message{}
	for _, m := range h.drain(rawURL) {
		raw[*m.Body] = m
	}
	if len(raw) != 3 {
		t.Fatalf("raw: want 3 messages, got %v", raw)
	}
	eq(t, plain(raw[first].MessageAttributes), map[string]string{
		"color": "String|red|", "size": "Number|3|", "tags": `String.Array|["urgent","late"]|`, "blob": "Binary||0001feff",
	}, "raw attributes of 1")
	eq(t, plain(raw[second].MessageAttributes), map[string]string{"color": "String|blue|", "size": "Number|5|"}, "raw attributes of 2")
	names := []string{}
	for name := range raw[third].MessageAttributes {
		names = append(names, name)
	}
	sort.Strings(names)
	eq(t, names, []string{"color", "size", "tags"}, "raw attribute names of 3")
}

func sequenceNumber(t *testing.T, s *string) *big.Int {
	t.Helper()
	n, ok := new(big.Int).SetString(aws.ToString(s), 10)
	if !ok {
		t.Fatalf("SequenceNumber %q", aws.ToString(s))
	}
	return n
}

func Test_sns_fifo_order_dedup(t *testing.T) {
	h := setupSNS(t)
	topic := h.makeTopic(true)
	attrs, err := h.sns.GetTopicAttributes(ctx, &sns.GetTopicAttributesInput{TopicArn: &topic})
	h.must(err)
	eq(t, attrs.Attributes["FifoTopic"], "true", "FifoTopic")
	eq(t, attrs.Attributes["ContentBasedDeduplication"], "false", "ContentBasedDeduplication")
	url := h.makeQueue("sns-fifo", true, nil)
	h.mustSubscribe(topic, h.queueArn(url), map[string]string{"RawMessageDelivery": "true"})

	type stamp struct {
		id  string
		seq *big.Int
	}
	published := map[string]stamp{}
	var last *big.Int
	for _, p := range [][2]string{{"g1", "a1"}, {"g2", "b1"}, {"g1", "a2"}, {"g2", "b2"}} {
		out := h.publish(&sns.PublishInput{
			TopicArn: &topic, Message: aws.String(p[1]), MessageGroupId: aws.String(p[0]),
			MessageDeduplicationId: aws.String("d-" + p[1]),
		})
		seq := sequenceNumber(t, out.SequenceNumber)
		if last != nil && seq.Cmp(last) <= 0 {
			t.Fatalf("sequence number %s after %s", seq, last)
		}
		last = seq
		published[p[1]] = stamp{*out.MessageId, seq}
	}
	// A repeated deduplication id is accepted, answered as the first, and delivers nothing.
	again := h.publish(&sns.PublishInput{
		TopicArn: &topic, Message: aws.String("a1 again"), MessageGroupId: aws.String("g1"),
		MessageDeduplicationId: aws.String("d-a1"),
	})
	eq(t, *again.MessageId, published["a1"].id, "duplicate's MessageId")
	eq(t, sequenceNumber(t, again.SequenceNumber).Cmp(published["a1"].seq), 0, "duplicate's SequenceNumber")

	groups := map[string][]string{}
	for _, m := range h.drain(url) {
		g := m.Attributes["MessageGroupId"]
		groups[g] = append(groups[g], *m.Body)
	}
	eq(t, groups, map[string][]string{"g1": {"a1", "a2"}, "g2": {"b1", "b2"}}, "groups")

	_, err = h.sns.Publish(ctx, &sns.PublishInput{TopicArn: &topic, Message: aws.String("no group"), MessageDeduplicationId: aws.String("d-x")})
	snsFails[*snstypes.InvalidParameterException](t, err, "InvalidParameter", 400, "Invalid parameter: The MessageGroupId parameter is required for FIFO topics")
	_, err = h.sns.Publish(ctx, &sns.PublishInput{TopicArn: &topic, Message: aws.String("no dedup"), MessageGroupId: aws.String("g1")})
	snsFails[*snstypes.InvalidParameterException](t, err, "InvalidParameter", 400,
		"Invalid parameter: The topic should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly")
}

// snsFails asserts the SDK's modelled error type (chosen by the wire code), the code, the
// HTTP status, the client fault and the message.
func snsFails[E error](t *testing.T, err error, wantCode string, status int, message string) {
	t.Helper()
	mustFailAs[E](t, err)
	eq(t, code(t, err), wantCode, "code")
	var api smithy.APIError
	errors.As(err, &api)
	eq(t, api.ErrorFault(), smithy.FaultClient, "fault")
	eq(t, api.ErrorMessage(), message, "message")
	var response *awshttp.ResponseError
	if !errors.As(err, &response) {
		t.Fatalf("no HTTP response in %v", err)
	}
	eq(t, response.HTTPStatusCode(), status, "HTTP status")
}

func Test_sns_errors(t *testing.T) {
	h := setupSNS(t)
	missing := "arn:aws:sns:us-east-1:000000000000:compat-missing"
	_, err := h.sns.GetTopicAttributes(ctx, &sns.GetTopicAttributesInput{TopicArn: &missing})
	snsFails[*snstypes.NotFoundException](t, err, "NotFound", 404, "Topic does not exist")
	_, err = h.sns.Publish(ctx, &sns.PublishInput{TopicArn: &missing, Message: aws.String("m")})
	snsFails[*snstypes.NotFoundException](t, err, "NotFound", 404, "Topic does not exist")
	topic := h.makeTopic(false)
	_, err = h.sns.GetSubscriptionAttributes(ctx, &sns.GetSubscriptionAttributesInput{
		SubscriptionArn: aws.String(topic + ":00000000-0000-0000-0000-000000000000"),
	})
	snsFails[*snstypes.NotFoundException](t, err, "NotFound", 404, "Subscription does not exist")
	_, err = h.sns.CreateTopic(ctx, &sns.CreateTopicInput{Name: aws.String("bad name")})
	snsFails[*snstypes.InvalidParameterException](t, err, "InvalidParameter", 400, "Invalid parameter: Topic Name")
	arn := h.queueArn(h.makeQueue("sns-errors", false, nil))
	_, err = h.subscribe(topic, arn, map[string]string{"FilterPolicy": `{"color": [{"prefix": "r", "suffix": "d"}]}`})
	snsFails[*snstypes.InvalidParameterException](t, err, "InvalidParameter", 400,
		"Invalid parameter: Attributes Reason: FilterPolicy: Only one key allowed in match expression")
	fifoArn := h.queueArn(h.makeQueue("sns-errors", true, nil))
	_, err = h.subscribe(topic, fifoArn, nil)
	snsFails[*snstypes.InvalidParameterException](t, err, "InvalidParameter", 400,
		"Invalid parameter: Invalid parameter: Endpoint Reason: FIFO SQS Queues can not be subscribed to standard SNS topics")
	_, err = h.sns.Publish(ctx, &sns.PublishInput{TopicArn: &topic, Message: aws.String("m"), MessageDeduplicationId: aws.String("d")})
	snsFails[*snstypes.InvalidParameterException](t, err, "InvalidParameter", 400,
		"Invalid parameter: MessageDeduplicationId Reason: The request includes MessageDeduplicationId parameter that is not valid for this topic type")
}
