package bots

import (
	"time"

	"github.com/outpostchess/outpost/bots/engine"
)

// Bounds of the fallback's patience.
const (
	minGrace = 50 * time.Millisecond
	maxGrace = 500 * time.Millisecond
)

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

// BudgetWithin returns the largest time budget for a move without a clock
// (a fixed move time: correspondence, unlimited games) whose worst case
// under a Fallback — the budget, then twice its grace before the
// Fallback gives up and plays the best move so far — still ends within
// total. A caller that must have the move by total (the game runner: the
// correspondence move time less the move overhead) gives the engine this
// as its deadline, so that the Fallback's grace lands before the move
// time's end, not after it. It is at least one millisecond.
func BudgetWithin(total time.Duration) time.Duration {
	var b time.Duration
	switch {
	case total >= 5*maxGrace+2*maxGrace:
		// budget/5 ≥ maxGrace: the grace is capped
		b = total - 2*maxGrace
	case total <= 5*minGrace+2*minGrace:
		// budget/5 ≤ minGrace: the grace is its floor
		b = total - 2*minGrace
	default:
		// grace = budget/5: budget + 2·budget/5 = total
		b = total * 5 / 7
	}
	return max(b, time.Millisecond)
}
