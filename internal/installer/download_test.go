package installer

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// content is a deterministic 1 MiB body.
func content() []byte {
	b := make([]byte, 1<<20)
	for i := range b {
		b[i] = byte(i*7 + i>>9)
	}
	return b
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// rangeServer serves body with Range support (http.ServeContent); cut says
// for the n-th request (from 1) how many body bytes to send before the
// connection is cut (-1: all of it), and status, when non-zero, answers
// that request with that status instead. It records each request's Range.
type rangeServer struct {
	body   []byte
	cut    func(n int) int
	status func(n int) int
	mu     sync.Mutex
	ranges []string
}

func (s *rangeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.ranges = append(s.ranges, r.Header.Get("Range"))
	n := len(s.ranges)
	s.mu.Unlock()
	if s.status != nil {
		if code := s.status(n); code != 0 {
			http.Error(w, "no", code)
			return
		}
	}
	limit := -1
	if s.cut != nil {
		limit = s.cut(n)
	}
	if limit < 0 {
		http.ServeContent(w, r, "f", time.Time{}, bytes.NewReader(s.body))
		return
	}
	// Announce the whole (remaining) length, send limit bytes, cut.
	start := 0
	if rg := r.Header.Get("Range"); rg != "" {
		var err error
		if start, err = parseStart(rg); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Range", "bytes "+itoa(start)+"-"+itoa(len(s.body)-1)+"/"+itoa(len(s.body)))
		w.Header().Set("Content-Length", itoa(len(s.body)-start))
		w.WriteHeader(http.StatusPartialContent)
	} else {
		w.Header().Set("Content-Length", itoa(len(s.body)))
	}
	_, _ = w.Write(s.body[start : start+limit])
	w.(http.Flusher).Flush()
	panic(http.ErrAbortHandler)
}

func (s *rangeServer) got() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.ranges...)
}

func parseStart(rg string) (int, error) {
	v, err := rangeStart(strings.Replace(rg, "bytes=", "bytes ", 1))
	return int(v), err
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestFetchResumesACutDownload: a transfer cut midway is resumed with a
// Range request for the rest, within one Fetch, and the first half is
// not sent again.
func TestFetchResumesACutDownload(t *testing.T) {
	body := content()
	half := len(body) / 2
	s := &rangeServer{body: body, cut: func(n int) int {
		if n == 1 {
			return half
		}
		return -1
	}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	dst := filepath.Join(t.TempDir(), "f.bin")
	var log bytes.Buffer
	f := Fetcher{Client: srv.Client(), Log: &log}
	if err := f.Fetch(context.Background(), Download{URL: srv.URL + "/f", Dst: dst, SHA256: sha(body), Size: int64(len(body))}); err != nil {
		t.Fatalf("Fetch: %v\n%s", err, log.String())
	}
	got, err := os.ReadFile(dst)
	if err != nil || !bytes.Equal(got, body) {
		t.Fatalf("file differs from the served one (err %v)", err)
	}
	want := []string{"", "bytes=" + itoa(half) + "-"}
	if r := s.got(); strings.Join(r, "|") != strings.Join(want, "|") {
		t.Errorf("requests' Range headers %q, want %q", r, want)
	}
	if _, err := os.Stat(dst + PartSuffix); !os.IsNotExist(err) {
		t.Errorf(".part file left behind: %v", err)
	}
	if !strings.Contains(log.String(), "resuming at byte "+itoa(half)) {
		t.Errorf("log does not say it resumed:\n%s", log.String())
	}
}

// TestFetchResumesInALaterRun: when every attempt of a run fails after a
// cut, the .part file is kept and the next run asks only for the rest.
func TestFetchResumesInALaterRun(t *testing.T) {
	body := content()
	cutAt := 300_000
	healthy := false
	var mu sync.Mutex
	s := &rangeServer{body: body,
		cut: func(n int) int {
			if n == 1 {
				return cutAt
			}
			return -1
		},
		status: func(n int) int {
			mu.Lock()
			defer mu.Unlock()
			if n > 1 && !healthy {
				return http.StatusServiceUnavailable
			}
			return 0
		}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	dst := filepath.Join(t.TempDir(), "f.bin")
	d := Download{URL: srv.URL + "/f", Dst: dst, SHA256: sha(body)}
	f := Fetcher{Client: srv.Client()}
	err := f.Fetch(context.Background(), d)
	if err == nil || !strings.Contains(err.Error(), "run again to resume") {
		t.Fatalf("first run: %v, want an error saying it resumes", err)
	}
	if st, err := os.Stat(dst + PartSuffix); err != nil || st.Size() != int64(cutAt) {
		t.Fatalf(".part after the cut: %v, %v; want %d bytes", st, err, cutAt)
	}
	mu.Lock()
	healthy = true
	mu.Unlock()
	if err := f.Fetch(context.Background(), d); err != nil {
		t.Fatalf("second run: %v", err)
	}
	r := s.got()
	if last := r[len(r)-1]; last != "bytes="+itoa(cutAt)+"-" {
		t.Errorf("second run asked %q, want the rest from %d", last, cutAt)
	}
	if got, _ := os.ReadFile(dst); !bytes.Equal(got, body) {
		t.Error("resumed file differs")
	}
}

// TestFetchCases: the other answers a download meets.
func TestFetchCases(t *testing.T) {
	body := content()
	cases := []struct {
		name     string
		part     []byte // .part before the call
		dst      []byte // destination before the call
		handler  http.HandlerFunc
		sha      string
		size     int64
		wantErr  string
		wantReqs int
	}{
		{name: "fresh", handler: serve(body), sha: sha(body), wantReqs: 1},
		{name: "already there", dst: body, handler: serve(body), sha: sha(body), wantReqs: 0},
		{name: "stale dst replaced", dst: []byte("old"), handler: serve(body), sha: sha(body), wantReqs: 1},
		{name: "range ignored", part: body[:1000], handler: func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write(body) }, sha: sha(body), wantReqs: 1},
		{name: "part already whole (416)", part: body, handler: serve(body), sha: sha(body), wantReqs: 1},
		{name: "part whole by size", part: body, handler: serve(body), sha: sha(body), size: int64(len(body)), wantReqs: 0},
		{name: "part too long", part: append(append([]byte(nil), body...), 1, 2), handler: serve(body), sha: sha(body), size: int64(len(body)), wantReqs: 1},
		{name: "wrong sha", handler: serve(body), sha: sha([]byte("x")), wantErr: "want the pinned", wantReqs: 1},
		{name: "not found", handler: http.NotFound, sha: sha(body), wantErr: "404", wantReqs: 1},
		{name: "server error retried", handler: func(w http.ResponseWriter, r *http.Request) { http.Error(w, "x", 500) }, sha: sha(body), wantErr: "500", wantReqs: Attempts},
		{name: "no pin", handler: serve(body), wantErr: "no pinned SHA-256", wantReqs: 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var mu sync.Mutex
			reqs := 0
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				reqs++
				mu.Unlock()
				c.handler(w, r)
			}))
			defer srv.Close()
			dst := filepath.Join(t.TempDir(), "f.bin")
			writeIf(t, dst+PartSuffix, c.part)
			writeIf(t, dst, c.dst)
			err := Fetcher{Client: srv.Client()}.Fetch(context.Background(), Download{URL: srv.URL + "/f", Dst: dst, SHA256: c.sha, Size: c.size})
			mu.Lock()
			n := reqs
			mu.Unlock()
			if n != c.wantReqs {
				t.Errorf("%d requests, want %d", n, c.wantReqs)
			}
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err %v, want %q", err, c.wantErr)
				}
				if c.wantErr == "want the pinned" {
					if _, err := os.Stat(dst + PartSuffix); !os.IsNotExist(err) {
						t.Error("a download with the wrong SHA-256 was kept")
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := os.ReadFile(dst); !bytes.Equal(got, body) {
				t.Error("file differs")
			}
		})
	}
}

func serve(body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		http.ServeContent(w, r, "f", time.Time{}, bytes.NewReader(body))
	}
}

func writeIf(t *testing.T, path string, b []byte) {
	t.Helper()
	if b == nil {
		return
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestRangeStart(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{{"bytes 0-9/10", 0, true}, {"bytes 512-1023/1024", 512, true}, {"bytes */10", 0, false}, {"items 1-2/3", 0, false}, {"bytes 5", 0, false}} {
		got, err := rangeStart(c.in)
		if (err == nil) != c.ok || (c.ok && got != c.want) {
			t.Errorf("rangeStart(%q) = %d, %v", c.in, got, err)
		}
	}
}

func FuzzRangeStart(f *testing.F) {
	f.Add("bytes 0-9/10")
	f.Add("bytes -1-2/3")
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = rangeStart(s)
	})
}
