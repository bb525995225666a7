package ewr_test

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/bots/score"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/models"
)

// realCalculator starts Maia and a Stockfish pool, skipping the test when
// either is not installed.
func realCalculator(tb testing.TB, workers int) (*ewr.Calculator, *store.Store) {
	tb.Helper()
	return realCalculatorOf(tb, ewr.EngineConfig{Workers: workers, HashMB: 64})
}

// realCalculatorOf is realCalculator with engines of cfg.
func realCalculatorOf(tb testing.TB, cfg ewr.EngineConfig) (*ewr.Calculator, *store.Store) {
	tb.Helper()
	if testing.Short() {
		tb.Skip("short mode: real engines not started")
	}
	if _, err := enginepath.Stockfish15Command(); err != nil {
		tb.Skip(err)
	}
	mcfg, err := models.LoadConfig()
	if err != nil {
		tb.Skipf("models config: %v", err)
	}
	pred, err := models.NewPredictor(mcfg)
	if err != nil {
		tb.Skipf("Maia not available (run `%s`): %v", models.FetchCommand, err)
	}
	tb.Cleanup(func() { pred.Close() })
	if err := pred.Load(models.Maia1Name(1500)); err != nil {
		tb.Skipf("Maia weights not available (run `%s`): %v", models.FetchCommand, err)
	}
	ctx := context.Background()
	ev, err := ewr.StartEngines(ctx, cfg)
	if err != nil {
		tb.Fatalf("Stockfish: %v", err)
	}
	tb.Cleanup(func() { ev.Close() })
	st, err := store.Open(ctx, ":memory:")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return ewr.New(pred, ev, st), st
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

// TestRealEnginesReproducible: the exact calculation and the fast mode
// (the summary's), each run twice on the same two engines without any
// cache, give identical figures (the target allows 0.5 percentage points
// per move; determinism gives none): each run clears the engines' hash and
// sends each engine the same positions in the same order. The minor-piece
// endgame's trees use both engines, and the fast mode's both depths.
func TestRealEnginesReproducible(t *testing.T) {
	calc, _ := realCalculator(t, 2)
	calc.Cache = nil
	ctx := context.Background()
	pos := ewr.Position{StartFEN: "8/2b5/3k4/3p4/3P4/4KB2/8/8 w - - 0 45"}
	for _, mode := range []struct {
		name string
		p    ewr.Params
	}{{"exact", ewr.DefaultParams()}, {"fast", ewr.DefaultParams().Fast()}} {
		var runs [2]*ewr.Result
		for i := range runs {
			res, err := calc.Calculate(ctx, pos, mode.p, ewr.Options{TimeLimit: 5 * time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			if res.Partial || len(res.Moves) < 2 {
				t.Fatalf("%s run %d: partial=%v, %d moves", mode.name, i+1, res.Partial, len(res.Moves))
			}
			runs[i] = res
		}
		for i, m := range runs[0].Moves {
			o := runs[1].Moves[i]
			if m.UCI != o.UCI || m.ExpectedWinrate != o.ExpectedWinrate || m.Coverage != o.Coverage {
				t.Errorf("%s move %d: first run %s %.4f (coverage %.4f), second %s %.4f (coverage %.4f)", mode.name, i+1, m.SAN, m.ExpectedWinrate, m.Coverage, o.SAN, o.ExpectedWinrate, o.Coverage)
			}
		}
	}
}

// BenchmarkTenPositions runs the ten benchmark positions at the defaults
// with real engines (2 workers), cold (a fresh in-memory cache per
// iteration), then reports the median per position, the engine call counts,
// the nodes searched (the work, whatever the machine's load), the shares of
// the time spent waiting for Stockfish and Maia, and the hit rate of a
// repeated pass without the result cache.
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
		b.ReportMetric(float64(cold.Nodes)/1e6/float64(len(cold.Times)), "stockfish-Mnodes/pos")
		b.ReportMetric(100*cold.StockfishTime.Seconds()/cold.Total().Seconds(), "stockfish-time-%")
		b.ReportMetric(100*cold.MaiaTime.Seconds()/cold.Total().Seconds(), "maia-time-%")
		b.ReportMetric(100*warm.HitRate(), "repeat-hit-%")
	}
}

// TestRealPoolEvaluator checks the analysis.Pool adapter against the same
// position evaluated by the engines directly.
func TestRealPoolEvaluator(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	if _, err := enginepath.Stockfish15Command(); err != nil {
		t.Skip(err)
	}
	ctx := context.Background()
	pool, err := analysis.NewPool(ctx, analysis.PoolConfig{Workers: 2, Threads: 1, HashMB: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	reqs := []ewr.EvalRequest{
		{FEN: "8/8/8/8/8/5k2/8/4K2R w - - 0 1", Depth: 15, WhiteToMove: true},    // White wins
		{FEN: "8/8/8/8/8/5k2/8/4K2R b - - 0 1", Depth: 15},                       // Black to move, lost
		{FEN: "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", Depth: 15, WhiteToMove: true}, // mate in 1
		{FEN: "6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1", Depth: 15},                    // Black to move, a rook down
	}
	got := make([]score.Score, len(reqs))
	if err := (&ewr.PoolEvaluator{Pool: pool}).Evaluate(ctx, reqs, func(i int, s score.Score) { got[i] = s }); err != nil {
		t.Fatal(err)
	}
	if got[0].Winrate() < .8 || got[1].Winrate() > .2 || got[2].Mate != 1 || got[3].Winrate() > .4 {
		t.Errorf("scores %+v", got)
	}
}

// TestRealEnginesOrderIndependent: with ClearEach a position's evaluation
// is a function of (position, depth) alone. One real engine evaluates a
// Ruy Lopez position first from a fresh engine, then again after searching
// two other positions (one of them its own parent, whose hash entries and
// move histories would otherwise carry over): the same score and the same
// node count. The control, without ClearEach, searches the position right
// after itself and gets a different node count (its hash already holds the
// answer), so the test would see a carried-over hash.
func TestRealEnginesOrderIndependent(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: real engines not started")
	}
	if _, err := enginepath.Stockfish15Command(); err != nil {
		t.Skip(err)
	}
	ctx := context.Background()
	const (
		target = "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4"
		parent = "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"
		other  = "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5"
	)
	type eval struct {
		s     score.Score
		nodes int64
	}
	run := func(ev *ewr.EngineEvaluator, fens ...string) []eval {
		t.Helper()
		var out []eval
		for _, f := range fens {
			_, before := ev.Counts()
			var got score.Score
			if err := ev.Evaluate(ctx, []ewr.EvalRequest{{FEN: f, Depth: 15}}, func(_ int, s score.Score) { got = s }); err != nil {
				t.Fatal(err)
			}
			_, after := ev.Counts()
			out = append(out, eval{got, after - before})
		}
		return out
	}
	start := func(clear bool) *ewr.EngineEvaluator {
		ev, err := ewr.StartEngines(ctx, ewr.EngineConfig{Workers: 1, HashMB: 16, ClearEach: clear})
		if err != nil {
			t.Fatalf("Stockfish: %v", err)
		}
		t.Cleanup(func() { ev.Close() })
		return ev
	}
	ev := start(true)
	first := run(ev, target)[0]
	later := run(ev, parent, other, target)[2]
	if first != later {
		t.Errorf("with ClearEach: %s alone %+v, after two other searches %+v", target, first, later)
	}
	control := run(start(false), target, target)
	if control[0].nodes == control[1].nodes {
		t.Errorf("without ClearEach the second search of the same position took as many nodes (%d): the control cannot see a carried-over hash", control[0].nodes)
	}
	t.Logf("target: %+v (alone and after other searches); without clearing: %+v then %+v", first, control[0], control[1])
}

// TestRealEnginesSettleMode: the default (settle) mode on real engines that
// clear their hash each search stops some searches early, gives the same
// figures on one engine and on two, and stays within the tolerance of the
// exact calculation on the same engines (the reference).
func TestRealEnginesSettleMode(t *testing.T) {
	ctx := context.Background()
	var pos ewr.Position
	for _, bp := range ewr.BenchPositions {
		if bp.Name == "rook endgame" { // 2.7 M nodes settled, 4.1 M exact
			pos = bp.Pos
		}
	}
	settle, _ := ewr.DefaultParams().WithMode(ewr.DefaultMode)
	var res [2]*ewr.Result
	var exact *ewr.Result
	for i, workers := range []int{1, 2} {
		calc, _ := realCalculatorOf(t, ewr.EngineConfig{Workers: workers, HashMB: ewr.ClearHashMB, ClearEach: true})
		calc.Cache = nil
		r, err := calc.Calculate(ctx, pos, settle, ewr.Options{TimeLimit: 10 * time.Minute})
		if err != nil || r.Partial {
			t.Fatalf("%d engines: %v (partial %v)", workers, err, r != nil && r.Partial)
		}
		res[i] = r
		if workers == 2 {
			if exact, err = calc.Calculate(ctx, pos, ewr.DefaultParams(), ewr.Options{TimeLimit: 10 * time.Minute}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if res[1].Stats.Settled == 0 {
		t.Errorf("no search ended early: %+v", res[1].Stats)
	}
	for i, m := range res[0].Moves {
		o := res[1].Moves[i]
		if m.UCI != o.UCI || m.ExpectedWinrate != o.ExpectedWinrate || m.Coverage != o.Coverage {
			t.Errorf("move %d: one engine %s %.4f, two %s %.4f", i+1, m.SAN, m.ExpectedWinrate, o.SAN, o.ExpectedWinrate)
		}
	}
	for _, m := range exact.Moves {
		if o, ok := res[1].Move(m.UCI); ok && math.Abs(o.ExpectedWinrate-m.ExpectedWinrate) > ewr.Tolerance {
			t.Errorf("%s: settle %.4f, exact %.4f", m.SAN, o.ExpectedWinrate, m.ExpectedWinrate)
		}
	}
}
