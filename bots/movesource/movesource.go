// Package movesource asks move sources — opening books, Lichess's cloud
// evaluation, opening explorer and online tablebase, local Syzygy tables —
// for a move before an engine searches. Each source has its own time bound,
// so a slow or failing source costs at most that bound, never the game: the
// engine then searches with what is left of the move's budget.
package movesource

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/outpostchess/outpost/bots/engine"
)

// ErrNoMove is what a Source returns when it has no move for the position
// (out of book, too many pieces, unknown to the cloud). It is not a failure.
var ErrNoMove = errors.New("movesource: no move for this position")

// Source proposes a move for a position. Implementations honour ctx (its
// deadline is the source's time bound), return ErrNoMove when they have
// nothing to say, and any other error when they failed. The returned move's
// Source field names the source ("book", "cloud-eval", "syzygy", …).
type Source interface {
	// Name is a short name for logs and the move's Source field.
	Name() string
	// Move returns the source's move in pos, or ErrNoMove.
	Move(ctx context.Context, pos engine.Position, lim engine.Limits) (engine.Move, error)
}

// Bounded is a source with its time bound. A zero Timeout means
// DefaultTimeout.
type Bounded struct {
	Source  Source
	Timeout time.Duration
}

// DefaultTimeout bounds a source with no timeout of its own: long enough
// for one HTTP round trip to Lichess, short enough to cost little of a
// bullet move.
const DefaultTimeout = 2 * time.Second

// maxShare is the largest fraction of a move's hard deadline the sources
// may take together: the engine keeps at least the rest to search.
const maxShare = 4

// Event reports what a source did for one move, for logs and tests.
type Event struct {
	Source  string        // the source's name
	Move    string        // the move it gave (UCI), when it gave one
	Err     error         // nil, ErrNoMove, or the failure
	Elapsed time.Duration // time spent asking it
}

// Engine plays the first move a source gives, in order, and otherwise the
// wrapped engine's. It forwards the wrapped engine's optional abilities
// (Configurable, Stateful, Inspectable, variants) through Unwrap.
type Engine struct {
	inner   engine.Engine
	sources []Bounded
	onEvent func(Event)
}

// Wrap returns inner consulted after sources. onEvent, when not nil, is
// called once per source asked.
func Wrap(inner engine.Engine, sources []Bounded, onEvent func(Event)) *Engine {
	return &Engine{inner: inner, sources: sources, onEvent: onEvent}
}

// Unwrap returns the wrapped engine.
func (e *Engine) Unwrap() engine.Engine { return e.inner }

// Name returns the wrapped engine's name.
func (e *Engine) Name() string { return e.inner.Name() }

// Close closes the wrapped engine and every source that is an io.Closer.
func (e *Engine) Close() error {
	errs := []error{e.inner.Close()}
	for _, b := range e.sources {
		if c, ok := b.Source.(interface{ Close() error }); ok {
			errs = append(errs, c.Close())
		}
	}
	return errors.Join(errs...)
}

// Variants returns the variants the wrapped engine plays.
func (e *Engine) Variants() []string { return engine.Variants(e.inner) }

// Info returns the wrapped engine's Info (a minimal one when it is not
// Inspectable).
func (e *Engine) Info() engine.Info { return engine.InfoOf(e.inner) }

// Configure passes options to the wrapped engine.
func (e *Engine) Configure(options map[string]string) error {
	if err := engine.ConfigureOf(e.inner, options); err != nil {
		return fmt.Errorf("movesource: %w", err)
	}
	return nil
}

// NewGame tells the wrapped engine and every source that keeps per-game
// state that a new game starts.
func (e *Engine) NewGame(ctx context.Context) error {
	errs := []error{engine.NewGameOf(ctx, e.inner)}
	for _, b := range e.sources {
		if s, ok := b.Source.(interface{ NewGame(context.Context) error }); ok {
			errs = append(errs, s.NewGame(ctx))
		}
	}
	return errors.Join(errs...)
}

// SelectMove asks each source in turn, each within its bound (and all of
// them within a quarter of lim.Deadline when that is set), and returns the
// first move given; otherwise the wrapped engine searches with the limits
// shortened by the time the sources took.
func (e *Engine) SelectMove(ctx context.Context, pos engine.Position, lim engine.Limits) (engine.Move, error) {
	start := time.Now()
	if mv, ok, err := e.fromSources(ctx, pos, lim); ok || err != nil {
		return mv, err
	}
	return e.inner.SelectMove(ctx, pos, shorten(lim, time.Since(start)))
}

// fromSources asks each source in turn, each within its bound (and all of
// them within a quarter of lim.Deadline when that is set), and reports the
// first move given (ok) or ctx's end (err).
func (e *Engine) fromSources(ctx context.Context, pos engine.Position, lim engine.Limits) (engine.Move, bool, error) {
	start := time.Now()
	var total time.Duration
	if lim.Deadline > 0 {
		total = lim.Deadline / maxShare
	}
	for _, b := range e.sources {
		bound := b.Timeout
		if bound <= 0 {
			bound = DefaultTimeout
		}
		if total > 0 {
			left := total - time.Since(start)
			if left <= 0 {
				break
			}
			bound = min(bound, left)
		}
		mv, err := e.ask(ctx, b.Source, bound, pos, lim)
		if err == nil {
			return mv, true, nil
		}
		if ctx.Err() != nil {
			return engine.Move{}, false, fmt.Errorf("movesource: %w", ctx.Err())
		}
	}
	return engine.Move{}, false, nil
}

// ask runs one source within bound and reports it.
func (e *Engine) ask(ctx context.Context, s Source, bound time.Duration, pos engine.Position, lim engine.Limits) (engine.Move, error) {
	sctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	t0 := time.Now()
	mv, err := s.Move(sctx, pos, lim)
	if err == nil && mv.UCI == "" {
		err = fmt.Errorf("movesource: %s gave an empty move", s.Name())
	}
	if err == nil && mv.Source == "" {
		mv.Source = s.Name()
	}
	if e.onEvent != nil {
		ev := Event{Source: s.Name(), Err: err, Elapsed: time.Since(t0)}
		if err == nil {
			ev.Move = mv.UCI
		}
		e.onEvent(ev)
	}
	return mv, err
}

// shorten takes the time the sources used off the move's time limits.
func shorten(lim engine.Limits, used time.Duration) engine.Limits {
	if used <= 0 {
		return lim
	}
	cut := func(d time.Duration) time.Duration {
		if d <= 0 {
			return d
		}
		return max(d-used, time.Millisecond)
	}
	lim.Deadline = cut(lim.Deadline)
	lim.MoveTime = cut(lim.MoveTime)
	if lim.FirstMoveLeft > 0 {
		lim.FirstMoveLeft = cut(lim.FirstMoveLeft)
	}
	return lim
}
