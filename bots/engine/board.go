package engine

import (
	"fmt"

	"github.com/outpostchess/outpost/bots/board"
)

// Board sets up the board of p: its start FEN with every move played, so the
// history (and repetitions) are known. A Chess960 position gets a Chess960
// board; castling moves may be written either way.
func (p Position) Board() (*board.Board, error) {
	b, err := board.FromFENVariant(p.FEN(), p.Chess960)
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
