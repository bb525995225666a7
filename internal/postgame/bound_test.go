package postgame_test

import (
	"bytes"
	"context"
	"os"
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
	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/bots/uci"
	"github.com/outpostchess/outpost/internal/postgame"
	"github.com/outpostchess/outpost/internal/store"
)

// stuckEngine never answers a search (a machine too busy for it, or an
// engine held back by games on the clock): it reports each search on
// started and returns when the search's context ends.
type stuckEngine struct{ started chan<- struct{} }

func (e stuckEngine) Analyse(ctx context.Context, _ uci.Position, _ uci.Limits) (*uci.Result, error) {
	e.started <- struct{}{}
	<-ctx.Done()
	return nil, ctx.Err()
}
func (stuckEngine) NewGame(context.Context) error { return nil }
func (stuckEngine) Restart(context.Context) error { return nil }
func (stuckEngine) Close() error                  { return nil }

// stuckEvaluator is a Stockfish for the expected winrate that never
// answers; it reports each evaluation on started.
type stuckEvaluator struct{ started chan<- struct{} }

func (e stuckEvaluator) Evaluate(ctx context.Context, _ []ewr.EvalRequest, _ func(int, score.Score)) error {
	e.started <- struct{}{}
	<-ctx.Done()
	return ctx.Err()
}

// syncBuffer is a log sink safe for the engines' goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// boundGame has a judged move for each side (the expected winrate's
// critical moment).
var boundGame = store.Game{ID: "bound001", Opponent: "someone", OpponentRating: 1500, Color: "white", Status: "resign", Winner: "white",
	Moves: "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 f3g5 d7d5 e4d5 f6d5 g5f7 e8f7 d1f3 f7e6 b1c3 c6b4 f3e4 c7c6 a2a3 b4a6"}

// TestSummaryBound: at the summary's bound (an injected timer the test
// fires once the slow part has started) the summary goes out with the
// parts that are ready — the analysis lines and "not ready" for the
// expected winrate, or "Analysis: not ready" alone — never nothing, and
// the log names the game and the part left out.
func TestSummaryBound(t *testing.T) {
	for _, tc := range []struct {
		name      string
		stuckPool bool // else the expected winrate is stuck
		want      func(t *testing.T, lines []string)
		logs      string
	}{
		{"analysis stuck", true, func(t *testing.T, lines []string) {
			assert.Equal(t, []string{postgame.AnalysisNotReady}, lines)
		}, "the analysis was not ready"},
		{"expected winrate stuck", false, func(t *testing.T, lines []string) {
			require.Len(t, lines, 3)
			assert.Contains(t, lines[0], "White OutpostBot:")
			assert.Contains(t, lines[1], "Black someone:")
			assert.Equal(t, postgame.EWRNotReady, lines[2])
		}, "the expected winrate was not ready"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			started := make(chan struct{}, 64)
			pc := analysis.PoolConfig{Command: analysis.DefaultEngineCommand(), Workers: 1, Threads: 1, HashMB: 16}
			if tc.stuckPool {
				pc.Factory = func(context.Context, int) (analysis.Searcher, error) { return stuckEngine{started}, nil }
			} else {
				requireStockfish(t)
			}
			sum := postgame.New(pc, 20_000, "OutpostBot")
			defer sum.Close()
			sum.WithEWR(postgame.EWROptions{Prober: ewrtest.UniformProber{}, Evaluator: stuckEvaluator{started}, Mode: ewr.ModeFast})
			fire := make(chan time.Time)
			var logs syncBuffer
			sum.SetBound(time.Minute, func(d time.Duration) <-chan time.Time {
				assert.Equal(t, time.Minute, d)
				return fire
			}, zerolog.New(&logs))
			go func() {
				<-started // the stuck part is at work: the bound comes
				close(fire)
			}()
			s, err := sum.Summarise(ctx, postgame.Request{Game: boundGame})
			require.NoError(t, err)
			tc.want(t, s.Lines)
			assert.Equal(t, tc.stuckPool, s.JSON == "", "the analysis is stored when it is ready")
			assert.Equal(t, tc.stuckPool, s.Analysis == nil, "the analysis is returned when it is ready")
			out := logs.String()
			assert.Contains(t, out, `"game":"bound001"`)
			assert.Contains(t, out, `"bot":"OutpostBot"`)
			assert.Contains(t, out, tc.logs)
			assert.Equal(t, 1, strings.Count(out, "summary's bound"), out)
		})
	}
}

// TestSummaryWithoutBoundWaits: with no bound the summary ends only with
// its work or its context — a stuck part and the caller's context ending
// give an error, not a partial summary (the daemon retries it at its next
// start).
func TestSummaryWithoutBoundWaits(t *testing.T) {
	started := make(chan struct{}, 64)
	pc := analysis.PoolConfig{Workers: 1, Factory: func(context.Context, int) (analysis.Searcher, error) { return stuckEngine{started}, nil }}
	sum := postgame.New(pc, 20_000, "OutpostBot")
	defer sum.Close()
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-started
		cancel()
	}()
	s, err := sum.Summarise(ctx, postgame.Request{Game: boundGame})
	require.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, s.Lines)
}

func requireStockfish(t *testing.T) {
	t.Helper()
	r, err := enginepath.Resolve(analysis.DefaultEngineCommand())
	if err != nil {
		t.Skipf("Stockfish not installed (%v): run make setup", err)
	}
	if _, err := os.Stat(r.Command[0]); err != nil {
		t.Skipf("Stockfish not installed at %s: run make setup", r.Command[0])
	}
}
