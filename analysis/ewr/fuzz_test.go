package ewr

import (
	"context"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/bots/score"
)

// FuzzCalculate feeds arbitrary positions and move lists: Calculate must
// return an error or a consistent result, never panic.
func FuzzCalculate(f *testing.F) {
	f.Add(start, "e2e4 e7e5")
	f.Add("8/8/4k3/8/2K1P3/8/8/8 w - - 0 50", "")
	f.Add("8/8/8/4k3/8/8/8/R3K3 w - - 98 80", "a1a2")
	f.Add("k7/8/8/8/8/8/8/K7 w - - 0", "a1a2 a8a7")
	f.Add("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "e7e5")
	f.Fuzz(func(t *testing.T, fen, moves string) {
		ev := &fakeEvaluator{def: func(key string) score.Score { return score.Score{CP: len(key)%200 - 100} }}
		res, err := (&Calculator{Prober: &fakeProber{}, Evaluator: ev}).Calculate(context.Background(),
			Position{StartFEN: fen, Moves: strings.Fields(moves)}, DefaultParams(), Options{})
		if err != nil {
			return
		}
		if len(res.Moves) == 0 {
			t.Fatal("no moves without an error")
		}
		for _, m := range res.Moves {
			if m.ExpectedWinrate < 0 || m.ExpectedWinrate > 1 || m.Coverage < 0 || m.Coverage > 1 || res.Trees[m.SAN] == nil {
				t.Fatalf("inconsistent %+v", m)
			}
		}
	})
}
