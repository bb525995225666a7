package analysis

import (
	"testing"

	"github.com/outpostchess/outpost/bots/score"
)

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
		v := Judge(score.CP(c.prev), score.CP(c.cur), c.white)
		if v.Judgement != c.want || !v.HasDelta || v.Mate != NoMateCase {
			t.Errorf("Judge(%d → %d, white=%v) = %+v, want %v", c.prev, c.cur, c.white, v, c.want)
		}
	}
}

func TestJudgeThresholdsInclusive(t *testing.T) {
	// find cp pairs whose delta straddles 0.1 and check >= semantics
	prev := 0
	for cur := 0; cur > -400; cur-- {
		v := Judge(score.CP(prev), score.CP(cur), true)
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
		prev, cur score.Score
		white     bool
		want      Judgement
		kind      MateKind
	}{
		{"created from equal", score.CP(0), score.Mate(-3), true, Blunder, MateCreated},
		{"created, black mover", score.CP(839), score.Mate(3), false, Mistake, MateCreated}, // lila-expected3 11... gxf6?
		{"created, black mover equal", score.CP(20), score.Mate(3), false, Blunder, MateCreated},
		{"created when already lost", score.CP(-1200), score.Mate(-6), true, Inaccuracy, MateCreated},
		{"created when much worse", score.CP(-800), score.Mate(-6), true, Mistake, MateCreated},
		{"created at -700 exactly", score.CP(-700), score.Mate(-6), true, Blunder, MateCreated},
		{"created black -999", score.CP(999), score.Mate(5), false, Mistake, MateCreated},
		{"created black -1000", score.CP(1000), score.Mate(5), false, Inaccuracy, MateCreated},
		{"lost to small edge", score.Mate(3), score.CP(168), true, Blunder, MateLost},
		{"lost, still winning", score.Mate(6), score.CP(1200), true, Inaccuracy, MateLost},
		{"lost, much better", score.Mate(6), score.CP(701), true, Mistake, MateLost},
		{"lost at 700 exactly", score.Mate(6), score.CP(700), true, Blunder, MateLost},
		{"lost, black mover", score.Mate(-6), score.CP(-306), false, Blunder, MateLost},
		{"had mate, now mated", score.Mate(2), score.Mate(-1), true, Blunder, MateLost},
		{"mate to longer mate", score.Mate(2), score.Mate(5), true, NoJudgement, NoMateCase},
		{"cp to own mate", score.CP(300), score.Mate(4), true, NoJudgement, NoMateCase},
		{"mated to cp", score.Mate(-3), score.CP(-500), true, NoJudgement, NoMateCase},
		{"mated to mated", score.Mate(-3), score.Mate(-2), true, NoJudgement, NoMateCase},
	}
	for _, c := range cases {
		v := Judge(c.prev, c.cur, c.white)
		if v.Judgement != c.want || v.Mate != c.kind || v.HasDelta {
			t.Errorf("%s: %+v, want %v %v", c.name, v, c.want, c.kind)
		}
	}
}

func TestVerdictComment(t *testing.T) {
	v := Judge(score.CP(-41), score.CP(14), false)
	if got := v.Comment(score.CP(-41), score.CP(14), "Bd7", true); got != "(-0.41 → 0.14) Inaccuracy. Bd7 was best." {
		t.Errorf("got %q", got)
	}
	if got := v.Comment(score.CP(-41), score.CP(14), "Bd7", false); got != "Inaccuracy. Bd7 was best." {
		t.Errorf("got %q", got)
	}
	m := Judge(score.CP(-286), score.Mate(-2), true)
	if got := m.Comment(score.CP(-286), score.Mate(-2), "gxf4", true); got != "(-2.86 → Mate in 2) Checkmate is now unavoidable. gxf4 was best." {
		t.Errorf("got %q", got)
	}
	l := Judge(score.Mate(-6), score.CP(-306), false)
	if got := l.Comment(score.Mate(-6), score.CP(-306), "", true); got != "(Mate in 6 → -3.06) Lost forced checkmate sequence." {
		t.Errorf("got %q", got)
	}
	if got := (Verdict{}).Comment(score.CP(0), score.CP(0), "e4", true); got != "" {
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
