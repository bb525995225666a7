package installer

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/outpostchess/outpost/bots/sfbuild"
)

// TestProgressLine: the log line of a download (size known or not) and of
// a build (expectation met, passed, unknown).
func TestProgressLine(t *testing.T) {
	for _, tc := range []struct {
		name    string
		p       *progress
		elapsed time.Duration
		done    int64
		want    string
	}{
		{"download", &progress{label: "downloading x.tgz", total: 62_000_000, bytes: true}, 15 * time.Second, 15_500_000,
			"downloading x.tgz: 15.5 MB of 62.0 MB (25 %), 15s elapsed"},
		{"download, size unknown", &progress{label: "downloading x.tgz", bytes: true}, 30*time.Second + 400*time.Millisecond, 1_250_000,
			"downloading x.tgz: 1.2 MB so far, 30s elapsed"},
		{"build", &progress{label: "building Stockfish 18 (sf18)", total: 60, basis: "its last build here"}, 45 * time.Second, 0,
			"building Stockfish 18 (sf18): 45s elapsed, about 75 % of its last build here (1m0s)"},
		{"build, past", &progress{label: "building Stockfish 18 (sf18)", total: 60, basis: "sf15's last build here"}, 75 * time.Second, 0,
			"building Stockfish 18 (sf18): 1m15s elapsed, past sf15's last build here (1m0s)"},
		{"build, unknown", &progress{label: "building Stockfish 18 (sf18)", basis: "no earlier build here to go by"}, 15 * time.Second, 0,
			"building Stockfish 18 (sf18): 15s elapsed (no earlier build here to go by)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.p.line(tc.elapsed, tc.done); got != tc.want {
				t.Errorf("line = %q\nwant   %q", got, tc.want)
			}
		})
	}
}

// fakeClock is a clock the test moves, with a report tick the test sends:
// each send on the unbuffered channel returns once the reporter took it,
// so after the next send (or finish) its line is written.
type fakeClock struct {
	mu    sync.Mutex
	now   time.Time
	ticks chan time.Time
	every []time.Duration
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 12, 1, 22, 0, 0, 0, time.UTC), ticks: make(chan time.Time)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Tick(d time.Duration) (<-chan time.Time, func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.every = append(c.every, d)
	return c.ticks, func() {}
}

// advance moves the clock by d and sends a report tick.
func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	now := c.now
	c.mu.Unlock()
	c.ticks <- now
}

// TestBuildReportsProgress: a native build logs a line every
// ProgressEvery with its elapsed time and the share of the engine's last
// build here (read from its build.json), after a line saying what to
// expect; the reports stop when the build ends.
func TestBuildReportsProgress(t *testing.T) {
	f := newFixture(t)
	clock := newFakeClock()
	f.opts.Now, f.opts.Tick = clock.Now, clock.Tick
	f.m.need(t, "/sf/sf_15.1.tar.gz")
	f.opts.Build, f.opts.StockfishSrc = true, filepath.Join(shared, "stockfish")
	dir, err := f.opts.Locator.NativeDir("sf15")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "build.json"), mustJSON(t, sfbuild.Info{Engine: "sf15", BuildSeconds: 120}))
	f.opts.Builder = func(context.Context, sfbuild.Builder, sfbuild.Recipe) (sfbuild.Result, error) {
		clock.advance(30 * time.Second)
		clock.advance(60 * time.Second)
		clock.advance(60 * time.Second)
		return sfbuild.Result{Binary: filepath.Join(dir, "stockfish")}, nil
	}
	if err := f.run(t, func(in *Installer) error { return in.Engine(context.Background(), "sf15") }); err != nil {
		t.Fatal(err)
	}
	log := f.log.String()
	for _, want := range []string{
		"setup: Stockfish 15.1 (sf15): building; expected to take about 2m0s (its last build here)\n",
		"setup: building Stockfish 15.1 (sf15): 30s elapsed, about 25 % of its last build here (2m0s)\n",
		"setup: building Stockfish 15.1 (sf15): 1m30s elapsed, about 75 % of its last build here (2m0s)\n",
		"setup: building Stockfish 15.1 (sf15): 2m30s elapsed, past its last build here (2m0s)\n",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	for _, d := range clock.every { // the build's and any download's
		if d != ProgressEvery {
			t.Errorf("report intervals %v, want %v (a log, not a terminal)", clock.every, ProgressEvery)
		}
	}
}

// TestExpectedBuild: an engine's own last build, else the latest other
// engine's, else nothing to go by.
func TestExpectedBuild(t *testing.T) {
	f := newFixture(t)
	l := f.opts.Locator
	put := func(name string, secs float64, built time.Time) {
		dir, err := l.NativeDir(name)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "build.json"), mustJSON(t, sfbuild.Info{Engine: name, BuildSeconds: secs, Built: built}))
	}
	if d, basis := expectedBuild(l, "sf18"); d != 0 || basis != "no earlier build here to go by" {
		t.Errorf("nothing built: %v, %q", d, basis)
	}
	day := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	put("sf15", 42, day)
	put("sf16", 70, day.Add(time.Hour))
	if d, basis := expectedBuild(l, "sf18"); d != 70*time.Second || basis != "sf16's last build here" {
		t.Errorf("others built: %v, %q; want sf16's (the latest) 70s", d, basis)
	}
	put("sf18", 61.5, day)
	if d, basis := expectedBuild(l, "sf18"); d != 61500*time.Millisecond || basis != "its last build here" {
		t.Errorf("sf18 built: %v, %q", d, basis)
	}
}

// TestDownloadReportsProgress: a download logs its bytes so far of the
// file's size while it runs, and draws nothing once it is over.
func TestDownloadReportsProgress(t *testing.T) {
	body := bytes.Repeat([]byte("x"), 4_000_000)
	sum := sha(body)
	clock := newFakeClock()
	var log bytes.Buffer
	srv, release := blockingServer(t, body, 1_000_000)
	m := newMeters(&log, false, clock.Now, clock.Tick)
	fe := Fetcher{Client: srv.Client(), meters: m}
	errc := make(chan error, 1)
	dst := filepath.Join(t.TempDir(), "x.tgz")
	go func() {
		errc <- fe.Fetch(context.Background(), Download{URL: srv.URL + "/x.tgz", Dst: dst, SHA256: sum})
	}()
	<-release.sent // the first million bytes are out
	waitPart(t, dst+PartSuffix, 1_000_000)
	clock.advance(15 * time.Second)
	clock.advance(15 * time.Second) // the first report is written
	close(release.rest)
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "setup: downloading x.tgz: 1.0 MB of 4.0 MB (25 %), 15s elapsed\n") {
		t.Errorf("log:\n%s", log.String())
	}
}

// heldServer serves body, its first n bytes at once (then closing sent),
// the rest once the test closes rest.
type heldServer struct{ sent, rest chan struct{} }

func blockingServer(t *testing.T, body []byte, n int) (*httptest.Server, heldServer) {
	t.Helper()
	h := heldServer{sent: make(chan struct{}), rest: make(chan struct{})}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		_, _ = w.Write(body[:n])
		w.(http.Flusher).Flush()
		close(h.sent)
		<-h.rest
		_, _ = w.Write(body[n:])
	}))
	t.Cleanup(srv.Close)
	return srv, h
}

// writeFile writes path, making its directory.
func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	writeIf(t, path, b)
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// waitPart waits until the .part file holds n bytes (written by the
// fetcher's io.Copy before it blocks on the held-back rest); the bound is
// generous, for a busy machine.
func waitPart(t *testing.T, part string, n int64) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		if st, err := os.Stat(part); err == nil && st.Size() >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never held %d bytes", part, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
