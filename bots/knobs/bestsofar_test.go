package knobs

import (
	"context"
	"testing"
	"time"

	"github.com/outpostchess/outpost/bots/engine"
)

// TestExpiredDeadlineStillSearched: a search whose deadline has already
// passed when it starts still finishes its first iteration and plays its
// move (the queen taken), never an unsearched one, and reports it as the
// best move so far; a deeper search reports its last iteration.
func TestExpiredDeadlineStillSearched(t *testing.T) {
	cfg := Defaults()
	cfg.MaxExtensionPlies = 12 // capture lines explored deeper: depth 1 takes more than one deadline check (256 nodes)
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	// a busy middlegame (depth 1 takes the knobs' line search several
	// hundred nodes) where the black queen on d4 hangs to the knight
	pos := engine.Position{StartFEN: "r4rk1/1pp2ppp/p1np1n2/2b1p1B1/2BqP1b1/P2P1N2/1PP1QPPP/R4RK1 w - - 0 10"}
	tests := []struct {
		name string
		lim  engine.Limits
	}{
		{name: "expired", lim: engine.Limits{Deadline: time.Nanosecond, WTime: time.Minute, BTime: time.Minute}},
		{name: "depth 2", lim: engine.Limits{Depth: 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var best engine.BestSoFar
			m, err := e.SelectMove(engine.WithBestSoFar(context.Background(), &best), pos, tc.lim)
			if err != nil {
				t.Fatal(err)
			}
			if m.UCI != "f3d4" || m.Depth < 1 {
				t.Errorf("%+v, want the queen taken at depth 1 or more", m)
			}
			if b, ok := best.Get(); !ok || b.UCI != m.UCI || b.Depth != m.Depth {
				t.Errorf("best so far %+v (%v), want the move played %+v", b, ok, m)
			}
		})
	}
}
