package lichess

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/internal/testkit"
)

// testToken is distinctive so that tests can scan output for it.
const testToken = Token("lip_T0pSecretTokenValue_9f8e7d6c5b4a")

// recorded is one request the fake server saw.
type recorded struct {
	Method, Path, RawQuery string
	Header                 http.Header
	Body                   string
}

// form parses a form-encoded body.
func (r recorded) form() url.Values {
	v, _ := url.ParseQuery(r.Body)
	return v
}

// query parses the query string.
func (r recorded) query() url.Values {
	v, _ := url.ParseQuery(r.RawQuery)
	return v
}

// fakeServer records every request and answers with a replaceable handler.
type fakeServer struct {
	*httptest.Server
	mu      sync.Mutex
	reqs    []recorded
	handler http.HandlerFunc
}

func newFake(t *testing.T, h http.HandlerFunc) *fakeServer {
	t.Helper()
	f := &fakeServer{handler: h}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		f.reqs = append(f.reqs, recorded{Method: r.Method, Path: r.URL.EscapedPath(), RawQuery: r.URL.RawQuery, Header: r.Header.Clone(), Body: string(body)})
		h := f.handler
		f.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(body))
		h(w, r)
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeServer) setHandler(h http.HandlerFunc) {
	f.mu.Lock()
	f.handler = h
	f.mu.Unlock()
}

func (f *fakeServer) requests() []recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]recorded(nil), f.reqs...)
}

func (f *fakeServer) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.reqs)
}

// newTestClient returns a client for base with fast retries, logging at
// trace level into the returned buffer. The test fails if the token shows
// up in the log.
func newTestClient(t *testing.T, base string, mod ...func(*Options)) (*Client, *testkit.SyncBuffer) {
	t.Helper()
	logs := &testkit.SyncBuffer{}
	o := Options{
		BaseURL:        base,
		Token:          testToken,
		Logger:         zerolog.New(logs).Level(zerolog.TraceLevel),
		RetryWaitMin:   time.Millisecond,
		RetryWaitMax:   5 * time.Millisecond,
		ReconnectMin:   -1,
		RequestTimeout: 5 * time.Second,
	}
	for _, m := range mod {
		m(&o)
	}
	c, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if strings.Contains(logs.String(), string(testToken)) {
			t.Errorf("the token appeared in the log:\n%s", logs.String())
		}
	})
	return c, logs
}

// noToken fails the test if err's message reveals the token.
func noToken(t *testing.T, err error) {
	t.Helper()
	if err != nil && strings.Contains(err.Error(), string(testToken)) {
		t.Fatalf("the token appeared in an error: %v", err)
	}
}

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

func okHandler(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, `{"ok":true}`) }

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// checkGoroutines fails the test if goroutines started during it are still
// running shortly after it ends (a leak check without dependencies).
func checkGoroutines(t *testing.T) {
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		// A goroutine's end has no event: poll with a bound generous
		// enough for a busy machine (a leak fails only after it).
		deadline := time.Now().Add(10 * time.Second)
		for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if n := runtime.NumGoroutine(); n > before {
			buf := make([]byte, 1<<16)
			buf = buf[:runtime.Stack(buf, true)]
			t.Errorf("goroutine leak: %d before, %d after\n%s", before, n, buf)
		}
	})
}

var httpClientWithTimeout = http.Client{Timeout: time.Second}
