package lichess

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// waitPending waits (in real time) until the manual clock has at least n
// pending timers.
func waitPending(t *testing.T, clk *ManualClock, n int) {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for clk.Pending() < n {
		select {
		case <-clk.Changed():
		case <-time.After(10 * time.Millisecond):
		case <-deadline:
			t.Fatalf("timed out waiting for %d pending timers (have %d)", n, clk.Pending())
		}
	}
}

// newLimitedOnce is a fake Lichess whose first answer is a 429 with
// Lichess's body and whose later answers are the usual ones.
func newLimitedOnce(t *testing.T) *fakeServer {
	var limited atomic.Bool
	limited.Store(true)
	return newFake(t, func(w http.ResponseWriter, r *http.Request) {
		if limited.Swap(false) {
			writeJSON(w, 429, `{"error":"Too many requests. Try again later."}`)
			return
		}
		fakeAnswers(w, r)
	})
}

func TestRateLimitLockout(t *testing.T) {
	checkGoroutines(t)
	f := newLimitedOnce(t)
	clk := NewManualClock(t0)
	c, logs := newTestClient(t, f.URL, func(o *Options) { o.Clock = clk })
	ctx := ctxT(t)

	_, err := c.Account(ctx)
	var apiErr *APIError
	if !errors.Is(err, ErrRateLimited) || !errors.As(err, &apiErr) || apiErr.RetryAfter != 60*time.Second {
		t.Fatalf("want a 429 APIError with a 60 s lockout, got %v", err)
	}
	if f.count() != 1 {
		t.Fatalf("429 was retried: %d requests", f.count())
	}
	if got := c.LockedUntil(); !got.Equal(t0.Add(60 * time.Second)) {
		t.Fatalf("locked until %v", got)
	}

	// Three different kinds of request during the lockout: none is sent.
	results := make(chan error, 3)
	go func() { _, err := c.Account(ctx); results <- err }()
	go func() { results <- c.Bot().Move(ctx, "abcdefgh", "e2e4", false) }()
	go func() {
		s, err := c.StreamEvents(ctx)
		if err == nil {
			<-s.Events()
			s.Close()
		}
		results <- err
	}()
	// All three wait out the lockout on the clock (without the turn):
	// every request is blocked now, so the count below is final, not a
	// sample taken after some delay.
	waitPending(t, clk, 3)
	if n := f.count(); n != 1 {
		t.Fatalf("%d requests sent during the lockout", n)
	}
	clk.Advance(59 * time.Second)
	// A timer due within 59 s would have fired (and left the pending list)
	// inside Advance.
	if p := clk.Pending(); p != 3 {
		t.Fatalf("59 s into the lockout: %d timers pending, want the 3 requests'", p)
	}
	if n := f.count(); n != 1 {
		t.Fatalf("%d requests sent 59 s into the lockout", n)
	}
	select {
	case err := <-results:
		t.Fatalf("a request finished during the lockout: %v", err)
	default:
	}
	clk.Advance(time.Second)
	for i := 0; i < 3; i++ {
		if err := <-results; err != nil {
			t.Fatalf("after the lockout: %v", err)
		}
	}
	if n := f.count(); n != 4 {
		t.Fatalf("%d requests after the lockout, want 4", n)
	}
	if !strings.Contains(logs.String(), "rate limited") {
		t.Error("lockout not logged")
	}
}

func TestRateLimitDuration(t *testing.T) {
	tests := []struct {
		name       string
		body       string
		retryAfter string
		want       time.Duration
	}{
		{"no hint: a full minute", `{"error":"slow down"}`, "", 60 * time.Second},
		{"empty body", ``, "", 60 * time.Second},
		{"shorter ratelimit.seconds still waits a minute", `{"ratelimit":{"key":"x","seconds":10}}`, "", 60 * time.Second},
		{"longer ratelimit.seconds wins", `{"ratelimit":{"key":"challenge.bot.user","seconds":3600}}`, "", time.Hour},
		{"longer Retry-After wins", `{"ratelimit":{"seconds":90}}`, "120", 120 * time.Second},
		{"body longer than Retry-After", `{"ratelimit":{"seconds":300}}`, "120", 300 * time.Second},
		{"Retry-After as HTTP date", ``, t0.Add(10 * time.Minute).Format(http.TimeFormat), 10 * time.Minute},
		{"garbage hints ignored", `{"ratelimit":{"seconds":"soon"}}`, "tomorrow", 60 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
				if tc.retryAfter != "" {
					w.Header().Set("Retry-After", tc.retryAfter)
				}
				writeJSON(w, 429, tc.body)
			})
			clk := NewManualClock(t0)
			c, _ := newTestClient(t, f.URL, func(o *Options) { o.Clock = clk })
			err := c.Bot().Resign(ctxT(t), "abcdefgh")
			if !errors.Is(err, ErrRateLimited) {
				t.Fatalf("err = %v", err)
			}
			if got := c.LockedUntil().Sub(t0); got != tc.want {
				t.Fatalf("lockout %v, want %v", got, tc.want)
			}
		})
	}
}

func TestRateLimitOptionAndCancel(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 429, ``) })
	clk := NewManualClock(t0)
	c, _ := newTestClient(t, f.URL, func(o *Options) { o.Clock = clk; o.RateLimit = 5 * time.Minute })
	_ = c.Bot().Resign(ctxT(t), "abcdefgh")
	if got := c.LockedUntil().Sub(t0); got != 5*time.Minute {
		t.Fatalf("lockout %v", got)
	}
	// A request waiting out the lockout gives up when its context ends,
	// without sending anything.
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- c.Bot().Resign(ctx, "abcdefgh") }()
	waitPending(t, clk, 1)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if f.count() != 1 {
		t.Fatalf("%d requests", f.count())
	}
}

// sentAfterLockout checks a request that waits out a lockout, the second
// request to f: it waits on clk (nothing sent after the first request)
// until rest has passed, then is sent and succeeds (done delivers its
// error).
func sentAfterLockout(t *testing.T, f *fakeServer, clk *ManualClock, rest time.Duration, done <-chan error) {
	t.Helper()
	waitPending(t, clk, 1)
	if n := f.count(); n != 1 {
		t.Fatalf("%d requests: one was sent inside the lockout", n)
	}
	clk.Advance(rest)
	if err := <-done; err != nil {
		t.Fatalf("after the lockout: %v", err)
	}
	if n := f.count(); n != 2 {
		t.Fatalf("%d requests, want 2", n)
	}
}

// TestRateLimitLockoutSurvivesRestart: a 429 reports its lockout through
// OnLockout; a new client seeded with it (LockedUntil, as a restarted
// daemon reads it back from its store) sends nothing before it ends.
func TestRateLimitLockoutSurvivesRestart(t *testing.T) {
	checkGoroutines(t)
	f := newLimitedOnce(t)
	clk := NewManualClock(t0)
	var persisted []time.Time
	first, _ := newTestClient(t, f.URL, func(o *Options) {
		o.Clock = clk
		o.OnLockout = func(until time.Time) { persisted = append(persisted, until) }
	})
	ctx := ctxT(t)
	if _, err := first.Account(ctx); !errors.Is(err, ErrRateLimited) {
		t.Fatalf("want a 429, got %v", err)
	}
	if len(persisted) != 1 || !persisted[0].Equal(t0.Add(60*time.Second)) {
		t.Fatalf("OnLockout calls %v, want one with %v", persisted, t0.Add(60*time.Second))
	}
	first.Close()

	clk.Advance(10 * time.Second) // the restart
	second, _ := newTestClient(t, f.URL, func(o *Options) { o.Clock = clk; o.LockedUntil = persisted[0] })
	if got := second.LockedUntil(); !got.Equal(persisted[0]) {
		t.Fatalf("seeded client locked until %v, want %v", got, persisted[0])
	}
	done := make(chan error, 1)
	go func() { _, err := second.Account(ctx); done <- err }()
	sentAfterLockout(t, f, clk, 50*time.Second, done)

	// A lockout already over when the client starts holds nothing.
	third, _ := newTestClient(t, f.URL, func(o *Options) { o.Clock = clk; o.LockedUntil = t0 })
	if _, err := third.Account(ctx); err != nil {
		t.Fatalf("past lockout: %v", err)
	}
}
