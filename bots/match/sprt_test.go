package match

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/outpostchess/outpost/bots"
	"github.com/outpostchess/outpost/bots/engine"
)

// TestSPRTLLRHandComputed checks the LLR against values worked out by hand
// from the formula of SPRT's doc comment, the prior of half a pair per bin
// included. The first case in full:
//
//	pairs [3 10 40 30 17], N = 100; with the prior [3.5 10.5 40.5 30.5 17.5], n = 102.5
//	μ  = (0·3.5 + 1·10.5 + 2·40.5 + 3·30.5 + 4·17.5)/4/102.5 = 253/410 = 0.617073
//	σ² = Σ c_k (k/4 − μ)² / n
//	   = (3.5·0.380779 + 10.5·0.134743 + 40.5·0.013706 + 30.5·0.017670 + 17.5·0.146633)/102.5
//	   = 6.407624/102.5 = 0.062513
//	s0 = L(0) = 0.5, s1 = L(10) = 1/(1+10^(−1/40)) = 0.514387
//	LLR = 100·0.014387·(1.234146 − 1.014387)/(2·0.062513) = 2.529
func TestSPRTLLRHandComputed(t *testing.T) {
	tests := []struct {
		name       string
		elo0, elo1 float64
		p          Pentanomial
		llr        float64
		decision   string
	}{
		{"A ahead, not yet decided", 0, 10, Pentanomial{3, 10, 40, 30, 17}, 2.529, ""},
		// μ = 0.581481, σ² = 0.059719, LLR = 176·0.014387·0.148576/0.119438.
		{"A ahead, decided", 0, 10, Pentanomial{6, 30, 80, 60, 24}, 3.579, "H1"},
		// μ = 0.358537, σ² = 0.059866, LLR = 100·0.014387·(−0.297313)/0.119732.
		{"A behind", 0, 10, Pentanomial{20, 30, 40, 8, 2}, -3.573, "H0"},
		// μ = ½ exactly with symmetric bounds: s0 + s1 = 1, LLR = 0.
		{"even, symmetric bounds", -5, 5, Pentanomial{1, 2, 3, 2, 1}, 0, ""},
		// One won pair: μ = 2.25/3.5 = 0.642857, σ² = 0.140306; the prior
		// keeps a single pair from deciding anything:
		// LLR = 1·0.259747·(1.285714 − 1.259747)/0.280612 = 0.024.
		{"one pair", 0, 200, Pentanomial{0, 0, 0, 0, 1}, 0.024, ""},
		// Identical deterministic engines: every pair scores one point. The
		// prior gives the variance (2.5·⅛ + 0)/(N + 2.5) > 0, so the LLR is
		// finite: 7·0.014387·(−0.014387)/(2·0.032895) = −0.022.
		{"every pair even", 0, 10, Pentanomial{0, 0, 7, 0, 0}, -0.022, ""},
		{"no pairs", 0, 10, Pentanomial{}, 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			test := SPRT{Elo0: tc.elo0, Elo1: tc.elo1, Alpha: 0.05, Beta: 0.05}
			r := test.Check(tc.p)
			if !near(r.LLR, tc.llr, 0.001) || r.Decision != tc.decision {
				t.Errorf("LLR %.4f decision %q, want %.3f %q", r.LLR, r.Decision, tc.llr, tc.decision)
			}
		})
	}
}

// TestSPRTBounds: Wald's bounds ln(β/(1−α)) and ln((1−β)/α).
func TestSPRTBounds(t *testing.T) {
	lo, hi := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}.Bounds()
	// ln(0.05/0.95) = −ln 19 = −2.944439.
	if !near(lo, -2.944439, 1e-6) || !near(hi, 2.944439, 1e-6) {
		t.Errorf("bounds %v %v", lo, hi)
	}
	// α = 0.01, β = 0.1: ln(0.1/0.99) = −2.292535, ln(0.9/0.01) = 4.499810.
	lo, hi = SPRT{Elo0: 0, Elo1: 5, Alpha: 0.01, Beta: 0.1}.Bounds()
	if !near(lo, -2.292535, 1e-6) || !near(hi, 4.499810, 1e-6) {
		t.Errorf("bounds %v %v", lo, hi)
	}
}

// TestSPRTEloEstimate: the pentanomial Elo of the first hand-computed case:
// μ = 0.617073 → −400·log10(1/μ − 1) = 82.8; se = √(0.062513/100) =
// 0.025003, μ ± 1.96se = 0.568068 / 0.666079 → 47.6 / 119.8 Elo, so the
// error is (119.8 − 47.6)/2 = 36.1.
func TestSPRTEloEstimate(t *testing.T) {
	r := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}.Check(Pentanomial{3, 10, 40, 30, 17})
	if !near(r.Elo, 82.8, 0.1) || !near(r.Error, 36.1, 0.1) {
		t.Errorf("Elo %.2f ± %.2f, want 82.8 ± 36.1", r.Elo, r.Error)
	}
	if s := r.String(); !strings.Contains(s, "100 pairs (200 games)") || !strings.Contains(s, "LLR 2.53 (-2.94, 2.94): continue") {
		t.Errorf("String() = %q", s)
	}
}

func TestParseSPRT(t *testing.T) {
	got, err := ParseSPRT(" 0, 10 ")
	if err != nil || got != (SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}) {
		t.Errorf("ParseSPRT = %+v, %v", got, err)
	}
	for _, bad := range []string{"", "5", "0,10,20", "x,10", "10,0", "5,5", "0,NaN", "0,5000"} {
		if _, err := ParseSPRT(bad); err == nil {
			t.Errorf("ParseSPRT(%q) accepted", bad)
		}
	}
}

// simulatePair plays a pair of games between players elo apart with the
// given draw rate: each game is a draw with probability draw, else a win
// with the probability that gives the logistic expected score.
func simulatePair(rng *rand.Rand, elo, draw float64) float64 {
	s := logistic(elo)
	win := s - draw/2 // P(win) + P(draw)/2 = s
	pts := 0.0
	for range 2 {
		switch u := rng.Float64(); {
		case u < win:
			pts++
		case u < win+draw:
			pts += 0.5
		}
	}
	return pts
}

// runSimulated runs the test on simulated pairs until it decides (or
// 100000 pairs) and returns the decision and the pairs used.
func runSimulated(test SPRT, rng *rand.Rand, elo float64) (string, int) {
	var p Pentanomial
	for range 100000 {
		p.add(simulatePair(rng, elo, 0.4))
		if r := test.Check(p); r.Decision != "" {
			return r.Decision, p.Pairs()
		}
	}
	return "", p.Pairs()
}

// TestSPRTErrorRates: the test's error rates on simulated games (a seeded
// source, so the figures are fixed): with the true difference at Elo0 it
// accepts H1 in at most about α of the runs, at Elo1 it accepts H0 in at
// most about β; well outside the bounds it decides the right way every
// time. (The normal approximation with a sample variance makes the real
// rates differ a little from α and β; 0.08 leaves room for that and for
// the 400 runs' own noise, ±0.02.)
func TestSPRTErrorRates(t *testing.T) {
	test := SPRT{Elo0: 0, Elo1: 20, Alpha: 0.05, Beta: 0.05}
	rng := rand.New(rand.NewPCG(1, 2))
	const runs = 400
	for _, tc := range []struct {
		elo      float64
		wrong    string
		maxWrong float64
	}{
		{0, "H1", 0.08}, {20, "H0", 0.08}, {-40, "H1", 0}, {60, "H0", 0},
	} {
		wrong, pairs := 0, 0
		for range runs {
			d, n := runSimulated(test, rng, tc.elo)
			if d == "" {
				t.Fatalf("elo %v: undecided after %d pairs", tc.elo, n)
			}
			if d == tc.wrong {
				wrong++
			}
			pairs += n
		}
		rate := float64(wrong) / runs
		t.Logf("true Elo %+v: %s accepted in %.3f of %d runs, %.0f pairs on average", tc.elo, tc.wrong, rate, runs, float64(pairs)/runs)
		if rate > tc.maxWrong {
			t.Errorf("true Elo %+v: wrong decision %s in %.3f of runs, want at most %.2f", tc.elo, tc.wrong, rate, tc.maxWrong)
		}
	}
}

// TestRunSPRT plays real engines under an SPRT at fixed nodes (no clock:
// the same games on any machine) and checks that each match stops by
// itself, well before its cap, on the right side: a known-better pair
// (medium at 2000 nodes against the random mover easy) accepts H1, two
// known-equal pairs (easy against easy with other seeds; medium against an
// identical medium, whose pairs all score exactly one point) accept H0.
func TestRunSPRT(t *testing.T) {
	seeded := func(spec string, seed uint64) Factory {
		var n atomic.Uint64
		return func(ctx context.Context) (engine.Engine, error) {
			return bots.New(ctx, spec, bots.WithSeed(seed+n.Add(1)))
		}
	}
	for _, tc := range []struct {
		name     string
		a, b     Factory
		nodes    int64
		decision string
	}{
		{"better", seeded("medium", 1), seeded("easy", 10), 2000, "H1"},
		{"equal, random", seeded("easy", 1), seeded("easy", 100), 1, "H0"},
		{"equal, identical", seeded("medium", 1), seeded("medium", 1), 500, "H0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			test := SPRT{Elo0: 0, Elo1: 200, Alpha: 0.05, Beta: 0.05}
			pairs := 0
			sum, err := Run(context.Background(), Config{A: tc.a, B: tc.b, Games: 400, Nodes: tc.nodes, SPRT: &test,
				Concurrency: 1, OnSPRT: func(SPRTResult) { pairs++ }})
			if err != nil {
				t.Fatal(err)
			}
			r := sum.SPRT
			if r == nil || r.Decision != tc.decision {
				t.Fatalf("SPRT result %+v, want %s", r, tc.decision)
			}
			t.Log(r.String())
			if n := r.Pentanomial.Pairs(); n != pairs || n != sum.Pentanomial.Pairs() || 2*n != len(sum.Games) || n >= 200 {
				t.Errorf("%d pairs decided (%d reported, %d in the summary, %d games), want one stop well before the cap",
					n, pairs, sum.Pentanomial.Pairs(), len(sum.Games))
			}
			for _, g := range sum.Games {
				if strings.Contains(g.Reason, "forfeit") || strings.Contains(g.Reason, "error") {
					t.Errorf("game %d: %s", g.Index, g.Reason)
				}
			}
		})
	}
}

// TestRunNodesConfig: a node limit stands in for the move time; neither is
// an error, a negative node limit is.
func TestRunNodesConfig(t *testing.T) {
	ok := func(context.Context) (engine.Engine, error) { return eng("x", firstLegal), nil }
	if _, err := Run(context.Background(), Config{A: ok, B: ok, Games: 2}); err == nil {
		t.Error("no move time and no nodes accepted")
	}
	if _, err := Run(context.Background(), Config{A: ok, B: ok, Games: 2, Nodes: -1, MoveTime: 1}); err == nil {
		t.Error("negative nodes accepted")
	}
	bad := SPRT{Elo0: 5, Elo1: 0, Alpha: 0.05, Beta: 0.05}
	if _, err := Run(context.Background(), Config{A: ok, B: ok, Games: 2, Nodes: 10, SPRT: &bad}); err == nil ||
		!strings.Contains(err.Error(), "elo0") {
		t.Errorf("bad SPRT: %v", err)
	}
	sum, err := Run(context.Background(), Config{A: ok, B: ok, Games: 3, Nodes: 10, MaxPlies: 20,
		SPRT: &SPRT{Elo0: 0, Elo1: 1000, Alpha: 0.05, Beta: 0.05}, Openings: testOpenings()[:1]})
	if err != nil || len(sum.Games)%2 != 0 {
		t.Errorf("an SPRT plays whole pairs: %d games, %v", len(sum.Games), err)
	}
	if math.IsNaN(sum.SPRT.LLR) {
		t.Errorf("LLR NaN")
	}
}
