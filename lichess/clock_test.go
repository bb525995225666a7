package lichess

import (
	"testing"
	"time"
)

func TestManualClock(t *testing.T) {
	clk := NewManualClock(t0)
	a := clk.After(10 * time.Second)
	b := clk.After(5 * time.Second)
	now := clk.After(0)
	select {
	case <-now:
	default:
		t.Fatal("After(0) did not fire at once")
	}
	if clk.Pending() != 2 {
		t.Fatalf("pending %d", clk.Pending())
	}
	if d, ok := clk.NextDeadline(); !ok || !d.Equal(t0.Add(5*time.Second)) {
		t.Fatalf("next deadline %v %v", d, ok)
	}
	clk.Advance(4 * time.Second)
	select {
	case <-a:
		t.Fatal("fired early")
	case <-b:
		t.Fatal("fired early")
	default:
	}
	clk.Advance(time.Second)
	if got := <-b; !got.Equal(t0.Add(5 * time.Second)) {
		t.Fatalf("b fired with %v", got)
	}
	select {
	case <-a:
		t.Fatal("a fired early")
	default:
	}
	done := make(chan struct{})
	go func() { clk.Sleep(time.Second); close(done) }()
	waitPending(t, clk, 2)
	clk.Advance(5 * time.Second)
	<-a
	<-done
	if !clk.Now().Equal(t0.Add(10 * time.Second)) {
		t.Fatalf("now %v", clk.Now())
	}
	if _, ok := clk.NextDeadline(); ok || clk.Pending() != 0 {
		t.Fatal("timers left")
	}
}

func TestBackoffDelay(t *testing.T) {
	lo, hi := 100*time.Millisecond, 2*time.Second
	for attempt, wantMax := range []time.Duration{100, 200, 400, 800, 1600, 2000, 2000} {
		wantMax *= time.Millisecond
		for i := 0; i < 50; i++ {
			d := backoffDelay(lo, hi, attempt)
			if d < wantMax/2 || d > wantMax {
				t.Fatalf("attempt %d: %v outside [%v, %v]", attempt, d, wantMax/2, wantMax)
			}
		}
	}
	if backoffDelay(0, hi, 3) != 0 {
		t.Fatal("zero minimum should not wait")
	}
}

func TestParseRetryAfter(t *testing.T) {
	for h, want := range map[string]time.Duration{"": -1, "0": 0, "30": 30 * time.Second, "-5": -1, "abc": -1, "99999999": -1} {
		d, ok := parseRetryAfter(h, t0)
		if (want < 0) == ok || (ok && d != want) {
			t.Errorf("%q: %v %v", h, d, ok)
		}
	}
}

func TestNewValidatesOptions(t *testing.T) {
	bad := []Options{
		{BaseURL: "ftp://x"},
		{BaseURL: "lichess.org"},
		{BaseURL: "http://x", Token: "has space"},
		{BaseURL: "http://x", HTTPClient: &httpClientWithTimeout},
	}
	for i, o := range bad {
		if _, err := New(o); err == nil {
			t.Errorf("case %d accepted", i)
		}
	}
	c, err := New(Options{})
	if err != nil || c.BaseURL() != DefaultBaseURL || c.opts.StreamTimeout != DefaultStreamTimeout || c.opts.RateLimit != 60*time.Second {
		t.Fatalf("defaults: %v %+v", err, c.opts)
	}
}
