package testkit

import (
	"testing"
	"time"

	"go.uber.org/goleak"
)

// leakWait bounds how long NoLeaks waits for goroutines to end. goleak's
// own retries last about 0.4 s (twenty looks, the pause doubling up to
// 100 ms), and a goroutine winding down after a shutdown on a machine at
// load 30 can wait longer than that to be scheduled; a goroutine still
// there after 20 s is a leak, not a slow machine.
const leakWait = 20 * time.Second

// leakPoll is the pause between two looks.
const leakPoll = 50 * time.Millisecond

// NoLeaks fails t when goroutines other than those opts ignore are still
// running leakWait from now (goleak.VerifyNone with a wait that a busy
// machine does not exhaust).
func NoLeaks(t testing.TB, opts ...goleak.Option) {
	t.Helper()
	if err := waitNoLeaks(leakWait, func() error { return goleak.Find(opts...) }); err != nil {
		t.Error(err)
	}
}

// waitNoLeaks calls find until it returns nil or wait has passed, and
// returns its last answer.
func waitNoLeaks(wait time.Duration, find func() error) error {
	deadline := time.Now().Add(wait)
	for {
		err := find()
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(leakPoll)
	}
}
