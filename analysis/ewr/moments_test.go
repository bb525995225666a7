package ewr

import (
	"context"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/analysis"
)

func TestMomentLine(t *testing.T) {
	pr, ev := scenario()
	c := &Calculator{Prober: pr, Evaluator: ev}
	g := Game{Moves: []string{"e2e4", "e7e5"}, WhiteRating: 1480, BlackRating: 2300}
	m, err := AnalyseMoment(context.Background(), c, g, 1, DefaultParams(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Label != "1. e4" || !m.White || m.Rating != 1500 || m.OpponentRating != 1900 || m.Best.SAN != "d4" || m.Played.SAN != "e4" || m.PlayedWasBest() {
		t.Fatalf("moment %+v", m)
	}
	line := m.Line()
	want := "Critical moment 1. e4: expected winrate 44% for a 1500 player; d4 would give 55%."
	if line != want || len(line) > MaxLineLen {
		t.Errorf("line %q, want %q", line, want)
	}
	if got := m.Comment(); got != "EWR (Maia 1500): e4 44.0%, best practical d4 55.1%" {
		t.Errorf("comment %q", got)
	}
	// The played move is analysed even when the filter drops it.
	g.Moves = []string{"f2f3", "e7e5"}
	m, err = AnalyseMoment(context.Background(), c, g, 1, DefaultParams(), Options{})
	if err != nil || !m.Played.Filtered || m.Played.SAN != "f3" {
		t.Fatalf("filtered played move: %v %+v", err, m.Played)
	}
	// A long SAN label still fits.
	m.Label = "123..." + strings.Repeat("N", 200)
	if l := m.Line(); len(l) > MaxLineLen {
		t.Errorf("line of %d characters", len(l))
	}
	for _, ply := range []int{0, 3} {
		if _, err := AnalyseMoment(context.Background(), c, g, ply, DefaultParams(), Options{}); err == nil {
			t.Errorf("ply %d accepted", ply)
		}
	}
}

func TestCriticalPlies(t *testing.T) {
	d := func(x float64) *float64 { return &x }
	a := &analysis.Analysis{Plies: []analysis.Ply{
		{Ply: 1, Color: "white", UCI: "e2e4"},
		{Ply: 2, Color: "black", UCI: "e7e5", Judgement: analysis.Inaccuracy, Delta: d(.12)},
		{Ply: 3, Color: "white", UCI: "g1f3", Judgement: analysis.Mistake, Delta: d(.2)},
		{Ply: 4, Color: "black", UCI: "b8c6", Judgement: analysis.Inaccuracy, Delta: d(.15)},
		{Ply: 5, Color: "white", UCI: "f1c4", Judgement: analysis.Mistake, Delta: d(.25)},
		{Ply: 6, Color: "black", UCI: "g8f6"},
	}}
	got := CriticalPlies(a)
	if len(got) != 2 || got[0] != 5 || got[1] != 4 {
		t.Errorf("critical plies %v, want [5 4]", got)
	}
	if ply, ok := WorstPly(a); !ok || ply != 5 {
		t.Errorf("worst ply %d %v, want 5", ply, ok)
	}
	if _, ok := WorstPly(&analysis.Analysis{Plies: a.Plies[:1]}); ok {
		t.Error("worst ply without judgements")
	}
	if g := FromAnalysis(a); strings.Join(g.Moves, " ") != "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6" {
		t.Errorf("game moves %v", g.Moves)
	}
	if got := CriticalPlies(&analysis.Analysis{Plies: a.Plies[:1]}); len(got) != 0 {
		t.Errorf("no judgements: %v", got)
	}
}

func TestNearestMaiaRating(t *testing.T) {
	for in, want := range map[int]int{0: 1500, 800: 1100, 1149: 1100, 1150: 1200, 1523: 1500, 1890: 1900, 2700: 1900} {
		if got := NearestMaiaRating(in); got != want {
			t.Errorf("NearestMaiaRating(%d) = %d, want %d", in, got, want)
		}
	}
}

// TestWorstPlyIsTheChatsWorst: the expected-winrate line's moment is the
// chat's "Worst:" (analysis.Worst): a lost mate (no Delta) ranks over a
// blunder losing 0.5 of winning chances. Before the one rule, WorstPly
// counted the mate as a loss of 0 and took ply 1 while the chat named ply 3.
func TestWorstPlyIsTheChatsWorst(t *testing.T) {
	half := 0.5
	a := &analysis.Analysis{Plies: []analysis.Ply{
		{Ply: 1, MoveNumber: 1, Color: "white", SAN: "f3", Judgement: analysis.Blunder, Delta: &half},
		{Ply: 2, MoveNumber: 1, Color: "black", SAN: "e5"},
		{Ply: 3, MoveNumber: 2, Color: "white", SAN: "g4", Judgement: analysis.Blunder, MateCase: "lost"},
	}}
	if ply, ok := WorstPly(a); !ok || ply != 3 {
		t.Errorf("WorstPly = %d %v, want 3 (the lost mate)", ply, ok)
	}
	if got := CriticalPlies(a); len(got) != 1 || got[0] != 3 {
		t.Errorf("CriticalPlies = %v, want [3]", got)
	}
}
