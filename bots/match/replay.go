package match

import (
	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/engine"
)

// replay sets pos up on a board, its history included (repetitions).
func replay(pos engine.Position) (*board.Board, error) { return pos.Board() }
