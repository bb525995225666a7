package ewr_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/models"
)

// realCalculator starts Maia and a Stockfish pool, skipping the test when
// either is not installed.
func realCalculator(tb testing.TB, workers int) (*ewr.Calculator, *store.Store) {
	tb.Helper()
	if testing.Short() {
		tb.Skip("short mode: real engines not started")
	}
	if _, err := os.Stat(analysis.DefaultEngineCommand[0]); err != nil {
		tb.Skipf("Stockfish not installed at %s", analysis.DefaultEngineCommand[0])
	}
	cfg, err := models.LoadConfig()
	if err != nil {
		tb.Skipf("models config: %v", err)
	}
	pred, err := models.NewPredictor(cfg)
	if err != nil {
		tb.Skipf("Maia not available (run `%s`): %v", models.FetchCommand, err)
	}
	tb.Cleanup(func() { pred.Close() })
	if err := pred.Load(models.Maia1Name(1500)); err != nil {
		tb.Skipf("Maia weights not available (run `%s`): %v", models.FetchCommand, err)
	}
	ctx := context.Background()
	pool, err := analysis.NewPool(ctx, analysis.PoolConfig{Workers: workers, Threads: 1, HashMB: 16})
	if err != nil {
		tb.Fatalf("Stockfish: %v", err)
	}
	tb.Cleanup(func() { pool.Close() })
	st, err := store.Open(ctx, ":memory:")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return ewr.New(pred, pool, st), st
}

// TestRealEngines runs a small endgame with real Stockfish and Maia.
func TestRealEngines(t *testing.T) {
	calc, _ := realCalculator(t, 2)
	ctx := context.Background()
	pos := ewr.Position{StartFEN: "8/8/4k3/8/2K1P3/8/8/8 w - - 0 50"}
	var phases [4]int
	res, err := calc.Calculate(ctx, pos, ewr.DefaultParams(), ewr.Options{
		TimeLimit: 2 * time.Minute,
		Progress:  func(e ewr.Event) { phases[e.Phase]++ },
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Partial || len(res.Moves) == 0 || res.Cached {
		t.Fatalf("partial=%v cached=%v moves %+v warnings %v", res.Partial, res.Cached, res.Moves, res.Warnings)
	}
	for _, m := range res.Moves {
		if m.ExpectedWinrate < 0 || m.ExpectedWinrate > 1 || m.Coverage <= 0 || m.Coverage > 1 || m.Branches == 0 || res.Trees[m.SAN] == nil {
			t.Errorf("implausible %+v", m)
		}
	}
	if res.BaseWinrate < 0.5 {
		t.Errorf("base winrate %v: White with the extra pawn should not be worse", res.BaseWinrate)
	}
	if res.Stats.EngineEvals == 0 || res.Stats.MaiaPositions == 0 || phases[ewr.PhaseTrees] == 0 || phases[ewr.PhaseEval] == 0 {
		t.Errorf("stats %+v phases %v", res.Stats, phases)
	}
	t.Logf("%d ms, %+v, best %+v", res.CalcMS, res.Stats, res.Moves[0])
	again, err := calc.Calculate(ctx, pos, ewr.DefaultParams(), ewr.Options{})
	if err != nil || !again.Cached || again.Moves[0] != res.Moves[0] {
		t.Fatalf("repeat: %v cached=%v", err, again != nil && again.Cached)
	}
}

// BenchmarkTenPositions runs the ten benchmark positions at the defaults
// with real engines (2 workers), cold (a fresh in-memory cache per
// iteration), then reports the median per position, the engine call counts
// and the hit rate of a repeated pass without the result cache.
//
//	go test ./analysis/ewr -run '^$' -bench TenPositions -benchtime 1x
func BenchmarkTenPositions(b *testing.B) {
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		calc, _ := realCalculator(b, 2)
		cold, err := ewr.RunBench(ctx, calc, ewr.DefaultParams(), ewr.Options{}, nil)
		if err != nil {
			b.Fatal(err)
		}
		warm, err := ewr.RunBench(ctx, calc, ewr.DefaultParams(), ewr.Options{SkipResultCache: true}, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(cold.Median().Seconds(), "median-s/pos")
		b.ReportMetric(float64(cold.EngineEvals)/float64(len(cold.Times)), "stockfish-evals/pos")
		b.ReportMetric(float64(cold.MaiaPositions)/float64(len(cold.Times)), "maia-positions/pos")
		b.ReportMetric(float64(cold.MaiaCall)/float64(len(cold.Times)), "maia-calls/pos")
		b.ReportMetric(100*warm.HitRate(), "repeat-hit-%")
	}
}
