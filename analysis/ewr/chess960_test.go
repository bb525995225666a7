package ewr

import (
	"context"
	"sync"
	"testing"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/bots/uci"
)

// A Chess960 start (X-FEN, as Lichess writes it) with castling legal on
// both wings: White king f1, rooks b1 and h1; Black king f8, rooks b8, g8.
const start960 = "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3K1R w KQkq - 0 1"

// TestAnalyseMomentChess960 computes the expected winrate of castling in a
// Chess960 game: the move played is castling written king takes rook, every
// Maia request says Chess960, and castling is among the candidates.
func TestAnalyseMomentChess960(t *testing.T) {
	pr := &fakeProber{}
	ev := &flagEvaluator{Evaluator: &fakeEvaluator{def: func(string) score.Score { return score.Score{CP: 10} }}}
	c := &Calculator{Prober: pr, Evaluator: ev}
	g := Game{StartFEN: start960, Moves: []string{"f1h1", "f8b8"}, Chess960: true, WhiteRating: 1500, BlackRating: 1500}
	for _, ply := range []int{1, 2} {
		m, err := AnalyseMoment(context.Background(), c, g, ply, DefaultParams().Fast(), Options{Include: []string{"f1b1"}[:2-ply]})
		if err != nil {
			t.Fatalf("ply %d: %v", ply, err)
		}
		if m.Played.UCI != g.Moves[ply-1] || m.Result == nil {
			t.Errorf("ply %d: played %q, want %q", ply, m.Played.UCI, g.Moves[ply-1])
		}
		if want := []string{"1. O-O", "1... O-O-O"}[ply-1]; m.Label != want {
			t.Errorf("ply %d: label %q, want %q", ply, m.Label, want)
		}
		if ply == 1 {
			if _, ok := m.Result.Move("f1b1"); !ok {
				t.Errorf("the included O-O-O f1b1 was not evaluated")
			}
		}
	}
	pr.mu.Lock()
	defer pr.mu.Unlock()
	if len(pr.reqs) == 0 {
		t.Fatal("Maia was never asked")
	}
	for _, r := range pr.reqs {
		if !r.Chess960 {
			t.Fatalf("Maia request %v without Chess960", r.Moves)
		}
	}
	if len(ev.reqs) == 0 {
		t.Fatal("Stockfish was never asked")
	}
	for _, r := range ev.reqs {
		if !r.Chess960 {
			t.Fatalf("Stockfish request %s without Chess960", r.FEN)
		}
	}
	// As standard chess the same game cannot be replayed: the error says so.
	g.Chess960 = false
	if _, err := AnalyseMoment(context.Background(), c, g, 1, DefaultParams().Fast(), Options{}); err == nil {
		t.Error("a Chess960 FEN analysed as standard chess: no error")
	}
}

// TestFromAnalysisChess960 reads the variant from the analysed game's tags.
func TestFromAnalysisChess960(t *testing.T) {
	a := &analysis.Analysis{Game: &analysis.Game{StartFEN: start960, Tags: []analysis.Tag{{Name: "Variant", Value: "Chess960"}},
		Moves: []analysis.Move{{UCI: "f1h1"}}}}
	if g := FromAnalysis(a); !g.Chess960 || g.StartFEN != start960 || len(g.Moves) != 1 {
		t.Errorf("FromAnalysis: %+v", g)
	}
	a.Game.Tags = nil
	if FromAnalysis(a).Chess960 {
		t.Error("FromAnalysis of a standard game says Chess960")
	}
}

// chess960Searcher records whether each search had UCI_Chess960 on.
type chess960Searcher struct {
	mu  sync.Mutex
	got map[string]bool
}

func (s *chess960Searcher) Analyse(_ context.Context, pos uci.Position, lim uci.Limits) (*uci.Result, error) {
	s.mu.Lock()
	s.got[pos.FEN] = pos.Chess960
	s.mu.Unlock()
	return &uci.Result{BestMove: "a2a3", Lines: []uci.Info{{MultiPV: 1, Depth: lim.Depth, HasScore: true, Score: score.CP(5)}}}, nil
}
func (s *chess960Searcher) Restart(context.Context) error { return nil }
func (s *chess960Searcher) Close() error                  { return nil }

// TestEngineEvaluatorChess960 turns UCI_Chess960 on exactly for the
// requests of a Chess960 game (EvalRequest.Chess960, set by the
// calculation's tree; the FEN is not parsed again to find out).
func TestEngineEvaluatorChess960(t *testing.T) {
	s := &chess960Searcher{got: map[string]bool{}}
	ev := NewEngineEvaluator(s)
	defer ev.Close()
	want := map[string]bool{
		"1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3K1R w KQkq -":               true,
		"1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3K1R w - -":                  false,
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -":         false,
		"1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w gb -":                  true,
		"rnbqk2r/pppp1ppp/5n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq -": false,
	}
	var reqs []EvalRequest
	for fen := range want {
		reqs = append(reqs, EvalRequest{FEN: fen, Depth: 8, Chess960: want[fen]})
	}
	if err := ev.Evaluate(context.Background(), reqs, func(int, score.Score) {}); err != nil {
		t.Fatal(err)
	}
	for fen, w := range want {
		if got, ok := s.got[fen]; !ok || got != w {
			t.Errorf("%s: UCI_Chess960 %v (searched %v), want %v", fen, got, ok, w)
		}
	}
}

// flagEvaluator records the requests it passes on.
type flagEvaluator struct {
	Evaluator
	reqs []EvalRequest
}

func (f *flagEvaluator) Evaluate(ctx context.Context, reqs []EvalRequest, onResult func(int, score.Score)) error {
	f.reqs = append(f.reqs, reqs...)
	return f.Evaluator.Evaluate(ctx, reqs, onResult)
}
