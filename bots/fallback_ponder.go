package bots

import (
	"context"
	"fmt"

	"github.com/outpostchess/outpost/bots/engine"
)

// Ponder implements engine.Ponderer when the primary does (see CanPonder):
// the primary ponders; on a hit its answer is checked as SelectMove checks
// it, and when it fails or is illegal the move is chosen by an ordinary
// SelectMove (primary, then secondary, then the first legal move).
func (f *Fallback) Ponder(ctx context.Context, pos engine.Position, lim engine.Limits) (engine.Pondering, error) {
	in, err := engine.PonderOf(ctx, f.primary, pos, lim)
	if err != nil {
		return nil, fmt.Errorf("bots: %s: %w", f.primary.Name(), err)
	}
	return &fallbackPondering{f: f, inner: in, pos: pos}, nil
}

// CanPonder reports whether the primary can ponder.
func (f *Fallback) CanPonder() bool { return engine.CanPonder(f.primary) }

// fallbackPondering checks the primary's answer on a hit.
type fallbackPondering struct {
	f     *Fallback
	inner engine.Pondering
	pos   engine.Position
}

// Hit implements engine.Pondering.
func (p *fallbackPondering) Hit(ctx context.Context, lim engine.Limits) (engine.Move, error) {
	m, err := p.inner.Hit(ctx, lim)
	if err == nil {
		if g, berr := p.f.positions.board(p.pos); berr == nil && isLegal(g, m.UCI) {
			return m, nil
		}
	}
	p.f.log.Warn().Err(err).Str("engine", p.f.primary.Name()).Str("move", m.UCI).
		Msg("pondering gave no legal move; searching again")
	return p.f.SelectMove(ctx, p.pos, lim)
}

// Stop implements engine.Pondering.
func (p *fallbackPondering) Stop() { p.inner.Stop() }
