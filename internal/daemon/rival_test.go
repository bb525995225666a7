package daemon

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/outpostchess/outpost/lichess"
)

// TestRivalWatch: the server closing the event stream three times within
// two minutes warns (another process on the token), once per ten minutes;
// closes further apart, and drops of other causes, do not.
func TestRivalWatch(t *testing.T) {
	closed := fmt.Errorf("read: %w", lichess.ErrStreamClosed)
	dropped := errors.New("unexpected EOF")
	type step struct {
		at    time.Duration // since the start
		cause error
		warn  bool
	}
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"three closes in two minutes", []step{{0, closed, false}, {10 * time.Second, closed, false}, {30 * time.Second, closed, true}}},
		{"a deploy now and then", []step{{0, closed, false}, {3 * time.Minute, closed, false}, {6 * time.Minute, closed, false}, {9 * time.Minute, closed, false}}},
		{"network drops are not a rival", []step{{0, dropped, false}, {time.Second, dropped, false}, {2 * time.Second, dropped, false}, {3 * time.Second, closed, false}}},
		{"once per ten minutes", []step{{0, closed, false}, {time.Second, closed, false}, {2 * time.Second, closed, true},
			{3 * time.Second, closed, false}, // still the rival
			{5 * time.Minute, closed, false}, {5*time.Minute + time.Second, closed, false}, {5*time.Minute + 2*time.Second, closed, false},
			{10*time.Minute + 2*time.Second, closed, false}, {10*time.Minute + 3*time.Second, closed, false}, {10*time.Minute + 4*time.Second, closed, true}}},
		{"the window slides", []step{{0, closed, false}, {time.Minute, closed, false}, {2*time.Minute + time.Second, closed, false}, {2*time.Minute + 2*time.Second, closed, true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var w rivalWatch
			start := time.Date(2026, 12, 2, 7, 0, 0, 0, time.UTC)
			for i, s := range tc.steps {
				_, warn := w.closed(start.Add(s.at), s.cause)
				assert.Equal(t, s.warn, warn, "step %d at %s", i, s.at)
			}
		})
	}
}
