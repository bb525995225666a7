package demo

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/analysis/ewr/ewrtest"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/bots/uci"
	"github.com/outpostchess/outpost/internal/daemon"
	"github.com/outpostchess/outpost/internal/postgame"
	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/lichess"
)

// stuckStockfish is an expected-winrate Stockfish that never answers (a
// machine too busy for it); it reports its first evaluation on started.
type stuckStockfish struct{ started func() }

func (f stuckStockfish) Evaluate(ctx context.Context, _ []ewr.EvalRequest, _ func(int, score.Score)) error {
	f.started()
	<-ctx.Done()
	return ctx.Err()
}

// stuckPoolEngine is a post-game analysis engine that never answers; it
// reports its first search on started.
type stuckPoolEngine struct{ started func() }

func (e stuckPoolEngine) Analyse(ctx context.Context, _ uci.Position, _ uci.Limits) (*uci.Result, error) {
	e.started()
	<-ctx.Done()
	return nil, ctx.Err()
}
func (stuckPoolEngine) NewGame(context.Context) error { return nil }
func (stuckPoolEngine) Restart(context.Context) error { return nil }
func (stuckPoolEngine) Close() error                  { return nil }

// TestDemoSummaryBound plays a game against the sandbox whose summary has
// a part that never finishes: at the summary's bound (an injected timer,
// fired once the stuck part is at work) the daemon posts the parts that
// are ready, exactly once — the analysis lines and "not ready" for the
// expected winrate, or "Analysis: not ready" alone — and the run ends.
func TestDemoSummaryBound(t *testing.T) {
	t.Parallel() // waits on its games' clocks; no goroutine check (see docs/testing.md)
	if testing.Short() {
		t.Skip("plays a game")
	}
	for _, tc := range []struct {
		name      string
		stuckPool bool // else the expected winrate is stuck
		want      func(lines []string) bool
	}{
		{"expected winrate stuck", false, func(lines []string) bool {
			return len(lines) == 3 && strings.HasPrefix(lines[0], "White ") && lines[2] == postgame.EWRNotReady
		}},
		{"analysis stuck", true, func(lines []string) bool {
			return len(lines) == 1 && lines[0] == postgame.AnalysisNotReady
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := testContext(t, 4*time.Minute)
			cfg := fastConfig()
			cfg.Engines.Default = "easy" // a weak bot: the game has a judged move
			sum := realSummariser(t, cfg)
			fire := make(chan time.Time)
			var once sync.Once
			started := func() { once.Do(func() { close(fire) }) }
			if tc.stuckPool {
				sum.SetEngineStart(func(context.Context, analysis.EngineSpec, int) (analysis.Searcher, error) {
					return stuckPoolEngine{started}, nil
				})
			}
			sum.WithEWR(postgame.EWROptions{Prober: ewrtest.UniformProber{}, Evaluator: stuckStockfish{started}, Mode: ewr.ModeFast})
			sum.SetBound(time.Hour, func(time.Duration) <-chan time.Time { return fire }, zerolog.Nop())
			res, err := Run(ctx, Options{Config: cfg, Games: 1, TC: "0.5+0", Summariser: sum, Dir: t.TempDir(), Logger: zerolog.Nop()})
			require.NoError(t, err)
			require.Len(t, res.Summary, 1)
			for id, lines := range res.Summary {
				assert.True(t, tc.want(lines), "posted %q", lines)
				assertPostedOnce(t, res, id, lines)
				a := analysisOf(t, res, id)
				assert.Equal(t, strings.Join(lines, "\n"), a.Summary)
			}
		})
	}
}

// niceRecorder starts the post-game analysis's engines for the test: it
// records the niceness each is started at and wraps a real Stockfish, but
// the first search at normal priority never answers — it ends only when
// stopped, which a game coming on the clock does.
type niceRecorder struct {
	mu      sync.Mutex
	nices   []int
	armed   bool          // the first normal-priority search is still to come
	blocked chan struct{} // closed when that search is at work
	stopped chan struct{} // closed when it was stopped
}

func (r *niceRecorder) start(ctx context.Context, _ analysis.EngineSpec, nice int) (analysis.Searcher, error) {
	r.mu.Lock()
	r.nices = append(r.nices, nice)
	r.mu.Unlock()
	spec := analysis.EngineSpec{Command: analysis.DefaultEngineCommand(), Threads: 1, HashMB: 16}
	e, err := analysis.StartEngine(ctx, spec, zerolog.Nop())
	if err != nil {
		return nil, err
	}
	return &recordedEngine{Searcher: e, r: r, nice: nice}, nil
}

func (r *niceRecorder) started() []int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]int(nil), r.nices...)
}

type recordedEngine struct {
	analysis.Searcher
	r    *niceRecorder
	nice int
}

func (e *recordedEngine) Analyse(ctx context.Context, pos uci.Position, lim uci.Limits) (*uci.Result, error) {
	e.r.mu.Lock()
	first := e.r.armed && e.nice == 0
	if first {
		e.r.armed = false
	}
	e.r.mu.Unlock()
	if !first {
		return e.Searcher.Analyse(ctx, pos, lim)
	}
	close(e.r.blocked)
	<-ctx.Done()
	close(e.r.stopped)
	return &uci.Result{Stopped: true}, nil
}

// TestSummaryYieldsToGameOnClock: a summary made while no game is on the
// clock runs its engine at normal priority; when a game starts meanwhile
// (a human's challenge over loopback HTTP, through the daemon's own gate)
// the search is stopped at once and the engine restarted at the lowest
// priority, on which the summary is finished and posted while the game is
// still running; the next summary, with no game on the clock, is back at
// normal priority.
func TestSummaryYieldsToGameOnClock(t *testing.T) {
	if testing.Short() {
		t.Skip("plays games")
	}
	cfg := easyConfig()
	sum := realSummariser(t, cfg)
	rec := &niceRecorder{armed: true, blocked: make(chan struct{}), stopped: make(chan struct{})}
	sum.SetEngineStart(rec.start)
	posted := make(chan string, 4)
	opt := Options{Config: cfg, Summariser: sum, Hooks: daemon.Hooks{SummaryPosted: func(id string, _ []string) { posted <- id }}}
	var gameA, gameB string
	var bRunningAtPost bool
	res := runScript(t, opt, func(ctx context.Context, s *sandbox.Server, hs *humans) {
		h := hs.addPlayer(t, s, "alice", 1500, false)
		white := lichess.ChallengeParams{Clock: &lichess.ChallengeClock{Limit: 60}, Color: lichess.White}
		// game A: one move each, then alice resigns; its summary's first
		// search at normal priority hangs
		gameA = playAndResign(t, ctx, h, white)
		if !waitFor(t, ctx, rec.blocked, "game A's summary searching at normal priority") {
			return
		}
		// game B comes on the clock: the search is stopped
		id, w, ok := acceptedGame(t, ctx, h, white)
		if !ok {
			return
		}
		defer w.stream.Close()
		gameB = id
		if !waitFor(t, ctx, rec.stopped, "the search stopped by game B") ||
			!assert.Equal(t, gameA, nextPosted(ctx, posted), "game A's summary posted during game B") {
			return
		}
		g, _ := s.Game(gameB)
		bRunningAtPost = !g.Over()
		// game B ends: its summary runs at normal priority again
		assert.NoError(t, h.client.Board().Move(ctx, gameB, "e2e4", false))
		if _, err := w.plies(2); assert.NoError(t, err) {
			assert.NoError(t, h.client.Board().Resign(ctx, gameB))
		}
		assert.Equal(t, gameB, nextPosted(ctx, posted))
	})
	require.NoError(t, sum.Close()) // before the leak check
	assert.True(t, bRunningAtPost, "game B was still on the clock when A's summary went out")
	assert.Equal(t, []int{0, 19, 0}, rec.started(), "the niceness of each engine started: A's, A's after B started, B's")
	for _, id := range []string{gameA, gameB} {
		a := analysisOf(t, res, id)
		assert.NotContains(t, a.Summary, "not ready", id)
		assertPostedOnce(t, res, id, strings.Split(a.Summary, "\n"))
	}
}

// playAndResign has h play game p against the bot: one move each, then h
// resigns. It returns the game's id.
func playAndResign(t *testing.T, ctx context.Context, h *human, p lichess.ChallengeParams) string {
	t.Helper()
	id, w, ok := acceptedGame(t, ctx, h, p)
	if !ok {
		return id
	}
	defer w.stream.Close()
	if _, err := w.plies(0); !assert.NoError(t, err) {
		return id
	}
	assert.NoError(t, h.client.Board().Move(ctx, id, "e2e4", false))
	if _, err := w.plies(2); assert.NoError(t, err) {
		assert.NoError(t, h.client.Board().Resign(ctx, id))
	}
	return id
}

// waitFor waits for ch to close, or fails the test when ctx ends first.
func waitFor(t *testing.T, ctx context.Context, ch <-chan struct{}, what string) bool {
	t.Helper()
	select {
	case <-ch:
		return true
	case <-ctx.Done():
		t.Errorf("%s: %v", what, ctx.Err())
		return false
	}
}

// nextPosted returns the next game whose summary was posted ("" when ctx
// ends first).
func nextPosted(ctx context.Context, posted <-chan string) string {
	select {
	case id := <-posted:
		return id
	case <-ctx.Done():
		return ""
	}
}
