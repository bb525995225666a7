package search

import (
	"context"
	"sync"

	"github.com/outpostchess/outpost/bots/engine"
)

var _ engine.Ponderer = (*Engine)(nil)

// Ponder implements engine.Ponderer: it searches pos (the position after
// the expected reply) without a time bound in the background, filling the
// transposition table. Hit stops that search and searches again under the
// real limits, resuming after the last iteration the ponder search
// completed (its move, score and depth; the table holds its tree), so the
// move's budget goes into deeper iterations only. Stop cancels the ponder search. The
// medium engine, which has no table, gains nothing from pondering but is
// still correct.
func (e *Engine) Ponder(ctx context.Context, pos engine.Position, lim engine.Limits) (engine.Pondering, error) {
	pctx, cancel := context.WithCancel(ctx)
	p := &pondering{e: e, pos: pos, cancel: cancel, done: make(chan struct{})}
	plim := engine.Limits{Infinite: true, Depth: lim.Depth, Nodes: lim.Nodes}
	go func() {
		defer close(p.done)
		p.ponderMove, p.ponderErr = e.SelectMove(pctx, pos, plim)
	}()
	return p, nil
}

// pondering is one background search of the built-in engines.
type pondering struct {
	e      *Engine
	pos    engine.Position
	cancel context.CancelFunc
	done   chan struct{}

	once sync.Once

	ponderMove engine.Move // valid after done
	ponderErr  error
}

// Hit implements engine.Pondering.
func (p *pondering) Hit(ctx context.Context, lim engine.Limits) (engine.Move, error) {
	p.halt()
	var seed *engine.Move
	if p.ponderErr == nil {
		seed = &p.ponderMove
	}
	return p.e.selectMove(ctx, p.pos, lim, seed)
}

// Stop implements engine.Pondering.
func (p *pondering) Stop() { p.halt() }

// halt cancels the background search and waits for it.
func (p *pondering) halt() {
	p.once.Do(p.cancel)
	<-p.done
}
