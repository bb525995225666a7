package board

// HasLegalMoves reports whether the side to move has any legal move.
func (b *Board) HasLegalMoves() bool {
	var ml MoveList
	b.GenerateMoves(&ml)
	return ml.N > 0
}

// IsCheckmate reports whether the side to move is checkmated.
func (b *Board) IsCheckmate() bool { return b.InCheck() && !b.HasLegalMoves() }

// IsStalemate reports whether the side to move is stalemated.
func (b *Board) IsStalemate() bool { return !b.InCheck() && !b.HasLegalMoves() }

// RepetitionCount returns how many earlier positions in this board's history
// equal the current one (same pieces, side, castling and en passant),
// looking back no further than the last capture, pawn move or null move.
func (b *Board) RepetitionCount() int {
	n := 0
	limit := len(b.hist) - b.halfmove
	if limit < 0 {
		limit = 0
	}
	for j := len(b.hist) - 2; j >= limit; j -= 2 {
		if b.hist[j].move == NullMove || b.hist[j+1].move == NullMove {
			break
		}
		if b.hist[j].hash == b.hash {
			n++
		}
	}
	return n
}

// IsThreefoldRepetition reports whether the current position has occurred
// at least three times.
func (b *Board) IsThreefoldRepetition() bool { return b.RepetitionCount() >= 2 }

// IsFiftyMoveDraw reports whether fifty moves (100 plies) passed without a
// capture or pawn move.
func (b *Board) IsFiftyMoveDraw() bool { return b.halfmove >= 100 }

// InsufficientMaterial reports whether neither side can possibly mate: bare
// kings, a single minor piece, or only bishops all on squares of one colour.
func (b *Board) InsufficientMaterial() bool {
	w, k := &b.pieces[White], &b.pieces[Black]
	if w[Pawn]|k[Pawn]|w[Rook]|k[Rook]|w[Queen]|k[Queen] != 0 {
		return false
	}
	minors := w[Knight] | k[Knight] | w[Bishop] | k[Bishop]
	if Count(minors) <= 1 {
		return true
	}
	if w[Knight]|k[Knight] != 0 {
		return false
	}
	const dark Bitboard = 0xAA55AA55AA55AA55
	bishops := w[Bishop] | k[Bishop]
	return bishops&dark == 0 || bishops&^dark == 0
}

// Outcome describes how a position ends the game, if it does.
type Outcome int

// The possible outcomes. Draw rules that need a claim (threefold, fifty
// moves) are reported too: the caller decides whether to claim.
const (
	Ongoing Outcome = iota
	Checkmate
	Stalemate
	DrawInsufficient
	DrawRepetition
	DrawFiftyMoves
)

// String names the outcome.
func (o Outcome) String() string {
	return [...]string{"ongoing", "checkmate", "stalemate", "insufficient material", "threefold repetition", "fifty-move rule"}[o]
}

// Status returns the position's outcome: checkmate and stalemate first,
// then the draw rules.
func (b *Board) Status() Outcome {
	if !b.HasLegalMoves() {
		if b.InCheck() {
			return Checkmate
		}
		return Stalemate
	}
	switch {
	case b.InsufficientMaterial():
		return DrawInsufficient
	case b.IsThreefoldRepetition():
		return DrawRepetition
	case b.IsFiftyMoveDraw():
		return DrawFiftyMoves
	}
	return Ongoing
}
