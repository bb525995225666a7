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
