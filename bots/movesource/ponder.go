package movesource

import (
	"context"
	"time"

	"github.com/outpostchess/outpost/bots/engine"
)

// Ponder implements engine.Ponderer when the wrapped engine does: the
// wrapped engine ponders, and on a hit the sources are still asked first
// (a book or tablebase move beats a search), the pondering search being
// stopped when one answers. An engine that cannot ponder gives an error
// naming it.
func (e *Engine) Ponder(ctx context.Context, pos engine.Position, lim engine.Limits) (engine.Pondering, error) {
	return engine.PonderWrapped(ctx, "movesource", e.inner, pos, lim, e.ponderHit)
}

// CanPonder reports whether the wrapped engine can ponder.
func (e *Engine) CanPonder() bool { return engine.CanPonder(e.inner) }

// ponderHit asks the sources on a hit before the wrapped search answers.
func (e *Engine) ponderHit(ctx context.Context, in engine.Pondering, pos engine.Position, lim engine.Limits) (engine.Move, error) {
	start := time.Now()
	mv, ok, err := e.fromSources(ctx, pos, lim)
	if ok || err != nil {
		in.Stop()
		return mv, err
	}
	return in.Hit(ctx, shorten(lim, time.Since(start)))
}
