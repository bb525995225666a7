package bots

import (
	"context"

	"github.com/outpostchess/outpost/bots/engine"
)

// Ponder implements engine.Ponderer when the primary does (see CanPonder):
// the primary ponders; on a hit its answer is checked as SelectMove checks
// it, and when it fails or is illegal the move is chosen by an ordinary
// SelectMove (primary, then secondary, then the first legal move).
func (f *Fallback) Ponder(ctx context.Context, pos engine.Position, lim engine.Limits) (engine.Pondering, error) {
	return engine.PonderWrapped(ctx, "bots: "+f.primary.Name(), f.primary, pos, lim, f.ponderHit)
}

// CanPonder reports whether the primary can ponder.
func (f *Fallback) CanPonder() bool { return engine.CanPonder(f.primary) }

// ponderHit checks the primary's answer on a hit.
func (f *Fallback) ponderHit(ctx context.Context, in engine.Pondering, pos engine.Position, lim engine.Limits) (engine.Move, error) {
	m, err := in.Hit(ctx, lim)
	if err == nil {
		if g, berr := f.positions.board(pos); berr == nil && isLegal(g, m.UCI) {
			return m, nil
		}
	}
	f.log.Warn().Err(err).Str("engine", f.primary.Name()).Str("move", m.UCI).
		Msg("pondering gave no legal move; searching again")
	return f.SelectMove(ctx, pos, lim)
}
