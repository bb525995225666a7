package demo

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/analysis/ewr/ewrtest"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/internal/postgame"
)

// fakeStockfish scores every position as equal; when slow it never
// answers (the calculation outlasts any bound).
type fakeStockfish struct{ slow bool }

func (f fakeStockfish) Evaluate(ctx context.Context, reqs []ewr.EvalRequest, onResult func(int, score.Score)) error {
	if f.slow {
		<-ctx.Done()
		return ctx.Err()
	}
	for i := range reqs {
		onResult(i, score.Score{CP: 0})
	}
	return nil
}

// TestDemoSummaryEWR plays games against the sandbox with the real
// post-game analysis (Stockfish at a small node budget) and a fake expected-
// winrate calculator: each summary carries the expected-winrate line, or,
// when the calculation outlasts its bound, says it was not ready — and is
// still posted exactly once.
func TestDemoSummaryEWR(t *testing.T) {
	t.Parallel() // waits on its games' clocks; no goroutine check (see docs/testing.md)
	if testing.Short() {
		t.Skip("plays a game")
	}
	for _, tc := range []struct {
		name  string
		slow  bool
		bound time.Duration
		want  string
	}{
		// No bound (as `outpost run --sandbox --games N`): the summary
		// waits for the line, so no machine is too busy for it.
		{"line in the summary", false, 0, "Critical moment "},
		// The slow fake never answers: any bound is exceeded.
		{"bound exceeded", true, time.Second, postgame.EWRNotReady},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
			defer cancel()
			cfg := fastConfig()
			cfg.Engines.Default = "easy" // a weak bot: the game has a judged move
			sum := realSummariser(t, cfg)
			sum.WithEWR(postgame.EWROptions{Prober: ewrtest.UniformProber{}, Evaluator: fakeStockfish{slow: tc.slow}, Timeout: tc.bound, Fast: true})
			res, err := Run(ctx, Options{Config: cfg, Games: 1, TC: "0.5+0", Summariser: sum, Dir: t.TempDir(), Logger: zerolog.Nop()})
			require.NoError(t, err)
			require.Len(t, res.Summary, 1)
			for id, lines := range res.Summary {
				var found []string
				for _, l := range lines {
					if strings.HasPrefix(l, tc.want) {
						found = append(found, l)
					}
				}
				require.Len(t, found, 1, "one expected-winrate line in %q", lines)
				chat := res.Sandbox.Chat(id)
				for _, line := range lines {
					n := 0
					for _, l := range chat {
						if l.User == BotName && l.Text == line {
							n++
						}
					}
					assert.Equal(t, 1, n, "line %q posted once", line)
				}
			}
		})
	}
}
