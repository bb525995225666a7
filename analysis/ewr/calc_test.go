package ewr

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/score"
)

const start = board.StartFEN

// scenario is a hand-built tree from the standard start, White analysing:
//
//	1.e4 (-0.20 for Black)   Maia: 1...e5 60%, 1...c5 30% (others 5% each)
//	  1...e5: 2.Nf3 50% (fine), 2.Qh5 40% (our blunder: +4.00 for Black), 2.a3 10%
//	    2.Nf3: 2...Nc6 50% (leaf, +0.30), 2...Nf6 30% (below 10%)
//	    2.Qh5: 2...Nc6 90% (expanded, then cut by the blunder)
//	  1...c5: leaf (+0.40 for White)
//	1.d4 (-0.10 for Black)   Maia: 1...e5 50% (their blunder, +3.00), 1...d5 30%
//	  1...e5: 2.dxe5 80% (fine) → 2...Nc6 50% (leaf, +2.50)
//	  1...d5: leaf (+0.30)
//
// Every other first move is +3.00 for Black and so filtered out.
func scenario() (*fakeProber, *fakeEvaluator) {
	k := func(m ...string) string { return keyAfter(start, m...) }
	pr := &fakeProber{table: map[string][]MoveProb{
		k("e2e4"):                         {{"e7e5", .6}, {"c7c5", .3}, {"a7a6", .05}, {"h7h6", .05}},
		k("e2e4", "e7e5"):                 {{"g1f3", .5}, {"d1h5", .4}, {"a2a3", .1}},
		k("e2e4", "e7e5", "g1f3"):         {{"b8c6", .5}, {"g8f6", .3}, {"a7a6", .2}},
		k("e2e4", "e7e5", "d1h5"):         {{"b8c6", .9}, {"a7a6", .1}},
		k("d2d4"):                         {{"e7e5", .5}, {"d7d5", .3}, {"a7a6", .08}, {"h7h6", .07}, {"b7b6", .05}},
		k("d2d4", "e7e5"):                 {{"d4e5", .8}, {"a2a3", .15}, {"h2h3", .05}},
		k("d2d4", "e7e5", "d4e5"):         {{"b8c6", .5}, {"a7a6", .5 * .19}},
		k("e2e4", "e7e5", "g1f3", "b8c6"): nil, // no move reaches the threshold
	}}
	ev := &fakeEvaluator{
		table: map[string]score.Score{
			k():                               {CP: 0},
			k("e2e4"):                         {CP: -20},
			k("d2d4"):                         {CP: -10},
			k("e2e4", "e7e5", "g1f3"):         {CP: -25},
			k("e2e4", "e7e5", "d1h5"):         {CP: 400},
			k("e2e4", "e7e5", "g1f3", "b8c6"): {CP: 30},
			k("e2e4", "c7c5"):                 {CP: 40},
			k("d2d4", "e7e5", "d4e5"):         {CP: -300},
			k("d2d4", "e7e5", "d4e5", "b8c6"): {CP: 250},
			k("d2d4", "d7d5"):                 {CP: 30},
		},
		def: func(key string) score.Score {
			if sideToMove(key) == board.Black {
				return score.Score{CP: 300}
			}
			return score.Score{CP: 30}
		},
	}
	return pr, ev
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func find(n *Node, sans ...string) *Node {
	for _, s := range sans {
		var next *Node
		for _, c := range n.Children {
			if c.SAN == s {
				next = c
			}
		}
		if next == nil {
			return nil
		}
		n = next
	}
	return n
}

func TestScenario(t *testing.T) {
	pr, ev := scenario()
	c := &Calculator{Prober: pr, Evaluator: ev}
	p := DefaultParams()
	p.Rating, p.OpponentRating = 1100, 1900
	var events []Event
	res, err := c.Calculate(context.Background(), Position{}, p, Options{Progress: func(e Event) { events = append(events, e) }})
	if err != nil {
		t.Fatal(err)
	}
	if !near(res.BaseWinrate, 0.5) {
		t.Errorf("base %v, want 0.5", res.BaseWinrate)
	}
	if len(res.Moves) != 2 || res.Moves[0].SAN != "d4" || res.Moves[1].SAN != "e4" {
		t.Fatalf("ranking %+v, want d4 then e4", res.Moves)
	}
	// e4: paths Nc6 (.15), Qh5 (.24, cut by our blunder), c5 (.3).
	e4, _ := res.Move("e4")
	wantE4 := .15*wr(30) + .24*wr(-400) + .3*wr(40) + (1-.69)*0.5
	if !near(e4.ExpectedWinrate, wantE4) || !near(e4.Coverage, .69) || e4.Branches != 3 || !near(e4.TreeDepth, 3) {
		t.Errorf("e4 = %+v, want expected %v coverage .69, 3 branches, depth 3", e4, wantE4)
	}
	if e4.ConfidenceLabel != "Medium" || !near(e4.StockfishWinrate, wr(20)) {
		t.Errorf("e4 confidence %s stockfish %v", e4.ConfidenceLabel, e4.StockfishWinrate)
	}
	// d4: their blunder 1...e5 is followed: dxe5 Nc6 (.2), d5 (.3).
	d4, _ := res.Move("d4")
	wantD4 := .2*wr(250) + .3*wr(30) + .5*0.5
	if !near(d4.ExpectedWinrate, wantD4) || !near(d4.Coverage, .5) || d4.ConfidenceLabel != "Low" || !near(d4.TreeDepth, 3) {
		t.Errorf("d4 = %+v, want expected %v coverage .5 Low depth 3", d4, wantD4)
	}
	tree := res.Trees["e4"]
	qh5 := find(tree, "e5", "Qh5+")
	if qh5 == nil {
		qh5 = find(tree, "e5", "Qh5")
	}
	if qh5 == nil || !qh5.Pruned || qh5.PruningReason != ReasonBlunder || len(qh5.Children) != 0 || !near(*qh5.Winrate, wr(-400)) {
		t.Fatalf("Qh5 node %+v: want pruned by our blunder with its winrate", qh5)
	}
	if n := ev.count[keyAfter(start, "e2e4", "e7e5", "d1h5", "b8c6")]; n != 0 {
		t.Errorf("a position after our blunder was evaluated %d times", n)
	}
	if find(tree, "e5", "a3") != nil || find(tree, "e5", "Nf3", "Nf6") != nil {
		t.Error("moves below the threshold were kept")
	}
	theirs := find(res.Trees["d4"], "e5")
	if theirs == nil || theirs.Pruned || len(theirs.Children) != 1 || theirs.Winrate != nil {
		t.Errorf("their blunder node %+v: want followed, unevaluated", theirs)
	}
	for k, n := range ev.count {
		if n != 1 {
			t.Errorf("%s evaluated %d times", k, n)
		}
	}
	// Ratings: the side to move's rating first.
	for _, r := range pr.reqs {
		b, _ := replay(Position{Moves: r.Moves})
		want := [2]int{1100, 1900}
		if b.SideToMove() == board.Black {
			want = [2]int{1900, 1100}
		}
		if [2]int{r.Rating, r.OppRating} != want {
			t.Fatalf("request after %v: ratings %d/%d, want %v", r.Moves, r.Rating, r.OppRating, want)
		}
	}
	// Phases arrive in order, ending with the final ranking.
	last := PhaseFilter
	seen := map[Phase]bool{}
	for _, e := range events {
		if e.Phase < last {
			t.Fatalf("phase %v after %v", e.Phase, last)
		}
		last = e.Phase
		seen[e.Phase] = true
	}
	if len(seen) != 4 || len(events[len(events)-1].Ranking) != 2 {
		t.Errorf("phases seen %v, last event %+v", seen, events[len(events)-1])
	}
	// The trees arrive once Maia is done, before any leaf is evaluated,
	// and again with the final ranking; a snapshot is a copy.
	var first, final map[string]*Node
	for _, e := range events {
		if e.Trees != nil && first == nil {
			if e.Phase != PhaseTrees {
				t.Fatalf("first trees in phase %v, want maia", e.Phase)
			}
			first = e.Trees
		}
		if e.Phase == PhaseDone {
			final = e.Trees
		}
	}
	if first == nil || final == nil || len(first) != 2 || len(final) != 2 {
		t.Fatalf("tree snapshots: first %v final %v", first, final)
	}
	if n := find(first["e4"], "e5", "Nf3", "Nc6"); n == nil || n.Winrate != nil {
		t.Errorf("first snapshot leaf %+v: want present and unevaluated", n)
	}
	if n := find(final["e4"], "e5", "Nf3", "Nc6"); n == nil || n.Winrate == nil || final["e4"] == res.Trees["e4"] {
		t.Errorf("final snapshot leaf %+v: want evaluated, in a copy", n)
	}
	if res.Stats.Candidates != 2 || res.Stats.LegalMoves != 20 || res.Partial || len(res.Warnings) != 0 {
		t.Errorf("stats %+v partial %v warnings %v", res.Stats, res.Partial, res.Warnings)
	}
	for _, m := range res.Moves {
		if m.Partial || m.Confidence <= 0 {
			t.Errorf("move %+v of a complete result: partial or confidence 0", m)
		}
	}
}

func TestNormalisation(t *testing.T) {
	for _, c := range []struct{ sumPW, sumP, base, want, cov float64 }{
		{0, 0, .6, .6, 0},          // nothing covered: the base winrate
		{.7, 1, .2, .7, 1},         // fully covered: the weighted mean
		{.25, .5, .5, .5, .5},      // half at .5, half unknown at .5
		{.1, .5, .8, .5, .5},       // .5·.2 + .5·.8
		{.3, 1 + 1e-12, .4, .3, 1}, // rounding above 1 is clamped
	} {
		got, cov := expected(c.sumPW, c.sumP, c.base)
		if !near(got, c.want) || !near(cov, c.cov) {
			t.Errorf("expected(%v, %v, %v) = %v, %v; want %v, %v", c.sumPW, c.sumP, c.base, got, cov, c.want, c.cov)
		}
	}
}

func TestConfidenceBands(t *testing.T) {
	for cov, want := range map[float64]string{1: "High", .81: "High", .8: "Medium", .7: "Medium", .6: "Medium", .59: "Low", 0: "Low"} {
		if got := ConfidenceLabel(cov); got != want {
			t.Errorf("ConfidenceLabel(%v) = %s, want %s", cov, got, want)
		}
	}
}

func TestWinrateMapping(t *testing.T) {
	for _, c := range []struct {
		s    score.Score
		want float64
	}{
		{score.Score{CP: 0}, .5},
		{score.Score{CP: 100}, .5 + .5*(2/(1+math.Exp(-0.368208))-1)},
		{score.Score{CP: -100}, .5 - .5*(2/(1+math.Exp(-0.368208))-1)},
		{score.Score{CP: 5000}, .5 + .5*(2/(1+math.Exp(-3.68208))-1)}, // capped at 1000
		{score.Score{Mate: 3}, 1},
		{score.Score{Mate: -1}, 0},
	} {
		if got := c.s.Winrate(); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%v → %v, want %v", c.s, got, c.want)
		}
	}
	if got := winrateFor(score.Score{CP: 100}, false); math.Abs(got-wr(-100)) > 1e-12 {
		t.Errorf("other side's view %v, want %v", got, wr(-100))
	}
}

func TestThresholdCutoff(t *testing.T) {
	for _, c := range []struct {
		threshold float64
		a3        bool
	}{{0.1, false}, {0.01, true}} {
		pr, ev := scenario()
		p := DefaultParams()
		p.Threshold = c.threshold
		res, err := (&Calculator{Prober: pr, Evaluator: ev}).Calculate(context.Background(), Position{}, p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := find(res.Trees["e4"], "e5", "a3") != nil; got != c.a3 {
			t.Errorf("threshold %v: 2.a3 (cumulative 6%%) in tree = %v, want %v", c.threshold, got, c.a3)
		}
	}
}

// fixed builds an evaluator with a root score and a default by side.
func fixed(root string, rootScore score.Score, table map[string]score.Score, black, white score.Score) *fakeEvaluator {
	t := map[string]score.Score{root: rootScore}
	for k, v := range table {
		t[k] = v
	}
	return &fakeEvaluator{table: t, def: func(key string) score.Score {
		if sideToMove(key) == board.Black {
			return black
		}
		return white
	}}
}

func TestMateEndings(t *testing.T) {
	t.Run("our mate", func(t *testing.T) {
		moves := []string{"f2f3", "e7e5", "g2g4"} // Black to move mates
		ev := fixed(keyAfter(start, moves...), score.Score{Mate: 1}, nil, score.Score{}, score.Score{CP: 0})
		res, err := (&Calculator{Prober: &fakeProber{}, Evaluator: ev}).Calculate(context.Background(), Position{Moves: moves}, DefaultParams(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Moves) != 1 || res.Moves[0].SAN != "Qh4#" || res.Moves[0].ExpectedWinrate != 1 || res.Moves[0].Coverage != 1 {
			t.Fatalf("moves %+v, want only Qh4# at 100%%", res.Moves)
		}
		if n := res.Trees["Qh4#"]; !n.Pruned || n.PruningReason != ReasonCheckmate {
			t.Errorf("mate node %+v", n)
		}
		if _, asked := ev.count[keyAfter(start, "f2f3", "e7e5", "g2g4", "d8h4")]; asked {
			t.Error("a checkmate was sent to the engine")
		}
	})
	t.Run("their mate", func(t *testing.T) {
		moves := []string{"f2f3", "e7e5"}
		g4 := keyAfter(start, "f2f3", "e7e5", "g2g4")
		ev := fixed(keyAfter(start, moves...), score.Score{}, map[string]score.Score{g4: {}}, score.Score{CP: 300}, score.Score{})
		pr := &fakeProber{table: map[string][]MoveProb{g4: {{"d8h4", .8}, {"a7a6", .05}}}}
		res, err := (&Calculator{Prober: pr, Evaluator: ev}).Calculate(context.Background(), Position{Moves: moves}, DefaultParams(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		m, ok := res.Move("g4")
		if !ok || !near(m.ExpectedWinrate, .8*0+.2*.5) || !near(m.Coverage, .8) {
			t.Fatalf("g4 %+v, want .1 with coverage .8", m)
		}
		n := find(res.Trees["g4"], "Qh4#")
		if n == nil || n.PruningReason != ReasonCheckmate || *n.Winrate != 0 {
			t.Errorf("their mate node %+v", n)
		}
	})
}

func TestRepetitionEnding(t *testing.T) {
	moves := []string{"g1f3", "g8f6"}
	ng1 := keyAfter(start, "g1f3", "g8f6", "f3g1")
	ev := fixed(keyAfter(start, moves...), score.Score{}, map[string]score.Score{ng1: {}}, score.Score{CP: 300}, score.Score{})
	pr := &fakeProber{table: map[string][]MoveProb{ng1: {{"f6g8", .9}}}}
	res, err := (&Calculator{Prober: pr, Evaluator: ev}).Calculate(context.Background(), Position{Moves: moves}, DefaultParams(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := find(res.Trees["Ng1"], "Ng8")
	if n == nil || n.PruningReason != ReasonRepetition || *n.Winrate != .5 {
		t.Fatalf("repetition node %+v", n)
	}
	if m, _ := res.Move("Ng1"); !near(m.ExpectedWinrate, .9*.5+.1*.5) || !near(m.Coverage, .9) {
		t.Errorf("Ng1 %+v", m)
	}
}

func TestFiftyMoveEnding(t *testing.T) {
	fen := "8/8/8/4k3/8/8/8/R3K3 w - - 98 80"
	ev := fixed(keyAfter(fen), score.Score{}, nil, score.Score{}, score.Score{})
	res, err := (&Calculator{Prober: &fakeProber{}, Evaluator: ev}).Calculate(context.Background(), Position{StartFEN: fen}, DefaultParams(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Moves) == 0 {
		t.Fatal("no candidates")
	}
	for _, m := range res.Moves {
		root := res.Trees[m.SAN]
		if len(root.Children) == 0 {
			t.Fatalf("%s: no replies", m.SAN)
		}
		for _, c := range root.Children {
			if c.PruningReason != ReasonFiftyMoves || *c.Winrate != .5 {
				t.Fatalf("%s %s: %+v, want the fifty-move rule", m.SAN, c.SAN, c)
			}
		}
		if !near(m.ExpectedWinrate, .5) || !near(m.Coverage, 1) {
			t.Errorf("%s %+v", m.SAN, m)
		}
	}
	if got := ev.total(); got != 1+res.Stats.LegalMoves {
		t.Errorf("%d evaluations, want only the position and its moves (%d)", got, 1+res.Stats.LegalMoves)
	}
}

func TestValidation(t *testing.T) {
	ok := DefaultParams()
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		mod  func(*Params)
		want string
	}{
		{"threshold", func(p *Params) { p.Threshold = 0.05 }, "probability threshold"},
		{"threshold 0", func(p *Params) { p.Threshold = 0 }, "probability threshold"},
		{"depth", func(p *Params) { p.Depth = 16 }, "depth 16"},
		{"loss positive", func(p *Params) { p.LossThreshold = 0.1 }, "loss threshold"},
		{"loss nan", func(p *Params) { p.LossThreshold = math.NaN() }, "loss threshold"},
		{"rating low", func(p *Params) { p.Rating = 1000 }, "Maia rating 1000"},
		{"rating high", func(p *Params) { p.Rating = 2000 }, "Maia rating 2000"},
		{"opponent", func(p *Params) { p.OpponentRating = 900 }, "opponent Maia rating 900"},
		{"nodes", func(p *Params) { p.MaxNodes = -1 }, "node limit"},
	} {
		p := ok
		c.mod(&p)
		err := p.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error naming %q", c.name, err, c.want)
		}
		_, cerr := (&Calculator{Prober: &fakeProber{}, Evaluator: &fakeEvaluator{}}).Calculate(context.Background(), Position{}, p, Options{})
		if cerr == nil {
			t.Errorf("%s: Calculate accepted invalid parameters", c.name)
		}
	}
	for _, th := range []float64{0.1, 0.01, 0.001} {
		p := ok
		p.Threshold = th
		if err := p.Validate(); err != nil {
			t.Errorf("threshold %v: %v", th, err)
		}
	}
}

func TestBadPositions(t *testing.T) {
	c := &Calculator{Prober: &fakeProber{}, Evaluator: &fakeEvaluator{def: func(string) score.Score { return score.Score{} }}}
	for _, pos := range []Position{
		{StartFEN: "not a fen"},
		{Moves: []string{"e2e5"}},
		{Moves: []string{"e2e4", "zz"}},
		{StartFEN: "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"},      // stalemate
		{Moves: []string{"f2f3", "e7e5", "g2g4", "d8h4"}}, // checkmate
	} {
		if _, err := c.Calculate(context.Background(), pos, DefaultParams(), Options{}); err == nil {
			t.Errorf("%+v: no error", pos)
		}
	}
	if _, err := c.Calculate(context.Background(), Position{}, DefaultParams(), Options{Include: []string{"e2e5"}}); err == nil {
		t.Error("illegal included move accepted")
	}
}

func TestCaching(t *testing.T) {
	pr, ev := scenario()
	cache := &memCache{}
	c := &Calculator{Prober: pr, Evaluator: ev, Cache: cache}
	first, err := c.Calculate(context.Background(), Position{}, DefaultParams(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	evals := ev.total()
	if first.Cached || first.Stats.EngineEvals != evals || evals == 0 {
		t.Fatalf("first run cached=%v stats %+v, evaluator saw %d", first.Cached, first.Stats, evals)
	}
	second, err := c.Calculate(context.Background(), Position{}, DefaultParams(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !second.Cached || ev.total() != evals || second.Stats.CacheHitRate() != 1 {
		t.Fatalf("second run cached=%v, evaluator %d → %d", second.Cached, evals, ev.total())
	}
	if len(second.Moves) != len(first.Moves) || second.Moves[0] != first.Moves[0] || second.Trees["e4"] == nil {
		t.Errorf("cached result differs: %+v vs %+v", second.Moves, first.Moves)
	}
	third, err := c.Calculate(context.Background(), Position{}, DefaultParams(), Options{SkipResultCache: true})
	if err != nil {
		t.Fatal(err)
	}
	if third.Cached || third.Stats.EngineEvals != 0 || third.Stats.EvalCacheHits != evals || ev.total() != evals {
		t.Fatalf("evaluation cache: stats %+v, evaluator %d → %d", third.Stats, evals, ev.total())
	}
	for i := range first.Moves {
		if !near(first.Moves[i].ExpectedWinrate, third.Moves[i].ExpectedWinrate) {
			t.Errorf("from cached evaluations %+v, fresh %+v", third.Moves[i], first.Moves[i])
		}
	}
	// Other parameters: a new result, sharing the evaluations.
	p := DefaultParams()
	p.Rating = 1900
	fourth, err := c.Calculate(context.Background(), Position{}, p, Options{})
	if err != nil || fourth.Cached || fourth.Stats.EngineEvals != 0 {
		t.Fatalf("new parameters: %v cached=%v stats %+v", err, fourth != nil && fourth.Cached, fourth.Stats)
	}
}

func TestTranspositionsEvaluatedOnce(t *testing.T) {
	k := func(m ...string) string { return keyAfter(start, m...) }
	pr := &fakeProber{table: map[string][]MoveProb{
		k("g1f3"):         {{"g8f6", .9}},
		k("d2d4"):         {{"g8f6", .9}},
		k("g1f3", "g8f6"): {{"d2d4", .9}},
		k("d2d4", "g8f6"): {{"g1f3", .9}},
	}}
	ev := fixed(k(), score.Score{}, map[string]score.Score{k("g1f3"): {CP: -20}, k("d2d4"): {CP: -20}}, score.Score{CP: 300}, score.Score{})
	res, err := (&Calculator{Prober: pr, Evaluator: ev}).Calculate(context.Background(), Position{}, DefaultParams(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	same := k("g1f3", "g8f6", "d2d4")
	if ev.count[same] != 1 || res.Stats.EvalReuse == 0 {
		t.Fatalf("transposed position evaluated %d times (reuse %d)", ev.count[same], res.Stats.EvalReuse)
	}
	a, b := find(res.Trees["Nf3"], "Nf6", "d4"), find(res.Trees["d4"], "Nf6", "Nf3")
	if a == nil || b == nil || a.Winrate == nil || b.Winrate == nil || *a.Winrate != *b.Winrate {
		t.Fatalf("transposed nodes %+v %+v", a, b)
	}
}

func TestTimeLimitPartial(t *testing.T) {
	pr, ev := scenario()
	slow := keyAfter(start, "e2e4", "c7c5")
	inner := ev.def
	ev.def = nil
	ev.table[slow] = score.Score{CP: 40}
	c := &Calculator{Prober: pr, Evaluator: &blockingEvaluator{fakeEvaluator: ev, block: slow, fallback: inner}}
	res, err := c.Calculate(context.Background(), Position{}, DefaultParams(), Options{TimeLimit: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Partial || len(res.Warnings) == 0 || !strings.Contains(res.Warnings[0], "time limit") {
		t.Fatalf("partial=%v warnings %v", res.Partial, res.Warnings)
	}
	e4, ok := res.Move("e4")
	if !ok || e4.Coverage >= .69 || e4.ExpectedWinrate < 0 || e4.ExpectedWinrate > 1 {
		t.Errorf("e4 %+v: want a partial coverage below the full .69", e4)
	}
	if !e4.Partial {
		t.Errorf("e4 %+v: its tree has an unevaluated path, not marked partial", e4)
	}
	if n := find(res.Trees["e4"], "c5"); n == nil || n.Winrate != nil {
		t.Errorf("unevaluated c5 node %+v", n)
	}
	// A cancelled caller gets an error, not a partial result.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Calculate(ctx, Position{}, DefaultParams(), Options{SkipResultCache: true}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// blockingEvaluator blocks on one position until the context ends.
type blockingEvaluator struct {
	*fakeEvaluator
	block    string
	fallback func(string) score.Score
}

func (b *blockingEvaluator) Evaluate(ctx context.Context, reqs []EvalRequest, on func(int, score.Score)) error {
	for i, r := range reqs {
		if r.FEN == b.block {
			<-ctx.Done()
			return ctx.Err()
		}
		s, ok := b.table[r.FEN]
		if !ok {
			s = b.fallback(r.FEN)
		}
		on(i, s)
	}
	return nil
}

func TestEngineFailure(t *testing.T) {
	pr, ev := scenario()
	ev.failOn = keyAfter(start, "e2e4", "c7c5")
	res, err := (&Calculator{Prober: pr, Evaluator: ev}).Calculate(context.Background(), Position{}, DefaultParams(), Options{})
	if err == nil || res != nil || !strings.Contains(err.Error(), "engine crashed") {
		t.Fatalf("res %v err %v: want the engine's error and no result", res, err)
	}
	if _, err := (&Calculator{}).Calculate(context.Background(), Position{}, DefaultParams(), Options{}); err == nil {
		t.Error("calculator without engines accepted")
	}
}

func TestNodeLimit(t *testing.T) {
	pr, ev := scenario()
	p := DefaultParams()
	p.MaxNodes = 3
	res, err := (&Calculator{Prober: pr, Evaluator: ev}).Calculate(context.Background(), Position{}, p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stats.Nodes > 3 || len(res.Warnings) == 0 || !strings.Contains(res.Warnings[0], "node limit") {
		t.Fatalf("nodes %d warnings %v", res.Stats.Nodes, res.Warnings)
	}
	limited := 0
	for _, tr := range res.Trees {
		var walk func(n *Node)
		walk = func(n *Node) {
			if n.PruningReason == ReasonNodeLimit {
				limited++
				if n.Winrate == nil {
					t.Errorf("%s: node-limited leaf not evaluated", n.SAN)
				}
			}
			for _, c := range n.Children {
				walk(c)
			}
		}
		walk(tr)
	}
	if limited == 0 {
		t.Error("no node marked node_limit")
	}
}

func TestIncludeFilteredMove(t *testing.T) {
	pr, ev := scenario()
	res, err := (&Calculator{Prober: pr, Evaluator: ev}).Calculate(context.Background(), Position{}, DefaultParams(), Options{Include: []string{"f2f3"}})
	if err != nil {
		t.Fatal(err)
	}
	m, ok := res.Move("f3")
	if !ok || !m.Filtered || !near(m.ExpectedWinrate, wr(-300)) || m.Coverage != 1 {
		t.Fatalf("included blunder %+v (ok %v): want its own winrate, ended at once", m, ok)
	}
	if n := res.Trees["f3"]; n.PruningReason != ReasonBlunder || len(n.Children) != 0 {
		t.Errorf("f3 tree %+v", n)
	}
}

func TestBenchPositionsValid(t *testing.T) {
	for _, bp := range BenchPositions {
		b, err := replay(bp.Pos)
		if err != nil {
			t.Fatalf("%s: %v", bp.Name, err)
		}
		if !b.HasLegalMoves() {
			t.Errorf("%s: game over", bp.Name)
		}
	}
	r := BenchRun{Times: []time.Duration{3, 1, 2, 10}, EngineEvals: 30, CacheHits: 60, ResultHits: 10}
	if r.Median() != 2 || !near(r.HitRate(), 70.0/100) || r.Total() != 16 {
		t.Errorf("median %v hit rate %v total %v", r.Median(), r.HitRate(), r.Total())
	}
}

// failingCache fails every call.
type failingCache struct{}

func (failingCache) CacheGet(context.Context, string, string) ([]byte, bool, error) {
	return nil, false, errors.New("disk on fire")
}

func (failingCache) CachePut(context.Context, string, string, []byte) error {
	return errors.New("disk on fire")
}

func TestFailingCacheIsAMiss(t *testing.T) {
	pr, ev := scenario()
	res, err := (&Calculator{Prober: pr, Evaluator: ev, Cache: failingCache{}}).Calculate(context.Background(), Position{}, DefaultParams(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Moves) != 2 || len(res.Warnings) == 0 || !strings.Contains(strings.Join(res.Warnings, "|"), "disk on fire") {
		t.Errorf("moves %d warnings %v", len(res.Moves), res.Warnings)
	}
}
