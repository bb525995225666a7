package search

import (
	"context"
	"testing"
	"time"

	"github.com/outpostchess/outpost/bots/engine"
)

// TestExpiredDeadlineStillSearched: a search whose deadline has already
// passed when it starts (the process was not scheduled in time) still
// finishes its first iteration and plays that move, the queen capture
// here, never an unsearched legal move; the iteration is reported as the
// best move so far.
func TestExpiredDeadlineStillSearched(t *testing.T) {
	pos := engine.Position{StartFEN: "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1"}
	for _, newEngine := range []func(...Option) (*Engine, error){NewMedium, NewHard} {
		e, err := newEngine(WithHashMB(8))
		if err != nil {
			t.Fatal(err)
		}
		var best engine.BestSoFar
		ctx := engine.WithBestSoFar(context.Background(), &best)
		m, err := e.SelectMove(ctx, pos, engine.Limits{Deadline: time.Nanosecond, WTime: time.Minute, BTime: time.Minute})
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		if m.UCI != "d1d5" || m.Depth < 1 {
			t.Errorf("%s: %+v, want the queen taken at depth 1 or more", e.Name(), m)
		}
		if b, ok := best.Get(); !ok || b.UCI != m.UCI || b.Depth != m.Depth {
			t.Errorf("%s: best so far %+v (%v), want the move played %+v", e.Name(), b, ok, m)
		}
	}
}

// TestIterationsReportedAsBestSoFar: every completed iteration is reported,
// the last one being the move returned.
func TestIterationsReportedAsBestSoFar(t *testing.T) {
	pos := engine.Position{StartFEN: "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"}
	for _, e := range engines(t) {
		var best engine.BestSoFar
		m, err := e.SelectMove(engine.WithBestSoFar(context.Background(), &best), pos, engine.Limits{Depth: 4})
		if err != nil {
			t.Fatal(err)
		}
		b, ok := best.Get()
		if !ok || b.UCI != m.UCI || b.Depth != 4 {
			t.Errorf("%s: best so far %+v (%v), want depth 4 and %s", e.Name(), b, ok, m.UCI)
		}
	}
}
