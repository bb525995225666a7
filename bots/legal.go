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

// Play returns a new board after the UCI move (b is unchanged), or an error
// when the move is malformed or illegal.
func Play(b *board.Board, move string) (*board.Board, error) {
	m, ok := b.FindUCI(move)
	if !ok {
		return nil, fmt.Errorf("%q is not a legal move in %s", move, b.FEN())
	}
	next := b.Clone()
	next.Make(m)
	return next, nil
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

// IsLegal reports whether move (UCI, as Move.String writes it) is legal on b.
func IsLegal(b *board.Board, move string) bool {
	_, ok := b.FindUCI(move)
	return ok
}
