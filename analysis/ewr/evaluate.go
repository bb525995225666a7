package ewr

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/score"
)

// evaluateTrees is phase B: it evaluates the leaves and the analysing
// player's moves round by round, top down, so that a pruned path's
// continuation is never evaluated.
func (r *run) evaluateTrees(ctx context.Context) error {
	threshold := r.base + r.p.LossThreshold
	for round := 1; ; round++ {
		var need []*Node
		for _, t := range r.trees {
			collect(t, &need)
		}
		if len(need) == 0 {
			return nil
		}
		r.evalTotal = r.evalDone + len(need)
		// the first evaluation of a round always sends a fresh ranking,
		// whenever the last (provisional) one went out
		r.lastRanking = time.Time{}
		r.progress(Event{Phase: PhaseEval, Message: fmt.Sprintf("Evaluating positions with Stockfish... round %d, %d positions", round, len(need)),
			Done: r.evalDone, Total: r.evalTotal, Ranking: r.ranking()})
		if err := r.evaluate(ctx, need, PhaseEval, nil); err != nil {
			return err
		}
		for _, n := range need {
			if !r.recheck(n, threshold) {
				r.prune(n, threshold)
			}
		}
	}
}

// recheck marks n for a second search at Params.Depth, clearing its
// winrate, when n is an analysing player's move evaluated below Depth
// whose winrate lies within Params.DecisionMargin of threshold (see
// Params.DecisionMargin), and reports whether it did.
func (r *run) recheck(n *Node, threshold float64) bool {
	if !n.ours || n.full || n.Pruned || n.Winrate == nil || r.p.DecisionMargin <= 0 || n.scoreDepth >= r.p.Depth {
		return false
	}
	if math.Abs(*n.Winrate-threshold) >= r.p.DecisionMargin {
		return false
	}
	n.full, n.Winrate = true, nil
	r.stats.Rechecks++
	return true
}

// collect appends the nodes under n that need an evaluation now: leaves,
// and the analysing player's moves (whose subtree waits for the verdict).
func collect(n *Node, out *[]*Node) {
	if n.Winrate == nil && (len(n.Children) == 0 || n.ours) {
		*out = append(*out, n)
		return
	}
	for _, c := range n.Children {
		collect(c, out)
	}
}

// evaluate gives every node a winrate: from this run's evaluations, the
// cache, or the evaluator (each distinct position once). shape, when not
// nil, shapes each request sent to the evaluator (the settle rule's early
// end, see filterRequest); a result of another depth than asked is stored
// as that depth's.
// Long: the three sources of a winrate (this run, the cache, the engines) and their merge.
func (r *run) evaluate(ctx context.Context, nodes []*Node, phase Phase, shape func(EvalRequest) EvalRequest) error {
	byKey := map[string][]*Node{} // by evalCacheKey: position and depth
	depthOfKey := map[string]int{}
	var order []EvalRequest
	for _, n := range nodes {
		if n.Winrate != nil { // the game ended there
			continue
		}
		d := r.depthOf(n)
		ek := evalCacheKey(n.key, d)
		if _, ok := byKey[ek]; !ok {
			order = append(order, r.evalRequest(n, d))
		} else {
			r.stats.EvalReuse++
		}
		byKey[ek] = append(byKey[ek], n)
		depthOfKey[ek] = d
	}
	var reqs []EvalRequest
	var reqKeys []string
	for _, q := range order {
		ek := evalCacheKey(q.FEN, q.Depth)
		if s, ok := r.evals[ek]; ok {
			r.stats.EvalReuse++
			r.apply(byKey[ek], s, depthOfKey[ek], phase)
			continue
		}
		if s, ok := r.cachedEval(ctx, ek); ok {
			r.stats.EvalCacheHits++
			r.evals[ek] = s
			r.apply(byKey[ek], s, depthOfKey[ek], phase)
			continue
		}
		if shape != nil {
			q = shape(q)
		}
		reqs = append(reqs, q)
		reqKeys = append(reqKeys, ek)
	}
	if len(reqs) == 0 {
		return nil
	}
	r.stats.EngineCalls++
	got := make([]bool, len(reqs))
	onResult := func(i int, s score.Score, depth int) {
		if i < 0 || i >= len(reqs) || got[i] {
			return
		}
		got[i] = true
		ek := evalCacheKey(reqs[i].FEN, depth)
		if depth != reqs[i].Depth {
			r.stats.Settled++
		}
		r.stats.EngineEvals++
		r.evals[ek] = s
		r.storeEval(ctx, ek, s)
		r.apply(byKey[reqKeys[i]], s, depth, phase)
	}
	var err error
	if d, ok := r.c.Evaluator.(Dispatcher); ok && d.Workers() > 0 {
		// Request i on lane i mod engines, in order: each engine searches
		// the same positions in the same order in every run.
		lanes := d.Workers()
		pos := make([]int, lanes) // each lane's next request
		for l := range pos {
			pos[l] = l
		}
		cur := make([]int, lanes)
		steal, shared := clearsEach(r.c.Evaluator), 0 // order-independent: any engine takes the next
		err = d.Dispatch(ctx, func(w int) (EvalRequest, bool) {
			if steal && w >= 0 && w < lanes && shared < len(reqs) {
				cur[w] = shared
				shared++
				return reqs[cur[w]], true
			}
			if steal || w < 0 || w >= lanes || pos[w] >= len(reqs) {
				return EvalRequest{}, false
			}
			cur[w] = pos[w]
			pos[w] += lanes
			return reqs[cur[w]], true
		}, func(w int, q EvalRequest, s score.Score) {
			if w >= 0 && w < lanes {
				onResult(cur[w], s, q.depthOfScore())
			}
		})
	} else {
		err = r.c.Evaluator.Evaluate(ctx, reqs, func(i int, s score.Score) {
			if i >= 0 && i < len(reqs) {
				onResult(i, s, reqs[i].Depth)
			}
		})
	}
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("ewr: stockfish: %w", ctx.Err())
		}
		return fmt.Errorf("ewr: stockfish: %w", err)
	}
	for i, ok := range got {
		if !ok {
			return fmt.Errorf("ewr: stockfish: no evaluation of %s", reqs[i].FEN)
		}
	}
	return nil
}

// apply sets the winrate of nodes sharing one position.
func (r *run) apply(nodes []*Node, s score.Score, depth int, phase Phase) {
	for _, n := range nodes {
		w := winrateFor(s, !n.ours)
		n.Winrate = &w
		n.scoreDepth = depth
		r.evalDone++
	}
	if r.opt.Progress == nil {
		return
	}
	e := Event{Phase: phase, Done: r.evalDone, Total: r.evalTotal}
	if time.Since(r.lastRanking) >= rankingEvery {
		switch {
		case phase == PhaseEval:
			r.lastRanking = time.Now()
			e.Ranking = r.ranking()
		case phase == PhaseFilter && r.rootNode != nil && r.rootNode.Winrate != nil:
			if pr := r.provisionalRanking(); len(pr) > 0 {
				r.lastRanking = time.Now()
				e.Ranking, e.Provisional = pr, true
			}
		}
	}
	r.progress(e)
}

// provisionalRanking ranks the legal moves evaluated so far that keep the
// base winrate + loss threshold by their Stockfish winrate.
func (r *run) provisionalRanking() []MoveResult {
	threshold := *r.rootNode.Winrate + r.p.LossThreshold
	var out []MoveResult
	for _, ch := range r.children {
		if ch.Winrate == nil || *ch.Winrate < threshold-eps {
			continue
		}
		out = append(out, MoveResult{SAN: ch.SAN, UCI: ch.UCI, ExpectedWinrate: *ch.Winrate, StockfishWinrate: *ch.Winrate,
			ConfidenceLabel: ConfidenceLabel(0)})
	}
	sortMoves(out)
	return out
}

// rankingEvery throttles the ranking snapshots sent with progress events.
const rankingEvery = 200 * time.Millisecond

// evalRequest asks for n's position at depth d, with what the tree knows
// of it: its FEN (the engine's input), the game's variant and the side to
// move (the other side than the one whose move reached n).
func (r *run) evalRequest(n *Node, d int) EvalRequest {
	toMove := r.us
	if n.ours {
		toMove = r.us.Other()
	}
	return EvalRequest{FEN: n.key, Depth: d, Chess960: r.pos.Chess960, WhiteToMove: toMove == board.White}
}

// evalCacheKey keys position k's evaluation at depth d.
func evalCacheKey(k string, d int) string { return fmt.Sprintf("%s d%d", k, d) }

// depthOf is the Stockfish depth of n's evaluation: the current phase's
// depth, or in phase B of the fast mode Depth itself when n's cumulative
// probability reaches FullDepthMass (see Params.FullDepthMass).
// Under the settle rule (Params.Volatility) every phase-B position is
// searched towards Depth (see request).
func (r *run) depthOf(n *Node) int {
	if n.full || r.massFull(n) || (r.p.Volatility > 0 && r.depth != r.p.Depth) {
		return r.p.Depth
	}
	return r.depth
}

// massFull reports whether n is a phase-B position searched at Depth for
// its probability (Params.FullDepthMass).
func (r *run) massFull(n *Node) bool {
	return r.depth != r.p.Depth && r.p.FullDepthMass > 0 && n.CumulativeProbability >= r.p.FullDepthMass-eps
}

// cachedEval looks ek (an evalCacheKey) up in the persistent cache; a
// failing or corrupt cache is a miss (and a warning).
func (r *run) cachedEval(ctx context.Context, ek string) (score.Score, bool) {
	if r.c.Cache == nil {
		return score.Score{}, false
	}
	v, ok, err := r.c.Cache.CacheGet(ctx, KindEval, ek)
	if err != nil {
		r.cacheWarn(err)
		return score.Score{}, false
	}
	if !ok {
		return score.Score{}, false
	}
	var s score.Score
	if err := json.Unmarshal(v, &s); err != nil {
		r.cacheWarn(fmt.Errorf("ewr: cached evaluation of %s: %w", ek, err))
		return score.Score{}, false
	}
	return s, true
}

func (r *run) storeEval(ctx context.Context, ek string, s score.Score) {
	if r.c.Cache == nil {
		return
	}
	v, err := json.Marshal(s)
	if err == nil {
		err = r.c.Cache.CachePut(ctx, KindEval, ek, v)
	}
	if err != nil {
		r.cacheWarn(err)
	}
}

// cacheWarn records the first cache failure: the cache is an optimisation,
// so it does not fail the calculation.
func (r *run) cacheWarn(err error) {
	if !r.cacheErr {
		r.cacheErr = true
		r.warn(fmt.Sprintf("cache: %v", err))
	}
}
