package app

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/input"
)

// streamPGN is a game with Lichess's evals and a game with an illegal move.
const streamPGN = `[Event "t"]
[White "W"]
[Black "B"]
[Result "1-0"]

1. e4 { [%eval 0.2] } 1... f6 { [%eval 0.9] } 2. d4 { [%eval 0.8] } 2... g5 { [%eval #1] } 3. Qh5# 1-0

[Event "bad"]

1. e4 e4 *
`

// TestStreamAnalyses: every game of every source is analysed (from the
// input's evals) and written, a bad game is skipped and reported, the
// progress is finished per game and at the end; without any game
// analysed the run fails.
func TestStreamAnalyses(t *testing.T) {
	var out bytes.Buffer
	var skipped []string
	finished := 0
	s := Stream{
		Sources: []input.GameSource{input.Bytes{Label: "a.pgn", Data: []byte(streamPGN)}, input.Bytes{Label: "b.pgn", Data: []byte(streamPGN)}},
		Out:     &out, Format: "json",
		Options: analysis.BatchOptions{LichessEvals: true},
		Finish:  func() { finished++ },
		Skipped: func(err error) { skipped = append(skipped, err.Error()) },
		Logger:  zerolog.Nop(),
	}
	require.NoError(t, StreamAnalyses(context.Background(), s))
	assert.Equal(t, 3, finished, "two games and the end")
	require.Len(t, skipped, 2)
	assert.Contains(t, skipped[0], "a.pgn")
	assert.Contains(t, skipped[1], "b.pgn")
	var doc struct {
		Games []struct {
			Source string `json:"source"`
		} `json:"games"`
	}
	require.NoError(t, json.Unmarshal(out.Bytes(), &doc), out.String())
	require.Len(t, doc.Games, 2)
	assert.Equal(t, "a.pgn", doc.Games[0].Source)
	assert.Equal(t, "b.pgn", doc.Games[1].Source)

	out.Reset()
	s.Sources, skipped = []input.GameSource{input.Bytes{Label: "c.pgn", Data: []byte("[Event \"bad\"]\n\n1. e4 e4 *\n")}}, nil
	assert.ErrorContains(t, StreamAnalyses(context.Background(), s), "no game analysed (1 skipped)")

	s.Format = "yaml"
	assert.Error(t, StreamAnalyses(context.Background(), s))
}

// TestStreamAnalysesInterrupted: a cancelled run says after how many games.
func TestStreamAnalysesInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := StreamAnalyses(ctx, Stream{
		Sources: []input.GameSource{input.Bytes{Label: "a.pgn", Data: []byte(streamPGN)}},
		Out:     &bytes.Buffer{}, Format: "text", Options: analysis.BatchOptions{LichessEvals: true}, Logger: zerolog.Nop(),
	})
	assert.ErrorContains(t, err, "interrupted after 0 games")
	assert.ErrorIs(t, err, context.Canceled)
}

// warnPGN is streamPGN's first game without its result token (the reader
// keeps it with a warning) and a game whose White tag holds a control
// character.
const warnPGN = `[Event "t"]
[White "W"]
[Black "B"]
[Result "1-0"]

1. e4 { [%eval 0.2] } 1... f6 { [%eval 0.9] } 2. d4 { [%eval 0.8] } 2... g5 { [%eval #1] } 3. Qh5#

[Event "u"]
[White "X` + "\x00" + `"]
[Black "Y"]
[Result "1-0"]

1. e4 { [%eval 0.2] } 1... f6 { [%eval 0.9] } 2. d4 { [%eval 0.8] } 2... g5 { [%eval #1] } 3. Qh5# 1-0
`

// TestStreamAnalysesWarnings: the reader's warnings of the games it kept
// reach Stream.Warning, one line per warning naming the source, the game
// and its players, and the games are still analysed and written.
func TestStreamAnalysesWarnings(t *testing.T) {
	var out bytes.Buffer
	var warnings []string
	s := Stream{
		Sources: []input.GameSource{input.Bytes{Label: "w.pgn", Data: []byte(warnPGN)}},
		Out:     &out, Format: "json",
		Options: analysis.BatchOptions{LichessEvals: true},
		Warning: func(source, line string) { warnings = append(warnings, source+": "+line) },
		Logger:  zerolog.Nop(),
	}
	require.NoError(t, StreamAnalyses(context.Background(), s))
	assert.Equal(t, []string{
		"w.pgn: game 1 (W–B): no result token at the end of the movetext",
		"w.pgn: game 2 (X\uFFFD–Y): line 9: tag White: value has control character U+0000 (written as U+FFFD)",
	}, warnings)
	var doc struct {
		Games []json.RawMessage `json:"games"`
	}
	require.NoError(t, json.Unmarshal(out.Bytes(), &doc), out.String())
	assert.Len(t, doc.Games, 2, "the games warned about are analysed")
}
