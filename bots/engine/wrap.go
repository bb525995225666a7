package engine

import (
	"context"
	"fmt"
)

// InfoOf returns e's Info, or a minimal one (its name) when e is not
// Inspectable: what an engine wrapping e reports as its own.
func InfoOf(e Engine) Info {
	if in, ok := e.(Inspectable); ok {
		return in.Info()
	}
	return Info{Name: e.Name()}
}

// ConfigureOf passes options to e; an engine that is not Configurable is an
// error naming it.
func ConfigureOf(e Engine, options map[string]string) error {
	c, ok := e.(Configurable)
	if !ok {
		return fmt.Errorf("engine %s takes no options", e.Name())
	}
	return c.Configure(options)
}

// NewGameOf tells e that a new game starts when e is Stateful.
func NewGameOf(ctx context.Context, e Engine) error {
	if s, ok := e.(Stateful); ok {
		return s.NewGame(ctx)
	}
	return nil
}

// PonderOf starts e pondering when e is a Ponderer; an engine that cannot
// ponder is an error naming it. Wrappers (fallback, move sources, limits)
// ponder through PonderWrapped, which calls it.
func PonderOf(ctx context.Context, e Engine, pos Position, lim Limits) (Pondering, error) {
	p, ok := e.(Ponderer)
	if !ok {
		return nil, fmt.Errorf("engine %s cannot ponder", e.Name())
	}
	return p.Ponder(ctx, pos, lim)
}

// HitFunc answers a ponder hit for a wrapper engine: inner is the wrapped
// engine's Pondering, pos the position it ponders, lim the hit's limits.
type HitFunc func(ctx context.Context, inner Pondering, pos Position, lim Limits) (Move, error)

// PonderWrapped starts e pondering pos under lim, as PonderOf does, and
// returns a Pondering whose Hit is hit applied to e's Pondering and whose
// Stop stops e's. Wrappers (fallback, move sources, limits) ponder through
// it, each adding its own rule to a hit; wrapper names the wrapper in the
// error of an engine that cannot ponder.
func PonderWrapped(ctx context.Context, wrapper string, e Engine, pos Position, lim Limits, hit HitFunc) (Pondering, error) {
	in, err := PonderOf(ctx, e, pos, lim)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", wrapper, err)
	}
	return &wrappedPondering{inner: in, pos: pos, hit: hit}, nil
}

// wrappedPondering is the Pondering PonderWrapped returns.
type wrappedPondering struct {
	inner Pondering
	pos   Position
	hit   HitFunc
}

// Hit implements Pondering.
func (p *wrappedPondering) Hit(ctx context.Context, lim Limits) (Move, error) {
	return p.hit(ctx, p.inner, p.pos, lim)
}

// Stop implements Pondering.
func (p *wrappedPondering) Stop() { p.inner.Stop() }
