package bots

import (
	"fmt"
	"sort"

	"github.com/notnil/chess"

	"github.com/outpostchess/outpost/bots/engine"
)

// Replay plays pos on a notnil/chess game, the referee used by Fallback and
// the match runner, naming the first bad move or the bad FEN.
func Replay(pos engine.Position) (*chess.Game, error) {
	fen, err := chess.FEN(pos.FEN())
	if err != nil {
		return nil, fmt.Errorf("bots: position: bad FEN %q: %w", pos.FEN(), err)
	}
	g := chess.NewGame(fen, chess.UseNotation(chess.UCINotation{}))
	for i, m := range pos.Moves {
		if err := g.MoveStr(m); err != nil {
			return nil, fmt.Errorf("bots: position: move %d %q is illegal: %w", i+1, m, err)
		}
	}
	return g, nil
}

// LegalMoves returns the legal moves of the game's current position in UCI,
// sorted.
func LegalMoves(g *chess.Game) []string {
	var ms []string
	pos := g.Position()
	for _, m := range g.ValidMoves() {
		ms = append(ms, chess.UCINotation{}.Encode(pos, m))
	}
	sort.Strings(ms)
	return ms
}

// IsLegal reports whether move (UCI) is legal in the game's current position.
func IsLegal(g *chess.Game, move string) bool {
	for _, m := range LegalMoves(g) {
		if m == move {
			return true
		}
	}
	return false
}
