package ewr

import (
	"context"
	"sync"
	"testing"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/score"
)

// sideDispatcher runs a pool's chunks on a fakeEvaluator's table (its
// scores are the side to move's; outcomes are White's) and records, for
// each job, whether the side it was given is the side its FEN says.
type sideDispatcher struct {
	ev *fakeEvaluator

	mu           sync.Mutex
	jobs, wrong  int
	white, black int
}

func (d *sideDispatcher) RunChunks(ctx context.Context, _ analysis.EngineSpec, chunks []analysis.Chunk, done func(int)) ([][]analysis.Outcome, error) {
	out := make([][]analysis.Outcome, len(chunks))
	for i, c := range chunks {
		for _, j := range c.Jobs {
			var s score.Score
			if err := d.ev.Evaluate(ctx, []EvalRequest{{FEN: j.Pos.FEN, Depth: j.Limits.Depth}}, func(_ int, got score.Score) { s = got }); err != nil {
				return nil, err
			}
			d.mu.Lock()
			d.jobs++
			white := sideToMove(j.Pos.FEN) == board.White
			if white != j.WhiteToMove {
				d.wrong++
			}
			if white {
				d.white++
			} else {
				d.black++
			}
			d.mu.Unlock()
			e := s.ForMover(j.WhiteToMove)
			out[i] = append(out[i], analysis.Outcome{Eval: &e, BestUCI: "0000"})
		}
		done(len(c.Jobs))
	}
	return out, nil
}

// TestRequestsCarryTheSideToMove: the tree's requests carry the side to
// move of their position (EvalRequest.WhiteToMove, from the tree), and
// PoolEvaluator gives it to the pool's jobs as it is, parsing no FEN: every
// job of a calculation on a pool (a dispatcher standing in for its
// engines) has its FEN's side, both sides occur, and the ranking is the
// one the same scores give without the pool.
func TestRequestsCarryTheSideToMove(t *testing.T) {
	pr, ev := scenario()
	want, err := (&Calculator{Prober: pr, Evaluator: ev}).Calculate(context.Background(), Position{}, DefaultParams(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	pr, ev = scenario()
	d := &sideDispatcher{ev: ev}
	pool, err := analysis.NewPool(context.Background(), analysis.PoolConfig{Workers: 2, Dispatcher: d})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	got, err := (&Calculator{Prober: pr, Evaluator: &PoolEvaluator{Pool: pool}}).Calculate(context.Background(), Position{}, DefaultParams(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.jobs == 0 || d.white == 0 || d.black == 0 || d.wrong != 0 {
		t.Errorf("jobs %d (White to move %d, Black %d), %d with the other side than their FEN's", d.jobs, d.white, d.black, d.wrong)
	}
	if len(got.Moves) != len(want.Moves) {
		t.Fatalf("ranking of %d moves, want %d", len(got.Moves), len(want.Moves))
	}
	for i := range want.Moves {
		if got.Moves[i].UCI != want.Moves[i].UCI || got.Moves[i].ExpectedWinrate != want.Moves[i].ExpectedWinrate {
			t.Errorf("move %d: %s %.4f, want %s %.4f", i, got.Moves[i].UCI, got.Moves[i].ExpectedWinrate, want.Moves[i].UCI, want.Moves[i].ExpectedWinrate)
		}
	}
}
