package analysis

import "testing"

// TestWorst: the one rule of the critical moment (severity, then the loss
// of winning chances with a mate judgement counting as 1, then the earlier
// move), and the summaries' move label.
func TestWorst(t *testing.T) {
	d := func(x float64) *float64 { return &x }
	ply := func(n int, j Judgement, delta *float64, mate string) Ply {
		c := "white"
		if n%2 == 0 {
			c = "black"
		}
		return Ply{Ply: n, MoveNumber: (n + 1) / 2, Color: c, SAN: "e4", Judgement: j, Delta: delta, MateCase: mate}
	}
	for _, tc := range []struct {
		name  string
		plies []Ply
		want  int // 0: none
	}{
		{"none judged", []Ply{ply(1, NoJudgement, d(0.9), "")}, 0},
		{"severity first", []Ply{ply(1, Blunder, d(0.3), ""), ply(2, Mistake, d(0.9), "")}, 1},
		{"then the loss", []Ply{ply(1, Mistake, d(0.3), ""), ply(3, Mistake, d(0.4), "")}, 3},
		{"a mate counts as 1", []Ply{ply(1, Blunder, d(0.5), ""), ply(3, Blunder, nil, "lost")}, 3},
		{"over a larger cp loss", []Ply{ply(1, Blunder, nil, "created"), ply(3, Blunder, d(1.2), "")}, 3},
		{"then the earlier", []Ply{ply(1, Inaccuracy, d(0.2), ""), ply(3, Inaccuracy, d(0.2), "")}, 1},
	} {
		a := &Analysis{Plies: tc.plies}
		got := 0
		if p := a.Worst(nil); p != nil {
			got = p.Ply
		}
		if got != tc.want {
			t.Errorf("%s: worst ply %d, want %d", tc.name, got, tc.want)
		}
	}
	a := &Analysis{Plies: []Ply{ply(1, Blunder, d(1), ""), ply(2, Mistake, d(0.3), "")}}
	if p := a.Worst(func(p *Ply) bool { return !p.White() }); p == nil || p.Ply != 2 {
		t.Errorf("black's worst = %+v, want ply 2", p)
	}
	if got := a.Plies[0].Label(); got != "1. e4" {
		t.Errorf("white label %q", got)
	}
	if got := a.Plies[1].Label(); got != "1... e4" {
		t.Errorf("black label %q", got)
	}
}
