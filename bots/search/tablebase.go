package search

import (
	"fmt"

	"github.com/outpostchess/outpost/bots/syzygy"
)

// Tablebase is an endgame tablebase the search probes for WDL values (a
// *syzygy.Tables). The engine given one closes it when it is closed.
type Tablebase = syzygy.Prober

// tbWinScore is the score of a tablebase win at the root: above every
// evaluation and below every mate score (mateBound), minus the ply so that
// nearer wins are preferred. maxPly keeps tbWinScore-ply above any
// static evaluation and distinct from mates.
const tbWinScore = mateBound - maxPly - 1

// WithTablebase makes the engine probe tb inside its search: at a node
// (not the root) whose last move was a capture or a pawn move (halfmove
// clock 0, where the WDL table is exact), with at most tb.MaxPieces()
// pieces, no castling rights and at least probeDepth plies of remaining
// depth, the tables' win, draw or loss replaces the search below it. The
// root itself is left to a move source (bots/syzygy.Source). probeDepth 0
// means 1. Engines without this option search exactly as before.
func WithTablebase(tb Tablebase, probeDepth int) Option {
	return func(c *config) error {
		if tb == nil {
			return fmt.Errorf("search: nil tablebase")
		}
		if probeDepth < 0 || probeDepth > maxDepth {
			return fmt.Errorf("search: tablebase probe depth %d out of range 0-%d", probeDepth, maxDepth)
		}
		c.tb, c.tbDepth = tb, max(probeDepth, 1)
		return nil
	}
}

// probeTB returns the tablebase score of the node at ply (for the side to
// move) and true when the tables answer for it.
func (s *searcher) probeTB(depth, ply int) (int, bool) {
	b := s.b
	if s.tb == nil || ply == 0 || depth < s.tbDepth || !syzygy.InSearch(s.tb, b) {
		return 0, false
	}
	w, err := s.tb.ProbeWDL(b)
	if err != nil {
		return 0, false
	}
	s.tbHits++
	switch w {
	case syzygy.Win:
		return tbWinScore - ply, true
	case syzygy.Loss:
		return -tbWinScore + ply, true
	case syzygy.CursedWin:
		return 1, true // a win the 50-move rule turns into a draw
	case syzygy.BlessedLoss:
		return -1, true
	}
	return 0, true
}
