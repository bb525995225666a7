package knobs

import (
	"testing"
	"time"

	"github.com/outpostchess/outpost/bots/engine"
)

// TestDeadlineFollowsTimePlan: the knobs search stops at the target of the
// one time plan (bots/timeman): the clock's share, a fixed move time, a
// third of the first-move deadline, the caller's deadline cutting a depth.
func TestDeadlineFollowsTimePlan(t *testing.T) {
	start := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	s := time.Second
	tests := []struct {
		name string
		lim  engine.Limits
		want time.Duration // 0: no deadline
	}{
		{"depth only", engine.Limits{Depth: 6}, 0},
		{"infinite", engine.Limits{Infinite: true, WTime: s}, 0},
		{"move time", engine.Limits{MoveTime: 2 * s, MoveOverhead: 100 * time.Millisecond}, 1900 * time.Millisecond},
		{"clock", engine.Limits{WTime: 60*s + 10*time.Millisecond, BTime: 60 * s}, 2 * s},
		{"rapid first move", engine.Limits{WTime: 900 * s, BTime: 900 * s, FirstMoveTotal: 30 * s}, 10 * s},
		{"depth cut by a deadline", engine.Limits{Depth: 30, Deadline: 300 * time.Millisecond}, 300 * time.Millisecond},
	}
	for _, tc := range tests {
		got := deadline(tc.lim, true, start)
		if tc.want == 0 {
			if !got.IsZero() {
				t.Errorf("%s: deadline %v, want none", tc.name, got.Sub(start))
			}
			continue
		}
		if got.Sub(start) != tc.want {
			t.Errorf("%s: deadline %v, want %v", tc.name, got.Sub(start), tc.want)
		}
	}
}
