package analysis

import (
	"strings"
	"testing"
	"time"

	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/bots/uci"
	"github.com/outpostchess/outpost/internal/testkit"
)

// stockfish19OrSkip skips the test when Stockfish 19 is not installed
// (setup.sh installs it, so CI runs these tests).
func stockfish19OrSkip(t testing.TB) {
	t.Helper()
	testkit.AwaitEngine(t, enginepath.Stockfish19)
	if _, err := enginepath.Resolve([]string{enginepath.Stockfish19}); err != nil {
		t.Skipf("Stockfish 19 not installed: %v", err)
	}
}

// TestStockfish19 drives the WebAssembly build, named "sf19", through the
// pool and our UCI client: handshake, the Hash and Threads options the pool
// sets, ucinewgame/isready, searches by nodes of a short game (mate found,
// evals from White's point of view), and a clean quit.
func TestStockfish19(t *testing.T) {
	stockfish19OrSkip(t)
	ctx := t.Context() // the searches are bounded by nodes; go test -timeout bounds the rest
	start := time.Now()
	p, err := NewPool(ctx, PoolConfig{Command: []string{"sf19"}, Workers: 1, Threads: 1, HashMB: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	t.Logf("%s started in %v", p.EngineName(), time.Since(start).Round(time.Millisecond))
	if !strings.HasPrefix(p.EngineName(), "Stockfish 19") {
		t.Errorf("engine %q", p.EngineName())
	}
	e, ok := p.engines[0].(*uci.Engine)
	if !ok {
		t.Fatalf("engine is %T", p.engines[0])
	}
	for _, name := range []string{"Hash", "Threads"} {
		if _, ok := e.Option(name); !ok {
			t.Errorf("option %s not declared", name)
		}
	}
	g := gameFromSAN(t, "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#")
	as, errs, err := p.AnalyseGames(ctx, []*Game{g}, EngineOptions{Budget: Budget{Nodes: 5000}, BorderlineBand: -1})
	if err != nil || errs[0] != nil {
		t.Fatal(err, errs)
	}
	a := as[0]
	nf6 := a.Plies[5]
	if nf6.Eval == nil || nf6.Eval.Mate != 1 || nf6.Judgement != Blunder {
		t.Errorf("Nf6: eval %v judgement %v", nf6.Eval, nf6.Judgement)
	}
	if nf6.BestSAN == nil || *nf6.BestSAN == "Nf6" {
		t.Errorf("Nf6: best %v", nf6.BestSAN)
	}
	if e := a.Plies[0].Eval; e == nil || e.IsMate() || e.CP < -100 || e.CP > 150 {
		t.Errorf("after 1. e4: %v", e)
	}
	if !strings.Contains(a.Engine, "Stockfish 19") {
		t.Errorf("analysis engine %q", a.Engine)
	}
	closed := time.Now()
	if err := p.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	d := time.Since(closed)
	if d >= slowQuitTimeout {
		t.Errorf("quit took %v (killed)", d)
	}
	t.Logf("quit → exit in %v", d.Round(time.Millisecond))
}
