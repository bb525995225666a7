package game

import (
	"strings"
	"testing"
)

// FuzzNew feeds arbitrary FENs and move lists: New must return an
// error or a consistent game, never panic.
func FuzzNew(f *testing.F) {
	f.Add(StartFEN, "e2e4 e7e5")
	f.Add("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", "e5d6")
	f.Add("8/8/8/8/8/8/8/8 w - - 0 1", "")
	f.Add("k7/8/8/8/8/8/8/K7 w - - 0", "a1a2")
	f.Fuzz(func(t *testing.T, fen, moves string) {
		g, err := New(fen, strings.Fields(moves))
		if err != nil {
			return
		}
		if len(g.Snapshots) != len(g.Moves)+1 {
			t.Fatalf("%d snapshots for %d moves", len(g.Snapshots), len(g.Moves))
		}
		_ = g.LegalMoves()
	})
}
