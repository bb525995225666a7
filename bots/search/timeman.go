package search

import (
	"time"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/engine"
)

// Time management constants.
const (
	// defaultMovesToGo: in sudden death we plan as if 30 more moves had to
	// be played on the remaining clock (plus increments). Because the
	// remaining time shrinks, this spends less per move as the game goes on
	// and can never run the clock down to zero.
	defaultMovesToGo = 30
	// incrementShare: we count on spending 3/4 of each increment, keeping a
	// quarter as a reserve.
	incrementShareNum, incrementShareDen = 3, 4
	// safetyMargin is kept on the clock beyond MoveOverhead for the time it
	// takes to unwind the search and convert the result.
	safetyMargin = 10 * time.Millisecond
	// hardFactor: one move may use up to 3x its planned time (to finish an
	// iteration that found a new best move), but never more than
	// maxClockShare of what is left.
	hardFactor                        = 3
	maxClockShareNum, maxClockShareDe = 3, 4
	// minThink: even with almost no time left we search this long, enough
	// for a depth-1 search, rather than return an unconsidered move.
	minThink = time.Millisecond
)

// budget is the time plan of one search: do not start a new iteration after
// soft/2 (it would probably not finish within soft), abort at hard.
type budget struct {
	soft, hard time.Duration
	limited    bool
}

// planTime turns the limits into a time budget for the side to move.
// defaultTime is used when no limit at all was given.
func planTime(lim engine.Limits, side board.Color, defaultTime time.Duration) budget {
	if lim.Infinite {
		return budget{}
	}
	overhead := max(lim.MoveOverhead, 0)
	var bt budget
	if lim.MoveTime > 0 {
		t := max(lim.MoveTime-overhead, minThink)
		bt = budget{soft: 2 * t, hard: t, limited: true} // fixed time: use it all
	}
	if lim.HasClock() {
		ours, inc := lim.WTime, lim.WInc
		if side == board.Black {
			ours, inc = lim.BTime, lim.BInc
		}
		mtg := lim.MovesToGo
		if mtg <= 0 {
			mtg = defaultMovesToGo
		}
		avail := max(ours-overhead-safetyMargin, minThink)
		soft := avail/time.Duration(mtg) + inc*incrementShareNum/incrementShareDen
		soft = min(soft, avail/2)
		hard := min(soft*hardFactor, avail*maxClockShareNum/maxClockShareDe)
		soft, hard = max(soft, minThink), max(hard, minThink)
		if !bt.limited || hard < bt.hard {
			bt = budget{soft: soft, hard: hard, limited: true}
		}
	}
	if !bt.limited && lim.Depth <= 0 && lim.Nodes <= 0 {
		bt = budget{soft: 2 * defaultTime, hard: defaultTime, limited: true}
	}
	return bt
}
