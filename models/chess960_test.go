package models

import (
	"context"
	"math"
	"strings"
	"testing"
)

// TestPredictChess960 runs Maia-1 on a Chess960 position with castling
// rights on both wings (X-FEN, as Lichess writes a Chess960 game's initial
// FEN) and castling legal on both: every legal move gets a probability,
// castling written king takes rook, and the game continues after castling.
// As standard chess the same FEN is refused, naming the castling right.
func TestPredictChess960(t *testing.T) {
	p := testPredictor(t)
	const fen = "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3K1R w KQkq - 0 1"
	ctx := context.Background()
	for _, moves := range [][]string{nil, {"f1h1", "f8b8"}} {
		pr, err := p.PredictOne(ctx, Request{StartFEN: fen, Moves: moves, Chess960: true, Rating: 1500})
		if err != nil {
			t.Fatalf("after %v: %v", moves, err)
		}
		sum := 0.0
		got := map[string]bool{}
		for _, m := range pr.Moves {
			sum += m.P
			got[m.UCI] = true
		}
		if math.Abs(sum-1) > 1e-5 || !pr.HasWDL {
			t.Errorf("after %v: probabilities sum to %v (WDL %v)", moves, sum, pr.HasWDL)
		}
		if moves == nil && (!got["f1h1"] || !got["f1b1"] || got["f1c1"]) {
			t.Errorf("castling moves: f1h1 %v f1b1 %v (f1c1 %v), want king takes rook", got["f1h1"], got["f1b1"], got["f1c1"])
		}
		if len(pr.Moves) < 20 {
			t.Errorf("after %v: only %d moves", moves, len(pr.Moves))
		}
	}
	_, err := p.PredictOne(ctx, Request{StartFEN: fen, Rating: 1500})
	if err == nil || !strings.Contains(err.Error(), "castling") {
		t.Errorf("Chess960 FEN as standard chess: %v, want a castling error", err)
	}
}
