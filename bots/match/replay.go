package match

import (
	"github.com/notnil/chess"

	"github.com/outpostchess/outpost/bots"
	"github.com/outpostchess/outpost/bots/engine"
)

// replay plays pos with the shared referee.
func replay(pos engine.Position) (*chess.Position, error) { return bots.Replay(pos) }
