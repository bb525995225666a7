package uciengine

import (
	"context"
	"fmt"
	"time"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/uci"
)

var _ engine.Ponderer = (*Engine)(nil)

// Ponder implements engine.Ponderer with UCI's "go ponder": the engine
// searches pos (which ends with the expected reply) with the clocks (and
// any depth or nodes cap) of lim until Hit sends "ponderhit" or Stop sends
// "stop".
func (e *Engine) Ponder(ctx context.Context, pos engine.Position, lim engine.Limits) (engine.Pondering, error) {
	if err := e.setOverhead(ctx, lim.MoveOverhead); err != nil {
		return nil, err
	}
	b, moves, err := replay(pos)
	if err != nil {
		return nil, fmt.Errorf("uciengine: ponder: %w", err)
	}
	upos := uci.Position{FEN: pos.StartFEN, Moves: moves, Chess960: pos.Chess960}
	s, err := e.c.Ponder(ctx, upos, Limits(engine.Limits{WTime: lim.WTime, BTime: lim.BTime, WInc: lim.WInc, BInc: lim.BInc, MovesToGo: lim.MovesToGo,
		Depth: lim.Depth, Nodes: lim.Nodes}))
	if err != nil {
		return nil, fmt.Errorf("uciengine: %s: ponder: %w", e.Name(), err)
	}
	return &pondering{e: e, s: s, b: b}, nil
}

// pondering is one "go ponder" search.
type pondering struct {
	e *Engine
	s *uci.PonderSearch
	b *board.Board // the pondered position, to write the answer's castling
}

// Hit sends "ponderhit". The engine then manages its time from the clocks
// given when pondering started; lim, computed from the real clock now, bounds
// the move on our side: its Deadline (the game's time plan) or a fixed move
// time stops the search with the best move so far.
func (p *pondering) Hit(ctx context.Context, lim engine.Limits) (engine.Move, error) {
	if d := hitBound(lim); d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	res, err := p.s.Hit(ctx)
	if err != nil {
		return engine.Move{}, fmt.Errorf("uciengine: %s: ponderhit: %w", p.e.Name(), err)
	}
	mv := toMove(res)
	if m, err := p.b.ParseUCI(mv.UCI); err == nil {
		mv.UCI = m.String()
		if len(mv.PV) > 0 {
			mv.PV[0] = mv.UCI
		}
	}
	return mv, nil
}

// Stop implements engine.Pondering.
func (p *pondering) Stop() { p.s.Stop() }

// hitBound is how long the search may go on after ponderhit: the tighter
// of the deadline and the fixed move time (less the overhead) of lim; 0
// when lim sets neither.
func hitBound(lim engine.Limits) time.Duration {
	d := lim.Deadline
	if lim.MoveTime > 0 {
		mt := max(lim.MoveTime-lim.MoveOverhead, time.Millisecond)
		if d == 0 || mt < d {
			d = mt
		}
	}
	return d
}
