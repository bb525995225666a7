package uci

import (
	"context"
	"errors"
	"strings"
	"sync"
)

// ErrPonderState is returned by PonderSearch.Hit when the search was already
// hit or stopped.
var ErrPonderState = errors.New("uci: ponder search already hit or stopped")

// PonderSearch is a search started with "go ponder". It holds the engine
// (no other command sequence runs) until it ends with Hit or Stop.
type PonderSearch struct {
	cancel context.CancelFunc
	done   chan struct{}
	p      *process

	mu  sync.Mutex
	hit bool // ponderhit sent
	end bool // Stop called

	res *Result // valid after done is closed
	err error
}

// Ponder starts a search of pos with "go ponder" and the clocks, depth and
// nodes of lim (its move time is not sent: it would count from the start of
// pondering). The engine searches until Hit ("ponderhit") or Stop
// ("stop", the answer discarded). ctx ending stops the search as Stop does.
func (e *Engine) Ponder(ctx context.Context, pos Position, lim Limits) (*PonderSearch, error) {
	posCmd, err := PositionCommand(pos)
	if err != nil {
		return nil, err
	}
	goCmd, err := GoCommand(Limits{WTime: lim.WTime, BTime: lim.BTime, WInc: lim.WInc, BInc: lim.BInc, MovesToGo: lim.MovesToGo,
		Depth: lim.Depth, Nodes: lim.Nodes})
	if err != nil {
		return nil, err
	}
	goCmd = "go ponder" + strings.TrimPrefix(goCmd, "go")
	e.op.Lock()
	release := true
	defer func() {
		if release {
			e.op.Unlock()
		}
	}()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p, err := e.current()
	if err != nil {
		return nil, err
	}
	if err := e.start(ctx, p, 1, pos.Chess960, posCmd, goCmd, "ponder"); err != nil {
		return nil, err
	}
	sctx, cancel := context.WithCancel(ctx)
	s := &PonderSearch{cancel: cancel, done: make(chan struct{}), p: p}
	release = false
	go func() {
		defer e.op.Unlock()
		defer close(s.done)
		s.res, s.err = e.collect(sctx, p, nil)
	}()
	return s, nil
}

// Hit sends "ponderhit": the engine goes on as in an ordinary search with
// the clocks given to Ponder and answers bestmove. When ctx ends first the
// search is stopped and its best move so far returned (Result.Stopped).
func (s *PonderSearch) Hit(ctx context.Context) (*Result, error) {
	s.mu.Lock()
	if s.hit || s.end {
		s.mu.Unlock()
		return nil, ErrPonderState
	}
	s.hit = true
	s.mu.Unlock()
	select {
	case <-s.done:
		// The search ended already (the engine died, or ctx ended).
		if s.err == nil && s.res != nil && s.res.Stopped {
			return nil, context.Canceled
		}
		return s.res, s.err
	default:
	}
	if err := s.p.send("ponderhit"); err != nil {
		s.cancel()
		<-s.done
		return nil, s.p.crash("ponderhit", err)
	}
	select {
	case <-s.done:
	case <-ctx.Done():
		s.cancel() // "stop": the engine answers its best move so far
		<-s.done
	}
	s.cancel()
	return s.res, s.err
}

// Stop ends a search that was not hit: it sends "stop", waits for the
// engine's bestmove and discards it, leaving the engine free. It is
// idempotent, and a no-op once Hit was called.
func (s *PonderSearch) Stop() {
	s.mu.Lock()
	if s.hit {
		s.mu.Unlock()
		return
	}
	s.end = true
	s.mu.Unlock()
	s.cancel()
	<-s.done
}

// Done is closed when the search has ended (bestmove read, or the engine
// failed).
func (s *PonderSearch) Done() <-chan struct{} { return s.done }
