package search

import (
	"context"
	"testing"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/engine"
)

// BenchmarkHardSearch reports hard's nodes per second on a middlegame
// searched to a fixed depth (fresh table each time), as it is, without
// EvalPlus's terms and without the learned correction (run them in one go:
// their ratios are the figures).
func BenchmarkHardSearch(b *testing.B) {
	b.Run("hard", func(b *testing.B) {
		benchSearch(b, func() (*Engine, error) { return NewHard(WithHashMB(16)) }, 7)
	})
	b.Run("noevalplus", func(b *testing.B) {
		benchSearch(b, func() (*Engine, error) { return NewHard(WithHashMB(16), WithoutFeatures("evalplus", "net")) }, 7)
	})
	b.Run("nonet", func(b *testing.B) {
		benchSearch(b, func() (*Engine, error) { return NewHard(WithHashMB(16), WithoutFeatures("net")) }, 7)
	})
}

// BenchmarkMediumSearch is the same for medium (shallower: no pruning).
func BenchmarkMediumSearch(b *testing.B) {
	benchSearch(b, func() (*Engine, error) { return NewMedium() }, 4)
}

func benchSearch(b *testing.B, mk func() (*Engine, error), depth int) {
	e, err := mk()
	if err != nil {
		b.Fatal(err)
	}
	pos := engine.Position{StartFEN: "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"}
	var nodes int64
	for b.Loop() {
		_ = e.NewGame(context.Background())
		m, err := e.SelectMove(context.Background(), pos, engine.Limits{Depth: depth})
		if err != nil {
			b.Fatal(err)
		}
		nodes += m.Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkEvaluate compares the evaluations' cost side by side on one
// middlegame (run the sub-benchmarks in one go: their ratio is the figure).
func BenchmarkEvaluate(b *testing.B) {
	bd, err := board.FromFEN("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10")
	if err != nil {
		b.Fatal(err)
	}
	for _, k := range []struct {
		name string
		kind EvalKind
	}{{"simple", EvalSimple}, {"full", EvalFull}, {"plus", EvalPlus}, {"net-scratch", EvalNet}} {
		b.Run(k.name, func(b *testing.B) {
			for b.Loop() {
				Evaluate(bd, k.kind)
			}
		})
	}
}

// BenchmarkNetUpdate is the learned evaluation as the search pays for it:
// a move made, the accumulator updated from the parent's and the output
// computed, the move unmade (compare with BenchmarkEvaluate/plus, which
// does not include the move).
func BenchmarkNetUpdate(b *testing.B) {
	bd, err := board.FromFEN("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10")
	if err != nil {
		b.Fatal(err)
	}
	st := &netStack{net: embeddedNet()}
	moves := bd.LegalMoves()
	st.eval(bd, 0)
	i := 0
	for b.Loop() {
		bd.Make(moves[i%len(moves)])
		st.eval(bd, 1)
		bd.Unmake()
		i++
	}
}

// BenchmarkEvalCache compares hard's search with and without the eval
// cache on four positions to depth 9 (the trees are the same: compare the
// sub-benchmarks' ns/op and nodes/s in one run).
func BenchmarkEvalCache(b *testing.B) {
	fens := []string{
		"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
		"r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R1BQ1RK1 w - - 0 9",
		"8/5pk1/6p1/3R4/5P2/6P1/r5K1/8 w - - 0 45",
		"2r2rk1/pp1bqppp/3p1n2/4p3/4P3/1NN1BP2/PPPQ2PP/2KR3R b - - 0 14",
	}
	for _, cached := range []bool{false, true} {
		name := map[bool]string{false: "computed", true: "cached"}[cached]
		b.Run(name, func(b *testing.B) {
			e, err := NewHard(WithHashMB(16))
			if err != nil {
				b.Fatal(err)
			}
			e.s = &searcher{}
			if cached {
				e.s.ec = new(evalCache)
			}
			var nodes int64
			for b.Loop() {
				for _, fen := range fens {
					_ = e.NewGame(context.Background())
					m, err := e.SelectMove(context.Background(), engine.Position{StartFEN: fen}, engine.Limits{Depth: 9})
					if err != nil {
						b.Fatal(err)
					}
					nodes += m.Nodes
				}
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}
