package ewr

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/outpostchess/outpost/bots/score"
)

// Dispatcher is an Evaluator whose engines take their work one position at
// a time, so that the calculation picks each engine's next position as
// results arrive. The calculation uses it to search a position on the
// engine that searched its nearest evaluated ancestor (whose hash holds
// much of its tree), in depth-first order, and to release the subtree of
// an analysing player's move the moment its evaluation clears the loss
// threshold instead of waiting for a whole round. EngineEvaluator
// implements it.
type Dispatcher interface {
	Evaluator
	// Workers is the number of engines, numbered 0..Workers()-1.
	Workers() int
	// Dispatch asks next(w) for work whenever engine w is free; next
	// returns false when it has nothing for w now, and is asked again
	// after the next result. onResult reports each evaluation with the
	// engine that made it. next and onResult are called from the goroutine
	// that called Dispatch, never concurrently. Dispatch returns nil when
	// no engine is busy and next has nothing for any of them; the first
	// engine failure, or ctx ending, stops it with that error (results
	// already reported stand). A Dispatcher may give worker w's work to
	// another engine (when w may not search now); it is still reported as
	// w's.
	Dispatch(ctx context.Context, next func(worker int) (EvalRequest, bool), onResult func(worker int, req EvalRequest, s score.Score)) error
}

// Workers implements Dispatcher.
func (e *EngineEvaluator) Workers() int { return len(e.engines) }

type dispatched struct {
	worker int
	req    EvalRequest
	s      score.Score
	err    error
}

// Dispatch implements Dispatcher: one goroutine per engine, coordinated
// from the calling goroutine. With a Gate, only the engines it allows get
// work (a search already running finishes); the others wait, and when it
// allows none Dispatch waits for it.
// Long: the gate, the hand-out of work and the results are one select loop
// over the engines' state; split, that state would travel between functions.
func (e *EngineEvaluator) Dispatch(ctx context.Context, next func(int) (EvalRequest, bool), onResult func(int, EvalRequest, score.Score)) error {
	if len(e.engines) == 0 {
		return errors.New("no engines")
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	work := make([]chan EvalRequest, len(e.engines))
	results := make(chan dispatched, len(e.engines))
	var wg sync.WaitGroup
	for w := range e.engines {
		work[w] = make(chan EvalRequest, 1)
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for r := range work[w] {
				s, reached, err := e.search(ctx, w, r)
				r.Reached = reached
				results <- dispatched{w, r, s, err}
			}
		}(w)
	}
	defer func() {
		// Workers end their search (cut short by the cancelled context)
		// and exit; results has room for each one's last.
		cancel()
		for _, c := range work {
			close(c)
		}
		wg.Wait()
	}()
	busy := make([]bool, len(e.engines))
	lane := make([]int, len(e.engines)) // whose work each engine runs
	nBusy := 0
	var held *EvalRequest // taken for engine 0 while the gate shut them all
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		allowed, changed := len(e.engines), (<-chan struct{})(nil)
		if e.Gate != nil {
			allowed, changed = e.Gate.Allowed()
		}
		for w := range busy {
			if busy[w] || w >= allowed {
				continue
			}
			r, ok := EvalRequest{}, false
			lane[w] = w
			if held != nil && w == 0 {
				r, ok, held = *held, true, nil
			} else {
				r, ok = next(w)
			}
			// An engine the gate holds back has its work done by an
			// allowed one, reported as its own.
			for v := allowed; !ok && v < len(busy); v++ {
				lane[w] = v
				r, ok = next(v)
			}
			if ok {
				busy[w] = true
				nBusy++
				work[w] <- r
			}
		}
		if nBusy == 0 && held == nil {
			if allowed > 0 {
				return nil // nothing left for any engine
			}
			// Every engine is held back: is there work to wait for?
			r, ok := next(0)
			if !ok {
				return nil
			}
			held = &r
		}
		var d dispatched
		select {
		case d = <-results:
		case <-changed:
			continue
		case <-ctx.Done():
			return ctx.Err()
		}
		busy[d.worker] = false
		nBusy--
		if d.err != nil {
			return d.err
		}
		onResult(lane[d.worker], d.req, d.s)
	}
}

// Evaluate implements Evaluator: the engines take the positions in order;
// results are reported from the calling goroutine as they arrive. The
// first failure stops the rest.
func (e *EngineEvaluator) Evaluate(ctx context.Context, reqs []EvalRequest, onResult func(int, score.Score)) error {
	i, done := 0, 0
	cur := make([]int, len(e.engines)) // the request each engine holds
	err := e.Dispatch(ctx, func(w int) (EvalRequest, bool) {
		if i == len(reqs) {
			return EvalRequest{}, false
		}
		cur[w] = i
		i++
		return reqs[cur[w]], true
	}, func(w int, _ EvalRequest, s score.Score) {
		done++
		onResult(cur[w], s)
	})
	if err != nil {
		return err
	}
	if done < len(reqs) {
		return fmt.Errorf("%d of %d positions not evaluated", len(reqs)-done, len(reqs))
	}
	return nil
}
