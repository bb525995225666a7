package movesource

import (
	"context"
	"fmt"
	"time"

	"github.com/outpostchess/outpost/bots/engine"
)

// Ponder implements engine.Ponderer when the wrapped engine does: the
// wrapped engine ponders, and on a hit the sources are still asked first
// (a book or tablebase move beats a search), the pondering search being
// stopped when one answers. An engine that cannot ponder gives an error
// naming it.
func (e *Engine) Ponder(ctx context.Context, pos engine.Position, lim engine.Limits) (engine.Pondering, error) {
	in, err := engine.PonderOf(ctx, e.inner, pos, lim)
	if err != nil {
		return nil, fmt.Errorf("movesource: %w", err)
	}
	return &pondering{e: e, inner: in, pos: pos}, nil
}

// CanPonder reports whether the wrapped engine can ponder.
func (e *Engine) CanPonder() bool { return engine.CanPonder(e.inner) }

// pondering asks the sources on a hit before the wrapped search answers.
type pondering struct {
	e     *Engine
	inner engine.Pondering
	pos   engine.Position
}

// Hit implements engine.Pondering.
func (p *pondering) Hit(ctx context.Context, lim engine.Limits) (engine.Move, error) {
	start := time.Now()
	mv, ok, err := p.e.fromSources(ctx, p.pos, lim)
	if ok || err != nil {
		p.inner.Stop()
		return mv, err
	}
	return p.inner.Hit(ctx, shorten(lim, time.Since(start)))
}

// Stop implements engine.Pondering.
func (p *pondering) Stop() { p.inner.Stop() }
