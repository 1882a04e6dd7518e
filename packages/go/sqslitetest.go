// Package sqslitetest runs sqslite, an Amazon SQS-compatible server, for `go test`: Start
// launches the binary (Options.Binary, else $SQSLITE_BIN, else `sqslite` on PATH) on a free
// port, stops it through t.Cleanup, and hands out the endpoint, an aws-sdk-go-v2 SQS client,
// reset and the manual clock.
package sqslitetest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
)

// Options are the server's flags; the zero value is the binary's defaults.
type Options struct {
	Config string   // a sqslite.toml or elasticmq.conf
	Clock  string   // "manual" freezes time until AdvanceClock; "" is the binary's default
	Strict bool     // SQS's 60-second guards (QueueDeletedRecently, PurgeQueueInProgress)
	Args   []string // more flags
	Binary string   // default: $SQSLITE_BIN, else sqslite on PATH
	// Delivery is how standard queues deliver: "at-least-once" rehearses duplicates, as AWS
	// delivers; "" is the binary's default (exact).
	Delivery string
	// DeliverySeed seeds at-least-once delivery (with Delivery): the same seed, the same run.
	DeliverySeed *uint64
}

// Server is one running sqslite.
type Server struct {
	Endpoint string      // the URL to give an SDK
	Client   *sqs.Client // an SQS client for it (us-east-1, throwaway credentials)
	cmd      *exec.Cmd
	log      *os.File
	done     chan struct{}
}

var listening = regexp.MustCompile(`listening on (http://\S+)`)

// Start runs a server for the test and stops it when the test (and its subtests) end.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// New runs a server that the caller stops with Close (for a TestMain shared by a package).
func New(opts Options) (*Server, error) {
	binary, err := findBinary(opts.Binary)
	if err != nil {
		return nil, err
	}
	args := []string{"--port", "0"}
	if opts.Clock != "" {
		args = append(args, "--clock", opts.Clock)
	}
	if opts.Config != "" {
		config, err := filepath.Abs(opts.Config)
		if err != nil {
			return nil, err
		}
		args = append(args, "--config", config)
	}
	if opts.Strict {
		args = append(args, "--strict")
	}
	if opts.Delivery != "" {
		args = append(args, "--delivery", opts.Delivery)
	}
	if opts.DeliverySeed != nil {
		args = append(args, "--delivery-seed", fmt.Sprint(*opts.DeliverySeed))
	}
	// The log goes to a file: nothing has to drain it (Close removes it).
	log, err := os.CreateTemp("", "sqslite-*.log")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(binary, append(args, opts.Args...)...)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "SQSLITE_LOG=info")
	if err := cmd.Start(); err != nil {
		log.Close()
		return nil, fmt.Errorf("sqslitetest: starting %s: %w", binary, err)
	}
	s := &Server{cmd: cmd, log: log, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(s.done) }()
	if s.Endpoint, err = s.awaitEndpoint(30 * time.Second); err != nil {
		s.Close()
		return nil, err
	}
	s.Client = sqs.NewFromConfig(s.AWSConfig(), func(o *sqs.Options) { o.BaseEndpoint = aws.String(s.Endpoint) })
	return s, nil
}

func findBinary(explicit string) (string, error) {
	if explicit != "" {
		return explicit, nil
	}
	if env := os.Getenv("SQSLITE_BIN"); env != "" {
		return env, nil
	}
	path, err := exec.LookPath("sqslite")
	if err != nil {
		return "", fmt.Errorf("sqslitetest: no sqslite binary: set SQSLITE_BIN or put sqslite on PATH")
	}
	return path, nil
}

func (s *Server) awaitEndpoint(timeout time.Duration) (string, error) {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if m := listening.FindStringSubmatch(s.Log()); m != nil {
			return m[1], nil
		}
		select {
		case <-s.done:
			return "", fmt.Errorf("sqslitetest: sqslite exited; log:\n%s", s.Log())
		case <-time.After(20 * time.Millisecond):
		}
	}
	return "", fmt.Errorf("sqslitetest: sqslite did not report its address; log:\n%s", s.Log())
}

// Log is the server's output so far.
func (s *Server) Log() string {
	b, _ := os.ReadFile(s.log.Name())
	return string(b)
}

// AWSConfig is an aws.Config for the server: region us-east-1, static throwaway credentials.
// Give it to other clients with BaseEndpoint set to Endpoint.
func (s *Server) AWSConfig() aws.Config {
	return aws.Config{
		Region:      "us-east-1",
		Credentials: credentials.NewStaticCredentialsProvider("test", "test", ""),
	}
}

// Reset puts the server back in its started state: declared queues empty, other queues gone.
func (s *Server) Reset(t testing.TB) {
	t.Helper()
	if _, err := s.admin(http.MethodPost, "/_sqslite/reset", nil); err != nil {
		t.Fatal(err)
	}
}

// AdvanceClock moves a manual clock on (milliseconds are the finest step) and returns its time.
func (s *Server) AdvanceClock(t testing.TB, d time.Duration) time.Time {
	t.Helper()
	now, err := s.admin(http.MethodPost, "/_sqslite/clock/advance", map[string]int64{"milliseconds": d.Milliseconds()})
	if err != nil {
		t.Fatal(err)
	}
	return now
}

// Now is the server's clock.
func (s *Server) Now(t testing.TB) time.Time {
	t.Helper()
	now, err := s.admin(http.MethodGet, "/_sqslite/clock", nil)
	if err != nil {
		t.Fatal(err)
	}
	return now
}

func (s *Server) admin(method, path string, body any) (time.Time, error) {
	var payload []byte
	if body != nil {
		payload, _ = json.Marshal(body)
	}
	req, err := http.NewRequestWithContext(context.Background(), method, s.Endpoint+path, bytes.NewReader(payload))
	if err != nil {
		return time.Time{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return time.Time{}, fmt.Errorf("sqslitetest: %s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	text, err := io.ReadAll(resp.Body)
	if err != nil {
		return time.Time{}, fmt.Errorf("sqslitetest: %s %s: %w", method, path, err)
	}
	if resp.StatusCode/100 != 2 {
		return time.Time{}, fmt.Errorf("sqslitetest: %s %s: %s %s", method, path, resp.Status, text)
	}
	var answer struct {
		Now int64 `json:"now"`
	}
	if len(text) > 0 {
		if err := json.Unmarshal(text, &answer); err != nil {
			return time.Time{}, fmt.Errorf("sqslitetest: %s %s: %w", method, path, err)
		}
	}
	return time.UnixMilli(answer.Now), nil
}

// Close stops the server (SIGTERM, then a kill after 15 s) and removes its log.
func (s *Server) Close() {
	if s.cmd.Process != nil {
		_ = s.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.done:
		case <-time.After(15 * time.Second):
			_ = s.cmd.Process.Kill()
			<-s.done
		}
	}
	s.log.Close()
	os.Remove(s.log.Name())
}
