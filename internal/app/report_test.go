package app

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/input"
)

// TestWriteAnalyses: each format writes the analysed game in its own form;
// JSON carries the skipped inputs.
func TestWriteAnalyses(t *testing.T) {
	games, errs := input.ReadPGN(strings.NewReader(streamPGN), "t.pgn")
	require.Len(t, games, 1)
	require.Len(t, errs, 1)
	a, err := analysis.BuildLichess(games[0])
	require.NoError(t, err)
	analyses := []*analysis.Analysis{a}
	for _, c := range []struct {
		format string
		want   string
	}{
		{"text", "Game t.pgn#1: W vs B, 1-0"},
		{"pgn", "[White \"W\"]"},
		{"html", "<html"},
	} {
		var b bytes.Buffer
		require.NoError(t, WriteAnalyses(&b, c.format, analyses, nil, nil), c.format)
		assert.Contains(t, b.String(), c.want, c.format)
	}
	var b bytes.Buffer
	require.NoError(t, WriteAnalyses(&b, "json", analyses, nil, []string{errs[0].Error()}))
	var doc struct {
		Games  []json.RawMessage `json:"games"`
		Errors []string          `json:"errors"`
	}
	require.NoError(t, json.Unmarshal(b.Bytes(), &doc), b.String())
	assert.Len(t, doc.Games, 1)
	assert.Equal(t, []string{errs[0].Error()}, doc.Errors)
}
