package uciengine

import (
	"context"
	"testing"

	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/uci/ucitest"
)

// TestInfoLinesReportedAsBestSoFar: each main-line PV the engine prints is
// reported as its best move so far (engine.ReportBestSoFar), so that the
// fallback can play it if the engine's bestmove comes too late.
func TestInfoLinesReportedAsBestSoFar(t *testing.T) {
	e := fake(t, ucitest.Normal)
	pos := engine.Position{Moves: []string{"e2e4", "c7c5", "g1f3"}}
	var best engine.BestSoFar
	m, err := e.SelectMove(engine.WithBestSoFar(context.Background(), &best), pos, engine.Limits{Depth: 3})
	if err != nil {
		t.Fatal(err)
	}
	b, ok := best.Get()
	if !ok || b.UCI != m.UCI || b.Depth != 3 || !b.HasScore {
		t.Errorf("best so far %+v (%v), want the main line's move %s at depth 3", b, ok, m.UCI)
	}
}
