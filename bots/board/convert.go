package board

import (
	"fmt"

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
