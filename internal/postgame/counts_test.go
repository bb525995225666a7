package postgame_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/analysis/ewr/ewrtest"
	"github.com/outpostchess/outpost/bots/score"
	"github.com/outpostchess/outpost/bots/uci"
	"github.com/outpostchess/outpost/internal/postgame"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/internal/verify"
	"github.com/outpostchess/outpost/lichess"
)

// mateEngine is a fake Stockfish for the post-game analysis: every
// position is level except the one after 3...Nf6??, where White mates in
// one (Qxf7#), so the summary has a judged move and an expected-winrate
// line.
type mateEngine struct{}

func (mateEngine) Analyse(_ context.Context, pos uci.Position, lim uci.Limits) (*uci.Result, error) {
	s, best := score.CP(10), "a2a3"
	if len(pos.Moves) == 6 {
		s, best = score.Mate(1), "h5f7"
	}
	return &uci.Result{BestMove: best, Lines: []uci.Info{{MultiPV: 1, Depth: 10, HasScore: true, Score: s, PV: []string{best}}}}, nil
}
func (mateEngine) NewGame(context.Context) error { return nil }
func (mateEngine) Restart(context.Context) error { return nil }
func (mateEngine) Close() error                  { return nil }

// startCounter starts the summary's engines as mateEngines and records
// each start's engine settings.
type startCounter struct {
	mu     sync.Mutex
	starts []analysis.EngineSpec
}

func (c *startCounter) start(_ context.Context, spec analysis.EngineSpec, _ int) (analysis.Searcher, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.starts = append(c.starts, spec)
	return mateEngine{}, nil
}

func (c *startCounter) hashes() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []int
	for _, s := range c.starts {
		out = append(out, s.HashMB)
	}
	return out
}

// TestOneSummaryCounts: one summary replays the game once for its analysis
// and once for the expected winrate, and builds its analysis once; the
// summary's engines — the analysis pool's and the expected winrate's —
// start through the one start (SetEngineStart's), once, and the next
// summary starts none. Before the one pass it replayed four times
// (postgame's own replay of the stored moves for their SAN, the analysis's
// positions, ewr.AnalyseMoment's board and Calculate's root again), and the
// expected winrate's engines started on a path of their own (this test saw
// one start); a replay, a build or an engine start added back fails here.
func TestOneSummaryCounts(t *testing.T) {
	sum := postgame.New(analysis.PoolConfig{Workers: 1}, 20_000, "OutpostBot")
	defer sum.Close()
	starts := &startCounter{}
	sum.SetEngineStart(starts.start)
	sum.WithEWR(postgame.EWROptions{Prober: ewrtest.UniformProber{}, Mode: ewr.ModeFast})
	for _, id := range []string{"count001", "count002"} {
		g := store.Game{ID: id, Opponent: "someone", OpponentRating: 1500, Color: "white", Status: "mate", Winner: "white",
			Moves: "e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7"}
		var counts analysis.Counts
		s, err := sum.Summarise(analysis.WithCounts(context.Background(), &counts), postgame.Request{Game: g})
		require.NoError(t, err)
		require.NotNil(t, s.Analysis)
		require.Len(t, s.Lines, 3, "two sides and the expected winrate: %q", s.Lines)
		assert.True(t, strings.HasPrefix(s.Lines[2], "Critical moment 3... Nf6"), s.Lines[2])
		assert.Contains(t, s.Lines[1], "Worst: 3... Nf6??", "the chat's worst is the line's moment")
		assert.Equal(t, "Qxf7#", s.Analysis.Game.Moves[6].SAN, "the analysis wrote the SAN of the stored UCI moves")
		assert.Equal(t, int64(2), counts.Replays.Load(), "%s: replays: one for the analysis, one for the expected winrate", id)
		assert.Equal(t, int64(1), counts.Builds.Load(), "%s: builds of the analysis", id)
		assert.Equal(t, []int{analysis.DefaultHashMB, 64}, starts.hashes(),
			"%s: engines started (by hash): the pool's one worker, then the expected winrate's one engine, kept for later games", id)

		// the verification line, as the daemon adds it after the summary:
		// Lichess's export is read on the analysis's boards, not replayed
		line, ok := verify.ServerLine(mateExport{}, verify.Lichess)(analysis.WithCounts(context.Background(), &counts), g, s.Analysis)
		require.True(t, ok, "the export has Lichess's analysis")
		assert.Equal(t, "Checked against Lichess's own analysis: 1/1 judgements agree.", line)
		assert.Equal(t, int64(2), counts.Replays.Load(), "%s: replays with the verification line: still two", id)
		assert.Equal(t, int64(2), counts.Builds.Load(), "%s: builds with the verification line: ours and Lichess's", id)
	}
}

// mateExport is Lichess's export of the counted game, analysed as
// mateEngine sees it: 3...Nf6?? a blunder, Qxf7# the best move.
type mateExport struct{}

func (mateExport) ExportGame(_ context.Context, id string, _ lichess.ExportOptions) (*lichess.Game, error) {
	level, mate := 10, 1
	lg := &lichess.Game{ID: id, Status: lichess.StatusMate, Winner: "white", Moves: "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#"}
	for range 5 {
		lg.Analysis = append(lg.Analysis, lichess.MoveAnalysis{Eval: &level})
	}
	lg.Analysis = append(lg.Analysis, lichess.MoveAnalysis{Mate: &mate, Best: "c6d4", Variation: "Nd4 Qxf7#",
		Judgment: &lichess.Judgment{Name: "Blunder", Comment: "Checkmate is now unavoidable. Nd4 was best."}}, lichess.MoveAnalysis{})
	return lg, nil
}
