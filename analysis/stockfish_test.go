package analysis

import (
	"testing"

	"github.com/outpostchess/outpost/bots/enginepath"
)

func stockfishOrSkip(t testing.TB) []string {
	t.Helper()
	if _, err := enginepath.Stockfish15Command(); err != nil {
		t.Skip(err)
	}
	return DefaultEngineCommand()
}

// TestStockfishShortGame analyses the scholar's mate with real Stockfish:
// evals from White's point of view, the mate created by 3... Nf6??, no eval
// after the mate, best moves and lines in SAN.
func TestStockfishShortGame(t *testing.T) {
	cmd := stockfishOrSkip(t)
	ctx := t.Context() // the searches are bounded by nodes; go test -timeout bounds the rest
	p, err := NewPool(ctx, PoolConfig{Command: cmd, Workers: 2, HashMB: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	g := gameFromSAN(t, "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#")
	as, errs, err := p.AnalyseGames(ctx, []*Game{g}, EngineOptions{Budget: Budget{Nodes: 20_000}})
	if err != nil || errs[0] != nil {
		t.Fatal(err, errs)
	}
	a := as[0]
	nf6 := a.Plies[5]
	if nf6.Eval == nil || nf6.Eval.Mate != 1 {
		t.Fatalf("after Nf6 eval %v, want #1 (White mates)", nf6.Eval)
	}
	if nf6.Judgement != Blunder || nf6.MateCase != "created" || nf6.NAG != "??" {
		t.Errorf("Nf6: %v %q", nf6.Judgement, nf6.MateCase)
	}
	if nf6.BestSAN == nil || *nf6.BestSAN == "Nf6" || len(nf6.Variation) == 0 || len(nf6.Variation) > LineMaxPlies {
		t.Errorf("Nf6 best %v line %v", nf6.BestSAN, nf6.Variation)
	}
	if a.Plies[6].Eval != nil || a.Plies[6].Judgement != NoJudgement {
		t.Errorf("mating move: %+v", a.Plies[6])
	}
	if e := a.Plies[0].Eval; e == nil || e.IsMate() || e.CP < -100 || e.CP > 150 {
		t.Errorf("after 1. e4: %v", e)
	}
	if a.Players.Black.Blunder < 1 || a.Players.White.Accuracy == nil || a.Players.Black.ACPL == nil {
		t.Errorf("players %+v", a.Players)
	}
	t.Logf("engine %s; Nf6: %s %s", a.Engine, nf6.Comment, nf6.EvalChange)
}
