package analysis

import (
	"encoding/json"
	"math"
	"testing"
)

func TestEvalStrings(t *testing.T) {
	cases := []struct {
		e           Eval
		pgn, advice string
	}{
		{CPEval(17), "0.17", "0.17"},
		{CPEval(40), "0.4", "0.40"},
		{CPEval(0), "0.0", "0.00"},
		{CPEval(-150), "-1.5", "-1.50"},
		{CPEval(1506), "15.06", "15.06"},
		{CPEval(-399), "-3.99", "-3.99"},
		{CPEval(7), "0.07", "0.07"},
		{MateEval(3), "#3", "Mate in 3"},
		{MateEval(-2), "#-2", "Mate in 2"},
	}
	for _, c := range cases {
		if got := c.e.String(); got != c.pgn {
			t.Errorf("%+v String = %q, want %q", c.e, got, c.pgn)
		}
		if got := c.e.Advice(); got != c.advice {
			t.Errorf("%+v Advice = %q, want %q", c.e, got, c.advice)
		}
		back, err := ParseEval(c.pgn)
		if err != nil || back != c.e {
			t.Errorf("ParseEval(%q) = %+v, %v", c.pgn, back, err)
		}
	}
	for _, bad := range []string{"", "#", "#0", "abc", "1e309", "NaN", "#x"} {
		if _, err := ParseEval(bad); err == nil {
			t.Errorf("ParseEval(%q) accepted", bad)
		}
	}
}

func TestEvalJSON(t *testing.T) {
	for _, c := range []struct {
		e    Eval
		json string
	}{{CPEval(0), `{"cp":0}`}, {CPEval(-35), `{"cp":-35}`}, {MateEval(-4), `{"mate":-4}`}} {
		b, _ := json.Marshal(c.e)
		if string(b) != c.json {
			t.Errorf("marshal %+v = %s", c.e, b)
		}
		var back Eval
		if err := json.Unmarshal(b, &back); err != nil || back != c.e {
			t.Errorf("unmarshal %s = %+v, %v", b, back, err)
		}
	}
	var e Eval
	if err := json.Unmarshal([]byte(`{}`), &e); err == nil {
		t.Error("empty eval object accepted")
	}
}

func TestCappedCP(t *testing.T) {
	for _, c := range []struct {
		e    Eval
		want int
	}{{CPEval(1500), 1000}, {CPEval(-2000), -1000}, {CPEval(999), 999}, {MateEval(1), 1000}, {MateEval(-7), -1000}} {
		if got := c.e.CappedCP(); got != c.want {
			t.Errorf("%+v capped = %d, want %d", c.e, got, c.want)
		}
	}
}

func TestWinningChancesAndWinPercent(t *testing.T) {
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	if !near(WinningChances(0), 0) {
		t.Error("wc(0) != 0")
	}
	// 2/(1+exp(-0.00368208*100))-1
	if want := 2/(1+math.Exp(-0.368208)) - 1; !near(WinningChances(100), want) {
		t.Errorf("wc(100) = %v, want %v", WinningChances(100), want)
	}
	if !near(WinningChances(-300), -WinningChances(300)) {
		t.Error("wc not odd")
	}
	// Win% caps at ±1000 but winning chances do not
	if WinPercent(CPEval(5000)) != WinPercent(CPEval(1000)) || WinPercent(MateEval(2)) != WinPercent(CPEval(1000)) {
		t.Error("Win% not capped at 1000 / mate")
	}
	if WinningChances(5000) <= WinningChances(1000) {
		t.Error("winning chances capped")
	}
	if !near(WinPercent(CPEval(0)), 50) {
		t.Error("Win%(0) != 50")
	}
}

func TestMoveAccuracy(t *testing.T) {
	if MoveAccuracy(50, 60) != 100 || MoveAccuracy(50, 50) != 100 {
		t.Error("no drop must be 100")
	}
	want := 103.1668100711649*math.Exp(-0.04354415386753951*10) - 3.166924740191411 + 1
	if got := MoveAccuracy(60, 50); math.Abs(got-want) > 1e-12 {
		t.Errorf("drop 10: %v, want %v", got, want)
	}
	if MoveAccuracy(100, 0) != 0 {
		t.Errorf("drop 100: %v", MoveAccuracy(100, 0))
	}
}
