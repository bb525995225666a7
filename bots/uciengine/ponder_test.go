package uciengine

import (
	"context"
	"testing"
	"time"

	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/bots/uci/pipetest"
)

// TestPonderStockfish ponders with the real Stockfish: a hit answers a legal
// move within the deadline computed at the hit, a miss (Stop) leaves the
// engine ready for an ordinary search.
func TestPonderStockfish(t *testing.T) {
	eng, err := New(context.Background(), Config{Path: pipetest.Installed(t, enginepath.DebianStockfish), Options: map[string]string{"Hash": "16", "Threads": "1"}})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	ctx := context.Background()
	pos := engine.Position{Moves: []string{"e2e4", "e7e5", "g1f3", "b8c6"}}
	clock := engine.Limits{WTime: time.Minute, BTime: time.Minute, WInc: time.Second, BInc: time.Second}

	p, err := eng.Ponder(ctx, pos, clock)
	if err != nil {
		t.Fatalf("Ponder: %v", err)
	}
	hitLim := clock
	hitLim.Deadline = 300 * time.Millisecond
	m, err := p.Hit(ctx, hitLim)
	if err != nil {
		t.Fatalf("Hit: %v", err)
	}
	if !legal(t, pos, m.UCI) || !m.HasScore || m.Depth == 0 {
		t.Errorf("move after ponderhit = %+v, want a legal searched move", m)
	}

	p, err = eng.Ponder(ctx, pos, clock)
	if err != nil {
		t.Fatalf("Ponder: %v", err)
	}
	p.Stop()
	m, err = eng.SelectMove(ctx, pos, engine.Limits{Depth: 8})
	if err != nil || !legal(t, pos, m.UCI) {
		t.Fatalf("SelectMove after a stopped ponder = %+v, %v", m, err)
	}
	if len(m.PV) < 2 {
		t.Errorf("PV %q has no expected reply to ponder on", m.PV)
	}
}
