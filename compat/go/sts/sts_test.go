// STS through the Go SDK v2's service/sts (AWS Query) on the two-account server on a manual
// clock (compat/run.sh go-sts: python/accounts.toml and --clock manual): who each declared key
// is, account B assuming account A's role `deployer` and using the temporary keys on SQS in A's
// account, and those keys refused once the server's clock has passed their Expiration. Its own
// package, so that go-sdk's `go test .` leaves it out.
package sts

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/aws/smithy-go"
)

const (
	accountA = "111111111111"
	accountB = "222222222222"
	role     = "arn:aws:iam::" + accountA + ":role/deployer"
)

// The keys python/accounts.toml declares.
var keys = map[string]aws.Credentials{
	accountA: {AccessKeyID: "AKIDTEAMA", SecretAccessKey: "team-a-secret"},
	accountB: {AccessKeyID: "AKIDTEAMB", SecretAccessKey: "team-b-secret"},
}

var ctx = context.Background()

func endpoint(t *testing.T) string {
	t.Helper()
	url := os.Getenv("SQSLITE_ENDPOINT")
	if url == "" {
		t.Fatal("SQSLITE_ENDPOINT is not set: run the suite through compat/run.sh")
	}
	return url
}

// awsConfig signs with the given keys (a session token for temporary ones) and makes `attempts`
// attempts per call: 1 in these tests, as in go-sdk's, since a retry would hide a failure.
func awsConfig(t *testing.T, c aws.Credentials, attempts int) aws.Config {
	t.Helper()
	cfg, err := config.LoadDefaultConfig(ctx,
		config.WithRegion("us-east-1"),
		config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider(c.AccessKeyID, c.SecretAccessKey, c.SessionToken)),
		config.WithRetryMaxAttempts(attempts))
	must(t, err)
	return cfg
}

func stsClient(t *testing.T, c aws.Credentials, attempts int) *sts.Client {
	return sts.NewFromConfig(awsConfig(t, c, attempts), func(o *sts.Options) { o.BaseEndpoint = aws.String(endpoint(t)) })
}

func sqsClient(t *testing.T, c aws.Credentials, attempts int) *sqs.Client {
	return sqs.NewFromConfig(awsConfig(t, c, attempts), func(o *sqs.Options) { o.BaseEndpoint = aws.String(endpoint(t)) })
}

func sessionKeys(out *sts.AssumeRoleOutput) aws.Credentials {
	c := out.Credentials
	return aws.Credentials{
		AccessKeyID:     aws.ToString(c.AccessKeyId),
		SecretAccessKey: aws.ToString(c.SecretAccessKey),
		SessionToken:    aws.ToString(c.SessionToken),
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func eq[T any](t *testing.T, got, want T, what string) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: got %#v, want %#v", what, got, want)
	}
}

// refused checks that err is the API error `code` with HTTP status 403.
func refused(t *testing.T, err error, code string) {
	t.Helper()
	var api smithy.APIError
	if !errors.As(err, &api) {
		t.Fatalf("want %s, got %v", code, err)
	}
	eq(t, api.ErrorCode(), code, "error code of "+err.Error())
	var status interface{ HTTPStatusCode() int }
	if !errors.As(err, &status) {
		t.Fatalf("no HTTP status in %v", err)
	}
	eq(t, status.HTTPStatusCode(), 403, "HTTP status")
}

func queueName() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return "sts-" + hex.EncodeToString(b)
}

// admin calls sqslite's admin API (docs/src/clock-and-faults.md) and decodes its JSON answer.
func admin(t *testing.T, method, path string, body, into any) {
	t.Helper()
	var payload []byte
	if body != nil {
		var err error
		payload, err = json.Marshal(body)
		must(t, err)
	}
	req, err := http.NewRequest(method, endpoint(t)+path, bytes.NewReader(payload))
	must(t, err)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	must(t, err)
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: HTTP %d", method, path, res.StatusCode)
	}
	if into != nil {
		must(t, json.NewDecoder(res.Body).Decode(into))
	}
}

// clockNow is the server's manual clock.
func clockNow(t *testing.T) time.Time {
	t.Helper()
	var clock struct {
		Now    int64 `json:"now"`
		Manual bool  `json:"manual"`
	}
	admin(t, "GET", "/_sqslite/clock", nil, &clock)
	if !clock.Manual {
		t.Fatal("the STS suite needs a server on --clock manual")
	}
	return time.UnixMilli(clock.Now)
}

func Test_get_caller_identity_names_each_accounts_root(t *testing.T) {
	for _, account := range []string{accountA, accountB} {
		me, err := stsClient(t, keys[account], 1).GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
		must(t, err)
		eq(t, []string{aws.ToString(me.Account), aws.ToString(me.Arn), aws.ToString(me.UserId)},
			[]string{account, "arn:aws:iam::" + account + ":root", account}, "identity of "+account)
	}
}

func Test_assumed_role_keys_act_in_the_roles_account(t *testing.T) {
	out, err := stsClient(t, keys[accountB], 1).AssumeRole(ctx, &sts.AssumeRoleInput{
		RoleArn: aws.String(role), RoleSessionName: aws.String("compat-go")})
	must(t, err)
	user := out.AssumedRoleUser
	eq(t, aws.ToString(user.Arn), "arn:aws:sts::"+accountA+":assumed-role/deployer/compat-go", "AssumedRoleUser.Arn")
	if !regexp.MustCompile(`^AROA[A-Z0-9]+:compat-go$`).MatchString(aws.ToString(user.AssumedRoleId)) {
		t.Fatalf("AssumedRoleId %q", aws.ToString(user.AssumedRoleId))
	}
	if !regexp.MustCompile(`^ASIA[A-Z0-9]{16}$`).MatchString(aws.ToString(out.Credentials.AccessKeyId)) {
		t.Fatalf("AccessKeyId %q", aws.ToString(out.Credentials.AccessKeyId))
	}
	if aws.ToString(out.Credentials.SessionToken) == "" || out.Credentials.Expiration == nil {
		t.Fatalf("no SessionToken or Expiration: %+v", out.Credentials)
	}

	session := sessionKeys(out)
	me, err := stsClient(t, session, 1).GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
	must(t, err)
	eq(t, []string{aws.ToString(me.Account), aws.ToString(me.Arn), aws.ToString(me.UserId)},
		[]string{accountA, aws.ToString(user.Arn), aws.ToString(user.AssumedRoleId)}, "the session's identity")

	q := sqsClient(t, session, 1)
	created, err := q.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String(queueName())})
	must(t, err)
	url := created.QueueUrl
	t.Cleanup(func() {
		_, err := sqsClient(t, keys[accountA], 1).DeleteQueue(ctx, &sqs.DeleteQueueInput{QueueUrl: url})
		must(t, err)
	})
	if !strings.Contains(*url, "/"+accountA+"/") {
		t.Fatalf("the queue is not account A's: %s", *url)
	}
	_, err = q.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: url, MessageBody: aws.String("as the role")})
	must(t, err)
	got, err := q.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{
		QueueUrl: url, MessageSystemAttributeNames: []sqstypes.MessageSystemAttributeName{"SenderId"}})
	must(t, err)
	if len(got.Messages) != 1 {
		t.Fatalf("want 1 message, got %d", len(got.Messages))
	}
	eq(t, aws.ToString(got.Messages[0].Body), "as the role", "body")
	eq(t, got.Messages[0].Attributes["SenderId"], aws.ToString(user.AssumedRoleId), "SenderId")
}

// Last in this file (go test runs a package's tests in source order): it moves the clock on,
// past the 15 minutes a signature's date may be from the server's.
func Test_assumed_role_keys_are_refused_after_expiry(t *testing.T) {
	out, err := stsClient(t, keys[accountB], 1).AssumeRole(ctx, &sts.AssumeRoleInput{
		RoleArn: aws.String(role), RoleSessionName: aws.String("compat-go-expiry"), DurationSeconds: aws.Int32(900)})
	must(t, err)
	now := clockNow(t)
	if d := out.Credentials.Expiration.Sub(now.Add(900 * time.Second)); d <= -time.Second || d >= time.Second {
		t.Fatalf("Expiration %v is not 900 s after the server's clock %v", out.Credentials.Expiration, now)
	}
	session := sessionKeys(out)
	created, err := sqsClient(t, keys[accountA], 1).CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String(queueName())})
	must(t, err)
	url := created.QueueUrl
	t.Cleanup(func() {
		_, err := sqsClient(t, keys[accountA], 3).DeleteQueue(ctx, &sqs.DeleteQueueInput{QueueUrl: url})
		must(t, err)
	})
	_, err = sqsClient(t, session, 1).SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: url, MessageBody: aws.String("before expiry")})
	must(t, err)

	admin(t, "POST", "/_sqslite/clock/advance", map[string]int{"seconds": 1200}, nil)
	// Now the server is 20 minutes ahead of this machine: sqslite tells the expired token
	// before it checks the signature's date, so the first attempt is already ExpiredToken.
	// These clients keep the SDK's default attempts, as an application's client does.
	_, err = sqsClient(t, session, 3).SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: url, MessageBody: aws.String("after expiry")})
	refused(t, err, "ExpiredToken")
	_, err = stsClient(t, session, 3).GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
	refused(t, err, "ExpiredToken")

	// The declared key still works, and the queue holds only the message sent before expiry.
	got, err := sqsClient(t, keys[accountA], 3).ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: url, MaxNumberOfMessages: 10})
	must(t, err)
	bodies := []string{}
	for _, m := range got.Messages {
		bodies = append(bodies, aws.ToString(m.Body))
	}
	eq(t, bodies, []string{"before expiry"}, "bodies")
}
