package search

import (
	"context"
	"testing"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/engine"
)

// TestEvalCacheIsExact: the cache returns what Evaluate returns, for every
// kind and after a change of kind, and a search visits the same nodes and
// plays the same move with and without it.
func TestEvalCacheIsExact(t *testing.T) {
	c := new(evalCache)
	for _, kind := range []EvalKind{EvalSimple, EvalFull, EvalPlus, EvalSimple} {
		for _, fen := range evalFENs {
			b, err := board.FromFEN(fen)
			if err != nil {
				t.Fatal(err)
			}
			want := Evaluate(b, kind)
			for range 2 { // a miss, then a hit
				if got := c.evaluate(b, kind); got != want {
					t.Errorf("kind %d, %s: cache %d, Evaluate %d", kind, fen, got, want)
				}
			}
		}
	}
	for _, fen := range evalFENs[1:6] {
		var nodes [2]int64
		var moves [2]string
		for i, ec := range []*evalCache{nil, new(evalCache)} {
			e, err := NewHard(WithHashMB(8))
			if err != nil {
				t.Fatal(err)
			}
			e.s = &searcher{ec: ec}
			m, err := e.SelectMove(context.Background(), engine.Position{StartFEN: fen}, engine.Limits{Depth: 7})
			if err != nil {
				t.Fatal(err)
			}
			nodes[i], moves[i] = m.Nodes, m.UCI
		}
		if nodes[0] != nodes[1] || moves[0] != moves[1] {
			t.Errorf("%s: without the cache %d nodes, %s; with it %d nodes, %s", fen, nodes[0], moves[0], nodes[1], moves[1])
		}
	}
}

// TestFeaturesTakePart: each of hard's newer search features changes the
// tree (it is not dead code) on a middlegame searched to depth 9, and hard
// without it still solves the mates and tactics (TestMates and TestTactics
// cover hard with all of them).
func TestFeaturesTakePart(t *testing.T) {
	const fen = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"
	search := func(without ...string) engine.Move {
		t.Helper()
		e, err := NewHard(WithHashMB(8), WithoutFeatures(without...))
		if err != nil {
			t.Fatal(err)
		}
		m, err := e.SelectMove(context.Background(), engine.Position{StartFEN: fen}, engine.Limits{Depth: 8})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	all := search()
	for _, name := range []string{"iir", "qtt", "tteval", "singular", "corrhist", "qcorr", "razor", "lmrcap", "net"} {
		t.Run(name, func(t *testing.T) {
			if m := search(name); m.Nodes == all.Nodes {
				t.Errorf("without %s: %d nodes, the same as with it", name, m.Nodes)
			}
			e, err := NewHard(WithHashMB(8), WithoutFeatures(name))
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct{ fen, want string }{
				{"r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 8", "d5f6"},
				{"r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1", "b5c7"},
			} {
				m, err := e.SelectMove(context.Background(), engine.Position{StartFEN: c.fen}, engine.Limits{Depth: 6})
				if err != nil {
					t.Fatal(err)
				}
				if m.UCI != c.want {
					t.Errorf("without %s, %s: played %s, want %s", name, c.fen, m.UCI, c.want)
				}
			}
		})
	}
}

// TestSingular: the singular test extends a hash move that alone saves the
// position, does not extend one of many equal moves, and cuts such a node
// ("multi-cut") only off the principal variation and when the reduced
// search without the hash move still reaches beta.
func TestSingular(t *testing.T) {
	cases := []struct {
		name, fen, move string
		depth           int
		score, beta     int
		pv              bool
		ext             int
		cut             bool
	}{
		// Rxa1 wins the queen; every other move loses the rook.
		{"only move", "7k/8/8/8/8/8/8/q2RK3 w - - 0 1", "d1a1", 8, 900, 2000, false, 1, false},
		// 1. e4 is one of many moves about as good.
		{"many moves", board.StartFEN, "e2e4", 8, 30, 2000, false, 0, false},
		{"many moves above beta", board.StartFEN, "e2e4", 8, 30, -200, false, 0, true},
		{"many moves above beta on the PV", board.StartFEN, "e2e4", 8, 30, -200, true, 0, false},
		// A queen up, many moves keep the win. The reduced search (depth
		// 2) has no evaluation of its own and must not prune the other
		// quiet moves as futile.
		{"many winning moves", "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2e4", 6, 900, 2000, false, 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := board.FromFEN(c.fen)
			if err != nil {
				t.Fatal(err)
			}
			m, err := b.ParseUCI(c.move)
			if err != nil {
				t.Fatal(err)
			}
			s := &searcher{b: b, feat: AllFeatures, kind: EvalPlus, tt: newTT(1), history: new([2][64][64]int32),
				ctx: context.Background(), depth: 10}
			s.tt.store(b.Hash(), m, c.score, c.depth, 1, boundLower) // the reduced search finds it too
			tte, _ := s.tt.probe(b.Hash())
			ext, cut, ok := s.singular(tte, true, m, c.depth, 1, c.beta, c.pv)
			if !ok || ext != c.ext || cut != c.cut {
				t.Errorf("ext %d, cut %v, ok %v; want ext %d, cut %v", ext, cut, ok, c.ext, c.cut)
			}
			if s.stack[1].excluded != board.NullMove {
				t.Errorf("excluded move %v left at ply 1", s.stack[1].excluded)
			}
		})
	}
}

// TestLearnCorrection: which results move the correction history, and how
// far.
func TestLearnCorrection(t *testing.T) {
	cases := []struct {
		name                 string
		best, raw, corrected int
		depth                int
		lower, upper         bool
		want                 int32 // entry after one update from zero
	}{
		{"exact above", 50, 0, 0, 7, false, false, 50 * corrGrain * 8 / corrScale},
		{"exact below, deep", -50, 0, 0, 30, false, false, -50 * corrGrain * corrMaxWeight / corrScale},
		{"cut-off above the evaluation", 50, 0, 0, 7, true, false, 50 * corrGrain * 8 / corrScale},
		{"cut-off under the evaluation", -100, 0, 0, 7, true, false, 0},
		{"fail-low under the evaluation", -50, 0, 0, 7, false, true, -50 * corrGrain * 8 / corrScale},
		{"fail-low above the evaluation", 100, 0, 0, 7, false, true, 0},
		{"mate", mateScore - 5, 0, 0, 7, false, false, 0},
		{"tactic clamped", 900, 0, 0, 15, false, false, corrLimit * corrMaxWeight / corrScale},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &searcher{b: board.New(), feat: AllFeatures, corr: new(corrHistory)}
			s.learnCorrection(c.best, c.raw, c.corrected, c.depth, c.lower, c.upper)
			if got := s.corr[board.White][pawnSlot(s.b)]; got != c.want {
				t.Errorf("entry %d, want %d", got, c.want)
			}
			if got := s.correction(); got != int(c.want/corrGrain) {
				t.Errorf("correction %d, want %d", got, c.want/corrGrain)
			}
		})
	}
}

// TestStandPat: with qcorr, quiescence stands pat on the evaluation plus
// the correction history, replaced by a table score whose bound says the
// search knows better, and never on a mate score; without it, on the bare
// evaluation.
func TestStandPat(t *testing.T) {
	b := board.New()
	ev := Evaluate(b, EvalPlus)
	const corr = 40
	cases := []struct {
		name string
		feat Features
		tte  ttEntry
		hit  bool
		want int
	}{
		{"bare evaluation without qcorr", AllFeatures &^ FeatQCorr, ttEntry{score: 500, bound: boundExact}, true, ev},
		{"corrected, no table entry", AllFeatures, ttEntry{}, false, ev + corr},
		{"exact score replaces it", AllFeatures, ttEntry{score: 500, bound: boundExact}, true, 500},
		{"lower bound above it", AllFeatures, ttEntry{score: 500, bound: boundLower}, true, 500},
		{"lower bound below it is ignored", AllFeatures, ttEntry{score: -500, bound: boundLower}, true, ev + corr},
		{"upper bound below it", AllFeatures, ttEntry{score: -500, bound: boundUpper}, true, -500},
		{"mate score is ignored", AllFeatures, ttEntry{score: mateScore - 3, bound: boundExact}, true, ev + corr},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &searcher{b: b, feat: c.feat, kind: EvalPlus, corr: new(corrHistory)}
			s.corr[board.White][pawnSlot(b)] = corr * corrGrain
			if got := s.standPat(c.tte, c.hit, 0); got != c.want {
				t.Errorf("stand pat %d, want %d (evaluation %d)", got, c.want, ev)
			}
		})
	}
}

// TestRazor: a node far below alpha near the leaves is settled by
// quiescence without its quiet moves: a queen down with nothing to
// capture, a depth-2 null-window search under alpha costs a handful of
// nodes with razoring and many more without it (futility pruning off in
// both, to see razoring alone), and both fail low.
func TestRazor(t *testing.T) {
	b, err := board.FromFEN("3qk3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	nodes := map[bool]int64{}
	for _, razor := range []bool{false, true} {
		feat := AllFeatures &^ (FeatRazor | FeatFutility) // futility alone would also stop early here
		if razor {
			feat |= FeatRazor
		}
		s := &searcher{b: b, feat: feat, kind: EvalPlus, tt: newTT(1), history: new([2][64][64]int32),
			corr: new(corrHistory), ctx: context.Background(), depth: 2}
		sc := s.negamax(2, 1, 0, 1, true)
		if sc > 0 {
			t.Errorf("razor %v: score %d, want a fail low (≤ 0)", razor, sc)
		}
		nodes[razor] = s.nodes
	}
	if nodes[true] >= nodes[false] {
		t.Errorf("razoring searched %d nodes, without it %d: want fewer", nodes[true], nodes[false])
	}
	t.Logf("nodes: %d with razoring, %d without", nodes[true], nodes[false])
}
