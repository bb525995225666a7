package bots

import (
	"time"

	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/timeman"
)

// Bounds of the fallback's patience.
const (
	minBudget = 10 * time.Millisecond
	minGrace  = 50 * time.Millisecond
	maxGrace  = 500 * time.Millisecond
)

// MoveBudget returns how long an engine may think about one move under lim
// before the Fallback stops trusting it, for the side to move (white or
// not). It is a safety cap, looser than what a good engine uses: the fixed
// move time when set; with a clock, a tenth of the remaining time (or
// remaining/movesToGo, at most halving it) plus three quarters of the
// increment, never more than what the clock holds after the move overhead
// and a 5% reserve. A deadline from the game's time plan (lim.Deadline, or
// a first-move deadline: see bots/timeman) caps it. ok is false when nothing
// bounds the search (depth or nodes only, or infinite): then only the
// context does.
func MoveBudget(lim engine.Limits, white bool) (budget time.Duration, ok bool) {
	if lim.Infinite {
		return 0, false
	}
	if lim.MoveTime > 0 {
		budget, ok = lim.MoveTime, true
	}
	own, inc := lim.WTime, lim.WInc
	if !white {
		own, inc = lim.BTime, lim.BInc
	}
	if own > 0 {
		div := time.Duration(10)
		if lim.MovesToGo > 0 {
			div = time.Duration(min(max(lim.MovesToGo, 2), 10))
		}
		c := own/div + inc*3/4
		c = min(c, own-lim.MoveOverhead-own/20)
		c = max(c, minBudget)
		if !ok || c < budget {
			budget, ok = c, true
		}
	}
	if lim.Deadline > 0 || lim.FirstMoveTotal > 0 {
		if d := timeman.Plan(lim, white).Deadline; !ok || d < budget {
			budget, ok = d, true
		}
	}
	return budget, ok
}

// grace is how long past the budget the Fallback waits for the primary to
// return its best move after its context was cancelled: a fifth of the
// budget within [50 ms, 500 ms], but never so long that budget + 2·grace
// overruns the clock.
func grace(lim engine.Limits, white bool, budget time.Duration) time.Duration {
	g := min(max(budget/5, minGrace), maxGrace)
	own := lim.WTime
	if !white {
		own = lim.BTime
	}
	if own > 0 {
		room := (own - lim.MoveOverhead - budget) * 9 / 10 / 2
		g = max(min(g, room), time.Millisecond)
	}
	return g
}
