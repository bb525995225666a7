package ewr

import (
	"context"
	"fmt"
	"sort"

	"github.com/outpostchess/outpost/bots/score"
)

// evaluateTreesDispatched is phase B on a Dispatcher. It computes what the
// rounds of evaluateTrees compute (the same positions and the same
// pruning) but without rounds: the subtree of an analysing player's move
// is released the moment its evaluation clears the threshold.
//
// Each candidate's tree belongs to one engine (a lane), chosen before any
// search by balancing the trees' sizes, best candidate first; an engine
// searches its own trees in depth-first order and nothing else, and reuses
// only its own evaluations. So each engine searches the same positions in
// the same order in every run, and with its hash cleared at the start
// (NewGame) single-threaded Stockfish gives the same scores: two runs of a
// position give the same result. An engine that runs out of work idles
// rather than take another's, which costs a little wall time at the end.
func (r *run) evaluateTreesDispatched(ctx context.Context, d Dispatcher) error {
	lanes := max(1, d.Workers())
	s := &scheduler{r: r, waiting: map[string][]*Node{}, laneEvals: map[string]score.Score{}, threshold: r.base + r.p.LossThreshold, ctx: ctx,
		steal: clearsEach(r.c.Evaluator), inflight: make([]int, lanes), settledEvals: map[string]settledEval{}}
	seq := 0
	var number func(n *Node)
	number = func(n *Node) {
		n.seq = seq
		seq++
		for _, c := range n.Children {
			number(c)
		}
	}
	for _, t := range r.trees {
		number(t)
	}
	lane := laneOf(r.trees, lanes)
	for i, t := range r.trees {
		s.release(t, lane[i])
	}
	if len(s.waiting) == 0 {
		return nil
	}
	r.progress(Event{Phase: PhaseEval, Message: fmt.Sprintf("Evaluating positions with Stockfish... %d positions", len(s.ready)),
		Done: r.evalDone, Total: r.evalTotal, Ranking: r.ranking()})
	r.stats.EngineCalls++
	err := d.Dispatch(ctx, s.next, s.done)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("ewr: stockfish: %w", ctx.Err())
		}
		return fmt.Errorf("ewr: stockfish: %w", err)
	}
	for k := range s.waiting {
		return fmt.Errorf("ewr: stockfish: no evaluation of %s", k)
	}
	return nil
}

// laneOf assigns each tree to a lane (an engine): in the trees' order,
// each to the lane with the least work so far, work being the tree's
// positions that may need a search (its unevaluated leaves and analysing
// player's moves). It depends on nothing but the trees.
func laneOf(trees []*Node, lanes int) []int {
	load := make([]int, lanes)
	out := make([]int, len(trees))
	for i, t := range trees {
		best := 0
		for l := range load {
			if load[l] < load[best] {
				best = l
			}
		}
		out[i] = best
		load[best] += treeWork(t)
	}
	return out
}

// treeWork counts the positions under n that may need a search.
func treeWork(n *Node) int {
	w := 0
	if n.Winrate == nil && (len(n.Children) == 0 || n.ours) {
		w++
	}
	for _, c := range n.Children {
		w += treeWork(c)
	}
	return w
}

// scheduler hands phase B's positions to the engines.
type scheduler struct {
	r         *run
	ctx       context.Context
	threshold float64
	// ready are the positions awaiting an engine, by depth-first order.
	ready []readyPos
	// waiting maps each position ready or being searched, by lane
	// (laneKey), to its nodes.
	waiting map[string][]*Node
	// laneEvals are phase B's evaluations by laneKey: a lane reuses only
	// its own (and the legal-move step's, done before phase B).
	laneEvals map[string]score.Score
	// steal lets an engine with nothing of its own take another lane's
	// first position (the engines clear their hash before every search,
	// so who searches a position changes nothing); inflight is the lane
	// whose position each engine searches.
	steal    bool
	inflight []int
	// settledEvals are the results of searches under the settle rule, by
	// lane and requestKey, with the depth each ended at.
	settledEvals map[string]settledEval
}

// settledEval is a search's score and the depth it ended at.
type settledEval struct {
	s     score.Score
	depth int
}

// laneKey is evaluation ek's key (an evalCacheKey) on lane l.
func laneKey(l int, ek string) string { return fmt.Sprintf("%d %s", l, ek) }

// laneKey is laneKey of lane l, or of lane 0 for every lane when the
// scheduler may steal: evaluations are then order-independent, so a
// position waiting or evaluated on one lane serves all (a transposition
// between two candidates' trees is searched once).
func (s *scheduler) laneKey(l int, ek string) string {
	if s.steal {
		l = 0
	}
	return laneKey(l, ek)
}

type readyPos struct {
	req  EvalRequest
	seq  int
	home int
}

// release makes ready the positions under n that need an evaluation now
// (see collect); home is the engine whose hash suits them.
func (s *scheduler) release(n *Node, home int) {
	var need []*Node
	collect(n, &need)
	for _, m := range need {
		s.add(m, home)
	}
}

// add schedules m's evaluation, or settles it at once from this run's
// evaluations or the cache.
func (s *scheduler) add(m *Node, home int) {
	r := s.r
	q := r.request(m, s.threshold)
	ek := evalCacheKey(q.FEN, q.Depth)
	lk := s.laneKey(home, requestKey(q))
	if nodes, ok := s.waiting[lk]; ok {
		r.stats.EvalReuse++
		s.waiting[lk] = append(nodes, m)
		r.evalTotal++
		return
	}
	if ev, ok := s.settledEvals[lk]; ok && q.Settled != nil {
		r.stats.EvalReuse++
		r.evalTotal++
		s.settle([]*Node{m}, ev.s, ev.depth, home)
		return
	}
	// A search under the settle rule takes no depth-Depth score found on
	// the way, here or in the persistent cache (which this calculation
	// fills as it goes): whether one is there yet depends on timing.
	if sc, ok := s.laneEvals[s.laneKey(home, ek)]; ok && q.Settled == nil {
		r.stats.EvalReuse++
		r.evalTotal++
		s.settle([]*Node{m}, sc, q.Depth, home)
		return
	}
	if sc, ok := r.evals[ek]; ok {
		r.stats.EvalReuse++
		r.evalTotal++
		s.settle([]*Node{m}, sc, q.Depth, home)
		return
	}
	if sc, ok := r.cachedEval(s.ctx, ek); ok && q.Settled == nil {
		r.stats.EvalCacheHits++
		r.evals[ek] = sc
		r.evalTotal++
		s.settle([]*Node{m}, sc, q.Depth, home)
		return
	}
	s.waiting[lk] = []*Node{m}
	r.evalTotal++
	i := sort.Search(len(s.ready), func(i int) bool { return s.ready[i].seq > m.seq })
	s.ready = append(s.ready, readyPos{})
	copy(s.ready[i+1:], s.ready[i:])
	s.ready[i] = readyPos{req: q, seq: m.seq, home: home}
}

// settle gives nodes sharing one position their winrate, prunes the
// analysing player's moves that fell below the threshold and releases the
// subtrees of the others.
func (s *scheduler) settle(nodes []*Node, sc score.Score, depth, home int) {
	s.r.apply(nodes, sc, depth, PhaseEval)
	for _, n := range nodes {
		if !n.ours {
			continue
		}
		if s.r.recheck(n, s.threshold) {
			s.add(n, home)
			continue
		}
		s.r.prune(n, s.threshold)
		if !n.Pruned {
			s.release(n, home)
		}
	}
}

// next implements the Dispatcher's next: lane w's first position in
// depth-first order; when it has none, nothing — or, when the scheduler
// may steal, the first position of any lane.
func (s *scheduler) next(w int) (EvalRequest, bool) {
	own := s.hasOwn(w)
	for i, p := range s.ready {
		if p.home == w || (s.steal && !own) {
			s.ready = append(s.ready[:i], s.ready[i+1:]...)
			if w >= 0 && w < len(s.inflight) {
				s.inflight[w] = p.home
			}
			return p.req, true
		}
	}
	return EvalRequest{}, false
}

// hasOwn reports whether lane w has a position ready.
func (s *scheduler) hasOwn(w int) bool {
	for _, p := range s.ready {
		if p.home == w {
			return true
		}
	}
	return false
}

// done implements the Dispatcher's onResult.
func (s *scheduler) done(w int, req EvalRequest, sc score.Score) {
	r := s.r
	if w >= 0 && w < len(s.inflight) {
		w = s.inflight[w] // the lane whose position it was
	}
	lk := s.laneKey(w, requestKey(req))
	nodes, ok := s.waiting[lk]
	if !ok {
		return
	}
	delete(s.waiting, lk)
	r.stats.EngineEvals++
	d := req.depthOfScore()
	if d != req.Depth {
		r.stats.Settled++
	}
	ek := evalCacheKey(req.FEN, d)
	s.laneEvals[s.laneKey(w, ek)] = sc
	if req.Settled != nil {
		s.settledEvals[lk] = settledEval{sc, d}
	}
	r.storeEval(s.ctx, ek, sc)
	s.settle(nodes, sc, d, w)
}
