package match

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/bots/engine"
)

// TestWriteReport: the summary for people, golden, with the endings
// counted by their reason before any colon, sorted by name.
func TestWriteReport(t *testing.T) {
	sum := Summary{
		Stats: ComputeStats(3, 1, 2),
		NameA: "hard", NameB: "Stockfish 15.1",
		Games: []Game{
			{Reason: "checkmate"}, {Reason: "time forfeit: no move in 0.2s"}, {Reason: "checkmate"},
			{Reason: "threefold repetition"}, {Reason: "time forfeit: illegal"}, {Reason: "stalemate"},
		},
	}
	var b bytes.Buffer
	sum.WriteReport(&b, "hard", "uci:/usr/games/stockfish")
	assert.Equal(t, "A: hard (hard)\nB: Stockfish 15.1 (uci:/usr/games/stockfish)\n"+
		"games 6: A won 3, B won 1, 2 drawn; A scored 66.7%\n"+
		"Elo difference (A-B): +120 ± 255 (95%), LOS 84.1%\n"+
		"endings: checkmate 2, stalemate 1, threefold repetition 1, time forfeit 2\n", b.String())
}

// TestWriteReportEven: an even match prints +0, not -0, and no endings.
func TestWriteReportEven(t *testing.T) {
	var b bytes.Buffer
	Summary{Stats: ComputeStats(0, 0, 0), NameA: "a", NameB: "b"}.WriteReport(&b, "easy", "easy")
	assert.Equal(t, "A: a (easy)\nB: b (easy)\ngames 0: A won 0, B won 0, 0 drawn; A scored 0.0%\n"+
		"Elo difference (A-B): +0 ± 0 (95%), LOS 50.0%\nendings: \n", b.String())
}

// TestStatsJSON: the --json line, golden, rounded.
func TestStatsJSON(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, ComputeStats(3, 1, 2).WriteJSON(&b))
	assert.Equal(t, `{"games":6,"wins_a":3,"wins_b":1,"draws":2,"score_a":0.6667,"elo_diff":120.4,"elo_error":255.1,"los":0.8413}`+"\n", b.String())
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestWritePGN: games one after another, each followed by an empty line; a
// write error is named.
func TestWritePGN(t *testing.T) {
	games := []Game{
		{Index: 0, White: "a", Black: "b", Result: WhiteWins, Reason: "checkmate", Moves: strings.Fields("f2f3 e7e5 g2g4 d8h4")},
		{Index: 1, White: "b", Black: "a", Result: Draw, Reason: "agreed", Start: engine.Position{Moves: []string{"e2e4"}}},
	}
	var b bytes.Buffer
	require.NoError(t, WritePGN(&b, games))
	var want strings.Builder
	for _, g := range games {
		p, err := g.PGN()
		require.NoError(t, err)
		want.WriteString(p + "\n")
	}
	assert.Equal(t, want.String(), b.String())
	assert.Equal(t, 2, strings.Count(b.String(), "[Event "))
	assert.Contains(t, b.String(), "1. e4 1/2-1/2\n\n")
	assert.ErrorContains(t, WritePGN(failWriter{}, games), "writing game 1: disk full")
}

// TestLadderReport: the rung lines and the three kinds of estimate,
// golden.
func TestLadderReport(t *testing.T) {
	var b bytes.Buffer
	Rung{Elo: 1350, Wins: 7, Losses: 2, Draws: 1}.WriteLine(&b)
	assert.Equal(t, "  UCI_Elo 1350: +7 -2 =1  score 75.0%\n", b.String())
	rungs := []Rung{{Elo: 1850, Wins: 6, Losses: 4}, {Elo: 2100, Wins: 3, Losses: 6, Draws: 1}}
	for _, c := range []struct {
		fit  Fit
		want string
	}{
		{Fit{Elo: 1962.4, Error: 88.6}, "Stockfish-15.1-equivalent Elo at 0.1 s/move on this machine: 1962 ± 89 (95%, 20 games)\n"},
		{Fit{Bound: "above"}, "Stockfish-15.1-equivalent Elo at 0.1 s/move on this machine: above 2100 (won every game; 20 games)\n"},
		{Fit{Bound: "below"}, "Stockfish-15.1-equivalent Elo at 0.1 s/move on this machine: below 2100 (lost every game; 20 games)\n"},
	} {
		b.Reset()
		LadderResult{Rungs: rungs, Fit: c.fit}.WriteSummary(&b, "Stockfish 15.1", 0.1)
		assert.Equal(t, c.want, b.String())
	}
}
