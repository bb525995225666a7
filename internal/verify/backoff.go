package verify

import (
	"time"
)

// Defaults of the poll schedule: the first poll right after the summary,
// then one minute, doubling up to two hours between polls, for 48 hours.
const (
	DefaultFirstDelay = time.Minute
	DefaultMaxDelay   = 2 * time.Hour
	DefaultWindow     = 48 * time.Hour
	// JitterFraction is the largest random extra added to a delay, as a
	// fraction of it, so that many games finished together do not poll
	// together.
	JitterFraction = 0.1
)

// Backoff is the schedule of the export polls.
type Backoff struct {
	// First is the delay after the first unsuccessful poll; each further
	// one doubles it up to Max.
	First, Max time.Duration
	// Window is how long after the game's end polling goes on.
	Window time.Duration
}

// Delay returns the delay after the attempts-th unsuccessful poll
// (attempts ≥ 1): First·2^(attempts−1), at most Max.
func (b Backoff) Delay(attempts int) time.Duration {
	d := b.First
	for i := 1; i < attempts && d < b.Max; i++ {
		d *= 2
	}
	return min(d, b.Max)
}

// Next returns when to poll again after the attempts-th unsuccessful poll
// made at now, for a game that ended at finished: now + the delay + jitter
// (a fraction of the delay in [0, 1), times JitterFraction), not before
// lockedUntil (a 429's lockout), and not after the window's end, where the
// last poll is made. ok is false when the window has passed: stop polling.
func (b Backoff) Next(finished, now time.Time, attempts int, jitter float64, lockedUntil time.Time) (time.Time, bool) {
	end := finished.Add(b.Window)
	if !now.Before(end) {
		return time.Time{}, false
	}
	d := b.Delay(attempts)
	next := now.Add(d + time.Duration(float64(d)*JitterFraction*jitter))
	if lockedUntil.After(next) {
		next = lockedUntil
	}
	if next.After(end) {
		next = end
	}
	return next, true
}
