package score

import (
	"encoding/json"
	"math"
	"testing"
)

func TestStrings(t *testing.T) {
	cases := []struct {
		s           Score
		pgn, advice string
	}{
		{CP(17), "0.17", "0.17"},
		{CP(40), "0.4", "0.40"},
		{CP(0), "0.0", "0.00"},
		{CP(-150), "-1.5", "-1.50"},
		{CP(1506), "15.06", "15.06"},
		{CP(-399), "-3.99", "-3.99"},
		{CP(7), "0.07", "0.07"},
		{Mate(3), "#3", "Mate in 3"},
		{Mate(-2), "#-2", "Mate in 2"},
	}
	for _, c := range cases {
		if got := c.s.String(); got != c.pgn {
			t.Errorf("%+v String = %q, want %q", c.s, got, c.pgn)
		}
		if got := c.s.Advice(); got != c.advice {
			t.Errorf("%+v Advice = %q, want %q", c.s, got, c.advice)
		}
		back, err := Parse(c.pgn)
		if err != nil || back != c.s {
			t.Errorf("Parse(%q) = %+v, %v", c.pgn, back, err)
		}
	}
	for _, bad := range []string{"", "#", "#0", "abc", "1e309", "NaN", "#x"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

func TestJSON(t *testing.T) {
	for _, c := range []struct {
		s    Score
		json string
	}{{CP(0), `{"cp":0}`}, {CP(-35), `{"cp":-35}`}, {Mate(-4), `{"mate":-4}`}} {
		b, _ := json.Marshal(c.s)
		if string(b) != c.json {
			t.Errorf("marshal %+v = %s", c.s, b)
		}
		var back Score
		if err := json.Unmarshal(b, &back); err != nil || back != c.s {
			t.Errorf("unmarshal %s = %+v, %v", b, back, err)
		}
	}
	var e Score
	if err := json.Unmarshal([]byte(`{}`), &e); err == nil {
		t.Error("empty eval object accepted")
	}
}

func TestCappedCP(t *testing.T) {
	for _, c := range []struct {
		s    Score
		want int
	}{{CP(1500), 1000}, {CP(-2000), -1000}, {CP(999), 999}, {Mate(1), 1000}, {Mate(-7), -1000}} {
		if got := c.s.CappedCP(); got != c.want {
			t.Errorf("%+v capped = %d, want %d", c.s, got, c.want)
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
	if CP(5000).WinPercent() != CP(1000).WinPercent() || Mate(2).WinPercent() != CP(1000).WinPercent() {
		t.Error("Win% not capped at 1000 / mate")
	}
	if WinningChances(5000) <= WinningChances(1000) {
		t.Error("winning chances capped")
	}
	if !near(CP(0).WinPercent(), 50) {
		t.Error("Win%(0) != 50")
	}
}

func TestFromUCI(t *testing.T) {
	for _, c := range []struct {
		mate bool
		n    int
		want Score
		ok   bool
	}{
		{false, 35, CP(35), true},
		{false, 0, CP(0), true},
		{true, -4, Mate(-4), true},
		{true, 2, Mate(2), true},
		{true, 0, Score{}, false}, // the side to move is checkmated: no score
	} {
		if got, ok := FromUCI(c.mate, c.n); got != c.want || ok != c.ok {
			t.Errorf("FromUCI(%v, %d) = %+v, %v; want %+v, %v", c.mate, c.n, got, ok, c.want, c.ok)
		}
	}
}

func TestWinrate(t *testing.T) {
	for _, c := range []struct {
		s    Score
		want float64
	}{{Mate(1), 1}, {Mate(-9), 0}, {CP(0), 0.5}, {CP(5000), CP(1000).WinPercent() / 100}} {
		if got := c.s.Winrate(); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%v Winrate = %v, want %v", c.s, got, c.want)
		}
	}
}

func TestUnmarshalOldCacheForm(t *testing.T) {
	var s Score
	if err := json.Unmarshal([]byte(`{"cp":0,"mate":3}`), &s); err != nil || s != Mate(3) {
		t.Errorf(`{"cp":0,"mate":3} = %+v, %v`, s, err)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"0.17", "-1.5", "+2", "#3", "#-3", "#0", "", "NaN"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := Parse(in)
		if err != nil {
			return
		}
		back, err := Parse(s.String())
		if err != nil || back != s {
			t.Fatalf("Parse(%q) = %+v, whose String %q parses to %+v, %v", in, s, s.String(), back, err)
		}
	})
}

func TestRank(t *testing.T) {
	// Best to worst for the side whose point of view the scores have.
	order := []Score{Mate(1), Mate(2), Mate(30), CP(900), CP(0), CP(-900), Mate(-30), Mate(-2), Mate(-1)}
	for i := 1; i < len(order); i++ {
		if hi, lo := order[i-1].Rank(100000), order[i].Rank(100000); hi <= lo {
			t.Errorf("%v ranks %d, not above %v at %d", order[i-1], hi, order[i], lo)
		}
	}
	if got := Mate(3).Rank(1000); got != 997 {
		t.Errorf("Mate(3).Rank(1000) = %d, want 997", got)
	}
	if got := Mate(-3).Rank(1000); got != -997 {
		t.Errorf("Mate(-3).Rank(1000) = %d, want -997", got)
	}
	if got := CP(42).Rank(1000); got != 42 {
		t.Errorf("CP(42).Rank = %d, want 42", got)
	}
}
