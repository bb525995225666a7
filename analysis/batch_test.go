package analysis

import (
	"context"
	"strings"
	"testing"
)

// TestAnalyseBatchLichessEvals: a game without Lichess's evals is skipped
// with a message naming it; the batch itself does not fail.
func TestAnalyseBatchLichessEvals(t *testing.T) {
	g := gameFromSAN(t, "e4 e5 Nf3")
	r, err := AnalyseBatch(context.Background(), []*Game{g}, BatchOptions{LichessEvals: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Analyses) != 0 || len(r.Skipped) != 1 || !strings.Contains(r.Skipped[0], "test game 1") || r.Interrupted != nil {
		t.Fatalf("result %+v", r)
	}
}

// TestAnalyseBatchNoEngine: an engine that cannot start fails the batch;
// no games start no engine at all.
func TestAnalyseBatchNoEngine(t *testing.T) {
	opt := BatchOptions{Pool: PoolConfig{Command: []string{"/nonexistent/engine"}, Workers: 1}}
	if _, err := AnalyseBatch(context.Background(), []*Game{gameFromSAN(t, "e4")}, opt); err == nil {
		t.Fatal("a missing engine was accepted")
	}
	r, err := AnalyseBatch(context.Background(), nil, opt)
	if err != nil || len(r.Analyses)+len(r.Skipped) != 0 {
		t.Fatalf("no games: %+v %v", r, err)
	}
}
