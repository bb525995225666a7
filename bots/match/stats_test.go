package match

import (
	"math"
	"math/rand/v2"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestComputeStats(t *testing.T) {
	tests := []struct {
		w, l, d              int
		score, elo, err, los float64
	}{
		// 50%: Elo 0, LOS ½.
		{10, 10, 0, 0.5, 0, 0, 0.5},
		// 75%: -400·log10(1/3) = 190.85.
		{15, 5, 0, 0.75, 190.85, 0, 0.9873},
		// 60 wins 20 losses 20 draws: s = 0.7, Elo 147.19.
		{60, 20, 20, 0.7, 147.19, 0, 0.99999},
		// All draws: Elo 0, LOS ½.
		{0, 0, 8, 0.5, 0, 0, 0.5},
	}
	for _, tc := range tests {
		st := ComputeStats(tc.w, tc.l, tc.d)
		if st.Games != tc.w+tc.l+tc.d || !near(st.Score, tc.score, 1e-9) || !near(st.EloDiff, tc.elo, 0.01) || !near(st.LOS, tc.los, 1e-4) {
			t.Errorf("ComputeStats(%d,%d,%d) = %+v", tc.w, tc.l, tc.d, st)
		}
	}
	// The error margin of 15-5-0: σ² = (15·0.0625 + 5·0.5625)/20 = 0.1875,
	// se = √(0.1875/20) = 0.09682, s ± 1.96se = [0.5602, 0.9398],
	// Elo bounds 41.96 and 477.6: margin ≈ 217.8.
	if st := ComputeStats(15, 5, 0); !near(st.EloError, 217.8, 0.5) {
		t.Errorf("error margin %v, want ≈217.8", st.EloError)
	}
	// Clean sweep: finite Elo (as if 0.5 of a game were conceded) and a
	// positive margin.
	st := ComputeStats(10, 0, 0)
	if math.IsInf(st.EloDiff, 0) || math.IsNaN(st.EloDiff) || !near(st.EloDiff, 511.5, 0.5) || st.EloError <= 0 || st.LOS < 0.999 {
		t.Errorf("sweep = %+v", st)
	}
	if st := ComputeStats(0, 0, 0); st.Games != 0 || st.LOS != 0.5 || st.EloDiff != 0 {
		t.Errorf("empty = %+v", st)
	}
	// Symmetry: swapping wins and losses negates Elo and mirrors LOS.
	a, b := ComputeStats(7, 3, 5), ComputeStats(3, 7, 5)
	if !near(a.EloDiff, -b.EloDiff, 1e-9) || !near(a.LOS, 1-b.LOS, 1e-9) || !near(a.EloError, b.EloError, 1e-9) {
		t.Errorf("asymmetric: %+v vs %+v", a, b)
	}
}

func TestFitLogisticSynthetic(t *testing.T) {
	// Expected results for a 2000-rated player, 1000 games per rung: the
	// fit recovers 2000 closely.
	var rungs []Rung
	for _, r := range DefaultRungs() {
		p := expected(2000, float64(r))
		w := int(math.Round(p * 1000))
		rungs = append(rungs, Rung{Elo: r, Wins: w, Losses: 1000 - w})
	}
	f, err := FitLogistic(rungs)
	if err != nil || !near(f.Elo, 2000, 2) || f.Bound != "" || f.Error <= 0 || f.Error > 20 {
		t.Errorf("fit = %+v, %v", f, err)
	}

	// Simulated games at a 2300 player: the 95% interval covers the truth
	// in about 95% of runs.
	rng := rand.New(rand.NewPCG(1, 2))
	covered := 0
	const runs = 200
	for range runs {
		var rs []Rung
		for _, r := range []int{2100, 2350, 2600} {
			p := expected(2300, float64(r))
			rg := Rung{Elo: r}
			for range 40 {
				switch x := rng.Float64(); {
				case x < p*0.8:
					rg.Wins++
				case x < p*0.8+0.2:
					rg.Draws++
				default:
					rg.Losses++
				}
			}
			rs = append(rs, rg)
		}
		f, err := FitLogistic(rs)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(f.Elo-2300) <= f.Error {
			covered++
		}
	}
	if covered < runs*88/100 {
		t.Errorf("95%% interval covered the true rating in %d of %d runs", covered, runs)
	}

	// Draws count half: 5 wins 5 losses = 10 draws = the rung's rating.
	for _, rs := range [][]Rung{{{Elo: 1850, Wins: 5, Losses: 5}}, {{Elo: 1850, Draws: 10}}} {
		if f, _ := FitLogistic(rs); !near(f.Elo, 1850, 0.01) {
			t.Errorf("even score at 1850: %+v", f)
		}
	}
	if f, _ := FitLogistic([]Rung{{Elo: 2850, Wins: 10}}); f.Bound != "above" || f.Elo != 3250 {
		t.Errorf("all wins: %+v", f)
	}
	if f, _ := FitLogistic([]Rung{{Elo: 1350, Losses: 10}, {Elo: 1600, Losses: 4}}); f.Bound != "below" || f.Elo != 950 {
		t.Errorf("all losses: %+v", f)
	}
	if _, err := FitLogistic(nil); err == nil {
		t.Error("empty fit accepted")
	}
}

func BenchmarkFitLogistic(b *testing.B) {
	rungs := []Rung{{Elo: 1850, Wins: 14, Losses: 4, Draws: 2}, {Elo: 2100, Wins: 8, Losses: 8, Draws: 4}, {Elo: 2350, Wins: 3, Losses: 15, Draws: 2}}
	for b.Loop() {
		if _, err := FitLogistic(rungs); err != nil {
			b.Fatal(err)
		}
	}
}
