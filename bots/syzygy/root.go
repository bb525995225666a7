package syzygy

import (
	"errors"
	"fmt"

	"github.com/outpostchess/outpost/bots/board"
)

// Fields of a fathom TB_RESULT word (tbprobe.h).
const (
	resWDLMask    = 0xF
	resToShift    = 4
	resFromShift  = 10
	resPromoShift = 16
	resDTZShift   = 20
	resSquareMask = 0x3F
	resPromoMask  = 0x7
	resCheckmate  = Win + 2 // TB_RESULT_CHECKMATE: WDL field TB_WIN, no move
	resStalemate  = Draw + 2
	promoCharsTB  = " qrbn" // TB_PROMOTES_QUEEN=1 … KNIGHT=4
)

// MoveResult is what the tables say about one legal move at the root.
type MoveResult struct {
	Move board.Move // the move on the probed board
	UCI  string     // the move in UCI (standard castling notation)
	// WDL is the result for the side that plays the move, with the
	// 50-move rule applied from the position's halfmove clock.
	WDL WDL
	// DTZ is the distance to the next zeroing move (capture or pawn move)
	// or mate in plies, counting this move, for the side that plays it:
	// positive when it wins, negative when it loses, 0 for a draw.
	DTZ int
}

// Root is the result of a root probe: the position's value and each legal
// move's.
type Root struct {
	WDL   WDL // for the side to move, 50-move rule applied
	DTZ   int // signed like MoveResult.DTZ; 0 for a draw
	Moves []MoveResult
}

// ErrGameOver reports a root probe of a position without legal moves
// (checkmate or stalemate).
var ErrGameOver = errors.New("syzygy: the position has no legal move")

// ProbeRoot probes the DTZ tables for b and every legal move, taking the
// halfmove clock into account. It returns ErrNotCovered for a position the
// tables do not cover and ErrGameOver for checkmate or stalemate.
func (t *Tables) ProbeRoot(b *board.Board) (Root, error) {
	if !t.Covers(b) {
		return Root{}, ErrNotCovered
	}
	in := inputOf(b)
	var results [tbMaxMoves]uint32
	t.lib.mu.Lock()
	if t.closed {
		t.lib.mu.Unlock()
		return Root{}, errors.New("syzygy: probing closed tables")
	}
	r := t.lib.fa.root(&in, &results)
	t.lib.mu.Unlock()
	switch {
	case r == tbResultFailed:
		return Root{}, fmt.Errorf("%w: no table for %s (or one it leads to)", ErrNotCovered, Material(b))
	case r == uint32(resCheckmate) || r == uint32(resStalemate):
		return Root{}, ErrGameOver
	}
	root := Root{WDL: WDL(int(r&resWDLMask) - 2)}
	root.DTZ = signed(root.WDL, int(r>>resDTZShift))
	for _, res := range results {
		if res == tbResultFailed {
			break
		}
		mr, err := moveResult(b, res)
		if err != nil {
			return Root{}, err
		}
		root.Moves = append(root.Moves, mr)
	}
	if len(root.Moves) == 0 {
		return Root{}, fmt.Errorf("syzygy: probe of %s gave no move", b.FEN())
	}
	return root, nil
}

// moveResult decodes one per-move TB_RESULT word into a legal move of b.
func moveResult(b *board.Board, res uint32) (MoveResult, error) {
	from := board.Square((res >> resFromShift) & resSquareMask)
	to := board.Square((res >> resToShift) & resSquareMask)
	uci := from.String() + to.String()
	if p := (res >> resPromoShift) & resPromoMask; p != 0 {
		if int(p) >= len(promoCharsTB) {
			return MoveResult{}, fmt.Errorf("syzygy: probe of %s: bad promotion %d", b.FEN(), p)
		}
		uci += string(promoCharsTB[p])
	}
	m, ok := b.FindUCI(uci)
	if !ok {
		return MoveResult{}, fmt.Errorf("syzygy: probe of %s gave %s, not a legal move", b.FEN(), uci)
	}
	w := WDL(int(res&resWDLMask) - 2)
	return MoveResult{Move: m, UCI: b.StandardUCI(m), WDL: w, DTZ: signed(w, int(res>>resDTZShift))}, nil
}

// signed gives an unsigned distance the sign of the result it leads to.
func signed(w WDL, dtz int) int {
	switch {
	case w > Draw:
		return dtz
	case w < Draw:
		return -dtz
	}
	return 0
}

// Best returns the move that keeps the best WDL, then, among those, the
// quickest to zero the 50-move counter when winning (the smallest DTZ)
// and the slowest when losing (the largest); ties go to the first move in
// fathom's order. The WDL values already account for the 50-move rule, so
// a win it returns is a win the rule cannot spoil.
func (r Root) Best() (MoveResult, bool) {
	if len(r.Moves) == 0 {
		return MoveResult{}, false
	}
	best := r.Moves[0]
	for _, m := range r.Moves[1:] {
		if better(m, best) {
			best = m
		}
	}
	return best, true
}

// better reports whether a is a strictly better choice than b.
func better(a, b MoveResult) bool {
	if a.WDL != b.WDL {
		return a.WDL > b.WDL
	}
	if a.WDL > Draw {
		return a.DTZ < b.DTZ
	}
	if a.WDL < Draw {
		return a.DTZ < b.DTZ // more negative = longer resistance
	}
	return false
}
