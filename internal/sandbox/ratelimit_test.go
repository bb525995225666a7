package sandbox

import (
	"net/url"
	"sync/atomic"
	"testing"
	"time"
)

// TestRequestLimitsWindow: lila.memo.RateLimit's rule — credits per key in
// a window that opens with the key's first request and clears a window
// later; a composite spends on all its limits or on none; the scale
// multiplies the credits (at least one); off allows everything.
func TestRequestLimitsWindow(t *testing.T) {
	t0 := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	fast := limitSpec{"test.fast", 3, time.Minute}
	slow := limitSpec{"test.slow", 4, time.Hour}
	type step struct {
		at      time.Duration
		key     string
		cost    int
		allowed bool
	}
	tests := []struct {
		name  string
		scale float64
		specs []limitSpec
		steps []step
	}{
		{"credits then the window's end", 1, []limitSpec{fast}, []step{
			{0, "a", 1, true}, {time.Second, "a", 2, true}, {2 * time.Second, "a", 1, false},
			{2 * time.Second, "b", 3, true}, // another key has its own credits
			{time.Minute - time.Nanosecond, "a", 1, false}, {time.Minute, "a", 3, true},
		}},
		{"a cost larger than what is left", 1, []limitSpec{fast}, []step{
			{0, "a", 2, true}, {0, "a", 2, false}, {0, "a", 1, true},
		}},
		{"zero cost is free", 1, []limitSpec{fast}, []step{
			{0, "a", 3, true}, {0, "a", 0, true}, {0, "a", 1, false},
		}},
		{"composite: all or none", 1, []limitSpec{fast, slow}, []step{
			{0, "a", 3, true}, {0, "a", 1, false}, // fast is spent, slow not touched
			{time.Minute, "a", 1, true}, {time.Minute, "a", 1, false}, // slow: 4 spent
		}},
		{"scaled", 0.4, []limitSpec{fast}, []step{ // 3 × 0.4 → 1
			{0, "a", 1, true}, {0, "a", 1, false},
		}},
		{"scaled up", 2, []limitSpec{fast}, []step{
			{0, "a", 6, true}, {0, "a", 1, false},
		}},
		{"off", 0, []limitSpec{fast}, []step{{0, "a", 100, true}, {0, "a", 100, true}}},
		{"off when negative", -1, []limitSpec{fast}, []step{{0, "a", 100, true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newRequestLimits(tt.scale)
			for i, st := range tt.steps {
				if got := l.allow(t0.Add(st.at), st.key, st.cost, tt.specs...); got != st.allowed {
					t.Fatalf("step %d %+v: allowed %v", i, st, got)
				}
			}
		})
	}
}

// TestRequestLimitsAnswers: the limited endpoints answer lila's 429 with
// lila's message once their credits are spent (a tenth of lila's here), and
// again after the window: the event stream (api.stream.event.bearer),
// /api/account (api.account.user), challenge creation (challenge.create.user,
// 5 credits a challenge to a human, 1 to a bot).
func TestRequestLimitsAnswers(t *testing.T) {
	var offset atomic.Int64
	now := func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
	e := newEnv(t, Config{RequestLimits: 0.2, Now: now})
	clock := url.Values{"clock.limit": {"60"}, "clock.increment": {"0"}}

	for range 6 { // 30 × 0.2
		if code, _ := e.get(tokBob, "/api/account"); code != 200 {
			t.Fatalf("account within the limit: %d", code)
		}
	}
	if code, m := e.get(tokBob, "/api/account"); code != 429 || m["error"] != apiMeLimitedMsg {
		t.Fatalf("account past the limit: %d %v", code, m)
	}

	// challenge.create.user fast: 25 × 0.2 = 5 credits a minute
	e.challenge(tokAlice, "bob", clock) // a human: 5
	code, m := e.post(tokAlice, "/api/challenge/bot1", clock)
	if code != 429 || m["error"] != rateLimitedMsg || m["ratelimit"] != nil {
		t.Fatalf("challenge past the limit: %d %v", code, m)
	}
	for range 5 {
		e.challenge(tokBob, "bot1", clock) // a bot: 1 each
	}
	if code, _ := e.post(tokBob, "/api/challenge/bot2", clock); code != 429 {
		t.Fatalf("the sixth challenge to a bot: %d", code)
	}

	offset.Store(int64(5 * time.Minute))
	if code, _ := e.get(tokBob, "/api/account"); code != 200 {
		t.Fatalf("account after the window: %d", code)
	}
	e.challenge(tokAlice, "bot1", clock)
}
