package runner

import (
	"context"
	"slices"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/engine"
)

// pondering is a search on the opponent's time: the position after our
// move and the reply the engine expects.
type pondering struct {
	moves   []string // the game's moves, our move and the expected reply
	cancel  context.CancelFunc
	started chan struct{} // closed once Ponder returned
	p       engine.Pondering
	err     error
}

// ponderer returns the engine's pondering ability when this game should
// use it: Config.Ponder set, an engine that can ponder, and a real-time
// clock (never in correspondence).
func (r *Runner) ponderer() (engine.Ponderer, bool) {
	if !r.cfg.Ponder || r.full == nil || r.full.Clock == nil || r.full.Speed == "correspondence" {
		return nil, false
	}
	p, ok := r.eng.(engine.Ponderer)
	return p, ok && engine.CanPonder(r.eng)
}

// startPonder starts pondering after our move uci at ply when the engine
// expects a reply (its PV's second move) that is legal.
func (r *Runner) startPonder(ctx context.Context, ply int, uci string, mv engine.Move) {
	pe, ok := r.ponderer()
	if !ok || len(mv.PV) < 2 || r.game == nil || len(r.gameMoves) != ply {
		return
	}
	b := r.game.Clone()
	m, err := b.ParseUCI(uci)
	if err != nil {
		return
	}
	b.Make(m)
	reply, err := b.ParseUCI(mv.PV[1])
	if err != nil || !legalMove(b, reply) {
		return
	}
	r.stopPonder()
	moves := append(append(slices.Clone(r.gameMoves), uci), reply.String())
	pos := engine.Position{StartFEN: r.start.fen, Moves: moves, Chess960: r.chess960()}
	lim := r.clockLimits(r.sinceState())
	pctx, cancel := context.WithCancel(ctx)
	ps := &pondering{moves: moves, cancel: cancel, started: make(chan struct{})}
	r.pond = ps
	r.log.Debug().Str("expect", reply.String()).Int("ply", ply+2).Msg("pondering")
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		defer close(ps.started)
		ps.p, ps.err = pe.Ponder(pctx, pos, lim)
	}()
}

// legalMove reports whether m is legal on b.
func legalMove(b *board.Board, m board.Move) bool {
	for _, l := range b.LegalMoves() {
		if l == m {
			return true
		}
	}
	return false
}

// takePonder returns the pondering that matches the game's moves now (a
// hit), or nil; any other pondering is stopped in the background (a miss).
func (r *Runner) takePonder() *pondering {
	ps := r.pond
	if ps == nil {
		return nil
	}
	r.pond = nil
	if slices.Equal(ps.moves, r.gameMoves) {
		r.out.PonderHits++
		return ps
	}
	r.out.PonderMisses++
	r.log.Debug().Str("expected", ps.moves[len(ps.moves)-1]).Msg("ponder miss")
	r.endPonder(ps)
	return nil
}

// stopPonder ends the current pondering, if any, in the background (the
// runner's wait group waits for it).
func (r *Runner) stopPonder() {
	if ps := r.pond; ps != nil {
		r.pond = nil
		r.endPonder(ps)
	}
}

// endPonder stops ps and waits for the engine to be free, in a goroutine
// the runner's wait group tracks. A search started after it (the miss's
// ordinary search) queues behind it in the engine.
func (r *Runner) endPonder(ps *pondering) {
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		<-ps.started
		if ps.p != nil {
			ps.p.Stop()
		}
		ps.cancel()
	}()
}

// selectMove is the engine's answer at ply: from the pondering search
// when it was a hit, otherwise from an ordinary search.
func (r *Runner) selectMove(ctx context.Context, hit *pondering, pos engine.Position, lim engine.Limits) (engine.Move, error) {
	if hit != nil {
		defer hit.cancel()
		select {
		case <-hit.started:
		case <-ctx.Done():
			return engine.Move{}, ctx.Err()
		}
		if hit.err == nil && hit.p != nil {
			return hit.p.Hit(ctx, lim)
		}
		r.log.Warn().Err(hit.err).Msg("pondering did not start; searching")
	}
	return r.eng.SelectMove(ctx, pos, lim)
}
