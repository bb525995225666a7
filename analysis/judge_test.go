package analysis

import "testing"

func TestJudgeCentipawns(t *testing.T) {
	cases := []struct {
		prev, cur int
		white     bool
		want      Judgement
	}{
		{28, -56, true, Inaccuracy},     // CM8wuIDf 9. Qe2?!
		{-66, 0, false, Inaccuracy},     // 11... Qa5?!
		{-25, -150, true, Mistake},      // 14. Qd4?
		{-310, -48, false, Blunder},     // 25... Nc6??
		{-695, -1506, true, Inaccuracy}, // 38. Qe8?! (uncapped)
		{0, 0, true, NoJudgement},
		{100, 200, true, NoJudgement},    // a gain
		{-100, -200, false, NoJudgement}, // a gain for Black
	}
	for _, c := range cases {
		v := Judge(CPEval(c.prev), CPEval(c.cur), c.white)
		if v.Judgement != c.want || !v.HasDelta || v.Mate != NoMateCase {
			t.Errorf("Judge(%d → %d, white=%v) = %+v, want %v", c.prev, c.cur, c.white, v, c.want)
		}
	}
}

func TestJudgeThresholdsInclusive(t *testing.T) {
	// find cp pairs whose delta straddles 0.1 and check >= semantics
	prev := 0
	for cur := 0; cur > -400; cur-- {
		v := Judge(CPEval(prev), CPEval(cur), true)
		want := NoJudgement
		switch {
		case v.Delta >= 0.3:
			want = Blunder
		case v.Delta >= 0.2:
			want = Mistake
		case v.Delta >= 0.1:
			want = Inaccuracy
		}
		if v.Judgement != want {
			t.Fatalf("cur %d delta %v: %v, want %v", cur, v.Delta, v.Judgement, want)
		}
	}
}

func TestJudgeMateCases(t *testing.T) {
	cases := []struct {
		name      string
		prev, cur Eval
		white     bool
		want      Judgement
		kind      MateKind
	}{
		{"created from equal", CPEval(0), MateEval(-3), true, Blunder, MateCreated},
		{"created, black mover", CPEval(839), MateEval(3), false, Mistake, MateCreated}, // lila-expected3 11... gxf6?
		{"created, black mover equal", CPEval(20), MateEval(3), false, Blunder, MateCreated},
		{"created when already lost", CPEval(-1200), MateEval(-6), true, Inaccuracy, MateCreated},
		{"created when much worse", CPEval(-800), MateEval(-6), true, Mistake, MateCreated},
		{"created at -700 exactly", CPEval(-700), MateEval(-6), true, Blunder, MateCreated},
		{"created black -999", CPEval(999), MateEval(5), false, Mistake, MateCreated},
		{"created black -1000", CPEval(1000), MateEval(5), false, Inaccuracy, MateCreated},
		{"lost to small edge", MateEval(3), CPEval(168), true, Blunder, MateLost},
		{"lost, still winning", MateEval(6), CPEval(1200), true, Inaccuracy, MateLost},
		{"lost, much better", MateEval(6), CPEval(701), true, Mistake, MateLost},
		{"lost at 700 exactly", MateEval(6), CPEval(700), true, Blunder, MateLost},
		{"lost, black mover", MateEval(-6), CPEval(-306), false, Blunder, MateLost},
		{"had mate, now mated", MateEval(2), MateEval(-1), true, Blunder, MateLost},
		{"mate to longer mate", MateEval(2), MateEval(5), true, NoJudgement, NoMateCase},
		{"cp to own mate", CPEval(300), MateEval(4), true, NoJudgement, NoMateCase},
		{"mated to cp", MateEval(-3), CPEval(-500), true, NoJudgement, NoMateCase},
		{"mated to mated", MateEval(-3), MateEval(-2), true, NoJudgement, NoMateCase},
	}
	for _, c := range cases {
		v := Judge(c.prev, c.cur, c.white)
		if v.Judgement != c.want || v.Mate != c.kind || v.HasDelta {
			t.Errorf("%s: %+v, want %v %v", c.name, v, c.want, c.kind)
		}
	}
}

func TestVerdictComment(t *testing.T) {
	v := Judge(CPEval(-41), CPEval(14), false)
	if got := v.Comment(CPEval(-41), CPEval(14), "Bd7", true); got != "(-0.41 → 0.14) Inaccuracy. Bd7 was best." {
		t.Errorf("got %q", got)
	}
	if got := v.Comment(CPEval(-41), CPEval(14), "Bd7", false); got != "Inaccuracy. Bd7 was best." {
		t.Errorf("got %q", got)
	}
	m := Judge(CPEval(-286), MateEval(-2), true)
	if got := m.Comment(CPEval(-286), MateEval(-2), "gxf4", true); got != "(-2.86 → Mate in 2) Checkmate is now unavoidable. gxf4 was best." {
		t.Errorf("got %q", got)
	}
	l := Judge(MateEval(-6), CPEval(-306), false)
	if got := l.Comment(MateEval(-6), CPEval(-306), "", true); got != "(Mate in 6 → -3.06) Lost forced checkmate sequence." {
		t.Errorf("got %q", got)
	}
	if got := (Verdict{}).Comment(CPEval(0), CPEval(0), "e4", true); got != "" {
		t.Errorf("no judgement gave %q", got)
	}
}

func TestJudgementNames(t *testing.T) {
	for _, c := range []struct {
		j         Judgement
		name, nag string
		num       int
	}{{Inaccuracy, "Inaccuracy", "?!", 6}, {Mistake, "Mistake", "?", 2}, {Blunder, "Blunder", "??", 4}, {NoJudgement, "", "", 0}} {
		if c.j.String() != c.name || c.j.NAG() != c.nag || c.j.NAGNumber() != c.num || JudgementFromNAG(c.num) != c.j {
			t.Errorf("%d: %q %q %d", c.j, c.j.String(), c.j.NAG(), c.j.NAGNumber())
		}
		if p, err := ParseJudgement(c.name); err != nil || p != c.j {
			t.Errorf("ParseJudgement(%q) = %v, %v", c.name, p, err)
		}
	}
	if _, err := ParseJudgement("Brilliant"); err == nil {
		t.Error("unknown judgement accepted")
	}
}
