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
// ponder through it and wrap the Pondering it returns.
func PonderOf(ctx context.Context, e Engine, pos Position, lim Limits) (Pondering, error) {
	p, ok := e.(Ponderer)
	if !ok {
		return nil, fmt.Errorf("engine %s cannot ponder", e.Name())
	}
	return p.Ponder(ctx, pos, lim)
}
