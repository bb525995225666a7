package timeman

import (
	"time"

	"github.com/outpostchess/outpost/bots/engine"
)

// minSafetyCap is the least SafetyCap gives with a clock: below it no engine
// answers at all, and the fallback would replace every move.
const minSafetyCap = 10 * time.Millisecond

// SafetyCap returns how long an engine may think about one move under lim
// before the Fallback stops trusting it, for the side to move (white or
// not). It is a safety cap, looser than what a good engine uses: the fixed
// move time when set; with a clock, a tenth of the remaining time (or
// remaining/movesToGo, at most halving it) plus three quarters of the
// increment, never more than what the clock holds after the move overhead
// and a 5% reserve. A deadline from the game's time plan (lim.Deadline, or
// a first-move deadline: see Plan) caps it. ok is false when nothing
// bounds the search (depth or nodes only, or infinite): then only the
// context does.
func SafetyCap(lim engine.Limits, white bool) (budget time.Duration, ok bool) {
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
		c = max(c, minSafetyCap)
		if !ok || c < budget {
			budget, ok = c, true
		}
	}
	if lim.Deadline > 0 || lim.FirstMoveTotal > 0 {
		if d := Plan(lim, white).Deadline; !ok || d < budget {
			budget, ok = d, true
		}
	}
	return budget, ok
}
