package ewr

import (
	"context"
	"math"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/bots/score"
)

// depthRecorder scores positions like its fakeEvaluator and records the
// depths each position was asked at.
type depthRecorder struct {
	fakeEvaluator
	mu     sync.Mutex
	depths map[string][]int
}

func (d *depthRecorder) Evaluate(ctx context.Context, reqs []EvalRequest, onResult func(int, score.Score)) error {
	d.mu.Lock()
	if d.depths == nil {
		d.depths = map[string][]int{}
	}
	for _, r := range reqs {
		d.depths[r.FEN] = append(d.depths[r.FEN], r.Depth)
	}
	d.mu.Unlock()
	return d.fakeEvaluator.Evaluate(ctx, reqs, onResult)
}

func TestFastModeDepths(t *testing.T) {
	pos := Position{Moves: []string{"e2e4", "e7e5", "g1f3"}}
	root, err := replay(pos)
	require.NoError(t, err)
	filter := map[string]bool{evalKey(root): true}
	for _, m := range root.LegalMoves() {
		b := root.Clone()
		b.Make(m)
		filter[evalKey(b)] = true
	}
	// Nc6 is Maia's only reply, so every candidate has a tree below it.
	prober := &fakeProber{table: map[string][]MoveProb{}}
	for _, m := range root.LegalMoves() {
		b := root.Clone()
		b.Make(m)
		ms := b.LegalMoves()
		prober.table[evalKey(b)] = []MoveProb{{UCI: ms[0].String(), P: 1}}
	}
	score := func(key string) score.Score { return score.Score{CP: len(key) % 7} }
	run := func(p Params) (*Result, *depthRecorder) {
		ev := &depthRecorder{fakeEvaluator: fakeEvaluator{def: score}}
		res, err := (&Calculator{Prober: prober, Evaluator: ev}).Calculate(context.Background(), pos, p, Options{})
		require.NoError(t, err)
		return res, ev
	}
	exact, exEv := run(DefaultParams())
	fast, fEv := run(DefaultParams().Fast())
	require.Less(t, FastTreeDepth, DefaultDepth)
	treeSeen := 0
	for key, ds := range fEv.depths {
		for _, d := range ds {
			if filter[key] {
				assert.Equal(t, DefaultDepth, d, "the position and its legal moves at the full depth: %s", key)
			} else {
				assert.Equal(t, FastTreeDepth, d, "tree positions at the fast depth: %s", key)
				treeSeen++
			}
		}
	}
	assert.Positive(t, treeSeen, "the trees were evaluated")
	for _, ds := range exEv.depths {
		for _, d := range ds {
			assert.Equal(t, DefaultDepth, d)
		}
	}
	// With scores that do not depend on the depth the two modes agree
	// exactly: the fast mode changes nothing but the trees' depth.
	require.Equal(t, len(exact.Moves), len(fast.Moves))
	for i := range exact.Moves {
		assert.Equal(t, exact.Moves[i].UCI, fast.Moves[i].UCI)
		assert.InDelta(t, exact.Moves[i].ExpectedWinrate, fast.Moves[i].ExpectedWinrate, 1e-12)
	}
	assert.Equal(t, FastTreeDepth, fast.Params.TreeDepth, "the result says which mode made it")
	assert.Zero(t, exact.Params.TreeDepth)
}

func TestTreeDepthValidation(t *testing.T) {
	for _, tc := range []struct {
		depth, tree int
		ok          bool
	}{
		{15, 0, true}, {15, 11, true}, {15, 15, true}, {15, 16, false}, {15, -1, false}, {20, 11, true},
	} {
		p := DefaultParams()
		p.Depth, p.TreeDepth = tc.depth, tc.tree
		err := p.Validate()
		if tc.ok {
			assert.NoError(t, err, "%+v", tc)
		} else {
			assert.ErrorContains(t, err, "tree depth", "%+v", tc)
		}
	}
	assert.Equal(t, FastTreeDepth, DefaultParams().Fast().TreeDepth)
	assert.Zero(t, DefaultParams().Fast().FullDepthMass)
	assert.True(t, DefaultParams().Fast().IsFast())
	assert.False(t, DefaultParams().IsFast())
}

// TestProvisionalRanking: while the legal moves are evaluated, a ranking
// by Stockfish's winrate comes first, flagged provisional, with only the
// moves that keep the base winrate + loss threshold.
func TestProvisionalRanking(t *testing.T) {
	ev := &fakeEvaluator{def: func(key string) score.Score { return score.Score{CP: int(hashed(key)*300) - 150} }}
	var first *Event
	var evalBefore bool
	opt := Options{Progress: func(e Event) {
		if first == nil && len(e.Ranking) > 0 {
			c := e
			first = &c
		}
		if first == nil && e.Phase == PhaseEval {
			evalBefore = true
		}
	}}
	res, err := (&Calculator{Prober: &fakeProber{}, Evaluator: ev}).Calculate(context.Background(), Position{}, DefaultParams(), opt)
	require.NoError(t, err)
	require.NotNil(t, first, "a ranking was sent")
	assert.False(t, evalBefore)
	assert.Equal(t, PhaseFilter, first.Phase)
	assert.True(t, first.Provisional)
	for i, m := range first.Ranking {
		assert.Equal(t, m.StockfishWinrate, m.ExpectedWinrate)
		assert.Zero(t, m.Coverage)
		assert.GreaterOrEqual(t, m.StockfishWinrate, res.BaseWinrate+DefaultLossThreshold-1e-9, m.SAN)
		if i > 0 {
			assert.GreaterOrEqual(t, first.Ranking[i-1].ExpectedWinrate, m.ExpectedWinrate)
		}
	}
}

// TestFullDepthMass: in the fast mode with FullDepthMass, a tree position
// at least that likely is searched at the full depth and a rarer one at
// the trees' depth. The fake's score depends on the depth asked, so every
// node's winrate tells the depth it was searched at. Rounds and the
// dispatched scheduler (2 engines) give the same result.
func TestFullDepthMass(t *testing.T) {
	p := DefaultParams()
	p.Threshold = 0.01
	p = p.Fast()
	p.FullDepthMass = 0.05
	scoreAt := func(key string, depth int) score.Score { return score.Score{CP: int(hashed(key)*500) - 200 + 10*depth} }
	calc := func(ev Evaluator) *Result {
		res, err := (&Calculator{Prober: &skewedProber{}, Evaluator: ev}).Calculate(context.Background(), Position{}, p, Options{})
		require.NoError(t, err)
		return res
	}
	rounds := calc(&fakeEvaluator{byDepth: scoreAt})
	count := map[int]int{}
	var walk func(n *Node)
	walk = func(n *Node) {
		if n.Winrate != nil && (!n.Pruned || n.PruningReason == ReasonBlunder) {
			want := FastTreeDepth
			if n.CumulativeProbability >= p.FullDepthMass {
				want = p.Depth
			}
			assert.InDelta(t, winrateFor(scoreAt(n.key, want), !n.ours), *n.Winrate, 1e-12, "%v (p %.3f) searched at depth %d", n.path, n.CumulativeProbability, want)
			count[want]++
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	for _, tr := range rounds.Trees {
		for _, c := range tr.Children { // the candidate itself is the legal-move step's
			walk(c)
		}
	}
	assert.Positive(t, count[p.Depth], "likely tree positions at depth %d", p.Depth)
	assert.Positive(t, count[FastTreeDepth], "rare tree positions at depth %d", FastTreeDepth)
	dispatched := calc(newFakeDispatcher(&fakeEvaluator{byDepth: scoreAt}, 2, 1))
	assert.Equal(t, resultJSON(t, rounds), resultJSON(t, dispatched))

	p.FullDepthMass = 1.5
	assert.ErrorContains(t, p.Validate(), "full-depth probability mass 1.5")
	p.FullDepthMass = math.NaN()
	assert.Error(t, p.Validate())
	p.FullDepthMass, p.TreeDepth = 0.3, 0
	assert.Zero(t, p.normalized().FullDepthMass, "without a lower tree depth the mass means nothing")
}

// TestProgressPerSearch: the two progress targets rest on the events, not
// the clock — a ranking (provisional) goes out once the position and one
// legal move are searched, and every search's result is an event, so the
// longest silence is the longest single search. Checked in the fast mode
// with full-depth positions, on one engine (with two, the other engine's
// searches run meanwhile).
func TestProgressPerSearch(t *testing.T) {
	p := DefaultParams().Fast()
	p.FullDepthMass = 0.05
	p.Threshold = 0.01
	// every move within the loss threshold: the first legal move counts
	ev := &fakeEvaluator{def: func(k string) score.Score { return score.Score{CP: int(hashed(k)*40) - 20} }}
	d := newFakeDispatcher(ev, 1, 1) // one engine: the searches in order
	searchesAtFirst, advances, last := -1, 0, 0
	opt := Options{Progress: func(e Event) {
		if len(e.Ranking) > 0 && searchesAtFirst < 0 {
			searchesAtFirst = ev.total()
		}
		if (e.Phase == PhaseFilter || e.Phase == PhaseEval) && e.Done > last {
			advances++
			last = e.Done
		}
	}}
	res, err := (&Calculator{Prober: &skewedProber{}, Evaluator: d}).Calculate(context.Background(), Position{}, p, opt)
	require.NoError(t, err)
	assert.Equal(t, 2, searchesAtFirst, "first ranking after the position's and one move's search")
	assert.GreaterOrEqual(t, advances, res.Stats.EngineEvals, "an event for every search")
	assert.Greater(t, res.Stats.EngineEvals, 100, "the setup searches trees")
}

// TestDecisionMargin: in the fast mode an analysing player's move whose
// tree-depth winrate lies within the decision margin of the threshold is
// searched again at the full depth, and that search decides whether its
// path goes on; the others keep their tree-depth winrate. Rounds and
// dispatch agree.
func TestDecisionMargin(t *testing.T) {
	p := DefaultParams()
	p.Threshold = 0.01
	p = p.Fast()
	require.Zero(t, p.DecisionMargin, "the fast mode has no margin by default")
	// Wide, so that the fake scores (a spread of 500 cp) give both kinds.
	p.DecisionMargin, p.LossThreshold = 0.1, -0.5
	// The depth moves a score by 60 cp: enough to cross the threshold.
	scoreAt := func(key string, depth int) score.Score { return score.Score{CP: int(hashed(key)*500) - 200 + 20*depth} }
	calc := func(ev Evaluator) *Result {
		res, err := (&Calculator{Prober: &skewedProber{}, Evaluator: ev}).Calculate(context.Background(), Position{}, p, Options{})
		require.NoError(t, err)
		return res
	}
	rounds := calc(&fakeEvaluator{byDepth: scoreAt})
	threshold := rounds.BaseWinrate + p.LossThreshold
	count := map[string]int{}
	var walk func(n *Node)
	walk = func(n *Node) {
		if n.ours && n.Winrate != nil && (!n.Pruned || n.PruningReason == ReasonBlunder) {
			tree := winrateFor(scoreAt(n.key, FastTreeDepth), !n.ours)
			want, kind := tree, "kept"
			if math.Abs(tree-threshold) < p.DecisionMargin {
				want, kind = winrateFor(scoreAt(n.key, p.Depth), !n.ours), "rechecked"
				if (tree < threshold) != (want < threshold) {
					kind = "decision changed"
				}
			}
			assert.InDelta(t, want, *n.Winrate, 1e-12, "%v (%s)", n.path, kind)
			assert.Equal(t, want < threshold, n.Pruned, "%v pruned by its final winrate", n.path)
			count[kind]++
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	for _, tr := range rounds.Trees {
		for _, c := range tr.Children {
			walk(c)
		}
	}
	t.Logf("%v %d trees", count, len(rounds.Trees))
	assert.Positive(t, count["kept"], "moves far from the threshold keep the tree depth")
	assert.Positive(t, count["rechecked"]+count["decision changed"], "moves near it are searched again")
	assert.Positive(t, count["decision changed"], "a second search that changes the decision")
	assert.Equal(t, count["rechecked"]+count["decision changed"], rounds.Stats.Rechecks)
	dispatched := calc(newFakeDispatcher(&fakeEvaluator{byDepth: scoreAt}, 2, 1))
	assert.Equal(t, resultJSON(t, rounds), resultJSON(t, dispatched))

	p.DecisionMargin = -0.1
	assert.ErrorContains(t, p.Validate(), "decision margin -0.1")
	p.DecisionMargin = math.NaN()
	assert.Error(t, p.Validate())
	p.DecisionMargin, p.TreeDepth = 0.05, 0
	assert.Zero(t, p.normalized().DecisionMargin, "without a lower tree depth there is nothing to search again")
}
