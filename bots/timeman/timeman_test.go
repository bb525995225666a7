package timeman

import (
	"testing"
	"time"

	"github.com/outpostchess/outpost/bots/engine"
)

func TestPlan(t *testing.T) {
	ms := time.Millisecond
	s := time.Second
	cases := []struct {
		name             string
		lim              engine.Limits
		white            bool
		target, deadline time.Duration
		fixed, bounded   bool
	}{
		{"nothing", engine.Limits{}, true, 0, 0, false, false},
		{"depth only", engine.Limits{Depth: 5}, true, 0, 0, false, false},
		{"infinite", engine.Limits{Infinite: true, WTime: s, FirstMoveTotal: s}, true, 0, 0, false, false},
		{"movetime", engine.Limits{MoveTime: 500 * ms, MoveOverhead: 50 * ms}, true, 450 * ms, 450 * ms, true, true},
		{"sudden death", engine.Limits{WTime: 60_000 * ms, BTime: s}, true, 59_990 * ms / 30, 3 * (59_990 * ms / 30), false, true},
		{"black with increment", engine.Limits{WTime: 60 * s, BTime: 30_010 * ms, BInc: 2 * s}, false, 2500 * ms, 7500 * ms, false, true},
		{"moves to go 1", engine.Limits{WTime: 1010 * ms, MovesToGo: 1}, true, 500 * ms, 750 * ms, false, true},
		{"almost flagging", engine.Limits{WTime: 30 * ms, MoveOverhead: 100 * ms}, true, ms, ms, false, true},
		{"clock and movetime", engine.Limits{WTime: 60 * s, MoveTime: 100 * ms}, true, 100 * ms, 100 * ms, true, true},
		// 15+0 before the first move: the clock alone allows 30 s (90 s
		// hard), the rapid first-move deadline of 30 s only 10 s.
		{"rapid first move", engine.Limits{WTime: 900 * s, BTime: 900 * s, FirstMoveTotal: 30 * s, FirstMoveLeft: 29 * s, MoveOverhead: 100 * ms},
			true, 9900 * ms, 9900 * ms, false, true},
		// After a reconnection little is left: all of it minus the overhead.
		{"first move almost expired", engine.Limits{WTime: 900 * s, FirstMoveTotal: 30 * s, FirstMoveLeft: 2 * s, MoveOverhead: 100 * ms},
			true, 1900 * ms, 1900 * ms, false, true},
		{"first move left unknown", engine.Limits{BTime: 900 * s, FirstMoveTotal: 15 * s}, false, 5 * s, 5 * s, false, true},
		// The ultraBullet clock is tighter than its first-move deadline.
		{"ultrabullet first move", engine.Limits{WTime: 15 * s, FirstMoveTotal: 15 * s, MoveOverhead: 100 * ms},
			true, 14_890 * ms / 30, 3 * (14_890 * ms / 30), false, true},
		{"depth under a first-move deadline", engine.Limits{Depth: 30, FirstMoveTotal: 9 * s}, true, 3 * s, 3 * s, false, true},
		{"caller deadline", engine.Limits{WTime: 60 * s, Deadline: 700 * ms}, true, 700 * ms, 700 * ms, false, true},
		{"caller deadline equal to movetime", engine.Limits{MoveTime: 10 * s, Deadline: 10 * s}, true, 10 * s, 10 * s, true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Plan(c.lim, c.white)
			want := Budget{Target: c.target, Deadline: c.deadline, Fixed: c.fixed, Bounded: c.bounded}
			if got != want {
				t.Fatalf("Plan = %+v, want %+v", got, want)
			}
			if again := Plan(withDeadline(c.lim, got), c.white); got.Bounded && again != got {
				t.Errorf("Plan is not idempotent: %+v then %+v", got, again)
			}
		})
	}
}

func withDeadline(lim engine.Limits, b Budget) engine.Limits {
	lim.Deadline = b.Deadline
	return lim
}

// TestPlanInvariants checks, over a grid of clocks, increments, overheads
// and first-move deadlines, the promises the rule makes: target within
// deadline, deadline within the usable clock and within a third of the
// first-move deadline.
func TestPlanInvariants(t *testing.T) {
	ms := time.Millisecond
	for _, own := range []time.Duration{5 * ms, 200 * ms, 3 * time.Second, 60 * time.Second, 3 * time.Hour} {
		for _, inc := range []time.Duration{0, time.Second, 180 * time.Second} {
			for _, ov := range []time.Duration{0, 100 * ms, time.Second} {
				for _, first := range []time.Duration{0, 150 * ms, 15 * time.Second, 35 * time.Second} {
					lim := engine.Limits{WTime: own, WInc: inc, MoveOverhead: ov, FirstMoveTotal: first}
					b := Plan(lim, true)
					if !b.Bounded || b.Target > b.Deadline || b.Deadline < MinThink {
						t.Fatalf("%+v: %+v", lim, b)
					}
					if usable := own - ov - SafetyMargin; usable > MinThink && b.Deadline > usable {
						t.Errorf("%+v: deadline %v beyond the usable clock %v", lim, b.Deadline, usable)
					}
					if first > 3*MinThink && b.Deadline > first/3 {
						t.Errorf("%+v: deadline %v beyond a third of the first-move deadline", lim, b.Deadline)
					}
				}
			}
		}
	}
}
