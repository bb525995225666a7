package enginelimits

import (
	"context"

	"github.com/outpostchess/outpost/bots/engine"
)

// Ponder implements engine.Ponderer when the wrapped engine does: it
// ponders under the capped limits (depth and nodes count from the start of
// the search, so they hold for a ponder search too), and a hit is capped
// and given its think time as SelectMove is.
func (e *Engine) Ponder(ctx context.Context, pos engine.Position, lim engine.Limits) (engine.Pondering, error) {
	return engine.PonderWrapped(ctx, "enginelimits", e.inner, pos, e.opt.Caps.Apply(lim), e.ponderHit)
}

// CanPonder reports whether the wrapped engine can ponder.
func (e *Engine) CanPonder() bool { return engine.CanPonder(e.inner) }

// ponderHit applies the limits to a hit: the capped limits, then the think
// time counted from the hit.
func (e *Engine) ponderHit(ctx context.Context, in engine.Pondering, pos engine.Position, lim engine.Limits) (engine.Move, error) {
	start := e.opt.Now()
	mv, err := in.Hit(ctx, e.opt.Caps.Apply(lim))
	if err != nil {
		return mv, err
	}
	if d := e.delay(pos, lim); d > 0 {
		if wait := d - e.opt.Now().Sub(start); wait > 0 {
			_ = e.opt.Sleep(ctx, wait) // cancelled: the move stands
		}
	}
	return mv, nil
}
