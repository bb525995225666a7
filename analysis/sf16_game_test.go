package analysis_test

import (
	"context"
	"testing"

	"github.com/outpostchess/outpost/analysis"
)

// cachedPlies are the plies whose evals Lichess may have taken from its
// cloud eval cache instead of fishnet's search (lila FishnetEvalCache,
// maxPlies = 15: the positions after plies 0–14).
const cachedPlies = analysis.DetectFromPly

// TestLichessSF16ReproducesEOXqcPAS: eOXqcPAS (played 2023-11-20,
// analysed the same day by fishnet 2.7.x with Stockfish 16) analysed
// with the lichess-sf16 preset — every position on its own after
// ucinewgame, go nodes 1500000, Stockfish 16's answers replayed from the
// recording — gives every one of Lichess's judgements from ply 15 on: the
// same kind, the same best move and both evals of "(a → b)" to the
// centipawn, and no judgement Lichess does not have. The three judgements
// of plies 6, 10 and 13 lie in the plies Lichess fills from its cloud
// eval cache: their evals are not fishnet's (ours are Stockfish 16's at
// 1.5M nodes), which this test records as the only differences.
func TestLichessSF16ReproducesEOXqcPAS(t *testing.T) {
	g := sharedGame(t, "eOXqcPAS.pgn")
	pool := recordedPool(t, "eOXqcPAS-sf16-lichess-sf16", "sf16", "eOXqcPAS.pgn", "lichess-sf16")
	b, err := analysis.Preset("lichess-sf16")
	if err != nil {
		t.Fatal(err)
	}
	res, errs, err := pool.AnalyseGames(context.Background(), []*analysis.Game{g}, analysis.EngineOptions{Budget: b, BorderlineBand: -1})
	if err != nil || errs[0] != nil {
		t.Fatal(err, errs[0])
	}
	ours := res[0]
	lichess, err := analysis.BuildLichess(g)
	if err != nil {
		t.Fatal(err)
	}
	judged, differing := 0, []int{}
	for i, lp := range lichess.Plies {
		op := ours.Plies[i]
		if lp.Judgement == analysis.NoJudgement && op.Judgement == analysis.NoJudgement {
			continue
		}
		ply := i + 1
		same := lp.Judgement == op.Judgement && lp.Comment == op.Comment && lp.EvalChange == op.EvalChange
		switch {
		case lp.Judgement == analysis.NoJudgement:
			t.Errorf("ply %d %s: ours %q (%s), Lichess none", ply, op.SAN, op.Comment, op.EvalChange)
		case !same && ply < cachedPlies:
			differing = append(differing, ply)
			t.Logf("ply %d %s (possibly cached): Lichess %q (%s), ours %q (%s)", ply, lp.SAN, lp.Comment, lp.EvalChange, op.Comment, op.EvalChange)
		case !same:
			t.Errorf("ply %d %s: Lichess %q (%s), ours %q (%s)", ply, lp.SAN, lp.Comment, lp.EvalChange, op.Comment, op.EvalChange)
		default:
			judged++
		}
	}
	if judged != 21 || len(differing) != 3 {
		t.Errorf("%d judgements from ply %d on the same (want 21), %d differing before (plies %v, want 6, 10, 13)", judged, cachedPlies, len(differing), differing)
	}
}
