package bots

import (
	"fmt"
	"sort"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/engine"
)

// Replay plays pos on bots/board, the referee used by the UCI front-end and
// the match runner, and returns the resulting board (with its history).
// Errors name the bad FEN or the first illegal move.
func Replay(pos engine.Position) (*board.Board, error) {
	b, err := pos.Board()
	if err != nil {
		return nil, fmt.Errorf("bots: %w", err)
	}
	return b, nil
}

// LegalMoves returns the legal moves of b in UCI, sorted.
func LegalMoves(b *board.Board) []string {
	var ms []string
	for _, m := range b.LegalMoves() {
		ms = append(ms, m.String())
	}
	sort.Strings(ms)
	return ms
}
