package search

import (
	"context"
	"testing"

	"github.com/outpostchess/outpost/bots/engine"
)

// TestPonderSearchHitReusesTable: after pondering to depth 9, a hit limited
// to a node budget reaches a greater depth than the same budget from a cold
// table, because the pondered iterations are in the transposition table.
func TestPonderSearchHitReusesTable(t *testing.T) {
	pos := engine.Position{Moves: []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5"}}
	const nodes = 20000
	warm, err := NewHard(WithHashMB(16))
	if err != nil {
		t.Fatal(err)
	}
	defer warm.Close()
	p, err := warm.Ponder(context.Background(), pos, engine.Limits{Depth: 9})
	if err != nil {
		t.Fatal(err)
	}
	<-p.(*pondering).done // let the ponder search finish its depth
	hit, err := p.Hit(context.Background(), engine.Limits{Nodes: nodes})
	if err != nil {
		t.Fatalf("Hit: %v", err)
	}
	p.Stop() // a no-op after the hit

	cold, err := NewHard(WithHashMB(16))
	if err != nil {
		t.Fatal(err)
	}
	defer cold.Close()
	fresh, err := cold.SelectMove(context.Background(), pos, engine.Limits{Nodes: nodes})
	if err != nil {
		t.Fatal(err)
	}
	if hit.Depth <= fresh.Depth {
		t.Errorf("depth after a ponder hit = %d, cold = %d (same %d-node budget): the table was not reused", hit.Depth, fresh.Depth, nodes)
	}
}

// TestPonderSearchStop: an unbounded ponder search ends on Stop (twice is
// fine) and the engine searches normally afterwards.
func TestPonderSearchStop(t *testing.T) {
	e, err := NewHard(WithHashMB(16))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	pos := engine.Position{Moves: []string{"d2d4", "d7d5"}}
	p, err := e.Ponder(context.Background(), pos, engine.Limits{WTime: 1 << 40})
	if err != nil {
		t.Fatal(err)
	}
	p.Stop()
	p.Stop()
	select {
	case <-p.(*pondering).done:
	default:
		t.Fatal("Stop returned before the ponder search ended")
	}
	if m, err := e.SelectMove(context.Background(), pos, engine.Limits{Depth: 3}); err != nil || m.UCI == "" {
		t.Fatalf("SelectMove after Stop = %+v, %v", m, err)
	}
}
