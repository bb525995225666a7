package analysis

import (
	"context"
	"errors"
	"fmt"
)

// Analyser analyses games one at a time with BatchOptions: the streaming
// form of AnalyseBatch, for inputs too large to hold every game and every
// analysis at once. Its engines start with the first game that needs them
// and stop at Close. Not safe for concurrent use.
type Analyser struct {
	o    BatchOptions
	pool *Pool
	// done and total are the positions of the games finished so far, so
	// that Progress counts over the whole run.
	done, total int
}

// NewAnalyser returns an Analyser for o (nothing starts yet).
func NewAnalyser(o BatchOptions) *Analyser {
	return &Analyser{o: o}
}

// SkippedError is an Analyse error that concerns the game alone (it could
// not be analysed, or not compared with Lichess's analysis): the run goes
// on with the next game. Its message is the one line AnalyseBatch puts in
// BatchResult.Skipped.
type SkippedError struct{ Err error }

func (e *SkippedError) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e *SkippedError) Unwrap() error { return e.Err }

// IsSkipped reports whether err concerns one game alone (a SkippedError).
func IsSkipped(err error) bool {
	var se *SkippedError
	return errors.As(err, &se)
}

// Analyse analyses g (from its Lichess evals or with the engines) and
// compares it with Lichess's analysis when it carries one. A
// *SkippedError concerns g alone: a nil analysis means g was not
// analysed, a non-nil one was analysed but not compared. Any other error
// (no engine, ctx ended) ends the run.
func (a *Analyser) Analyse(ctx context.Context, g *Game) (*Analysis, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var an *Analysis
	if a.o.LichessEvals {
		res, err := BuildLichess(g)
		if err != nil {
			return nil, &SkippedError{fmt.Errorf("%s game %d (%s): %w", g.Source, g.Index, g.Key(), err)}
		}
		an = res
	} else {
		res, err := a.engineAnalyse(ctx, g)
		if err != nil {
			return nil, err
		}
		an = res
	}
	if err := an.CompareWithLichess(); err != nil {
		return an, &SkippedError{err}
	}
	return an, nil
}

// engineAnalyse runs the pool (started on first use) over g.
func (a *Analyser) engineAnalyse(ctx context.Context, g *Game) (*Analysis, error) {
	if a.pool == nil {
		pool, err := NewPool(ctx, a.o.Pool)
		if err != nil {
			return nil, err
		}
		a.pool = pool
	}
	opt := a.o.Engine
	base, baseTotal := a.done, a.total
	var last, lastTotal int
	if report := a.o.Engine.Progress; report != nil {
		opt.Progress = func(done, total int) {
			last, lastTotal = done, total
			report(base+done, baseTotal+total)
		}
	} else {
		opt.Progress = func(done, total int) { last, lastTotal = done, total }
	}
	res, errs, err := a.pool.AnalyseGames(ctx, []*Game{g}, opt)
	a.done, a.total = base+last, baseTotal+lastTotal
	if err != nil {
		return nil, err
	}
	if errs[0] != nil {
		return nil, &SkippedError{errs[0]}
	}
	return res[0], nil
}

// Close stops the engines, if any started.
func (a *Analyser) Close() error {
	if a.pool == nil {
		return nil
	}
	err := a.pool.Close()
	a.pool = nil
	if err != nil {
		return fmt.Errorf("analysis: closing engines: %w", err)
	}
	return nil
}
