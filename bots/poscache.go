package bots

import (
	"fmt"
	"slices"
	"sync"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/engine"
)

// positionCache remembers the last position a Fallback set up, so that the
// next one in the same game (usually two plies on) costs only its new
// moves rather than a replay of the whole game. It is safe for concurrent
// use; positions that do not extend the last one are set up from scratch.
type positionCache struct {
	mu    sync.Mutex
	fen   string
	c960  bool         // whether b plays Chess960
	moves []string     // the moves b was built from
	b     *board.Board // nil until the first position
}

// board returns a board of pos that the caller owns. Errors name the bad
// FEN or the first illegal move, as engine.Position.Board's do.
func (c *positionCache) board(pos engine.Position) (*board.Board, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	fen := pos.FEN()
	if c.b == nil || fen != c.fen || pos.Chess960 != c.c960 || len(pos.Moves) < len(c.moves) || !slices.Equal(pos.Moves[:len(c.moves)], c.moves) {
		b, err := board.FromFENVariant(fen, pos.Chess960)
		if err != nil {
			c.b = nil
			return nil, fmt.Errorf("board: position: %w", err)
		}
		c.b, c.fen, c.c960, c.moves = b, fen, pos.Chess960, c.moves[:0]
	}
	for _, m := range pos.Moves[len(c.moves):] {
		// c.b and c.moves stay in step, also when a move is refused.
		if err := c.b.MakeUCI(m); err != nil {
			return nil, fmt.Errorf("board: position move %d: %w", len(c.moves)+1, err)
		}
		c.moves = append(c.moves, m)
	}
	return c.b.Clone(), nil
}
