package analysis

import (
	"math"
	"testing"

	"github.com/outpostchess/outpost/bots/score"
)

// TestCompareCausesAndMetrics builds "ours" and "Lichess's" analyses of the
// same moves from different evals and checks every comparison field.
func TestCompareCausesAndMetrics(t *testing.T) {
	g, err := gameFromLine("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6")
	if err != nil {
		t.Fatal(err)
	}
	cp := func(v int) *score.Score { e := score.CP(v); return &e }
	mate := func(v int) *score.Score { e := score.Mate(v); return &e }
	open := func(e *score.Score) PlyEval { return PlyEval{Eval: e, Gate: GateOpen, BestSAN: "x"} }
	closed := func(e *score.Score) PlyEval { return PlyEval{Eval: e, Gate: GateClosed} }
	// Lichess: ply 2 Inaccuracy (delta ~0.12), ply 4 Blunder, ply 6 mistake, ply 8 none (gate closed)
	lichess := []PlyEval{open(cp(20)), open(cp(85)), open(cp(30)), open(cp(250)), open(cp(240)), open(cp(400)), open(cp(380)), closed(cp(700))}
	// ours: ply 2 Mistake (borderline: both near 0.2? no: 0.12 vs 0.2x → eval_scale),
	// ply 4 none because our best move was the move played, ply 6 mate
	// seen, ply 8 judged (Lichess's gate was closed)
	ours := []PlyEval{open(cp(20)), open(cp(140)), open(cp(30)), closed(cp(250)), open(cp(240)), open(mate(5)), open(cp(380)), open(cp(700))}
	la, err := Build(g, lichess, "lichess")
	if err != nil {
		t.Fatal(err)
	}
	oa, err := Build(g, ours, "ours")
	if err != nil {
		t.Fatal(err)
	}
	stated := &LichessAnalysis{Literate: true, Plies: make([]LichessPly, len(g.Moves))}
	for i := range la.Plies {
		stated.Plies[i].Judgement = la.Plies[i].Judgement
	}
	want := map[int][2]Judgement{1: {}, 2: {Inaccuracy, Mistake}, 3: {Inaccuracy, Inaccuracy}, 4: {Blunder, NoJudgement},
		5: {}, 6: {Mistake, Blunder}, 7: {NoJudgement, Blunder}, 8: {NoJudgement, Mistake}}
	for ply, w := range want {
		if la.Plies[ply-1].Judgement != w[0] || oa.Plies[ply-1].Judgement != w[1] {
			t.Fatalf("ply %d: lichess %v ours %v, want %v", ply, la.Plies[ply-1].Judgement, oa.Plies[ply-1].Judgement, w)
		}
	}
	c := Compare(oa, la, stated)
	if c.Judgments != (JudgmentCounts{Lichess: 4, Ours: 5, Exact: 1}) {
		t.Errorf("judgments %+v", c.Judgments)
	}
	causes := map[int]string{}
	for _, d := range c.Disagreements {
		causes[d.Ply] = d.Cause
	}
	wantCauses := map[int]string{2: CauseEvalScale, 4: CauseGate, 6: CauseMateVsCP, 7: CauseMateVsCP, 8: CauseGate}
	for ply, cause := range wantCauses {
		if causes[ply] != cause {
			t.Errorf("ply %d cause %q, want %q", ply, causes[ply], cause)
		}
	}
	// flagged: tp = plies 2, 3, 6; fp = 7, 8; fn = 4
	if !near(*c.Precision, 3.0/5) || !near(*c.Recall, 3.0/4) || !near(*c.F1, 2*0.6*0.75/1.35) {
		t.Errorf("P %v R %v F1 %v", *c.Precision, *c.Recall, *c.F1)
	}
	if c.Confusion["Blunder"]["none"] != 1 || c.Confusion["none"]["none"] != 2 || c.Plies != 8 || c.Agree != 3 {
		t.Errorf("confusion %v agree %d", c.Confusion, c.Agree)
	}
	// within one grade: plies 4 (??/none), 7 (none/??) and 8 (none/?) are not
	if c.WithinOneGrade != 5 {
		t.Errorf("within one grade %d", c.WithinOneGrade)
	}
	// eval MAE: diffs 45 (ply 2) and 600 (ply 6: 1000 vs 400) over 8 plies
	if !near(c.EvalMAECP, (55.0+600)/8) || c.EvalPlies != 8 || len(c.PlyDiffs) != 8 {
		t.Errorf("MAE %v over %d", c.EvalMAECP, c.EvalPlies)
	}
	if c.White.ACPLDiff == nil || c.Black.AccuracyDiff == nil {
		t.Errorf("player diffs %+v %+v", c.White, c.Black)
	}
}

// TestCompareCause: the cause given to the one disagreement, on 1...e5, of
// two analyses of "1.e4 e5".
func TestCompareCause(t *testing.T) {
	cp := func(v int) *score.Score { e := score.CP(v); return &e }
	tests := []struct {
		name          string
		ours, lichess []PlyEval
		// literate: Lichess's stated analysis is a literate PGN without
		// advice on the move (its gate stays closed)
		literate       bool
		ourJ, lichessJ Judgement
		want           string
	}{
		{"deltas 0.197 (ours) and 0.209 (Lichess) both near the threshold between the grades",
			[]PlyEval{{Eval: cp(15), Gate: GateOpen}, {Eval: cp(124), Gate: GateOpen}},
			[]PlyEval{{Eval: cp(15), Gate: GateOpen}, {Eval: cp(131), Gate: GateOpen}},
			false, Inaccuracy, Mistake, CauseBorderline},
		{"no advice from Lichess on a small drop, ours on a bigger one: not the gate but the eval scale",
			[]PlyEval{{Eval: cp(15), Gate: GateClosed}, {Eval: cp(110), Gate: GateOpen}},
			[]PlyEval{{Eval: cp(15), Gate: GateClosed}, {Eval: cp(30), Gate: GateClosed}},
			true, Inaccuracy, NoJudgement, CauseEvalScale},
		{"a big drop Lichess did not judge: its best move was the move played",
			[]PlyEval{{Eval: cp(15), Gate: GateClosed}, {Eval: cp(110), Gate: GateOpen}},
			[]PlyEval{{Eval: cp(15), Gate: GateClosed}, {Eval: cp(120), Gate: GateClosed}},
			true, Inaccuracy, NoJudgement, CauseGate},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, _ := gameFromLine("e4 e5")
			oa, _ := Build(g, tt.ours, "o")
			la, _ := Build(g, tt.lichess, "l")
			if oa.Plies[1].Judgement != tt.ourJ || la.Plies[1].Judgement != tt.lichessJ {
				t.Fatalf("setup: ours %v, Lichess %v", oa.Plies[1].Judgement, la.Plies[1].Judgement)
			}
			var stated *LichessAnalysis
			if tt.literate {
				stated = &LichessAnalysis{Literate: true, Plies: make([]LichessPly, 2)}
			}
			c := Compare(oa, la, stated)
			if len(c.Disagreements) != 1 || c.Disagreements[0].Cause != tt.want {
				t.Errorf("disagreements %+v, want one %s", c.Disagreements, tt.want)
			}
		})
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
