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

// Moment runs ewr.AnalyseMoment at the product defaults in the default
// mode (ewr.DefaultMode).
func (e EWR) Moment(ctx context.Context, g ewr.Game, ply int, progress func(Progress)) (ewr.Moment, error) {
	c, opt := e.observed(progress)
	p, _ := ewr.DefaultParams().WithMode(ewr.DefaultMode)
	return ewr.AnalyseMoment(ctx, c, g, ply, p, opt)
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
			o.note(reqs[i].FEN, s)
		}
		onResult(i, s)
	})
}

// note records one evaluation for the next progress event.
func (o *observer) note(fen string, s score.Score) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.pending) < maxPending {
		o.pending = append(o.pending, Evaluation{Key: positionKey(fen), Winrate: s.Winrate()})
	}
}

// Workers implements ewr.Dispatcher: the inner evaluator's engines, 0 when
// it is not a Dispatcher (the calculation then uses Evaluate).
func (o *observer) Workers() int {
	if d, ok := o.inner.(ewr.Dispatcher); ok {
		return d.Workers()
	}
	return 0
}

// Dispatch implements ewr.Dispatcher, noting each evaluation (only called
// when Workers is not 0).
func (o *observer) Dispatch(ctx context.Context, next func(int) (ewr.EvalRequest, bool), onResult func(int, ewr.EvalRequest, score.Score)) error {
	d, ok := o.inner.(ewr.Dispatcher)
	if !ok {
		return errors.New("web: the evaluator is not a Dispatcher")
	}
	return d.Dispatch(ctx, next, func(w int, q ewr.EvalRequest, s score.Score) {
		o.note(q.FEN, s)
		onResult(w, q, s)
	})
}

// ClearsEach passes on whether the inner evaluator's engines clear their
// hash before every search (the settle mode needs it).
func (o *observer) ClearsEach() bool {
	c, ok := o.inner.(interface{ ClearsEach() bool })
	return ok && c.ClearsEach()
}

// NewGame passes the start of a calculation on to the inner evaluator.
func (o *observer) NewGame(ctx context.Context) error {
	if ng, ok := o.inner.(interface{ NewGame(context.Context) error }); ok {
		return ng.NewGame(ctx)
	}
	return nil
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
