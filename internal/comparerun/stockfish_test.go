package comparerun

import (
	"context"
	"testing"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/bots/enginepath"
)

// TestCompareWithStockfish runs a comparison of the sandbox games with the
// real Stockfish at a tiny budget (skipped when it is not installed).
func TestCompareWithStockfish(t *testing.T) {
	cmd, err := enginepath.Stockfish15Command()
	if err != nil {
		t.Skip(err)
	}
	w := newWorld(t)
	w.playSynthetic(t, syntheticGames)
	st := openStore(t)
	c := &Comparer{Store: st, Pool: analysis.PoolConfig{Command: LowPriority(cmd), Workers: 1, HashMB: 16},
		Budget: analysis.Budget{Nodes: 3000}, EngineLabel: cmd[0]}
	rep, err := c.Run(context.Background(), UserSource{Fetcher: NewFetcher(w.public), User: "alice", Max: 10})
	if err != nil {
		t.Fatal(err)
	}
	ag := rep.Aggregate
	if rep.Analysed != 3 || ag == nil || ag.Games != 3 || ag.Judgments.Lichess != 5 || ag.Plies != 41 || ag.EvalMAECP <= 0 {
		t.Fatalf("report %+v aggregate %+v", rep, ag)
	}
	if rep.Headline.F1 == nil && ag.Judgments.Ours > 0 {
		t.Fatalf("no F1 with %d of our judgements", ag.Judgments.Ours)
	}
	if rep.Engine == "" || rep.Engine[:9] != "Stockfish" {
		t.Fatalf("engine %q", rep.Engine)
	}
	t.Logf("Stockfish at 3000 nodes: %d/%d same name, F1 %s, MAE %.0f cp", ag.Judgments.Exact, ag.Judgments.Lichess, num(rep.Headline.F1, 2), ag.EvalMAECP)
}
