package web

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/bots/score"
)

// Calculator computes expected winrates for the console. Adapt an
// *ewr.Calculator with EWR.
type Calculator interface {
	// Calculate runs one explorer calculation, calling progress (from one
	// goroutine at a time) as it advances.
	Calculate(ctx context.Context, pos ewr.Position, p ewr.Params, progress func(Progress)) (*ewr.Result, error)
	// Moment computes, in the position before the move at ply (1-based)
	// of g, the expected winrate of the move played against the best
	// practical move at the product defaults (ewr.AnalyseMoment with
	// ewr.DefaultParams), calling progress as it advances.
	Moment(ctx context.Context, g ewr.Game, ply int, progress func(Progress)) (ewr.Moment, error)
}

// ErrUnavailable marks a calculator that cannot run at all (no Maia
// models, no Stockfish): the pages say so instead of failing.
var ErrUnavailable = errors.New("expected winrate is not available")

// Progress is one step of a calculation: ewr's event, plus the Stockfish
// evaluations that arrived since the previous step.
type Progress struct {
	ewr.Event
	// Evaluated are the evaluations reported by the engine since the
	// previous Progress (cached evaluations are not reported: they arrive
	// with the final trees).
	Evaluated []Evaluation
}

// Evaluation is one position evaluated by Stockfish.
type Evaluation struct {
	// Key is the position's FEN without the move counters.
	Key string `json:"key"`
	// Winrate is the side to move's winrate, in [0, 1].
	Winrate float64 `json:"wr"`
}

// EWR adapts an *ewr.Calculator to Calculator.
type EWR struct {
	Calc *ewr.Calculator
	// TimeLimit bounds one calculation (0: none).
	TimeLimit time.Duration
}

// Calculate runs the calculation, reporting its progress and evaluations.
func (e EWR) Calculate(ctx context.Context, pos ewr.Position, p ewr.Params, progress func(Progress)) (*ewr.Result, error) {
	c, opt := e.observed(progress)
	return c.Calculate(ctx, pos, p, opt)
}

// Moment runs ewr.AnalyseMoment at the product defaults.
func (e EWR) Moment(ctx context.Context, g ewr.Game, ply int, progress func(Progress)) (ewr.Moment, error) {
	c, opt := e.observed(progress)
	return ewr.AnalyseMoment(ctx, c, g, ply, ewr.DefaultParams(), opt)
}

// observed returns the calculator for one calculation and its options:
// with a progress callback, a copy of e.Calc whose evaluator notes each
// evaluation, handed on with the next progress event. ewr calls its
// progress callback after every evaluation it applies, from the goroutine
// that applies it, so the notes never race with the calculation.
func (e EWR) observed(progress func(Progress)) (*ewr.Calculator, ewr.Options) {
	opt := ewr.Options{TimeLimit: e.TimeLimit}
	if progress == nil || e.Calc == nil || e.Calc.Evaluator == nil {
		if progress != nil {
			opt.Progress = func(ev ewr.Event) { progress(Progress{Event: ev}) }
		}
		return e.Calc, opt
	}
	o := &observer{inner: e.Calc.Evaluator}
	c := *e.Calc
	c.Evaluator = o
	opt.Progress = func(ev ewr.Event) { progress(Progress{Event: ev, Evaluated: o.take()}) }
	return &c, opt
}

// maxPending bounds the evaluations held for the next progress event.
const maxPending = 4096

// observer is an ewr.Evaluator that notes the evaluations of another.
type observer struct {
	inner ewr.Evaluator

	mu      sync.Mutex
	pending []Evaluation
}

// Evaluate implements ewr.Evaluator.
func (o *observer) Evaluate(ctx context.Context, reqs []ewr.EvalRequest, onResult func(int, score.Score)) error {
	return o.inner.Evaluate(ctx, reqs, func(i int, s score.Score) {
		if i >= 0 && i < len(reqs) {
			o.mu.Lock()
			if len(o.pending) < maxPending {
				o.pending = append(o.pending, Evaluation{Key: positionKey(reqs[i].FEN), Winrate: s.Winrate()})
			}
			o.mu.Unlock()
		}
		onResult(i, s)
	})
}

// take returns and clears the noted evaluations.
func (o *observer) take() []Evaluation {
	o.mu.Lock()
	defer o.mu.Unlock()
	p := o.pending
	o.pending = nil
	return p
}

// positionKey is a FEN without its move counters.
func positionKey(fen string) string {
	f := strings.Fields(fen)
	if len(f) > 4 {
		f = f[:4]
	}
	return strings.Join(f, " ")
}
