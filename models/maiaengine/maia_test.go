package maiaengine

import (
	"context"
	"testing"

	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/models/modeltest"
)

func TestNames(t *testing.T) {
	p := modeltest.Predictor(t, 1100)
	for rating, want := range map[int]string{1100: "maia-1100", 1540: "maia-1500", 1550: "maia-1600", 800: "maia-1100", 2600: "maia-1900"} {
		e, err := New(p, rating)
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() != want {
			t.Errorf("rating %d: name %s, want %s", rating, e.Name(), want)
		}
	}
}

func TestPlaysMostLikelyMove(t *testing.T) {
	e, err := New(modeltest.Predictor(t, 1100), 1100)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	mv, err := e.SelectMove(ctx, engine.Position{}, engine.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if mv.UCI != "e2e4" || !mv.HasScore {
		t.Fatalf("start position: %+v, want e2e4 with a score", mv)
	}
	// Castling comes out in standard UCI.
	mv, err = e.SelectMove(ctx, engine.Position{Moves: []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "e1g1", "g8f6", "d2d3"}}, engine.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if mv.UCI != "e8g8" {
		t.Fatalf("Italian: %s, want e8g8", mv.UCI)
	}
	// Fool's mate: no legal moves.
	if _, err := e.SelectMove(ctx, engine.Position{Moves: []string{"f2f3", "e7e5", "g2g4", "d8h4"}}, engine.Limits{}); err == nil {
		t.Fatal("checkmated position: want an error")
	}
}

func TestSampling(t *testing.T) {
	p := modeltest.Predictor(t, 1100)
	e, err := New(p, 1100, WithTemperature(1), WithSeed(7))
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	const n = 300
	for range n {
		mv, err := e.SelectMove(context.Background(), engine.Position{}, engine.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		counts[mv.UCI]++
	}
	// maia-1100 gives e2e4 0.66 and d2d4 0.21 at the start.
	if f := float64(counts["e2e4"]) / n; f < 0.55 || f > 0.77 {
		t.Errorf("e2e4 sampled %.2f of the time, want about 0.66 (%v)", f, counts)
	}
	if counts["d2d4"] == 0 || len(counts) < 3 {
		t.Errorf("sampling too narrow: %v", counts)
	}
	if err := e.Configure(map[string]string{"temperature": "-1"}); err == nil {
		t.Error("negative temperature accepted")
	}
	if err := e.Configure(map[string]string{"depth": "3"}); err == nil {
		t.Error("unknown option accepted")
	}
	if err := e.Configure(map[string]string{"temperature": "0"}); err != nil {
		t.Fatal(err)
	}
	mv, _ := e.SelectMove(context.Background(), engine.Position{}, engine.Limits{})
	if mv.UCI != "e2e4" {
		t.Errorf("temperature 0: %s, want e2e4", mv.UCI)
	}
}

func TestWinToCP(t *testing.T) {
	for _, c := range []struct {
		win  float64
		want int
	}{{0.5, 0}, {1, 1000}, {0, -1000}} {
		if got := WinToCP(c.win); got != c.want {
			t.Errorf("WinToCP(%v) = %d, want %d", c.win, got, c.want)
		}
	}
	if WinToCP(0.6) <= 0 || WinToCP(0.4) >= 0 {
		t.Error("WinToCP is not monotone around 0.5")
	}
}
