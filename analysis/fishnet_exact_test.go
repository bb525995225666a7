package analysis

import (
	"strings"
	"testing"

	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/bots/uci"
	"github.com/outpostchess/outpost/internal/testkit"
)

// lilaFixture1 is the game of lila's fishnet test fixture (TestFixtures.scala,
// expected1/fish1; ../shared/lichess-games/lila-expected1.pgn), in UCI.
const lilaFixture1 = `e2e4 c7c5 g1f3 b8c6 f1b5 d8b6 b1c3 c6d4 b5c4 e7e6 e1g1 a7a6 d2d3 d7d6 f1e1 g8f6 a1b1 f8e7 c1e3 d4f3
d1f3 b6c7 a2a4 e8g8 f3g3 g8h8 f2f4 c7d8 e4e5 f6d7 e5d6 e7d6 c3e4 d6e7 g3f2 d8c7 b1a1 a6a5 c4b5 b7b6
f2g3 c8b7 e3d2 d7f6 e4g5 h7h6 g3h3 f6d5 e1f1 h8g8 g5e4 f7f5 e4g3 e7f6 c2c3 a8d8 a1e1 c7f7 g3h5 g8h7
h5f6 f7f6 e1e5 b7c8 f1e1 d5c7 b5c4 d8e8 h3f3 e8e7 d2e3 f8e8 e3f2 e8d8 d3d4 c7d5 d4c5 b6c5 c4b5 c8b7
f3g3 d5c7 b5c4 d8d2 b2b3 e7d7 f2c5 d2d1 c5d4 d1e1 g3e1 f6f7 e1e2 c7d5 e2f2 b7c6 e5e1`

// TestReproducesFishnetExactly: fishnet 2.6.11 analysed the fixture's last
// position (after 49. Re1) with Stockfish 15.1 as depth 22, cp -232, 1501315
// nodes, pv c6b7. The lichess-sf15 preset with Stockfish 15.1 and the
// default 16 MB hash gives exactly that (a 64 MB hash does not), with
// Debian's SSE2 build and with the native build setup makes alike (the
// search does not depend on the build). Each is skipped when missing.
func TestReproducesFishnetExactly(t *testing.T) {
	testkit.AwaitSetup(t, testkit.SetupSF15)
	var l enginepath.Locator
	native, err := l.Native(enginepath.Stockfish15)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, path string }{
		{"debian", l.DebianStockfish()},
		{"native", native},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.path == "" {
				t.Skipf("no %s Stockfish 15.1 (make setup installs both)", tc.name)
			}
			reproduceFishnet(t, []string{tc.path})
		})
	}
}

func reproduceFishnet(t *testing.T, cmd []string) {
	ctx := t.Context() // the searches are bounded by nodes; go test -timeout bounds the rest
	p, err := NewPool(ctx, PoolConfig{Command: cmd, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if !strings.HasPrefix(p.EngineName(), "Stockfish 15.1") {
		t.Fatalf("engine %s is %q, not Stockfish 15.1", cmd[0], p.EngineName())
	}
	moves := strings.Fields(lilaFixture1)
	if len(moves) != 97 {
		t.Fatalf("%d moves", len(moves))
	}
	budget := Presets["lichess-sf15"]
	job := Job{Pos: uci.Position{Moves: moves}, WhiteToMove: false, Limits: budget.FishnetLimits()}
	outs, err := p.Search(ctx, []Job{job}, SearchOptions{ChunkSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	o := outs[0]
	if o.Eval == nil || o.Eval.IsMate() || o.Eval.CP != 232 || o.Depth != 22 || o.Nodes != 1501315 || o.BestUCI != "c6b7" {
		t.Errorf("got eval %v depth %d nodes %d best %s, want +232 (White POV) depth 22 nodes 1501315 best c6b7", o.Eval, o.Depth, o.Nodes, o.BestUCI)
	}
}
