package bots

import (
	"fmt"
	"sort"

	"github.com/notnil/chess"

	"github.com/outpostchess/outpost/bots/engine"
)

// Replay plays pos with notnil/chess, the referee used by the UCI
// front-end and the match runner, and returns the resulting position. Errors
// name the bad FEN or the first illegal move. It works position by position
// (notnil's Game re-scans its whole history for repetitions on every move,
// which is quadratic in the game's length).
func Replay(pos engine.Position) (*chess.Position, error) {
	fen, err := chess.FEN(pos.FEN())
	if err != nil {
		return nil, fmt.Errorf("bots: position: bad FEN %q: %w", pos.FEN(), err)
	}
	p := chess.NewGame(fen).Position()
	for i, m := range pos.Moves {
		next, err := Play(p, m)
		if err != nil {
			return nil, fmt.Errorf("bots: position: move %d: %w", i+1, err)
		}
		p = next
	}
	return p, nil
}

// Play returns the position after the UCI move, or an error when the move
// is malformed or illegal.
func Play(p *chess.Position, move string) (*chess.Position, error) {
	for _, m := range p.ValidMoves() {
		if m.String() == move {
			return p.Update(m), nil
		}
	}
	return nil, fmt.Errorf("%q is not a legal move in %s", move, p)
}

// LegalMoves returns the legal moves of p in UCI, sorted.
func LegalMoves(p *chess.Position) []string {
	var ms []string
	for _, m := range p.ValidMoves() {
		ms = append(ms, m.String())
	}
	sort.Strings(ms)
	return ms
}

// IsLegal reports whether move (UCI) is legal in p.
func IsLegal(p *chess.Position, move string) bool {
	for _, m := range p.ValidMoves() {
		if m.String() == move {
			return true
		}
	}
	return false
}
