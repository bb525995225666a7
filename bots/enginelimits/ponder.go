package enginelimits

import (
	"context"
	"fmt"

	"github.com/outpostchess/outpost/bots/engine"
)

// Ponder implements engine.Ponderer when the wrapped engine does: it
// ponders under the capped limits (depth and nodes count from the start of
// the search, so they hold for a ponder search too), and a hit is capped
// and given its think time as SelectMove is.
func (e *Engine) Ponder(ctx context.Context, pos engine.Position, lim engine.Limits) (engine.Pondering, error) {
	in, err := engine.PonderOf(ctx, e.inner, pos, e.opt.Caps.Apply(lim))
	if err != nil {
		return nil, fmt.Errorf("enginelimits: %w", err)
	}
	return &pondering{e: e, inner: in, pos: pos}, nil
}

// CanPonder reports whether the wrapped engine can ponder.
func (e *Engine) CanPonder() bool { return engine.CanPonder(e.inner) }

// pondering applies the limits to a hit.
type pondering struct {
	e     *Engine
	inner engine.Pondering
	pos   engine.Position
}

// Hit implements engine.Pondering.
func (p *pondering) Hit(ctx context.Context, lim engine.Limits) (engine.Move, error) {
	start := p.e.opt.Now()
	mv, err := p.inner.Hit(ctx, p.e.opt.Caps.Apply(lim))
	if err != nil {
		return mv, err
	}
	if d := p.e.delay(p.pos, lim); d > 0 {
		if wait := d - p.e.opt.Now().Sub(start); wait > 0 {
			_ = p.e.opt.Sleep(ctx, wait) // cancelled: the move stands
		}
	}
	return mv, nil
}

// Stop implements engine.Pondering.
func (p *pondering) Stop() { p.inner.Stop() }
