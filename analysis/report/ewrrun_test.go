package report

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/analysis/ewr/ewrtest"
)

// ewrRunGame is 1. e4 e5 2. Nf3 Nc6 with Black's 1...e5 judged a mistake
// and White's 2. Nf3 the costliest move of our bot "bot".
func ewrRunGame() *analysis.Analysis {
	d := func(x float64) *float64 { return &x }
	return &analysis.Analysis{
		Source: "t.pgn", Index: 2,
		Players: analysis.Players{White: analysis.Player{Name: "Bot"}, Black: analysis.Player{Name: "human"}},
		Plies: []analysis.Ply{
			{Ply: 1, Color: "white", SAN: "e4", UCI: "e2e4", Delta: d(0.01)},
			{Ply: 2, Color: "black", SAN: "e5", UCI: "e7e5", Delta: d(0.2), Judgement: analysis.Mistake},
			{Ply: 3, Color: "white", SAN: "Nf3", UCI: "g1f3", Delta: d(0.05)},
			{Ply: 4, Color: "black", SAN: "Nc6", UCI: "b8c6", Delta: d(0.01)},
		},
	}
}

// TestComputeEWR: the moments in game order with their kinds, at the
// override's rating, each announced through Moment; a failing engine keeps
// every moment with its error and a warning naming the game and ply.
func TestComputeEWR(t *testing.T) {
	a := ewrRunGame()
	var announced []string
	var warnings []string
	finished := 0
	r := EWRRun{Params: ewr.DefaultParams(), Rating: 1700, Bot: "bot", BotMoves: 1,
		Moment: func(done, total int, game string, ply int) (func(ewr.Event), func()) {
			announced = append(announced, fmt.Sprintf("%d/%d %s %d", done, total, game, ply))
			return nil, func() { finished++ }
		},
		Warn: func(msg string) { warnings = append(warnings, msg) },
	}
	assert.Equal(t, 2, r.Count([]*analysis.Analysis{a}))
	calc := &ewr.Calculator{Prober: ewrtest.UniformProber{}, Evaluator: ewrtest.LevelEvaluator{}}
	var counts analysis.Counts
	set, err := ComputeEWR(analysis.WithCounts(context.Background(), &counts), calc, []*analysis.Analysis{a}, r)
	require.NoError(t, err)
	// one replay of the game for its two moments (one per moment before)
	assert.Equal(t, int64(1), counts.Replays.Load(), "replays of the game")
	ms := set[a]
	require.Len(t, ms, 2)
	assert.Equal(t, []string{"1/2 t.pgn#2 2", "2/2 t.pgn#2 3"}, announced)
	assert.Equal(t, 2, finished)
	assert.Empty(t, warnings)
	for i, want := range []struct {
		ply  int
		kind string
	}{{2, EWRCritical}, {3, EWRBot}} {
		assert.Equal(t, want.ply, ms[i].Ply)
		assert.Equal(t, want.kind, ms[i].Kind)
		assert.True(t, ms[i].OK(), "moment %d: %+v", i, ms[i])
		assert.Equal(t, 1700, ms[i].Rating)
	}

	calc.Evaluator = ewrtest.LevelEvaluator{FailOn: "rnbqkbnr/pppp"} // both moments' positions
	set, err = ComputeEWR(context.Background(), calc, []*analysis.Analysis{a}, r)
	require.NoError(t, err)
	require.Len(t, set[a], 2)
	assert.False(t, set[a][0].OK())
	assert.Contains(t, set[a][0].Error, "engine crashed")
	require.Len(t, warnings, 2)
	assert.Contains(t, warnings[0], "expected winrate of game t.pgn#2 at ply 2 not computed: ")
}

// TestComputeEWRCancelled: a cancelled run returns ctx's error and no
// moments of the game it was in.
func TestComputeEWRCancelled(t *testing.T) {
	a := ewrRunGame()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	calc := &ewr.Calculator{Prober: ewrtest.UniformProber{}, Evaluator: ewrtest.LevelEvaluator{}}
	set, err := ComputeEWR(ctx, calc, []*analysis.Analysis{a}, EWRRun{Params: ewr.DefaultParams()})
	assert.ErrorIs(t, err, context.Canceled)
	assert.NotContains(t, set, a)
}

// TestGameName: the id, else source#index.
func TestGameName(t *testing.T) {
	assert.Equal(t, "abcd1234", GameName(&analysis.Analysis{ID: "abcd1234", Source: "x.pgn"}))
	assert.Equal(t, "x.pgn#3", GameName(&analysis.Analysis{Source: "x.pgn", Index: 3}))
}
