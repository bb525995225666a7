package analysis

import (
	"context"
	"strings"
	"testing"
)

// TestAnalyserErrors: a game without Lichess's evals is a SkippedError
// naming it (the run goes on); an engine that cannot start is not (the
// run ends); Close without a game started no engine.
func TestAnalyserErrors(t *testing.T) {
	ctx := context.Background()
	an := NewAnalyser(BatchOptions{LichessEvals: true})
	a, err := an.Analyse(ctx, gameFromSAN(t, "e4 e5 Nf3"))
	if a != nil || !IsSkipped(err) || !strings.Contains(err.Error(), "test game 1") {
		t.Fatalf("game without evals: %v %v", a, err)
	}
	if err := an.Close(); err != nil {
		t.Fatal(err)
	}
	an = NewAnalyser(BatchOptions{Pool: PoolConfig{Command: []string{"/nonexistent/engine"}, Workers: 1}})
	if err := an.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := an.Analyse(ctx, gameFromSAN(t, "e4")); err == nil || IsSkipped(err) {
		t.Fatalf("missing engine: %v, want an error ending the run", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := an.Analyse(cctx, gameFromSAN(t, "e4")); err != context.Canceled {
		t.Fatalf("cancelled: %v", err)
	}
}
