package ewr

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/bots/uci"
	"github.com/outpostchess/outpost/internal/testkit"
)

// fakeSearcher answers from a table of side-to-move scores keyed by FEN.
type fakeSearcher struct {
	mu       sync.Mutex
	scores   map[string]score.Score
	crashes  int // crash this many times before answering
	restarts int
	closed   bool
	block    string // block on this FEN until ctx ends
}

func (f *fakeSearcher) Analyse(ctx context.Context, pos uci.Position, lim uci.Limits) (*uci.Result, error) {
	f.mu.Lock()
	if f.crashes > 0 {
		f.crashes--
		f.mu.Unlock()
		return nil, &uci.CrashError{Stage: "search"}
	}
	s, ok := f.scores[pos.FEN]
	f.mu.Unlock()
	if pos.FEN == f.block {
		<-ctx.Done()
		return &uci.Result{BestMove: "e2e4", Stopped: true, Lines: []uci.Info{{MultiPV: 1, HasScore: true, Score: score.CP(1)}}}, nil
	}
	if !ok {
		return &uci.Result{BestMove: "e2e4"}, nil // no score
	}
	return &uci.Result{BestMove: "e2e4", Nodes: 100, Lines: []uci.Info{{MultiPV: 1, Depth: lim.Depth, HasScore: true, Score: s}}}, nil
}

func (f *fakeSearcher) Restart(context.Context) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.restarts++
	return nil
}

func (f *fakeSearcher) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	return nil
}

func TestEngineEvaluator(t *testing.T) {
	defer testkit.NoLeaks(t)
	scores := map[string]score.Score{"a": {CP: 35}, "b": {CP: -20}, "c": score.Mate(2), "d": score.Mate(-1)}
	a := &fakeSearcher{scores: scores, crashes: 1}
	b := &fakeSearcher{scores: scores}
	ev := NewEngineEvaluator(a, b)
	reqs := []EvalRequest{{FEN: "a", Depth: 15}, {FEN: "b", Depth: 15}, {FEN: "c", Depth: 15}, {FEN: "d", Depth: 15}}
	got := map[int]score.Score{}
	if err := ev.Evaluate(context.Background(), reqs, func(i int, s score.Score) { got[i] = s }); err != nil {
		t.Fatal(err)
	}
	want := map[int]score.Score{0: {CP: 35}, 1: {CP: -20}, 2: {Mate: 2}, 3: {Mate: -1}}
	for i, w := range want {
		if got[i] != w {
			t.Errorf("result %d = %v, want %v", i, got[i], w)
		}
	}
	if a.restarts+b.restarts != 1 {
		t.Errorf("restarts %d, want 1 after one crash", a.restarts+b.restarts)
	}
	if s, n := ev.Counts(); s != 4 || n != 400 {
		t.Errorf("counts %d searches %d nodes", s, n)
	}
	// Evaluate hands the requests to whichever engine is free: the nodes
	// per engine add up to the total, 100 per search.
	if got := ev.EngineNodes(); len(got) != 2 || got[0]+got[1] != 400 || got[0]%100 != 0 {
		t.Errorf("nodes per engine %v, want two counts of 100 per search adding up to 400", got)
	}
	// No score: an error, never a made-up number.
	err := ev.Evaluate(context.Background(), []EvalRequest{{FEN: "a", Depth: 15}, {FEN: "zz", Depth: 15}}, func(int, score.Score) {})
	if err == nil || !strings.Contains(err.Error(), "no score") {
		t.Errorf("missing score: %v", err)
	}
	// A crash that persists after the retry is an error.
	a.crashes, b.crashes = 5, 5
	if err := ev.Evaluate(context.Background(), reqs, func(int, score.Score) {}); !errors.Is(err, uci.ErrCrashed) {
		t.Errorf("persistent crash: %v", err)
	}
	a.crashes, b.crashes = 0, 0
	// A context ending mid-search loses that search, not the others.
	a.block, b.block = "c", "c"
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	n := 0
	err = ev.Evaluate(ctx, reqs, func(i int, s score.Score) { n++ })
	if !errors.Is(err, context.DeadlineExceeded) || n > 3 {
		t.Errorf("deadline: %v after %d results", err, n)
	}
	if err := ev.Close(); err != nil || !a.closed || !b.closed {
		t.Errorf("close: %v", err)
	}
}

// newGameSearcher is a fakeSearcher that logs "new" for each NewGame and
// the FEN of each search, and can fail NewGame.
type newGameSearcher struct {
	fakeSearcher
	log     []string
	failNew error
}

func (s *newGameSearcher) NewGame(context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failNew != nil {
		return s.failNew
	}
	s.log = append(s.log, "new")
	return nil
}

func (s *newGameSearcher) Analyse(ctx context.Context, pos uci.Position, lim uci.Limits) (*uci.Result, error) {
	s.mu.Lock()
	s.log = append(s.log, pos.FEN)
	s.mu.Unlock()
	return s.fakeSearcher.Analyse(ctx, pos, lim)
}

// TestEngineEvaluatorClearEach: with ClearEach every search is preceded by
// a NewGame on its engine (the hash cleared, so the score depends on the
// position alone); without it searches follow each other directly; a
// failing NewGame is an error naming the position, not a search on a
// dirty hash.
func TestEngineEvaluatorClearEach(t *testing.T) {
	scores := map[string]score.Score{"a": {CP: 35}, "b": {CP: -20}, "c": {CP: 5}}
	reqs := []EvalRequest{{FEN: "a", Depth: 15}, {FEN: "b", Depth: 15}, {FEN: "c", Depth: 15}}
	for _, tc := range []struct {
		name  string
		clear bool
		want  []string
	}{
		{"clear each", true, []string{"new", "a", "new", "b", "new", "c"}},
		{"keep hash", false, []string{"a", "b", "c"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &newGameSearcher{fakeSearcher: fakeSearcher{scores: scores}}
			ev := NewEngineEvaluator(s)
			ev.ClearEach = tc.clear
			if err := ev.Evaluate(context.Background(), reqs, func(int, score.Score) {}); err != nil {
				t.Fatal(err)
			}
			if strings.Join(s.log, " ") != strings.Join(tc.want, " ") {
				t.Errorf("engine saw %v, want %v", s.log, tc.want)
			}
		})
	}
	s := &newGameSearcher{fakeSearcher: fakeSearcher{scores: scores}, failNew: errors.New("pipe closed")}
	ev := NewEngineEvaluator(s)
	ev.ClearEach = true
	err := ev.Evaluate(context.Background(), reqs[:1], func(int, score.Score) {})
	if err == nil || !strings.Contains(err.Error(), "pipe closed") || !strings.Contains(err.Error(), "position a") || len(s.log) != 0 {
		t.Errorf("failing NewGame: err %v, engine saw %v", err, s.log)
	}
}
