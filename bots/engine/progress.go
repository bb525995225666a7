package engine

import (
	"context"
	"slices"
	"sync"
)

// progressKey is the context key of a search's progress sink.
type progressKey struct{}

// BestSoFar holds an engine's best move so far during one search: an
// engine reports each completed iteration (or, for an external engine,
// each principal variation it prints) into it, and whoever set it up — the
// fallback that enforces the move's deadline — can play that move when the
// engine has not answered by then, even while the engine's goroutine is
// not scheduled. The zero value is empty and ready to use.
type BestSoFar struct {
	mu sync.Mutex
	m  Move
	ok bool
}

// Report records m as the best move so far (a move without UCI is ignored).
func (b *BestSoFar) Report(m Move) {
	if m.UCI == "" {
		return
	}
	m.PV = slices.Clone(m.PV)
	b.mu.Lock()
	b.m, b.ok = m, true
	b.mu.Unlock()
}

// Get returns the last move reported, and whether there was one.
func (b *BestSoFar) Get() (Move, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.m, b.ok
}

// WithBestSoFar returns a context whose searches report their best move so
// far into b (see ReportBestSoFar).
func WithBestSoFar(ctx context.Context, b *BestSoFar) context.Context {
	return context.WithValue(ctx, progressKey{}, b)
}

// ReportBestSoFar records m as the best move so far of the search ctx
// belongs to; it does nothing when nobody asked (no WithBestSoFar). Engines
// call it whenever their best move changes for a move they would play if
// stopped now: after each completed iteration, not during one.
func ReportBestSoFar(ctx context.Context, m Move) {
	if b, ok := ctx.Value(progressKey{}).(*BestSoFar); ok && b != nil {
		b.Report(m)
	}
}
