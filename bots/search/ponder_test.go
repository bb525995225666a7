package search

import (
	"context"
	"fmt"
	"testing"

	"github.com/outpostchess/outpost/bots/engine"
)

// TestPonderSearchHitReusesTable: after pondering to depth 9, a hit limited
// to a node budget resumes after the pondered iterations: it reports at
// least their depth and reaches a greater depth than the same budget from a
// cold engine, on several positions, with and without EvalPlus. Before the
// hit resumed the ponder search's result, it started again at depth 1 and
// reached depth 6-8, often no deeper than cold (7 and 7 after 1.e4 e5 2.Nf3
// Nc6 3.Bb5 with EvalPlus): the deep table entries' bounds rarely cut in
// the shallow iterations, whose windows follow other scores. A hit whose depth limit the pondering
// already met answers the pondered result without searching.
func TestPonderSearchHitReusesTable(t *testing.T) {
	positions := [][]string{
		{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5"},
		{"d2d4", "d7d5", "c2c4", "e7e6", "b1c3", "g8f6", "c1g5"},
		{"e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6", "b1c3"},
	}
	const nodes, ponderDepth = 8000, 7
	for _, feats := range []Features{AllFeatures &^ FeatEvalPlus, AllFeatures | FeatEvalPlus} {
		for _, moves := range positions {
			pos := engine.Position{Moves: moves}
			name := fmt.Sprintf("%s/%v", feats, moves)
			p := ponderToDepth(t, pos, feats, ponderDepth)
			hit, err := p.Hit(context.Background(), engine.Limits{Nodes: nodes})
			if err != nil {
				t.Fatalf("%s: Hit: %v", name, err)
			}
			p.Stop() // a no-op after the hit
			checkLegal(t, pos, hit.UCI)
			cold := newTestHard(t, feats)
			fresh, err := cold.SelectMove(context.Background(), pos, engine.Limits{Nodes: nodes})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: depth %d after the ponder hit, %d cold", name, hit.Depth, fresh.Depth)
			if hit.Depth < ponderDepth || hit.Depth <= fresh.Depth {
				t.Errorf("%s: depth after a ponder hit to depth %d = %d, cold = %d (same %d-node budget): the pondering was not reused",
					name, ponderDepth, hit.Depth, fresh.Depth, nodes)
			}

			p = ponderToDepth(t, pos, feats, ponderDepth)
			pondered := p.(*pondering).ponderMove
			again, err := p.Hit(context.Background(), engine.Limits{Depth: ponderDepth})
			if err != nil {
				t.Fatalf("%s: Hit: %v", name, err)
			}
			if again.UCI != pondered.UCI || again.Depth != ponderDepth || again.Nodes != 0 {
				t.Errorf("%s: hit at the pondered depth = %s depth %d, %d nodes; want the pondered %s at depth %d without a search",
					name, again.UCI, again.Depth, again.Nodes, pondered.UCI, ponderDepth)
			}
		}
	}
}

// newTestHard is a hard engine with a 16 MiB table and the features feats.
func newTestHard(t *testing.T, feats Features) *Engine {
	t.Helper()
	e, err := NewHard(WithHashMB(16), WithFeatures(feats))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return e
}

// ponderToDepth starts a ponder search of pos on a new engine and waits
// until it has finished depth d.
func ponderToDepth(t *testing.T, pos engine.Position, feats Features, d int) engine.Pondering {
	t.Helper()
	p, err := newTestHard(t, feats).Ponder(context.Background(), pos, engine.Limits{Depth: d})
	if err != nil {
		t.Fatal(err)
	}
	<-p.(*pondering).done
	if pm := p.(*pondering); pm.ponderErr != nil || pm.ponderMove.Depth != d {
		t.Fatalf("ponder search of %v: %+v, %v; want depth %d", pos.Moves, pm.ponderMove, pm.ponderErr, d)
	}
	return p
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
