package ewr

import (
	"fmt"
	"math"

	"github.com/outpostchess/outpost/bots/score"
)

// The settle rule (Params.Volatility): every position of the trees is
// searched towards Depth, and the search ends at TreeDepth or the depth
// after it when the score there has settled for the position's weight.
// Stockfish reports each iteration's score at no cost, so the rule costs
// nothing but the iterations it skips. Its constants were chosen on the
// per-position iteration scores of both benchmark sets
// (docs/expected-winrate.md, issue #26):
const (
	// VolatilityLookback is how many iterations before a depth the rule
	// compares that depth's winrate with: its spread is the largest change
	// of the winrate over them (two: a third added nodes and one more
	// move over 1 pp on the second set).
	VolatilityLookback = 2
	// SettleFloor is added to the spread: iterations that happen to agree
	// still move by a point or two by depth 15 (the root-mean-square change
	// from depth 12 to 15 is 1.4–2.0 points), so a likely position is never
	// settled on agreement alone. Without it a move of the first set
	// missed by 1.01 pp (caro-kann Ke2: its reply Nf6 at probability 0.35
	// agreed within 0.3 points over depths 10–12 and fell by 2.9 by 15).
	SettleFloor = 0.01
	// settleExtra is how many iterations after TreeDepth may still settle
	// a position: one (depth 13 when TreeDepth is 12), which saves 6 % of
	// the nodes of the benchmark at the same error.
	settleExtra = 1
)

// spread is the largest change of the analysing player's winrate from the
// VolatilityLookback iterations before depth d to d, and d's winrate; ok
// is false when one of those iterations was not reported.
func spread(byDepth map[int]score.Score, d int, ours bool) (sp, w float64, ok bool) {
	s, ok := byDepth[d]
	if !ok {
		return 0, 0, false
	}
	w = winrateFor(s, !ours)
	for k := d - VolatilityLookback; k < d; k++ {
		ps, ok := byDepth[k]
		if !ok {
			return 0, 0, false // an iteration not reported: nothing to judge by
		}
		sp = max(sp, math.Abs(winrateFor(ps, !ours)-w))
	}
	return sp, w, true
}

// settled is the settle rule for one tree position at iteration d: cum its
// cumulative probability, ours whether the analysing player made the move
// into it (its winrate then decides the path at threshold), byDepth its
// iterations' scores (side to move's view). The depth-d score stands when
// cum × (spread + SettleFloor) ≤ Volatility and, for an analysing player's
// move, its winrate lies at least DecisionMargin from threshold (the path's
// fate is not in doubt).
func (p Params) settled(d int, byDepth map[int]score.Score, cum float64, ours bool, threshold float64) bool {
	if d < p.treeDepth() || d > p.treeDepth()+settleExtra {
		return false
	}
	sp, w, ok := spread(byDepth, d, ours)
	if !ok {
		return false
	}
	if ours && math.Abs(w-threshold) < p.DecisionMargin {
		return false
	}
	return cum*(sp+SettleFloor) <= p.Volatility+eps
}

// dropped is the settle rule for a legal move in the filter step: its
// search ends at TreeDepth when its winrate there, raised by its spread,
// still lies DecisionMargin below threshold — the move fails the loss
// filter whatever its depth-Depth score (no move of either benchmark set
// so dropped would have passed at depth 15). A move that may pass keeps its
// full-depth score: it is a candidate, whose score the result shows.
func (p Params) dropped(d int, byDepth map[int]score.Score, threshold float64) bool {
	if d != p.treeDepth() {
		return false
	}
	sp, w, ok := spread(byDepth, d, true)
	return ok && w+sp < threshold-p.DecisionMargin
}

// adaptive reports whether n's search in phase B follows the settle rule:
// a search towards Depth that may end at TreeDepth.
// It needs an evaluator whose engines clear their hash before every
// search: elsewhere a search ended early would leave a hash that depends on
// when it was stopped, and the position is simply searched at Depth.
func (r *run) adaptive(n *Node) bool {
	return r.p.Volatility > 0 && r.depth != r.p.Depth && r.depthOf(n) == r.p.Depth && !n.full && !r.massFull(n) && clearsEach(r.c.Evaluator)
}

// request is n's evaluation request in phase B: at depthOf(n), or under
// the settle rule towards Depth with its Settled check.
func (r *run) request(n *Node, threshold float64) EvalRequest {
	q := r.evalRequest(n, r.depthOf(n))
	if r.adaptive(n) {
		cum, ours, p := n.CumulativeProbability, n.ours, r.p
		q.Shallow = r.p.treeDepth()
		q.Settled = func(d int, byDepth map[int]score.Score) bool { return p.settled(d, byDepth, cum, ours, threshold) }
		q.key = fmt.Sprintf("%s settle %v %v", evalCacheKey(q.FEN, q.Depth), cum, ours)
	}
	return q
}

// filterRequest is the request of a legal move's evaluation in the filter
// step, once the base winrate is known: under the settle rule it may end at
// TreeDepth when the move is clearly dropped (see Params.dropped).
func (r *run) filterRequest(q EvalRequest, threshold float64) EvalRequest {
	if r.p.Volatility <= 0 || !r.p.IsFast() || q.Depth != r.p.Depth || !clearsEach(r.c.Evaluator) {
		return q
	}
	p := r.p
	q.Shallow = p.treeDepth()
	q.Settled = func(d int, byDepth map[int]score.Score) bool { return p.dropped(d, byDepth, threshold) }
	return q
}

// requestKey is the key of q's search among a calculation's: its
// evaluation's key, or under the settle rule that key with the rule's
// inputs (probability and side), on which the depth it ends at depends.
// Two nodes share a search only when they would make the same one, so which
// of them asked first — which depends on the order results arrive in —
// changes nothing.
func requestKey(q EvalRequest) string {
	if q.key != "" {
		return q.key
	}
	return evalCacheKey(q.FEN, q.Depth)
}
