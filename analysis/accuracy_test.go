package analysis

import (
	"math"
	"testing"

	"github.com/outpostchess/outpost/bots/score"
)

func TestACPL(t *testing.T) {
	e := func(cp int) *score.Score { v := score.CP(cp); return &v }
	m := func(n int) *score.Score { v := score.Mate(n); return &v }
	// White: 15 → -50 (65), then 20 → 30 (0)  → mean 32.5 → 33
	// Black: -50 → 20 (70), 30 → #5 (970)      → mean 520
	evals := []*score.Score{e(-50), e(20), e(30), m(5)}
	if got, ok := ACPL(evals, true, true); !ok || got != 33 {
		t.Errorf("white ACPL = %d, %v", got, ok)
	}
	if got, ok := ACPL(evals, true, false); !ok || got != 520 {
		t.Errorf("black ACPL = %d, %v", got, ok)
	}
	// an unknown eval (the checkmated position) skips its pair
	evals = []*score.Score{e(-50), e(20), nil}
	if got, ok := ACPL(evals, true, true); !ok || got != 65 {
		t.Errorf("white ACPL with final mate = %d, %v", got, ok)
	}
	// game from a position with Black to move: Black's first move uses +15
	evals = []*score.Score{e(115)}
	if got, ok := ACPL(evals, false, false); !ok || got != 100 {
		t.Errorf("black first ACPL = %d, %v", got, ok)
	}
	if _, ok := ACPL(evals, false, true); ok {
		t.Error("white has no moves but got an ACPL")
	}
}

func TestGameAccuracyShape(t *testing.T) {
	// perfect play: every move keeps the eval → 100 for both
	evals := make([]score.Score, 30)
	for i := range evals {
		evals[i] = score.CP(15)
	}
	r := GameAccuracy(evals, true)
	if !r.HasWhite || !r.HasBlack || math.Abs(r.White-100) > 1e-9 || math.Abs(r.Black-100) > 1e-9 {
		t.Fatalf("perfect play: %+v", r)
	}
	if len(r.Moves) != 30 {
		t.Fatalf("%d move accuracies", len(r.Moves))
	}
	// one white blunder lowers only White
	for i := 10; i < len(evals); i++ {
		evals[i] = score.CP(-400)
	}
	r = GameAccuracy(evals, true)
	if r.White >= 100 || math.Abs(r.Black-100) > 1e-9 {
		t.Errorf("after a white blunder: %+v", r)
	}
	if r.Moves[10] >= 50 {
		t.Errorf("blunder move accuracy %v", r.Moves[10])
	}
}
