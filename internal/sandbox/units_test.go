package sandbox

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestSpeedOf(t *testing.T) {
	tests := []struct {
		limit, inc int
		want       string
	}{
		{15, 0, "ultraBullet"}, {0, 1, "bullet"}, {60, 0, "bullet"}, {120, 1, "bullet"}, {180, 0, "blitz"},
		{180, 2, "blitz"}, {300, 3, "blitz"}, {600, 0, "rapid"}, {900, 10, "rapid"}, {1800, 0, "classical"},
	}
	for _, tt := range tests {
		tc := &timeControl{limit: time.Duration(tt.limit) * time.Second, increment: time.Duration(tt.inc) * time.Second}
		if got := speedOf(tc, 0); got != tt.want {
			t.Errorf("%d+%d: %s, want %s", tt.limit, tt.inc, got, tt.want)
		}
	}
	if speedOf(nil, 3) != "correspondence" || speedOf(nil, 0) != "correspondence" {
		t.Error("no clock must be correspondence")
	}
}

func TestShowClockAndLimits(t *testing.T) {
	for in, want := range map[[2]int]string{{60, 0}: "1+0", {15, 0}: "¼+0", {30, 1}: "½+1", {45, 0}: "¾+0", {90, 2}: "1.5+2", {600, 5}: "10+5"} {
		if got := showClock(in[0], in[1]); got != want {
			t.Errorf("%v: %q want %q", in, got, want)
		}
	}
	for sec, ok := range map[int]bool{0: true, 15: true, 30: true, 45: true, 60: true, 90: true, 120: true, 10800: true,
		10860: false, 75: false, -60: false, 1: false} {
		if validClockLimit(sec) != ok {
			t.Errorf("limit %d: want %v", sec, ok)
		}
	}
}

func TestFenPly(t *testing.T) {
	for fen, want := range map[string]int{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1":   0,
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1": 1,
		"7k/8/8/8/8/8/R7/K7 w - - 99 80":                             158,
		"7k/8/8/8/8/8/R7/K7 b - -":                                   0,
		"7k/8/8/8/8/8/R7/K7 b - - 0 x":                               1,
	} {
		if got := fenPly(fen); got != want {
			t.Errorf("%s: %d want %d", fen, got, want)
		}
	}
}

func TestPGNFormatting(t *testing.T) {
	evals := map[int]string{0: "0.0", 8: "0.08", 10: "0.1", 14: "0.14", 200: "2.0", 146: "1.46", -34: "-0.34", -20: "-0.2", -1005: "-10.05"}
	for cp, want := range evals {
		if got, _ := pgnEval(MoveAnalysis{Eval: ip(cp)}); got != want {
			t.Errorf("eval %d: %q want %q", cp, got, want)
		}
	}
	if got, _ := pgnEval(MoveAnalysis{Mate: ip(-3)}); got != "#-3" {
		t.Errorf("mate: %q", got)
	}
	if _, ok := pgnEval(MoveAnalysis{}); ok {
		t.Error("empty analysis has no eval")
	}
	if literateEval(MoveAnalysis{Eval: ip(5)}) != "0.05" || literateEval(MoveAnalysis{Mate: ip(-6)}) != "Mate in 6" {
		t.Error("literate evals")
	}
	if got := numberVariation(7, "dxe4 Nxe4 Bb4+ Nc3"); got != "4... dxe4 5. Nxe4 Bb4+ 6. Nc3" {
		t.Errorf("variation %q", got)
	}
	if got := numberVariation(2, "e4 Qh4"); got != "2. e4 Qh4" {
		t.Errorf("variation %q", got)
	}
	for d, want := range map[time.Duration]string{0: "0:00:00", 59*time.Second + 900*time.Millisecond: "0:00:59",
		3661 * time.Second: "1:01:01", -time.Second: "0:00:00"} {
		if got := pgnClock(d); got != want {
			t.Errorf("%v: %q want %q", d, got, want)
		}
	}
}

func TestNormalizeCastling(t *testing.T) {
	pos := must(newPosition("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"))
	for in, want := range map[string]string{"e1h1": "e1g1", "e1a1": "e1c1", "e1g1": "e1g1", "a1a8": "a1a8", "e1e2": "e1e2"} {
		if got := normalizeCastling(pos, in); got != want {
			t.Errorf("%s: %s want %s", in, got, want)
		}
	}
	// A king move to h1 with no own rook there is left alone.
	pos = must(newPosition("4k3/8/8/8/8/8/8/4K3 w - - 0 1"))
	if got := normalizeCastling(pos, "e1h1"); got != "e1h1" {
		t.Errorf("no rook: %s", got)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestHasMatingMaterial(t *testing.T) {
	for fen, want := range map[string][2]bool{
		"4k3/8/8/8/8/8/8/4K3 w - - 0 1":   {false, false},
		"4k3/8/8/8/8/8/8/4KN2 w - - 0 1":  {false, false},
		"4k3/8/8/8/8/8/8/3BKN2 w - - 0 1": {true, false},
		"4k3/p7/8/8/8/8/8/4K3 w - - 0 1":  {false, true},
		"4k3/8/8/8/8/8/8/4K2R w - - 0 1":  {true, false},
	} {
		pos := must(newPosition(fen))
		if got := [2]bool{pos.hasMatingMaterial(white), pos.hasMatingMaterial(black)}; got != want {
			t.Errorf("%s: %v want %v", fen, got, want)
		}
	}
}

// FuzzChallengeForm checks that any creation form or JSON body parses or
// fails with a 400 or per-field errors, never panics, and that accepted
// parameters are within Lichess's ranges.
func FuzzChallengeForm(f *testing.F) {
	for _, s := range []string{"clock.limit=60&clock.increment=0&color=white", "days=3", "clock.limit=15&clock.increment=0",
		"fen=7k%2F8%2F8%2F8%2F8%2F8%2FR7%2FK7+w+-+-", "clock.limit=x", "rated=true&fen=8/8/8/8/8/8/8/8 w - -", "%zz"} {
		f.Add(s, false)
	}
	for _, s := range []string{`{"clock.limit":60,"clock.increment":1,"rated":true}`, `{"clock":{"limit":180,"increment":180}}`,
		`{"days":3,"color":"black"}`, `{"clock.limit":"x"}`, `{"rated":null,"days":[1]}`, `[1]`, `{"clock.limit":6e1,"clock.increment":0.5}`} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, body string, isJSON bool) {
		r, err := http.NewRequest("POST", "http://x/api/challenge/bob", strings.NewReader(body))
		if err != nil {
			return
		}
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if isJSON {
			r.Header.Set("Content-Type", "application/json; charset=utf-8")
		}
		form, ferrs, aerr := parseChallengeForm(r)
		switch {
		case aerr != nil:
			if aerr.status != 400 || aerr.msg == "" {
				t.Fatalf("bad error %+v", aerr)
			}
			return
		case ferrs != nil:
			for k, msgs := range ferrs {
				if k == "" || len(msgs) == 0 {
					t.Fatalf("empty field error %v", ferrs)
				}
			}
			return
		}
		if form.clock != nil && (form.clock.limit < 0 || form.clock.limit > 3*time.Hour || form.clock.increment > 3*time.Minute) {
			t.Fatalf("clock out of range: %+v", form.clock)
		}
		if form.fen != "" {
			if _, err := newPosition(form.fen); err != nil {
				t.Fatalf("accepted bad FEN %q", form.fen)
			}
		}
	})
}

// FuzzMove plays arbitrary move strings into a game: they are played or
// refused with a 400, never panic, and the game stays consistent.
func FuzzMove(f *testing.F) {
	for _, s := range []string{"e2e4", "e1h1", "e7e8q", "a1a1", "", "e2e4e", "zz99", "g1f3"} {
		f.Add(s, "e7e5")
	}
	f.Fuzz(func(t *testing.T, m1, m2 string) {
		s := New(Config{Accounts: []Account{{Name: "w", Token: "a"}, {Name: "b", Token: "b"}}})
		defer s.Close()
		s.mu.Lock()
		defer s.mu.Unlock()
		c := &challenge{id: "abcdefgh", color: "white", finalColor: "white", variant: "standard",
			clock: &timeControl{limit: time.Minute}}
		g := s.startGame(c, s.accounts["w"], s.accounts["b"])
		for i, m := range []string{m1, m2} {
			before := g.plies()
			err := s.move(g, g.players[i%2], m, false)
			if err != nil && err.status != 400 {
				t.Fatalf("%q: %+v", m, err)
			}
			if (err == nil) != (g.plies() == before+1) {
				t.Fatalf("%q: err %v, plies %d -> %d", m, err, before, g.plies())
			}
		}
		if len(g.san) != len(g.uci) || len(g.clocksAfter) != len(g.uci) {
			t.Fatal("move records out of step")
		}
	})
}
