package daemon

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/internal/testkit"
	"github.com/outpostchess/outpost/lichess"
)

// TestEventStreamBudgetSurvivesRestart: a daemon's client opened its event
// stream Lichess's 30 times within 10 minutes and the process ended; the
// restarted daemon's client, seeded from the store (PersistLockouts),
// waits for the window before its first opening instead of drawing lila's
// 429 — which would lock the moves of the games it resumes out for a
// minute. The sandbox applies lila's own limit; sandbox and clients share
// one manual clock.
func TestEventStreamBudgetSurvivesRestart(t *testing.T) {
	clk := lichess.NewManualClock(time.Date(2026, 12, 3, 1, 0, 0, 0, time.UTC))
	srv := sandbox.New(sandbox.Config{
		Accounts:      []sandbox.Account{{Name: "bot1", Token: "tok-bot-SECRET", Bot: true}},
		RequestLimits: 1, Now: clk.Now, KeepAlive: 100 * time.Millisecond,
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	url, err := srv.Listen(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "outpost.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	client := func(logs *testkit.SyncBuffer) *lichess.Client {
		o := lichess.Options{BaseURL: url, Token: "tok-bot-SECRET", Clock: clk, Logger: zerolog.New(logs),
			StreamTimeout: time.Hour, ReconnectMin: -1}
		if err := PersistLockouts(ctx, st, &o, zerolog.Nop()); err != nil {
			t.Fatal(err)
		}
		c, err := lichess.New(o)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	open := func(c *lichess.Client) error {
		s, err := c.StreamEvents(ctx)
		if err == nil {
			s.Close()
		}
		return err
	}
	first := client(&testkit.SyncBuffer{})
	for i := range lichess.EventStreamOpens {
		if err := open(first); err != nil {
			t.Fatalf("opening %d: %v", i+1, err)
		}
		clk.Advance(time.Second)
	}
	logs := &testkit.SyncBuffer{}
	restarted := client(logs)
	done := make(chan error, 1)
	go func() { done <- open(restarted) }()
	for !strings.Contains(logs.String(), "waiting for the window") {
		if strings.Contains(logs.String(), "rate limited by the server") {
			t.Fatalf("the restarted client met lila's limit:\n%s", logs.String())
		}
		select {
		case <-clk.Changed():
		case <-time.After(10 * time.Millisecond):
		case err := <-done:
			t.Fatalf("the restarted client opened at once: %v\n%s", err, logs.String())
		}
	}
	clk.Advance(lichess.EventStreamWindow)
	if err := <-done; err != nil {
		t.Fatalf("after the window: %v", err)
	}
	for _, r := range srv.Requests() {
		if r.Status == 429 {
			t.Errorf("%s %s answered 429", r.Method, r.Path)
		}
	}
}
