package lichess_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/internal/testkit"
	"github.com/outpostchess/outpost/lichess"
)

// limitedSandbox serves one BOT account (token "tok-bot-SECRET") with
// lila's request limits scaled by scale, on clk; the context ends with the
// test or after 30 s.
func limitedSandbox(t *testing.T, clk *lichess.ManualClock, scale float64) (context.Context, *sandbox.Server, string) {
	t.Helper()
	srv := sandbox.New(sandbox.Config{
		Accounts:      []sandbox.Account{{Name: "bot1", Token: "tok-bot-SECRET", Bot: true}},
		RequestLimits: scale, Now: clk.Now, KeepAlive: 100 * time.Millisecond,
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	url, err := srv.Listen(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return ctx, srv, url
}

// TestEventStreamLimitMeetsTheLockout: the client's own traffic meets
// lila's limit on event stream openings (30 per token in 10 minutes,
// api.stream.event.bearer; a tenth here) in the sandbox: the opening past
// it gets lila's 429 {"error":"Please don't poll this endpoint…"}, which
// has no ratelimit key, so the client locks every request out for its
// 60 s (noteRateLimit) and sends nothing meanwhile, then tries again: one
// more 429 while lila's window lasts, and the stream opens once it has
// cleared. Sandbox and client share one manual clock: nothing waits on the
// wall clock. Before, the sandbox had no limit and no 429 came.
func TestEventStreamLimitMeetsTheLockout(t *testing.T) {
	clk := lichess.NewManualClock(time.Date(2026, 12, 2, 1, 0, 0, 0, time.UTC))
	ctx, srv, url := limitedSandbox(t, clk, 0.1)
	c, err := lichess.New(lichess.Options{BaseURL: url, Token: "tok-bot-SECRET", Clock: clk, Logger: zerolog.Nop(),
		StreamTimeout: time.Hour, ReconnectMin: -1})
	if err != nil {
		t.Fatal(err)
	}
	open := func() error {
		s, err := c.StreamEvents(ctx)
		if err == nil {
			s.Close()
		}
		return err
	}
	for i := range 3 { // 30 × 0.1
		if err := open(); err != nil {
			t.Fatalf("opening %d: %v", i+1, err)
		}
	}
	// The fourth opening meets the limit: the client waits out its
	// lockout on the clock and tries again, until lila's window clears.
	done := make(chan error, 1)
	go func() { done <- open() }()
	// limited waits until the k-th 429 has come and the client has
	// started its lockout for it (LockedUntil moved on); the openings sent
	// are then exactly 3 + k (a stream's request is recorded when it ends,
	// so the count, not the order, is checked).
	var lockedUntil time.Time
	limited := func(k int) {
		t.Helper()
		for {
			sent, n429 := 0, 0
			for _, r := range srv.Requests() {
				if r.Path == "/api/stream/event" {
					sent++
					if r.Status == 429 {
						n429++
					}
				}
			}
			if sent > 3+k || n429 > k {
				t.Fatalf("%d openings, %d answered 429: one was sent during the lockout", sent, n429)
			}
			if until := c.LockedUntil(); sent == 3+k && n429 == k && until.After(lockedUntil) {
				lockedUntil = until
				return
			}
			select {
			case <-clk.Changed():
			case <-time.After(10 * time.Millisecond):
			case err := <-done:
				t.Fatalf("the opening ended during the limit: %v", err)
			}
		}
	}
	limited(1)
	if got, want := c.LockedUntil(), clk.Now().Add(lichess.DefaultRateLimit); !got.Equal(want) {
		t.Fatalf("locked until %v, want %v (the global lockout: the answer has no ratelimit key)", got, want)
	}
	clk.Advance(lichess.DefaultRateLimit)
	limited(2) // tried again after the lockout: still in lila's window
	clk.Advance(10 * time.Minute)
	if err := <-done; err != nil {
		t.Fatalf("after lila's window: %v", err)
	}
	if _, err := c.Account(ctx); err != nil {
		t.Fatalf("the account after the lockouts: %v", err)
	}
	n429 := 0
	for _, r := range srv.Requests() {
		if r.Status == 429 {
			n429++
		}
	}
	if n429 != 2 {
		t.Fatalf("%d answers 429, want 2 (one per lockout)", n429)
	}
}

// TestEventStreamBudgetAvoidsLilasLimit: against the sandbox at lila's own
// limit (30 openings in 10 minutes), a client that opens its event stream
// 31 times never meets it: the 31st opening waits on the client's clock
// for the window (EventStreamOpens) instead of drawing the 429 and its
// lockout of every request.
func TestEventStreamBudgetAvoidsLilasLimit(t *testing.T) {
	clk := lichess.NewManualClock(time.Date(2026, 12, 3, 1, 0, 0, 0, time.UTC))
	ctx, srv, url := limitedSandbox(t, clk, 1)
	logs := &testkit.SyncBuffer{}
	c, err := lichess.New(lichess.Options{BaseURL: url, Token: "tok-bot-SECRET", Clock: clk, Logger: zerolog.New(logs),
		StreamTimeout: time.Hour, ReconnectMin: -1})
	if err != nil {
		t.Fatal(err)
	}
	open := func() error {
		s, err := c.StreamEvents(ctx)
		if err == nil {
			s.Close()
		}
		return err
	}
	for i := range lichess.EventStreamOpens {
		if err := open(); err != nil {
			t.Fatalf("opening %d: %v", i+1, err)
		}
	}
	done := make(chan error, 1)
	go func() { done <- open() }()
	// The 31st opening waits on the clock for the budget (its log line;
	// the timer it registers changes the clock) and sends nothing
	// meanwhile.
	for !strings.Contains(logs.String(), "waiting for the window") {
		if strings.Contains(logs.String(), "rate limited by the server") {
			t.Fatalf("the 31st opening met lila's limit:\n%s", logs.String())
		}
		select {
		case <-clk.Changed():
		case <-time.After(10 * time.Millisecond):
		case err := <-done:
			t.Fatalf("the 31st opening did not wait: %v", err)
		}
	}
	clk.Advance(lichess.EventStreamWindow)
	if err := <-done; err != nil {
		t.Fatalf("after the window: %v", err)
	}
	// A 429 is recorded before the client reads it (an opened stream only
	// when it ends, so the openings are not counted here).
	for _, r := range srv.Requests() {
		if r.Status == 429 {
			t.Errorf("%s %s answered 429", r.Method, r.Path)
		}
	}
	if !c.LockedUntil().IsZero() {
		t.Errorf("locked until %v: no lockout wanted", c.LockedUntil())
	}
}
