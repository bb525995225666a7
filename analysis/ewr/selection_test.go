package ewr_test

import (
	"context"
	"testing"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/analysis/ewr/ewrtest"
)

// TestMomentPlies: each side's critical moment, then our bot's costliest
// moves (Bot set), in game order.
func TestMomentPlies(t *testing.T) {
	d := func(x float64) *float64 { return &x }
	a := &analysis.Analysis{
		Players: analysis.Players{White: analysis.Player{Name: "OutpostBot"}, Black: analysis.Player{Name: "human"}},
		Plies: []analysis.Ply{
			{Ply: 1, Color: "white", Delta: d(0.01)},
			{Ply: 2, Color: "black", Delta: d(0.02)},
			{Ply: 3, Color: "white", Delta: d(0.12), Judgement: analysis.Inaccuracy},
			{Ply: 4, Color: "black", Delta: d(0.35), Judgement: analysis.Blunder},
			{Ply: 5, Color: "white", Delta: d(0.08)},
			{Ply: 6, Color: "black", Delta: d(0.2), Judgement: analysis.Mistake},
			{Ply: 7, Color: "white"},
			{Ply: 8, Color: "black", Delta: d(0.01)},
			{Ply: 9, Color: "white", Delta: d(0.09)},
		},
	}
	tests := []struct {
		bot  string
		n    int
		want []ewr.MomentPly
	}{
		{"", 5, []ewr.MomentPly{{3, false}, {4, false}}},
		{"stranger", 5, []ewr.MomentPly{{3, false}, {4, false}}},
		{"outpostbot", 0, []ewr.MomentPly{{3, false}, {4, false}}},
		// Our bot's moves losing the most first (ply 9, then 5), the
		// critical ply 3 not twice, shown in game order.
		{"outpostbot", 2, []ewr.MomentPly{{3, false}, {4, false}, {5, true}, {9, true}}},
		{"OUTPOSTBOT", 10, []ewr.MomentPly{{1, true}, {3, false}, {4, false}, {5, true}, {7, true}, {9, true}}},
		// Black's mistake at ply 6 is not its critical moment (the blunder
		// at 4 is): as our bot's costliest other move it is one.
		{"Human", 1, []ewr.MomentPly{{3, false}, {4, false}, {6, true}}},
	}
	for _, tc := range tests {
		got := ewr.MomentPlies(a, tc.bot, tc.n)
		if len(got) != len(tc.want) {
			t.Errorf("%q %d: %v, want %v", tc.bot, tc.n, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%q %d: %v, want %v", tc.bot, tc.n, got, tc.want)
				break
			}
		}
	}
}

// TestMaiaLevels: the levels the games need, or the override's.
func TestMaiaLevels(t *testing.T) {
	games := []*analysis.Game{
		{White: analysis.PlayerInfo{Rating: 1789}, Black: analysis.PlayerInfo{Rating: 1810}},
		{White: analysis.PlayerInfo{Rating: 2700}, Black: analysis.PlayerInfo{}},
	}
	if got := ewr.MaiaLevels(games, 0); len(got) != 3 || got[0] != 1500 || got[1] != 1800 || got[2] != 1900 {
		t.Errorf("levels %v, want [1500 1800 1900]", got)
	}
	if got := ewr.MaiaLevels(games, 1234); len(got) != 1 || got[0] != 1200 {
		t.Errorf("levels with --maia %v", got)
	}
}

// TestAnalyseCriticalReplaysOnce: the two sides' critical moments of one
// game replay it once (ewr.Boards), not once per moment; each moment is
// computed on its own position.
func TestAnalyseCriticalReplaysOnce(t *testing.T) {
	d := func(x float64) *float64 { return &x }
	a := &analysis.Analysis{Plies: []analysis.Ply{
		{Ply: 1, Color: "white", SAN: "e4", UCI: "e2e4", Delta: d(0.01)},
		{Ply: 2, Color: "black", SAN: "f6", UCI: "f7f6", Delta: d(0.2), Judgement: analysis.Mistake},
		{Ply: 3, Color: "white", SAN: "Qh5+", UCI: "d1h5", Delta: d(0.3), Judgement: analysis.Blunder},
		{Ply: 4, Color: "black", SAN: "g6", UCI: "g7g6", Delta: d(0.01)},
	}}
	calc := &ewr.Calculator{Prober: ewrtest.UniformProber{}, Evaluator: ewrtest.LevelEvaluator{}}
	var counts analysis.Counts
	ms, err := ewr.AnalyseCritical(analysis.WithCounts(context.Background(), &counts), calc, a, nil, ewr.DefaultParams(), ewr.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2 || ms[0].Ply != 3 || ms[0].Played.SAN != "Qh5+" || ms[1].Ply != 2 || ms[1].Played.SAN != "f6" {
		t.Fatalf("moments %+v", ms)
	}
	if n := counts.Replays.Load(); n != 1 {
		t.Errorf("%d replays of the game for its two moments, want 1", n)
	}
}
