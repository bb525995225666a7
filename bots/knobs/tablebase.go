package knobs

import (
	"github.com/outpostchess/outpost/bots/syzygy"
)

// Tablebase is an endgame tablebase the line search probes for WDL values
// (a *syzygy.Tables). The engine given one closes it when it is closed.
type Tablebase = syzygy.Prober

// WithTablebase makes the line search probe tb: at a position below the
// root whose last move was a capture or a pawn move (halfmove clock 0,
// where the WDL table is exact), with at most tb.MaxPieces() pieces, no
// castling rights and at least probeDepth plies of nominal depth left
// (0 means 1), the line ends there. A won position scores as the line's
// mate of the losing side, a lost one as the engine's own mate, a draw
// (cursed wins and blessed losses too: the 50-move rule draws them) as a
// draw — the knobs that weigh mates and draws apply as to any line. The
// root itself is left to a move source (bots/syzygy.Source). Engines
// without this option search exactly as before.
func WithTablebase(tb Tablebase, probeDepth int) Option {
	return func(e *Engine) { e.tb, e.tbDepth = tb, max(probeDepth, 1) }
}

// probeTB ends the line at n when the tables know its result.
func (s *searcher) probeTB(n *node, depth int) (result, bool) {
	b := n.pos
	if s.tb == nil || len(s.path) == 0 || depth < s.tbDepth || !syzygy.InSearch(s.tb, b) {
		return result{}, false
	}
	w, err := s.tb.ProbeWDL(b)
	if err != nil {
		return result{}, false
	}
	stm := colorIndex(b.SideToMove())
	switch w {
	case syzygy.Win: // the side not to move is as good as mated
		bd := s.lc.score(&n.feat, s.path, 1-stm, termMate)
		return result{score: bd.Total, bd: bd}, true
	case syzygy.Loss:
		return s.leaf(n, termMate), true
	}
	return s.leaf(n, termDraw), true
}
