package search

import (
	"time"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/timeman"
)

// budget is the time plan of one search: do not start a new iteration after
// soft/2 (it would probably not finish within soft), abort at hard.
type budget struct {
	soft, hard time.Duration
	limited    bool
}

// planTime turns the limits into a time budget for the side to move with
// Outpost's one time-management rule (bots/timeman): soft is the plan's
// target, hard its deadline; a fixed move time is used in full (soft =
// 2·hard). defaultTime is a fixed move time used when no limit at all was
// given. A depth or node limit stays a limit the deadline can cut.
func planTime(lim engine.Limits, side board.Color, defaultTime time.Duration) budget {
	if !lim.Infinite && lim.MoveTime <= 0 && !lim.HasClock() && lim.Depth <= 0 && lim.Nodes <= 0 &&
		lim.Deadline <= 0 && lim.FirstMoveTotal <= 0 {
		lim.MoveTime = defaultTime
	}
	p := timeman.Plan(lim, side == board.White)
	if !p.Bounded {
		return budget{}
	}
	if p.Fixed {
		return budget{soft: 2 * p.Deadline, hard: p.Deadline, limited: true}
	}
	return budget{soft: p.Target, hard: p.Deadline, limited: true}
}
