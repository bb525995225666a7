package ewr

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/bots/uci"
)

// PoolEvaluator is the Evaluator of an analysis.Pool: positions are
// searched to a fixed depth in parallel over the pool's workers. Requests go
// to the pool in slices of a few positions per worker, so results arrive
// (and the ranking updates) as they complete, and a time limit loses at most
// one slice.
type PoolEvaluator struct {
	Pool *analysis.Pool
	// PerWorker is the number of positions per worker in one slice
	// (default 4).
	PerWorker int
	// ChunkSize is the number of consecutive positions an engine searches
	// after one hash clear (default 2).
	ChunkSize int

	nodes, searches atomic.Int64
}

// Counts returns the searches run and the nodes they searched so far.
func (e *PoolEvaluator) Counts() (searches, nodes int64) {
	return e.searches.Load(), e.nodes.Load()
}

// Evaluate implements Evaluator.
func (e *PoolEvaluator) Evaluate(ctx context.Context, reqs []EvalRequest, onResult func(int, score.Score)) error {
	per := e.PerWorker
	if per <= 0 {
		per = 4
	}
	slice := per * max(1, e.Pool.Workers())
	for lo := 0; lo < len(reqs); lo += slice {
		hi := min(lo+slice, len(reqs))
		jobs := make([]analysis.Job, hi-lo)
		for i, r := range reqs[lo:hi] {
			jobs[i] = analysis.Job{
				Pos:         uci.Position{FEN: r.FEN, Chess960: r.Chess960},
				WhiteToMove: r.WhiteToMove,
				Limits:      uci.Limits{Depth: r.Depth},
			}
		}
		// Small chunks share the hash between neighbouring positions
		// (siblings, usually) without unbalancing the workers.
		chunk := e.ChunkSize
		if chunk <= 0 {
			chunk = 2
		}
		outs, err := e.Pool.Search(ctx, jobs, analysis.SearchOptions{ChunkSize: chunk})
		if err != nil {
			return err
		}
		for i, o := range outs {
			if o.Eval == nil {
				return fmt.Errorf("no score for %s (engine's best move %q)", reqs[lo+i].FEN, o.BestUCI)
			}
			e.searches.Add(1)
			e.nodes.Add(o.Nodes)
			ev := o.Eval.ForMover(jobs[i].WhiteToMove)
			onResult(lo+i, score.Score{CP: ev.CP, Mate: ev.Mate})
		}
	}
	return nil
}
