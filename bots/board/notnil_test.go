package board

// Conversions to and from notnil/chess, the oracle of the differential
// tests (perft, legal moves, SAN). They live in a test file so that the
// board itself does not depend on notnil/chess; the external test package
// (board_test) uses them too.

import (
	"fmt"

	"github.com/notnil/chess"
)

// FromNotnil converts a notnil/chess position (without history).
func FromNotnil(pos *chess.Position) (*Board, error) {
	if pos == nil {
		return nil, fmt.Errorf("board: nil notnil position")
	}
	b, err := FromFEN(pos.String())
	if err != nil {
		return nil, fmt.Errorf("board: from notnil: %w", err)
	}
	return b, nil
}

// ToNotnil converts the position (without history) to notnil/chess.
func (b *Board) ToNotnil() (*chess.Position, error) {
	pos := &chess.Position{}
	if err := pos.UnmarshalText([]byte(b.FEN())); err != nil {
		return nil, fmt.Errorf("board: to notnil: %w", err)
	}
	return pos, nil
}

// NotnilMove returns the notnil/chess move equal to m in pos, which must be
// the notnil form of this board's position.
func NotnilMove(pos *chess.Position, m Move) (*chess.Move, error) {
	mv, err := chess.UCINotation{}.Decode(pos, m.String())
	if err != nil {
		return nil, fmt.Errorf("board: move %s for notnil: %w", m, err)
	}
	return mv, nil
}

// NotnilPerft is the same count computed with notnil/chess (allocating a
// new position per move, as that library does), for differential tests.
func NotnilPerft(pos *chess.Position, depth int) int64 {
	if depth <= 0 {
		return 1
	}
	var n int64
	for _, m := range pos.ValidMoves() {
		n += NotnilPerft(pos.Update(m), depth-1)
	}
	return n
}
