package maia1

import (
	"fmt"

	"github.com/outpostchess/outpost/models/game"
)

// Input layout constants.
const (
	Planes       = 112
	PlaneSize    = 64
	InputSize    = Planes * PlaneSize // floats per position
	historySlots = 8
	slotPlanes   = 13

	planeOurQueenside   = 104
	planeOurKingside    = 105
	planeTheirQueenside = 106
	planeTheirKingside  = 107
	planeBlackToMove    = 108
	planeRule50         = 109
	planeZeros          = 110
	planeOnes           = 111
)

// Encode writes the 112 input planes of g's final position into dst (length
// InputSize, layout [plane][rank][file] with a1 = 0 in the mover's view).
// Every history board is drawn from the current mover's view: when Black is
// to move, ranks are flipped (square s → s^56) and ours/theirs swapped.
func Encode(g *game.Game, dst []float32) error {
	if len(dst) != InputSize {
		return fmt.Errorf("maia1: encode buffer has %d floats, want %d", len(dst), InputSize)
	}
	clear(dst)
	cur := g.Current()
	weWhite := cur.WhiteToMove
	flip := 0
	if !weWhite {
		flip = 56
	}
	last := len(g.Snapshots) - 1
	for i := 0; i < historySlots; i++ {
		idx := last - i
		var board [64]game.Piece
		repeated := false
		if idx >= 0 {
			s := &g.Snapshots[idx]
			board, repeated = s.Board, s.Repetitions > 0
		} else {
			if g.Standard {
				break
			}
			board = undoDoublePush(&g.Snapshots[0])
		}
		base := i * slotPlanes
		for sq, p := range board {
			if p == game.Empty {
				continue
			}
			plane := base + p.Kind()
			if p.White() != weWhite {
				plane += 6
			}
			dst[plane*PlaneSize+(sq^flip)] = 1
		}
		if repeated {
			fill(dst, base+12, 1)
		}
	}
	ours, theirs := game.WhiteKingside, game.BlackKingside
	if !weWhite {
		ours, theirs = theirs, ours
	}
	// Kingside index +1 is the same colour's queenside right.
	setIf(dst, planeOurQueenside, cur.Castle[ours+1])
	setIf(dst, planeOurKingside, cur.Castle[ours])
	setIf(dst, planeTheirQueenside, cur.Castle[theirs+1])
	setIf(dst, planeTheirKingside, cur.Castle[theirs])
	setIf(dst, planeBlackToMove, !weWhite)
	fill(dst, planeRule50, float32(cur.HalfMove))
	fill(dst, planeOnes, 1)
	return nil
}

// undoDoublePush returns s's board with a pending en-passant double push
// taken back (the pawn returned to its starting square), as lc0 does for the
// copies of a FEN start position that fill missing history.
func undoDoublePush(s *game.Snapshot) [64]game.Piece {
	b := s.Board
	if s.EPSquare < 0 {
		return b
	}
	var at, from int
	var pawn game.Piece
	if s.WhiteToMove { // Black pushed: target on rank 6
		at, from, pawn = s.EPSquare-8, s.EPSquare+8, game.BP
	} else { // White pushed: target on rank 3
		at, from, pawn = s.EPSquare+8, s.EPSquare-8, game.WP
	}
	if at < 0 || at >= 64 || from < 0 || from >= 64 || b[at] != pawn || b[from] != game.Empty {
		return b
	}
	b[at], b[from] = game.Empty, pawn
	return b
}

func fill(dst []float32, plane int, v float32) {
	p := dst[plane*PlaneSize : (plane+1)*PlaneSize]
	for i := range p {
		p[i] = v
	}
}

func setIf(dst []float32, plane int, cond bool) {
	if cond {
		fill(dst, plane, 1)
	}
}
