package board

import (
	"fmt"

	"github.com/notnil/chess"

	"github.com/outpostchess/outpost/bots/engine"
)

// FromPosition sets up the board of an engine.Position: its start FEN with
// every move played, so the history (and repetitions) are known. A Chess960
// position gets a Chess960 board; castling moves may be written either way.
func FromPosition(p engine.Position) (*Board, error) {
	b, err := FromFENVariant(p.FEN(), p.Chess960)
	if err != nil {
		return nil, fmt.Errorf("board: position: %w", err)
	}
	for i, s := range p.Moves {
		if err := b.MakeUCI(s); err != nil {
			return nil, fmt.Errorf("board: position move %d: %w", i+1, err)
		}
	}
	return b, nil
}

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
