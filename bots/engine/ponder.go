package engine

import "context"

// Ponderer engines can think on the opponent's time: after playing a move
// they search the position that the expected reply would give, and either
// carry on when the reply comes (a "ponder hit") or drop the search.
type Ponderer interface {
	Engine
	// Ponder starts searching pos in the background and returns at once.
	// pos ends with the expected reply of the opponent, so our side is to
	// move. lim carries the clocks as they stand when pondering starts;
	// no time bound of lim applies: the search runs until Hit or Stop (or
	// ctx ends). The returned Pondering must be ended with Hit or Stop.
	Ponder(ctx context.Context, pos Position, lim Limits) (Pondering, error)
}

// Pondering is a search running on the opponent's time.
type Pondering interface {
	// Hit tells the engine that the expected reply was played: the search
	// goes on as an ordinary search under lim, computed from the real clock
	// at this moment (time spent pondering is not ours), and its move is
	// returned. Hit may be called once; ctx ends the search early with the
	// best move so far.
	Hit(ctx context.Context, lim Limits) (Move, error)
	// Stop ends the search and discards it (the reply was another move, or
	// the game ended). It waits until the engine is free again and is
	// idempotent; after Hit it is a no-op.
	Stop()
}

// CanPonder reports whether e can really ponder: a wrapper that forwards
// Ponder to the engine it wraps says so with a CanPonder method.
func CanPonder(e Engine) bool {
	if c, ok := e.(interface{ CanPonder() bool }); ok {
		return c.CanPonder()
	}
	_, ok := e.(Ponderer)
	return ok
}
