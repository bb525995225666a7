package analysis

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/outpostchess/outpost/analysis/replay"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/bots/uci"
	"github.com/outpostchess/outpost/bots/uci/ucitest"
	"github.com/stretchr/testify/assert"
)

func TestMain(m *testing.M) {
	ucitest.Main()
	os.Exit(m.Run())
}

// scripted is a fake engine: the score of a position (side to move POV)
// and its best move come from a script keyed by the number of moves played.
type scripted struct {
	worker int
	rec    *recorder
	script func(pos uci.Position, lim uci.Limits) (score.Score, string, error)
	calls  int
	closed bool
}

type recorder struct {
	mu       sync.Mutex
	events   []string
	searched map[int]int // worker → positions searched
	restarts int
	// spread, when set by spreadOver, holds every worker's first search
	// until all the workers have started one: each worker then has a
	// chunk however the goroutines are scheduled.
	spread   chan struct{}
	nworkers int
	started  map[int]bool
}

// spreadOver makes the searches wait until n workers have each started one.
func (r *recorder) spreadOver(n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.spread, r.nworkers, r.started = make(chan struct{}), n, map[int]bool{}
}

// waitForOthers is the barrier of spreadOver (no-op without it).
func (r *recorder) waitForOthers(ctx context.Context, worker int) error {
	r.mu.Lock()
	spread := r.spread
	if spread != nil && !r.started[worker] {
		r.started[worker] = true
		if len(r.started) == r.nworkers {
			close(spread)
		}
	}
	r.mu.Unlock()
	if spread == nil {
		return nil
	}
	select {
	case <-spread:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(10 * time.Second):
		return nil // a pool that never uses the other workers: the test's check fails
	}
}

func (r *recorder) add(s string) {
	r.mu.Lock()
	r.events = append(r.events, s)
	r.mu.Unlock()
}

func (s *scripted) Analyse(ctx context.Context, pos uci.Position, lim uci.Limits) (*uci.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.calls++
	sc, best, err := s.script(pos, lim)
	if err != nil {
		return nil, err
	}
	s.rec.mu.Lock()
	s.rec.searched[s.worker]++
	s.rec.events = append(s.rec.events, fmt.Sprintf("w%d search %d", s.worker, len(pos.Moves)))
	s.rec.mu.Unlock()
	if err := s.rec.waitForOthers(ctx, s.worker); err != nil {
		return nil, err
	}
	return &uci.Result{BestMove: best, Nodes: lim.Nodes, Lines: []uci.Info{{Depth: 10, Score: sc, HasScore: true, PV: []string{best}}}}, nil
}

func (s *scripted) NewGame(ctx context.Context) error {
	s.rec.add(fmt.Sprintf("w%d newgame", s.worker))
	return nil
}

func (s *scripted) Restart(ctx context.Context) error {
	s.rec.mu.Lock()
	s.rec.restarts++
	s.rec.mu.Unlock()
	return nil
}

func (s *scripted) Close() error { s.closed = true; return nil }

func newScriptedPool(t *testing.T, workers int, script func(uci.Position, uci.Limits) (score.Score, string, error)) (*Pool, *recorder, []*scripted) {
	t.Helper()
	rec := &recorder{searched: map[int]int{}}
	var engines []*scripted
	var mu sync.Mutex
	p, err := NewPool(context.Background(), PoolConfig{Workers: workers, Factory: func(ctx context.Context, w int) (Searcher, error) {
		e := &scripted{worker: w, rec: rec, script: script}
		mu.Lock()
		engines = append(engines, e)
		mu.Unlock()
		return e, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p, rec, engines
}

func TestPoolSpreadsChunksBackwardsAndNormalisesPOV(t *testing.T) {
	// the score is the number of moves played, from the side to move's POV
	p, rec, _ := newScriptedPool(t, 2, func(pos uci.Position, _ uci.Limits) (score.Score, string, error) {
		return score.CP(10 * len(pos.Moves)), "e2e4", nil
	})
	rec.spreadOver(2)
	moves := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7", "f1e1", "b7b5"}
	var jobs []Job
	for k := 0; k <= len(moves); k++ {
		jobs = append(jobs, Job{Pos: uci.Position{Moves: moves[:k]}, WhiteToMove: k%2 == 0, Limits: uci.Limits{Nodes: 1000}})
	}
	var progress []int
	var pmu sync.Mutex
	outs, err := p.Search(context.Background(), jobs, SearchOptions{Overlap: true, Progress: func(d, total int) {
		pmu.Lock()
		progress = append(progress, d)
		pmu.Unlock()
		if total != len(jobs) {
			t.Errorf("progress total %d", total)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	for k, o := range outs {
		want := 10 * k
		if k%2 == 1 {
			want = -want // Black to move: White POV is the negation
		}
		if o.Eval == nil || o.Eval.CP != want || o.BestUCI != "e2e4" {
			t.Errorf("position %d: %+v, want cp %d", k, o, want)
		}
	}
	if len(progress) != len(jobs) || progress[len(progress)-1] != len(jobs) {
		t.Errorf("progress %v", progress)
	}
	// fishnet's chunks, counted from the game's end (13 positions: 8-12,
	// 3-7, 0-2), each searched backwards after ucinewgame, the later ones
	// after a warm-up search of the position following the chunk
	want := map[string]bool{
		"newgame search 12 search 11 search 10 search 9 search 8":       true,
		"newgame search 8 search 7 search 6 search 5 search 4 search 3": true,
		"newgame search 3 search 2 search 1 search 0":                   true,
	}
	perWorker := map[string][]string{}
	for _, e := range rec.events {
		w, rest, _ := strings.Cut(e, " ")
		perWorker[w] = append(perWorker[w], rest)
	}
	var got []string
	for _, evs := range perWorker {
		for _, chunk := range strings.Split(strings.Join(evs, " "), "newgame ") {
			if chunk != "" {
				got = append(got, "newgame "+strings.TrimSpace(chunk))
			}
		}
	}
	if len(got) != len(want) {
		t.Errorf("chunks %q, want %d", got, len(want))
	}
	for _, c := range got {
		if !want[c] {
			t.Errorf("chunk %q is not one of fishnet's", c)
		}
	}
	if rec.searched[0] == 0 || rec.searched[1] == 0 {
		t.Errorf("positions not spread over both workers: %v", rec.searched)
	}
}

// TestFishnetLimits: fishnet sends 6/7 of the node budget per position.
func TestFishnetLimits(t *testing.T) {
	if got := (Budget{Nodes: 1_000_000}).FishnetLimits(); got.Nodes != 857_142 || got.Depth != 0 {
		t.Errorf("1M nodes → %+v, want go nodes 857142", got)
	}
	if got := (Budget{Depth: 20}).FishnetLimits(); got.Nodes != 0 || got.Depth != 20 {
		t.Errorf("depth 20 → %+v", got)
	}
	if got := (Budget{}).FishnetLimits(); got.Nodes != 857_142 {
		t.Errorf("default → %+v", got)
	}
	if got := Presets["lichess-sf15"].FishnetLimits(); got.Nodes != 1_500_000 {
		t.Errorf("lichess-sf15 → %+v, want the whole 1.5M", got)
	}
}

// TestFreshHashSearchesEachPositionAlone: with the lichess-sf15 preset
// every position is searched right after ucinewgame, with the whole budget
// and no overlap search (fishnet up to 2.6).
func TestFreshHashSearchesEachPositionAlone(t *testing.T) {
	var mu sync.Mutex
	var nodes []int64
	p, rec, _ := newScriptedPool(t, 1, func(pos uci.Position, lim uci.Limits) (score.Score, string, error) {
		mu.Lock()
		nodes = append(nodes, lim.Nodes)
		mu.Unlock()
		return score.CP(10), "a2a3", nil
	})
	g := gameFromSAN(t, "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6")
	if _, errs, err := p.AnalyseGames(context.Background(), []*Game{g}, EngineOptions{Budget: Presets["lichess-sf15"], BorderlineBand: -1}); err != nil || errs[0] != nil {
		t.Fatal(err, errs)
	}
	var seq []string
	for _, e := range rec.events {
		_, rest, _ := strings.Cut(e, " ")
		seq = append(seq, strings.Fields(rest)[0])
	}
	want := strings.TrimSpace(strings.Repeat("newgame search ", 9))
	if got := strings.Join(seq, " "); got != want {
		t.Errorf("events %q, want %q", got, want)
	}
	for _, n := range nodes {
		if n != 1_500_000 {
			t.Fatalf("go nodes %v, want 1500000 each", nodes)
		}
	}
}

func TestPoolRestartsCrashedEngineAndRetries(t *testing.T) {
	var mu sync.Mutex
	crashed := map[int]bool{}
	p, rec, _ := newScriptedPool(t, 1, func(pos uci.Position, _ uci.Limits) (score.Score, string, error) {
		mu.Lock()
		defer mu.Unlock()
		if len(pos.Moves) == 2 && !crashed[2] {
			crashed[2] = true
			return score.Score{}, "", &uci.CrashError{Stage: "search"}
		}
		return score.CP(5), "a2a3", nil
	})
	jobs := []Job{{WhiteToMove: true}, {Pos: uci.Position{Moves: []string{"e2e4"}}}, {Pos: uci.Position{Moves: []string{"e2e4", "e7e5"}}, WhiteToMove: true}}
	outs, err := p.Search(context.Background(), jobs, SearchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rec.restarts != 1 {
		t.Errorf("%d restarts, want 1", rec.restarts)
	}
	if outs[2].Eval == nil || outs[2].Eval.CP != 5 {
		t.Errorf("retried position: %+v", outs[2])
	}
}

func TestPoolGivesUpAfterRetries(t *testing.T) {
	p, rec, _ := newScriptedPool(t, 2, func(pos uci.Position, _ uci.Limits) (score.Score, string, error) {
		if len(pos.Moves) == 1 {
			return score.Score{}, "", &uci.CrashError{Stage: "search"}
		}
		return score.CP(5), "a2a3", nil
	})
	jobs := []Job{{WhiteToMove: true}, {Pos: uci.Position{Moves: []string{"e2e4"}}}}
	_, err := p.Search(context.Background(), jobs, SearchOptions{ChunkSize: 1})
	if !errors.Is(err, uci.ErrCrashed) || !strings.Contains(err.Error(), "e2e4") {
		t.Fatalf("err = %v", err)
	}
	if rec.restarts != 2 {
		t.Errorf("%d restarts, want 2 (the retry limit)", rec.restarts)
	}
}

func TestPoolCancel(t *testing.T) {
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	p, _, _ := newScriptedPool(t, 2, func(pos uci.Position, _ uci.Limits) (score.Score, string, error) {
		if len(pos.Moves) == 3 {
			cancel()
		}
		return score.CP(1), "a2a3", nil
	})
	var jobs []Job
	for k := 0; k < 200; k++ {
		jobs = append(jobs, Job{Pos: uci.Position{Moves: make([]string, k)}})
	}
	if _, err := p.Search(ctx, jobs, SearchOptions{ChunkSize: 1}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want canceled", err)
	}
	// The workers' goroutines end soon after Search returns: poll with a
	// generous bound (there is no event to wait on for a goroutine's end).
	assert.Eventually(t, func() bool { return runtime.NumGoroutine() <= before+1 }, 10*time.Second, time.Millisecond,
		"goroutines %d before the search", before)
}

func TestPoolCloseClosesEngines(t *testing.T) {
	p, _, engines := newScriptedPool(t, 3, func(uci.Position, uci.Limits) (score.Score, string, error) {
		return score.Score{}, "a2a3", nil
	})
	if p.Workers() != 3 {
		t.Fatalf("%d workers", p.Workers())
	}
	p.Close()
	for _, e := range engines {
		if !e.closed {
			t.Error("engine left open")
		}
	}
	failing := errors.New("no engine here")
	_, err := NewPool(context.Background(), PoolConfig{Workers: 2, Factory: func(ctx context.Context, w int) (Searcher, error) {
		if w == 1 {
			return nil, failing
		}
		return &scripted{rec: &recorder{searched: map[int]int{}}}, nil
	}})
	if !errors.Is(err, failing) {
		t.Errorf("err = %v", err)
	}
}

// TestPoolRealProcessCrash drives the real UCI client against a fake engine
// process that crashes on its first search: the pool restarts it and the
// position is retried.
func TestPoolRealProcessCrash(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "crashed")
	path, args, env := ucitest.Config(ucitest.CrashOnce, ucitest.EnvMarker+"="+marker)
	p, err := NewPool(context.Background(), PoolConfig{Workers: 1, Factory: func(ctx context.Context, w int) (Searcher, error) {
		return uci.Start(ctx, uci.Config{Path: path, Args: args, Env: env})
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	outs, err := p.Search(context.Background(), []Job{{WhiteToMove: true, Limits: uci.Limits{Depth: 3}}}, SearchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if outs[0].BestUCI == "" || outs[0].Eval == nil {
		t.Errorf("outcome after crash: %+v", outs[0])
	}
	if _, err := os.Stat(marker); err != nil {
		t.Errorf("the fake never crashed: %v", err)
	}
}

// TestAnalyseGamesJudgesAndRefinesBorderline scripts evals for a short game
// and checks judgements, the gate, the deeper re-search of borderline plies
// and the borderline mark.
func TestAnalyseGamesJudgesAndRefinesBorderline(t *testing.T) {
	g := gameFromSAN(t, "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#")
	// White POV evals after k moves at the main budget, and at the deeper one
	main := []int{20, 30, 30, -100, -45, -80, 86, 0}
	deeper := map[int]int{4: -90}
	best := []string{"e2e4", "e7e5", "d2d4", "g8f6", "f1c4", "d7d6", "h5f7", ""}
	var deepCalls []int
	var mu sync.Mutex
	p, _, _ := newScriptedPool(t, 2, func(pos uci.Position, lim uci.Limits) (score.Score, string, error) {
		k := len(pos.Moves)
		cp := main[k]
		if lim.Nodes > 1000 {
			if lim.Nodes != 4000 {
				t.Errorf("re-search with %d nodes, want 4000", lim.Nodes)
			}
			mu.Lock()
			deepCalls = append(deepCalls, k)
			mu.Unlock()
			if v, ok := deeper[k]; ok {
				cp = v
			}
		}
		if k%2 == 1 {
			cp = -cp
		}
		return score.CP(cp), best[k], nil
	})
	as, errs, err := p.AnalyseGames(context.Background(), []*Game{g}, EngineOptions{Budget: Budget{Nodes: 1000}})
	if err != nil || errs[0] != nil {
		t.Fatal(err, errs)
	}
	a := as[0]
	want := []struct {
		j          Judgement
		gate       Gate
		borderline bool
	}{
		{NoJudgement, GateClosed, false}, // e4: the engine's move
		{NoJudgement, GateClosed, false}, // e5
		{Mistake, GateOpen, false},       // Qh5: 0.30 → -1.00, delta 0.237
		{NoJudgement, GateOpen, false},   // Nc6: delta 0.099 borderline, deeper -0.90 → none
		{NoJudgement, GateClosed, false}, // Bc4
		{Blunder, GateOpen, true},        // Nf6: delta 0.303 stays borderline
		{NoJudgement, GateClosed, false}, // Qxf7#: the engine's move; no eval after mate
	}
	for i, w := range want {
		p := a.Plies[i]
		if p.Judgement != w.j || p.Gate() != w.gate || p.Borderline != w.borderline {
			t.Errorf("ply %d %s: judgement %v gate %v borderline %v, want %v %v %v", i+1, p.SAN, p.Judgement, p.Gate(), p.Borderline, w.j, w.gate, w.borderline)
		}
	}
	if a.Plies[6].Eval != nil {
		t.Errorf("checkmated position has eval %v", a.Plies[6].Eval)
	}
	if a.Plies[3].Eval == nil || a.Plies[3].Eval.CP != -90 {
		t.Errorf("refined eval not used: %v", a.Plies[3].Eval)
	}
	sort.Ints(deepCalls)
	if fmt.Sprint(deepCalls) != "[3 4 5 6]" {
		t.Errorf("re-searched positions %v, want [3 4 5 6]", deepCalls)
	}
	if got := a.Plies[2].Variation; len(got) != 1 || got[0] != "d4" || *a.Plies[2].BestSAN != "d4" {
		t.Errorf("Qh5 best line %v", got)
	}
	if a.Plies[2].Comment != "Mistake. d4 was best." || a.Plies[2].EvalChange != "0.30 → -1.00" {
		t.Errorf("Qh5 comment %q %q", a.Plies[2].Comment, a.Plies[2].EvalChange)
	}
	if !strings.Contains(a.Engine, "nodes 1000") {
		t.Errorf("engine %q", a.Engine)
	}
	if a.Players.White.Mistake != 1 || a.Players.Black.Blunder != 1 || a.Players.White.Accuracy == nil {
		t.Errorf("players %+v", a.Players)
	}
}

func gameFromSAN(t testing.TB, line string) *Game {
	t.Helper()
	g, err := gameFromLine(line)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func gameFromLine(line string) (*Game, error) {
	b, err := replay.New("")
	if err != nil {
		return nil, err
	}
	g := &Game{Index: 1, Source: "test", Result: "*"}
	for _, san := range strings.Fields(line) {
		m, err := b.ParseSAN(san)
		if err != nil {
			return nil, err
		}
		g.Moves = append(g.Moves, Move{SAN: san, UCI: m.UCI})
		b = b.Play(m)
	}
	return g, nil
}

// TestAnalyseGamesKeepsOtherGamesWhenOneFails: an engine that keeps
// crashing on one game's positions loses only that game.
func TestAnalyseGamesKeepsOtherGamesWhenOneFails(t *testing.T) {
	p, _, _ := newScriptedPool(t, 2, func(pos uci.Position, lim uci.Limits) (score.Score, string, error) {
		if len(pos.Moves) > 0 && pos.Moves[0] == "a2a3" {
			return score.Score{}, "", &uci.CrashError{Stage: "search"}
		}
		return score.CP(10), "h2h3", nil
	})
	games := []*Game{gameFromSAN(t, "e4 e5 Nf3"), gameFromSAN(t, "a3 e5 Nf3"), gameFromSAN(t, "d4 d5")}
	var last [2]int
	as, errs, err := p.AnalyseGames(context.Background(), games, EngineOptions{Budget: Budget{Depth: 5}, Progress: func(d, total int) { last = [2]int{d, total} }})
	if err != nil {
		t.Fatal(err)
	}
	if as[0] == nil || as[2] == nil || as[1] != nil || errs[1] == nil || !errors.Is(errs[1], uci.ErrCrashed) {
		t.Fatalf("analyses %v errs %v", as, errs)
	}
	if errs[0] != nil || errs[2] != nil || len(as[2].Plies) != 2 {
		t.Errorf("errs %v", errs)
	}
	if last[1] != 4+4+3 {
		t.Errorf("progress %v, want total 11", last)
	}
}

func TestAnalyseGamesCancelKeepsFinishedGames(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p, _, _ := newScriptedPool(t, 1, func(pos uci.Position, lim uci.Limits) (score.Score, string, error) {
		if len(pos.Moves) > 0 && pos.Moves[0] == "d2d4" {
			cancel()
			return score.Score{}, "", context.Canceled
		}
		return score.CP(10), "h2h3", nil
	})
	games := []*Game{gameFromSAN(t, "e4 e5"), gameFromSAN(t, "d4 d5")}
	as, _, err := p.AnalyseGames(ctx, games, EngineOptions{})
	if !errors.Is(err, context.Canceled) || as[0] == nil || as[1] != nil {
		t.Errorf("err %v analyses %v", err, as)
	}
}

// TestNewPoolOf: a pool over engines its caller started searches on them
// (one worker each, whatever Workers says), calls no factory and closes
// them; without an engine it is an error.
func TestNewPoolOf(t *testing.T) {
	rec := &recorder{searched: map[int]int{}}
	script := func(uci.Position, uci.Limits) (score.Score, string, error) { return score.CP(10), "e2e4", nil }
	engines := []*scripted{{worker: 0, rec: rec, script: script}, {worker: 1, rec: rec, script: script}}
	p, err := NewPoolOf(PoolConfig{Workers: 5, Factory: func(context.Context, int) (Searcher, error) {
		t.Error("the factory was called")
		return nil, errors.New("no factory")
	}}, []Searcher{engines[0], engines[1]})
	if err != nil {
		t.Fatal(err)
	}
	if p.Workers() != 2 || p.EngineName() != DefaultEngineCommand()[0] {
		t.Errorf("workers %d, name %q", p.Workers(), p.EngineName())
	}
	jobs := make([]Job, 4)
	for i := range jobs {
		jobs[i] = Job{WhiteToMove: i%2 == 0, Limits: uci.Limits{Depth: 1}}
	}
	outs, err := p.Search(context.Background(), jobs, SearchOptions{ChunkSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range outs {
		if o.Eval == nil || o.Eval.ForMover(jobs[i].WhiteToMove) != score.CP(10) {
			t.Errorf("job %d: %+v", i, o)
		}
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	for i, e := range engines {
		if !e.closed {
			t.Errorf("engine %d left open", i)
		}
	}
	if _, err := NewPoolOf(PoolConfig{}, nil); err == nil {
		t.Error("a pool of no engine")
	}
}
