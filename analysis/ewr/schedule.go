package ewr

import (
	"context"
	"fmt"
	"sort"
)

// evaluateTreesDispatched is phase B on a Dispatcher. It computes what the
// rounds of evaluateTrees compute (the same positions, each once, and the
// same pruning) but without rounds: the subtree of an analysing player's
// move is released the moment its evaluation clears the threshold. Each
// engine takes, in depth-first order (best candidate first), the positions
// whose nearest evaluated ancestor it searched, so its hash already holds
// much of their tree; an idle engine with none of its own takes one without
// a home, else steals the last position of another engine's.
func (r *run) evaluateTreesDispatched(ctx context.Context, d Dispatcher) error {
	s := &scheduler{r: r, waiting: map[string][]*Node{}, threshold: r.base + r.p.LossThreshold, ctx: ctx}
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
	for _, t := range r.trees {
		s.release(t, r.homeOf(t.key))
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

// homeOf returns the engine that searched position k in this run, or -1.
func (r *run) homeOf(k string) int {
	if w, ok := r.home[k]; ok {
		return w
	}
	return -1
}

// scheduler hands phase B's positions to the engines.
type scheduler struct {
	r         *run
	ctx       context.Context
	threshold float64
	// ready are the positions awaiting an engine, by depth-first order.
	ready []readyPos
	// waiting maps each position ready or being searched to its nodes.
	waiting map[string][]*Node
}

type readyPos struct {
	key  string
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
	k := m.key
	if nodes, ok := s.waiting[k]; ok {
		r.stats.EvalReuse++
		s.waiting[k] = append(nodes, m)
		r.evalTotal++
		return
	}
	if sc, ok := r.evals[k]; ok {
		r.stats.EvalReuse++
		r.evalTotal++
		s.settle([]*Node{m}, sc, r.homeOf(k))
		return
	}
	if sc, ok := r.cachedEval(s.ctx, k); ok {
		r.stats.EvalCacheHits++
		r.evals[k] = sc
		r.evalTotal++
		s.settle([]*Node{m}, sc, home)
		return
	}
	s.waiting[k] = []*Node{m}
	r.evalTotal++
	i := sort.Search(len(s.ready), func(i int) bool { return s.ready[i].seq > m.seq })
	s.ready = append(s.ready, readyPos{})
	copy(s.ready[i+1:], s.ready[i:])
	s.ready[i] = readyPos{key: k, seq: m.seq, home: home}
}

// settle gives nodes sharing one position their winrate, prunes the
// analysing player's moves that fell below the threshold and releases the
// subtrees of the others.
func (s *scheduler) settle(nodes []*Node, sc Score, home int) {
	s.r.apply(nodes, sc, PhaseEval)
	for _, n := range nodes {
		if !n.ours {
			continue
		}
		s.r.prune(n, s.threshold)
		if !n.Pruned {
			s.release(n, home)
		}
	}
}

// next implements the Dispatcher's next: worker w's own first position,
// else the first without a home, else the last of another engine's.
func (s *scheduler) next(w int) (EvalRequest, bool) {
	if len(s.ready) == 0 {
		return EvalRequest{}, false
	}
	pick := -1
	for i, p := range s.ready {
		if p.home == w {
			pick = i
			break
		}
		if p.home < 0 && pick < 0 {
			pick = i
		}
	}
	if pick < 0 {
		pick = len(s.ready) - 1
	}
	p := s.ready[pick]
	s.ready = append(s.ready[:pick], s.ready[pick+1:]...)
	return EvalRequest{FEN: p.key, Depth: s.r.p.Depth}, true
}

// done implements the Dispatcher's onResult.
func (s *scheduler) done(w int, req EvalRequest, sc Score) {
	r := s.r
	nodes, ok := s.waiting[req.FEN]
	if !ok {
		return
	}
	delete(s.waiting, req.FEN)
	r.stats.EngineEvals++
	r.evals[req.FEN] = sc
	r.home[req.FEN] = w
	r.storeEval(s.ctx, req.FEN, sc)
	s.settle(nodes, sc, w)
}
