// S3 through the Go SDK v2's service/s3 with its default checksums (compat/run.sh go-s3): puts
// and gets (CRC32 by default, CRC64NVME on request, the response checksum validated),
// feature/s3/manager's multipart Uploader and ranged Downloader, presigned GET and PUT sent
// with net/http, listing by prefix and delimiter, DeleteObjects, and an upload's event
// notification received from a queue. Its own package, so that go-sdk's `go test .` leaves
// it out.
package s3

import (
	"bytes"
	"context"
	"crypto/md5"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/crc64"
	"io"
	"net/http"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/feature/s3/manager"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"
	"github.com/aws/smithy-go"
)

const mib = 1024 * 1024

var ctx = context.Background()

func endpoint(t *testing.T) string {
	t.Helper()
	url := os.Getenv("SQSLITE_ENDPOINT")
	if url == "" {
		t.Fatal("SQSLITE_ENDPOINT is not set: run the suite through compat/run.sh")
	}
	return url
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func equal(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: got %#v, want %#v", what, got, want)
	}
}

// recorder keeps the headers of each request the SDK sends, as sent (signed, checksummed).
type recorder struct {
	mu      sync.Mutex
	headers []http.Header
	next    *http.Client
}

func (r *recorder) Do(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	r.headers = append(r.headers, req.Header.Clone())
	r.mu.Unlock()
	return r.next.Do(req)
}

func (r *recorder) last() http.Header {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.headers[len(r.headers)-1]
}

func awsConfig(t *testing.T) aws.Config {
	t.Helper()
	cfg, err := config.LoadDefaultConfig(ctx,
		config.WithRegion("us-east-1"),
		config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider("test", "test", "")),
		// One attempt: a retry would hide a failure.
		config.WithRetryMaxAttempts(1))
	must(t, err)
	return cfg
}

// newS3 is the SDK's default client but for the endpoint (path style follows: an IP address
// names no virtual host) and one attempt, sending through a recorder.
func newS3(t *testing.T) (*s3.Client, *recorder) {
	rec := &recorder{next: &http.Client{}}
	client := s3.NewFromConfig(awsConfig(t), func(o *s3.Options) {
		o.BaseEndpoint = aws.String(endpoint(t))
		o.HTTPClient = rec
	})
	return client, rec
}

func newSQS(t *testing.T) *sqs.Client {
	return sqs.NewFromConfig(awsConfig(t), func(o *sqs.Options) { o.BaseEndpoint = aws.String(endpoint(t)) })
}

func randomBytes(t *testing.T, n int) []byte {
	b := make([]byte, n)
	_, err := rand.Read(b)
	must(t, err)
	return b
}

func unique(t *testing.T, prefix string) string {
	return prefix + "-" + hex.EncodeToString(randomBytes(t, 6))
}

// makeBucket creates a bucket and, when the test ends, empties and deletes it.
func makeBucket(t *testing.T, client *s3.Client, prefix string) string {
	t.Helper()
	bucket := unique(t, prefix)
	_, err := client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(bucket)})
	must(t, err)
	t.Cleanup(func() {
		pages := s3.NewListObjectsV2Paginator(client, &s3.ListObjectsV2Input{Bucket: aws.String(bucket)})
		for pages.HasMorePages() {
			page, err := pages.NextPage(ctx)
			if err != nil {
				return
			}
			for _, o := range page.Contents {
				_, _ = client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(bucket), Key: o.Key})
			}
		}
		_, _ = client.DeleteBucket(ctx, &s3.DeleteBucketInput{Bucket: aws.String(bucket)})
	})
	return bucket
}

func crc32Of(b []byte) string {
	return base64.StdEncoding.EncodeToString(binary.BigEndian.AppendUint32(nil, crc32.ChecksumIEEE(b)))
}

// CRC-64/NVME: Go's crc64 takes the reflected polynomial, and inverts in and out as NVME does.
var nvme = crc64.MakeTable(0x9a6c9329ac4bc9b5)

func crc64Of(b []byte) string {
	return base64.StdEncoding.EncodeToString(binary.BigEndian.AppendUint64(nil, crc64.Checksum(b, nvme)))
}

func md5Etag(b []byte) string {
	sum := md5.Sum(b)
	return `"` + hex.EncodeToString(sum[:]) + `"`
}

func read(t *testing.T, body io.ReadCloser) []byte {
	t.Helper()
	defer body.Close()
	b, err := io.ReadAll(body)
	must(t, err)
	return b
}

func Test_s3_put_get_default_checksums(t *testing.T) {
	client, rec := newS3(t)
	bucket := makeBucket(t, client, "go")
	body := randomBytes(t, 300*1024)
	put, err := client.PutObject(ctx, &s3.PutObjectInput{
		Bucket: aws.String(bucket), Key: aws.String("data/one.bin"), Body: bytes.NewReader(body),
	})
	must(t, err)
	// The default (RequestChecksumCalculation WhenSupported) is a CRC32; over plain HTTP with
	// a seekable body, in a header beside the signed payload's SHA-256.
	sent := rec.last()
	equal(t, "x-amz-checksum-crc32", sent.Get("X-Amz-Checksum-Crc32"), crc32Of(body))
	sha := sha256.Sum256(body)
	equal(t, "x-amz-content-sha256", sent.Get("X-Amz-Content-Sha256"), hex.EncodeToString(sha[:]))
	equal(t, "ETag", aws.ToString(put.ETag), md5Etag(body))
	equal(t, "ChecksumCRC32", aws.ToString(put.ChecksumCRC32), crc32Of(body))

	got, err := client.GetObject(ctx, &s3.GetObjectInput{
		Bucket: aws.String(bucket), Key: aws.String("data/one.bin"), ChecksumMode: types.ChecksumModeEnabled,
	})
	must(t, err)
	equal(t, "body", read(t, got.Body), body)
	equal(t, "GET ChecksumCRC32", aws.ToString(got.ChecksumCRC32), crc32Of(body))

	small := []byte("hello, nvme")
	nv, err := client.PutObject(ctx, &s3.PutObjectInput{
		Bucket: aws.String(bucket), Key: aws.String("data/nvme"), Body: bytes.NewReader(small),
		ChecksumAlgorithm: types.ChecksumAlgorithmCrc64nvme,
	})
	must(t, err)
	equal(t, "ChecksumCRC64NVME", aws.ToString(nv.ChecksumCRC64NVME), crc64Of(small))
	head, err := client.HeadObject(ctx, &s3.HeadObjectInput{
		Bucket: aws.String(bucket), Key: aws.String("data/nvme"), ChecksumMode: types.ChecksumModeEnabled,
	})
	must(t, err)
	equal(t, "HEAD ChecksumCRC64NVME", aws.ToString(head.ChecksumCRC64NVME), crc64Of(small))
	equal(t, "HEAD ContentLength", aws.ToInt64(head.ContentLength), int64(len(small)))

	_, err = client.PutObject(ctx, &s3.PutObjectInput{
		Bucket: aws.String(bucket), Key: aws.String("data/bad"), Body: bytes.NewReader(small),
		ChecksumCRC32: aws.String(crc32Of([]byte("other"))),
	})
	var api smithy.APIError
	if !errors.As(err, &api) || api.ErrorCode() != "BadDigest" {
		t.Fatalf("a wrong CRC32: got %v, want BadDigest", err)
	}
	_, err = client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String(bucket), Key: aws.String("data/bad")})
	var notFound *types.NotFound
	if !errors.As(err, &notFound) {
		t.Fatalf("the refused object: got %v, want NotFound", err)
	}
}

func Test_s3_manager_multipart_upload_download(t *testing.T) {
	client, rec := newS3(t)
	bucket := makeBucket(t, client, "go-mpu")
	data := randomBytes(t, 12*mib)
	uploader := manager.NewUploader(client, func(u *manager.Uploader) { u.PartSize = 5 * mib })
	before := len(rec.headers)
	out, err := uploader.Upload(ctx, &s3.PutObjectInput{
		Bucket: aws.String(bucket), Key: aws.String("big/data.bin"), Body: bytes.NewReader(data),
		ContentType: aws.String("application/x-test"),
	})
	must(t, err)
	// Create, three parts, complete.
	equal(t, "requests", len(rec.headers)-before, 5)
	equal(t, "parts", len(out.CompletedParts), 3)
	if !strings.HasSuffix(aws.ToString(out.ETag), `-3"`) {
		t.Fatalf("a multipart ETag: %s", aws.ToString(out.ETag))
	}
	head, err := client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String(bucket), Key: aws.String("big/data.bin")})
	must(t, err)
	equal(t, "ContentLength", aws.ToInt64(head.ContentLength), int64(len(data)))
	equal(t, "ContentType", aws.ToString(head.ContentType), "application/x-test")

	downloader := manager.NewDownloader(client, func(d *manager.Downloader) { d.PartSize = 5 * mib })
	buffer := manager.NewWriteAtBuffer(nil)
	before = len(rec.headers)
	n, err := downloader.Download(ctx, buffer, &s3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String("big/data.bin")})
	must(t, err)
	equal(t, "downloaded", n, int64(len(data)))
	if sha256.Sum256(buffer.Bytes()) != sha256.Sum256(data) {
		t.Fatal("the downloaded bytes differ")
	}
	ranges := 0
	for _, h := range rec.headers[before:] {
		if h.Get("Range") != "" {
			ranges++
		}
	}
	equal(t, "ranged GETs", ranges, 3)
}

func Test_s3_presigned_get_and_put(t *testing.T) {
	client, _ := newS3(t)
	bucket := makeBucket(t, client, "go-presign")
	presigner := s3.NewPresignClient(client)
	put, err := presigner.PresignPutObject(ctx, &s3.PutObjectInput{
		Bucket: aws.String(bucket), Key: aws.String("shared/note.txt"), ContentType: aws.String("text/plain"),
	})
	must(t, err)
	if !strings.Contains(put.URL, "X-Amz-Signature=") {
		t.Fatalf("not presigned: %s", put.URL)
	}
	req, err := http.NewRequest(put.Method, put.URL, strings.NewReader("presigned hello"))
	must(t, err)
	for name, values := range put.SignedHeader {
		if !strings.EqualFold(name, "host") {
			req.Header[name] = values
		}
	}
	resp, err := http.DefaultClient.Do(req)
	must(t, err)
	body := read(t, resp.Body)
	equal(t, "PUT status "+string(body), resp.StatusCode, 200)
	equal(t, "PUT ETag", resp.Header.Get("ETag"), md5Etag([]byte("presigned hello")))

	get, err := presigner.PresignGetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String("shared/note.txt")})
	must(t, err)
	resp, err = http.Get(get.URL)
	must(t, err)
	equal(t, "GET body", string(read(t, resp.Body)), "presigned hello")
	equal(t, "GET Content-Type", resp.Header.Get("Content-Type"), "text/plain")
}

func Test_s3_list_and_delete_objects(t *testing.T) {
	client, rec := newS3(t)
	bucket := makeBucket(t, client, "go-list")
	keys := []string{"a/1.txt", "a/2.txt", "a/b/3.txt", "a/c/4.txt", "z.txt"}
	for _, key := range keys {
		_, err := client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(bucket), Key: aws.String(key), Body: strings.NewReader(key)})
		must(t, err)
	}
	out, err := client.ListObjectsV2(ctx, &s3.ListObjectsV2Input{
		Bucket: aws.String(bucket), Prefix: aws.String("a/"), Delimiter: aws.String("/"),
	})
	must(t, err)
	var listed, prefixes []string
	for _, o := range out.Contents {
		listed = append(listed, aws.ToString(o.Key))
	}
	for _, p := range out.CommonPrefixes {
		prefixes = append(prefixes, aws.ToString(p.Prefix))
	}
	equal(t, "keys", listed, []string{"a/1.txt", "a/2.txt"})
	equal(t, "common prefixes", prefixes, []string{"a/b/", "a/c/"})
	equal(t, "KeyCount", aws.ToInt32(out.KeyCount), int32(4))

	var pages [][]string
	paginator := s3.NewListObjectsV2Paginator(client, &s3.ListObjectsV2Input{Bucket: aws.String(bucket), MaxKeys: aws.Int32(2)})
	for paginator.HasMorePages() {
		page, err := paginator.NextPage(ctx)
		must(t, err)
		var ks []string
		for _, o := range page.Contents {
			ks = append(ks, aws.ToString(o.Key))
		}
		pages = append(pages, ks)
	}
	equal(t, "pages", pages, [][]string{keys[0:2], keys[2:4], keys[4:]})

	var objects []types.ObjectIdentifier
	for _, key := range keys {
		objects = append(objects, types.ObjectIdentifier{Key: aws.String(key)})
	}
	deleted, err := client.DeleteObjects(ctx, &s3.DeleteObjectsInput{Bucket: aws.String(bucket), Delete: &types.Delete{Objects: objects}})
	must(t, err)
	// DeleteObjects requires an integrity check: the SDK's default is a CRC32.
	if rec.last().Get("X-Amz-Checksum-Crc32") == "" {
		t.Fatalf("DeleteObjects sent no CRC32: %v", rec.last())
	}
	equal(t, "deleted", len(deleted.Deleted), len(keys))
	empty, err := client.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: aws.String(bucket)})
	must(t, err)
	equal(t, "KeyCount after", aws.ToInt32(empty.KeyCount), int32(0))
}

func Test_s3_notification_into_queue(t *testing.T) {
	client, _ := newS3(t)
	queues := newSQS(t)
	bucket := makeBucket(t, client, "go-events")
	queue, err := queues.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String(unique(t, "go-s3-events"))})
	must(t, err)
	t.Cleanup(func() { _, _ = queues.DeleteQueue(ctx, &sqs.DeleteQueueInput{QueueUrl: queue.QueueUrl}) })
	attrs, err := queues.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{
		QueueUrl: queue.QueueUrl, AttributeNames: []sqstypes.QueueAttributeName{sqstypes.QueueAttributeNameQueueArn},
	})
	must(t, err)
	_, err = client.PutBucketNotificationConfiguration(ctx, &s3.PutBucketNotificationConfigurationInput{
		Bucket: aws.String(bucket),
		NotificationConfiguration: &types.NotificationConfiguration{QueueConfigurations: []types.QueueConfiguration{{
			Id: aws.String("uploads"), QueueArn: aws.String(attrs.Attributes["QueueArn"]),
			Events: []types.Event{"s3:ObjectCreated:*", "s3:ObjectRemoved:*"},
		}}},
	})
	must(t, err)
	body := randomBytes(t, 1024)
	_, err = client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(bucket), Key: aws.String("docs/a b.txt"), Body: bytes.NewReader(body)})
	must(t, err)
	_, err = client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(bucket), Key: aws.String("docs/a b.txt")})
	must(t, err)

	var events []string
	for len(events) < 3 {
		out, err := queues.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: queue.QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 5})
		must(t, err)
		if len(out.Messages) == 0 {
			t.Fatalf("only %v arrived", events)
		}
		for _, m := range out.Messages {
			var doc struct {
				Event   string
				Records []struct {
					EventName string `json:"eventName"`
					S3        struct {
						Object struct {
							Key  string `json:"key"`
							Size int    `json:"size"`
						} `json:"object"`
					} `json:"s3"`
				}
			}
			must(t, json.Unmarshal([]byte(aws.ToString(m.Body)), &doc))
			if doc.Event != "" {
				events = append(events, doc.Event)
			} else {
				r := doc.Records[0]
				events = append(events, fmt.Sprintf("%s %s %d", r.EventName, r.S3.Object.Key, r.S3.Object.Size))
			}
			_, err = queues.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: queue.QueueUrl, ReceiptHandle: m.ReceiptHandle})
			must(t, err)
		}
	}
	equal(t, "events", events, []string{"s3:TestEvent", "ObjectCreated:Put docs/a+b.txt 1024", "ObjectRemoved:Delete docs/a+b.txt 0"})
}
