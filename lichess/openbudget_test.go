package lichess

import (
	"strings"
	"testing"
	"time"
)

func TestOpenBudgetSlides(t *testing.T) {
	b := newOpenBudget(3, 10*time.Minute, nil, nil)
	steps := []struct {
		at   time.Duration // since t0
		wait time.Duration // what take returns
	}{
		{0, 0},
		{time.Minute, 0},
		{2 * time.Minute, 0},
		{3 * time.Minute, 7 * time.Minute}, // full: the 0:00 opening leaves at 10:00
		{9 * time.Minute, time.Minute},     // refused takes spend nothing
		{10 * time.Minute, 0},              // 0:00 left; 1:00, 2:00, 10:00 in
		{10*time.Minute + time.Second, 59 * time.Second},
		{11 * time.Minute, 0}, // 1:00 left
		{30 * time.Minute, 0}, // all left
		{30 * time.Minute, 0},
		{30 * time.Minute, 0},
		{30 * time.Minute, 10 * time.Minute},
	}
	for i, s := range steps {
		if got := b.take(t0.Add(s.at)); got != s.wait {
			t.Errorf("step %d at +%s: take = %s, want %s", i, s.at, got, s.wait)
		}
	}
}

// TestEventStreamKeepsLichessBudget: a stream that drops after every line
// is opened EventStreamOpens times, and the next opening waits on the
// client's clock until the window has passed; no request is refused (a 429
// would lock the client out of its games' moves).
func TestEventStreamKeepsLichessBudget(t *testing.T) {
	checkGoroutines(t)
	challenge := `{"type":"challenge","challenge":{"id":"c1","challenger":{"id":"alice","name":"Alice"},"variant":{"key":"standard"},"timeControl":{"type":"clock","limit":60,"increment":0}}}`
	h, n := scripted(conn{lines: []string{challenge}}) // then the connection ends
	f := newFake(t, h)
	clk := NewManualClock(t0)
	c, logs := newTestClient(t, f.URL, func(o *Options) { o.Clock = clk; o.StreamTimeout = time.Hour })
	s, err := c.StreamEvents(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	challenges := 0
	next := func() {
		t.Helper()
		for {
			select {
			case ev, ok := <-s.Events():
				if !ok {
					t.Fatalf("stream ended: %v", s.Err())
				}
				if _, ok := ev.(*ChallengeEvent); ok {
					challenges++
					return
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("no challenge after %d", challenges)
			}
		}
	}
	for challenges < EventStreamOpens {
		next()
	}
	// The wait registers a timer on the manual clock: its change is the
	// event to wait on (the log line says it is the budget's).
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(logs.String(), "waiting for the window"); {
		select {
		case <-clk.Changed():
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("no wait for the budget after %d openings:\n%s", n.Load(), logs.String())
		}
	}
	if got := n.Load(); got != EventStreamOpens {
		t.Fatalf("%d openings before the window passed, want %d", got, EventStreamOpens)
	}
	clk.Advance(EventStreamWindow)
	next()
	if got := n.Load(); got < EventStreamOpens+1 {
		t.Fatalf("%d openings after the window passed, want more than %d", got, EventStreamOpens)
	}
	for _, r := range f.requests() {
		if r.Path != "/api/stream/event" {
			t.Errorf("unexpected request %s %s", r.Method, r.Path)
		}
	}
	if strings.Contains(logs.String(), "rate limited") {
		t.Errorf("a 429 lockout:\n%s", logs.String())
	}
}

// TestOpenBudgetSeedAndReport: a budget seeded with an earlier process's
// openings (unordered, more than its limit) keeps the latest and reports
// each opening it allows, and only those.
func TestOpenBudgetSeedAndReport(t *testing.T) {
	var spent []time.Time
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	b := newOpenBudget(3, 10*time.Minute, []time.Time{at(4), at(1), at(3), at(2)}, func(x time.Time) { spent = append(spent, x) })
	if d := b.take(at(5)); d != 7*time.Minute { // holds 2, 3, 4: 2 leaves at 12
		t.Fatalf("take at 5 = %s, want 7m (the seed's latest three are in)", d)
	}
	if d := b.take(at(12)); d != 0 {
		t.Fatalf("take at 12 = %s, want 0", d)
	}
	if len(spent) != 1 || !spent[0].Equal(at(12)) {
		t.Fatalf("reported %v, want only the opening at 12", spent)
	}
}
