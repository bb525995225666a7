package lichess

import (
	"errors"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// One request at a time: however many goroutines call the client, the
// server never sees two requests in flight.
func TestOneRequestAtATime(t *testing.T) {
	var inFlight, maxInFlight atomic.Int32
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		for {
			m := maxInFlight.Load()
			if n <= m || maxInFlight.CompareAndSwap(m, n) {
				break
			}
		}
		time.Sleep(10 * time.Millisecond)
		inFlight.Add(-1)
		fakeAnswers(w, r)
	})
	c, _ := newTestClient(t, f.URL)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			switch i % 4 {
			case 0:
				_, err = c.Account(ctxT(t))
			case 1:
				err = c.Bot().Move(ctxT(t), "abcdefgh", "e2e4", false)
			case 2:
				_, err = c.OnlineBots(ctxT(t), 0)
			case 3:
				err = c.AcceptChallenge(ctxT(t), "chal1234", "")
			}
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if f.count() != 8 || maxInFlight.Load() != 1 {
		t.Fatalf("%d requests, at most %d in flight", f.count(), maxInFlight.Load())
	}
}

// The turn is not held while a request sleeps between retries: a move gets
// through between the attempts of a failing export.
func TestTurnFreeDuringBackoff(t *testing.T) {
	var mu sync.Mutex
	var order []string
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		order = append(order, r.Method)
		mu.Unlock()
		if r.Method == "GET" {
			writeJSON(w, 503, `{"error":"busy"}`)
			return
		}
		okHandler(w, r)
	})
	c, _ := newTestClient(t, f.URL, func(o *Options) {
		o.RetryMax = 2
		o.RetryWaitMin = 600 * time.Millisecond
		o.RetryWaitMax = 600 * time.Millisecond
	})
	done := make(chan error)
	go func() { _, err := c.ExportGame(ctxT(t), "abcdefgh", ExportOptions{}); done <- err }()
	waitFor(t, func() bool { return f.count() == 1 })
	if err := c.Bot().Move(ctxT(t), "abcdefgh", "e2e4", false); err != nil {
		t.Fatal(err)
	}
	if err := <-done; !errors.Is(err, ErrServer) {
		t.Fatalf("export: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if got := strings.Join(order, ","); got != "GET,POST,GET,GET" {
		t.Fatalf("order %s", got)
	}
}

// A stalled server (no response headers) fails the attempt after
// RequestTimeout.
func TestHeaderTimeout(t *testing.T) {
	release := make(chan struct{})
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	defer close(release)
	c, _ := newTestClient(t, f.URL, func(o *Options) { o.RequestTimeout = 100 * time.Millisecond; o.RetryMax = -1 })
	_, err := c.Account(ctxT(t))
	if !errors.Is(err, errHeaderTimeout) {
		t.Fatalf("err = %v", err)
	}
	// For a move the same means "unknown outcome": it was sent.
	if err := c.Bot().Move(ctxT(t), "abcdefgh", "e2e4", false); !errors.Is(err, ErrUnknownOutcome) {
		t.Fatalf("move: %v", err)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(2 * time.Millisecond)
	}
}
