// Package enginelimits applies an operator's per-engine limits around any
// engine: caps on nodes, depth and move time (per speed and "go" commands,
// chosen by the app layer) that the game's time plan can still cut, and a
// human-like "think time" that delays moves found quickly, never past the
// time plan's target and never on a short clock.
package enginelimits

import (
	"context"

	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/timeman"
)

// Caps bound a search; zero fields are not caps.
type Caps struct {
	Nodes    int64
	Depth    int
	MoveTime time.Duration
}

// ThinkTime delays quick moves: a delay drawn uniformly in [Min, Max] is
// the least time a move takes, cut to the time plan's target; no delay is
// added with less than ShortClock on our clock (0 = DefaultShortClock) nor
// without a clock (correspondence). Max 0 disables it.
type ThinkTime struct {
	Min, Max   time.Duration
	ShortClock time.Duration
}

// DefaultShortClock is the clock below which no think time is added.
const DefaultShortClock = 30 * time.Second

// Options configure Wrap.
type Options struct {
	Caps  Caps
	Think ThinkTime
	// Rand draws think times; nil = seeded from the runtime.
	Rand *rand.Rand
	// Now and Sleep are the clock (nil = the wall clock); tests inject them.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
}

// Engine is an engine with limits applied. It forwards the wrapped engine's
// optional abilities (Configurable, Stateful, Inspectable, variants).
type Engine struct {
	inner engine.Engine
	opt   Options
	mu    sync.Mutex // guards opt.Rand
}

// Wrap returns inner with opt applied; inner itself when opt does nothing.
func Wrap(inner engine.Engine, opt Options) engine.Engine {
	if opt.Caps == (Caps{}) && opt.Think.Max <= 0 {
		return inner
	}
	if opt.Rand == nil {
		opt.Rand = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Sleep == nil {
		opt.Sleep = sleep
	}
	if opt.Think.ShortClock <= 0 {
		opt.Think.ShortClock = DefaultShortClock
	}
	return &Engine{inner: inner, opt: opt}
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Apply returns lim with the caps applied: each cap replaces an unset limit
// or a looser one. The deadline of the time plan is kept, so it still cuts.
func (c Caps) Apply(lim engine.Limits) engine.Limits {
	if lim.Infinite {
		return lim
	}
	if c.Nodes > 0 && (lim.Nodes == 0 || c.Nodes < lim.Nodes) {
		lim.Nodes = c.Nodes
	}
	if c.Depth > 0 && (lim.Depth == 0 || c.Depth < lim.Depth) {
		lim.Depth = c.Depth
	}
	if c.MoveTime > 0 && (lim.MoveTime == 0 || c.MoveTime < lim.MoveTime) {
		lim.MoveTime = c.MoveTime
	}
	return lim
}

// SelectMove searches under the capped limits, then waits out the think
// time if the move came sooner.
func (e *Engine) SelectMove(ctx context.Context, pos engine.Position, lim engine.Limits) (engine.Move, error) {
	start := e.opt.Now()
	mv, err := e.inner.SelectMove(ctx, pos, e.opt.Caps.Apply(lim))
	if err != nil {
		return mv, err
	}
	if d := e.delay(pos, lim); d > 0 {
		if wait := d - e.opt.Now().Sub(start); wait > 0 {
			if err := e.opt.Sleep(ctx, wait); err != nil {
				// Cancelled while waiting: the move stands; the runner
				// decides whether it is still wanted.
				return mv, nil
			}
		}
	}
	return mv, nil
}

// delay returns the think time for this move: 0 when off, without a clock,
// on a short clock; else a draw in [Min, Max] cut to the plan's target.
func (e *Engine) delay(pos engine.Position, lim engine.Limits) time.Duration {
	t := e.opt.Think
	if t.Max <= 0 || !lim.HasClock() {
		return 0
	}
	white := whiteToMove(pos)
	own := lim.WTime
	if !white {
		own = lim.BTime
	}
	if own < t.ShortClock {
		return 0
	}
	d := t.Min
	if t.Max > t.Min {
		e.mu.Lock()
		d += time.Duration(e.opt.Rand.Int64N(int64(t.Max - t.Min + 1)))
		e.mu.Unlock()
	}
	if p := timeman.Plan(lim, white); p.Bounded {
		d = min(d, p.Target)
	}
	return d
}

// whiteToMove tells the side to move from the start FEN and the moves.
func whiteToMove(pos engine.Position) bool {
	white := true
	if f := strings.Fields(pos.FEN()); len(f) > 1 && f[1] == "b" {
		white = false
	}
	return white == (len(pos.Moves)%2 == 0)
}

// Unwrap returns the wrapped engine.
func (e *Engine) Unwrap() engine.Engine { return e.inner }

// Name returns the wrapped engine's name.
func (e *Engine) Name() string { return e.inner.Name() }

// Close closes the wrapped engine.
func (e *Engine) Close() error { return e.inner.Close() }

// Variants returns the variants the wrapped engine plays.
func (e *Engine) Variants() []string { return engine.Variants(e.inner) }

// Info returns the wrapped engine's Info (a minimal one when it is not
// Inspectable).
func (e *Engine) Info() engine.Info { return engine.InfoOf(e.inner) }

// Configure passes options to the wrapped engine.
func (e *Engine) Configure(options map[string]string) error {
	if err := engine.ConfigureOf(e.inner, options); err != nil {
		return fmt.Errorf("enginelimits: %w", err)
	}
	return nil
}

// NewGame tells the wrapped engine that a new game starts.
func (e *Engine) NewGame(ctx context.Context) error { return engine.NewGameOf(ctx, e.inner) }
