package lichess

import (
	"sort"
	"sync"
	"time"
)

// Clock is the client's source of time. Every wait the client makes on its
// own behalf (the 429 lockout, the stream watchdog, the delay before a stream
// reconnects) goes through it, so tests can drive time by hand with a
// ManualClock. The HTTP retry backoff of go-retryablehttp uses real time.
type Clock interface {
	// Now returns the current time.
	Now() time.Time
	// After returns a channel that receives the time once d has elapsed.
	After(d time.Duration) <-chan time.Time
	// Sleep blocks for d.
	Sleep(d time.Duration)
}

// SystemClock is the real wall clock.
type SystemClock struct{}

// Now returns time.Now().
func (SystemClock) Now() time.Time { return time.Now() }

// After returns time.After(d).
func (SystemClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// Sleep calls time.Sleep(d).
func (SystemClock) Sleep(d time.Duration) { time.Sleep(d) }

// ManualClock is a Clock that only moves when Advance is called. It is safe
// for concurrent use and meant for tests (of this package and of code built on
// it): a test advances the clock past a lockout or a watchdog deadline and
// observes what the client does.
type ManualClock struct {
	mu      sync.Mutex
	now     time.Time
	waiters []manualWaiter
	changed chan struct{}
}

type manualWaiter struct {
	at time.Time
	ch chan time.Time
}

// NewManualClock returns a ManualClock showing start.
func NewManualClock(start time.Time) *ManualClock {
	return &ManualClock{now: start, changed: make(chan struct{})}
}

// Now returns the clock's current time.
func (m *ManualClock) Now() time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.now
}

// After returns a channel that fires once the clock has been advanced by at
// least d. A non-positive d fires at once.
func (m *ManualClock) After(d time.Duration) <-chan time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	ch := make(chan time.Time, 1)
	if d <= 0 {
		ch <- m.now
		return ch
	}
	m.waiters = append(m.waiters, manualWaiter{at: m.now.Add(d), ch: ch})
	m.notifyLocked()
	return ch
}

// Sleep blocks until the clock has been advanced by at least d.
func (m *ManualClock) Sleep(d time.Duration) { <-m.After(d) }

// Advance moves the clock forward by d and fires every timer that is due.
func (m *ManualClock) Advance(d time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.now = m.now.Add(d)
	sort.SliceStable(m.waiters, func(i, j int) bool { return m.waiters[i].at.Before(m.waiters[j].at) })
	kept := m.waiters[:0]
	for _, w := range m.waiters {
		if !w.at.After(m.now) {
			w.ch <- m.now
			continue
		}
		kept = append(kept, w)
	}
	m.waiters = kept
	m.notifyLocked()
}

// Pending returns how many timers are waiting for the clock to advance.
func (m *ManualClock) Pending() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.waiters)
}

// NextDeadline returns the earliest pending timer's due time, and false when
// no timer is pending.
func (m *ManualClock) NextDeadline() (time.Time, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.waiters) == 0 {
		return time.Time{}, false
	}
	first := m.waiters[0].at
	for _, w := range m.waiters[1:] {
		if w.at.Before(first) {
			first = w.at
		}
	}
	return first, true
}

// Changed returns a channel that is closed the next time a timer is created
// or the clock is advanced; tests use it to wait for the code under test to
// start waiting.
func (m *ManualClock) Changed() <-chan struct{} {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.changed
}

func (m *ManualClock) notifyLocked() {
	close(m.changed)
	m.changed = make(chan struct{})
}
