// Package timeman is Outpost's one time-management rule: how long an engine
// may think about one move, from the remaining clock, the increment, a fixed
// move time, the server's first-move deadline and a reserve for network lag.
// The game runner applies it to every engine (engine.Limits.Deadline) and
// the engines that plan their own time (medium, hard, knobs) use it too, so
// that no engine, built-in or external, plans past it.
//
// The rule, for the side to move (every constant is explained where it is
// declared):
//
//	avail    = own clock − move overhead − safetyMargin       (at least minThink)
//	target   = avail / movesToGo + incrementShare × increment  (at most avail / 2)
//	deadline = min(hardFactor × target, maxClockShare × avail)
//
// movesToGo is the server's moves-to-go, or defaultMovesToGo in sudden
// death. A fixed move time (correspondence, unlimited games, "go movetime")
// gives target = deadline = move time − move overhead. Before this side's
// first move, when the server announces a first-move deadline (Lichess's
// gameState.expiration), both are capped at
//
//	first = min(millisToMove × firstMoveShare, time left to move) − move overhead
//
// so that an engine never spends more than a third of the first-move
// deadline, whatever the clock says (a 15-minute clock would otherwise give
// a first move of 30 s against a 30 s deadline).
package timeman

import (
	"time"

	"github.com/outpostchess/outpost/bots/engine"
)

// The constants of the rule.
const (
	// DefaultMovesToGo: in sudden death we plan as if 30 more moves had to
	// be played on the remaining clock (plus increments). Because the
	// remaining time shrinks, this spends less per move as the game goes on
	// and never runs the clock down to zero.
	DefaultMovesToGo = 30
	// IncrementShareNum/IncrementShareDen: we count on spending 3/4 of each
	// increment, keeping a quarter as a reserve against lag.
	IncrementShareNum, IncrementShareDen = 3, 4
	// SafetyMargin is kept on the clock beyond the move overhead for the
	// time it takes to unwind a search and hand the move to the runner.
	SafetyMargin = 10 * time.Millisecond
	// HardFactor: one move may use up to 3× its target (to finish an
	// iteration that found a new best move) ...
	HardFactor = 3
	// MaxClockShareNum/MaxClockShareDen: ... but never more than 3/4 of the
	// usable clock.
	MaxClockShareNum, MaxClockShareDen = 3, 4
	// FirstMoveShareDen: at most a third of the first-move deadline is spent
	// on the first move, leaving two thirds for lag, a slow engine start or
	// a reconnection.
	FirstMoveShareDen = 3
	// MinThink: even with almost no time left an engine gets this long,
	// enough for a one-ply search, rather than return an unconsidered move.
	MinThink = time.Millisecond
)

// Budget is the time plan of one move.
type Budget struct {
	// Target is how long the move should normally take: an engine that
	// deepens iteratively does not start an iteration it cannot finish
	// within it.
	Target time.Duration
	// Deadline is the hard limit: the engine must have answered by then.
	Deadline time.Duration
	// Fixed is true when a fixed move time is the binding limit: the
	// engine may spend all of it.
	Fixed bool
	// Bounded is false when nothing bounds the move in time (depth or
	// nodes only, or an infinite search): only the context then does.
	Bounded bool
}

// Plan returns the budget of the side to move (white or not) under lim,
// following the rule in the package comment. A positive lim.Deadline (set by
// a caller that already planned) is a further cap, so Plan is idempotent.
func Plan(lim engine.Limits, white bool) Budget {
	if lim.Infinite {
		return Budget{}
	}
	overhead := max(lim.MoveOverhead, 0)
	var b Budget
	if lim.MoveTime > 0 {
		t := max(lim.MoveTime-overhead, MinThink)
		b = Budget{Target: t, Deadline: t, Fixed: true, Bounded: true}
	}
	own, inc := lim.WTime, lim.WInc
	if !white {
		own, inc = lim.BTime, lim.BInc
	}
	if own > 0 {
		b = tighter(b, clockBudget(own, inc, lim.MovesToGo, overhead))
	}
	if lim.FirstMoveTotal > 0 {
		left := lim.FirstMoveLeft
		if left <= 0 {
			left = lim.FirstMoveTotal
		}
		first := max(min(lim.FirstMoveTotal/FirstMoveShareDen, left)-overhead, MinThink)
		b = tighter(b, Budget{Target: first, Deadline: first, Bounded: true})
	}
	if lim.Deadline > 0 {
		b = tighter(b, Budget{Target: lim.Deadline, Deadline: lim.Deadline, Bounded: true})
	}
	return b
}

// clockBudget is the budget the clock alone allows.
func clockBudget(own, inc time.Duration, movesToGo int, overhead time.Duration) Budget {
	mtg := movesToGo
	if mtg <= 0 {
		mtg = DefaultMovesToGo
	}
	avail := max(own-overhead-SafetyMargin, MinThink)
	target := avail/time.Duration(mtg) + inc*IncrementShareNum/IncrementShareDen
	target = max(min(target, avail/2), MinThink)
	deadline := min(target*HardFactor, avail*MaxClockShareNum/MaxClockShareDen)
	deadline = max(deadline, MinThink)
	return Budget{Target: target, Deadline: deadline, Bounded: true}
}

// tighter combines two budgets: the smaller deadline and the smaller
// target; Fixed survives only from the budget whose deadline binds.
func tighter(a, b Budget) Budget {
	switch {
	case !a.Bounded:
		return b
	case !b.Bounded:
		return a
	}
	out := Budget{Target: min(a.Target, b.Target), Deadline: min(a.Deadline, b.Deadline), Bounded: true}
	out.Target = min(out.Target, out.Deadline)
	switch {
	case a.Deadline < b.Deadline:
		out.Fixed = a.Fixed
	case b.Deadline < a.Deadline:
		out.Fixed = b.Fixed
	default:
		// Equal deadlines: spending all of it is within both.
		out.Fixed = a.Fixed || b.Fixed
	}
	return out
}
