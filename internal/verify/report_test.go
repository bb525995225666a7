package verify

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/internal/store"
)

// botGamesStore returns a store with three verified games of the bot: one
// compared with Lichess's analysis and the cloud, one with the analysis
// only, one still waiting after four polls.
func botGamesStore(t *testing.T) *store.Store {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "outpost.db"))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, st.Close()) })
	t0 := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	for i, id := range []string{"game0001", "game0002", "game0003"} {
		require.NoError(t, st.StartGame(ctx, store.Game{ID: id, Opponent: "alice", Color: "white"}))
		require.NoError(t, st.EnqueueVerification(ctx, id, t0.Add(time.Duration(i)*time.Hour), t0))
	}
	require.NoError(t, st.SaveCloudCheck(ctx, "game0001", 6, 5, 1, `{"checked":6}`))
	require.NoError(t, st.SaveLichessCheck(ctx, "game0001", 36, 34, `{"judgements":36,"agree":34}`))
	require.NoError(t, st.SaveLichessCheck(ctx, "game0002", 10, 9, `{}`))
	require.NoError(t, st.RetryVerification(ctx, "game0003", 4, t0.Add(time.Hour), ""))
	return st
}

func TestBotGamesTable(t *testing.T) {
	ctx := context.Background()
	st := botGamesStore(t)
	tests := []struct {
		name  string
		max   int
		lines []string // substrings of the output's lines, in order (table header first)
		total string
	}{
		{"all three, newest first", 10,
			[]string{"GAME", "game0003", "game0002", "game0001"},
			"3 games; 2 compared with Lichess's analysis: 43/46 judgements agree (93.5%); cloud eval: 5/6 critical moves agree (83.3%)"},
		{"the newest only", 1,
			[]string{"GAME", "game0003"},
			"1 games; 0 compared with Lichess's analysis: 0/0 judgements agree; cloud eval: 0/0 critical moves agree"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rows, err := BotGames(ctx, st, tc.max)
			require.NoError(t, err)
			require.Len(t, rows, len(tc.lines)-1)
			var out bytes.Buffer
			WriteBotGames(&out, rows, Lichess)
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			require.Len(t, lines, len(tc.lines)+2, out.String()) // a blank line, then the totals
			for i, want := range tc.lines {
				assert.Contains(t, lines[i], want)
			}
			assert.Equal(t, tc.total, lines[len(lines)-1])
		})
	}
	rows, err := BotGames(ctx, st, 10)
	require.NoError(t, err)
	var out bytes.Buffer
	WriteBotGames(&out, rows, Lichess)
	text := out.String()
	assert.Regexp(t, `game0003 +2026-11-25 14:00 +alice +- +- +waiting \(4 polls\)`, text)
	assert.Regexp(t, `game0002 +2026-11-25 13:00 +alice +9/10 agree +- +done`, text)
	assert.Regexp(t, `game0001 +2026-11-25 12:00 +alice +34/36 agree +5/6 agree \(1 not in the cloud\) +done`, text)
	assert.NotContains(t, text, "stand-in")

	// Against the sandbox, the table says so: a note, its column and totals.
	out.Reset()
	WriteBotGames(&out, rows, StandIn)
	text = out.String()
	assert.True(t, strings.HasPrefix(text, "Checked against the sandbox's Lichess stand-in: its analysis is our own Stockfish under Lichess's rules, not Lichess's.\n"), text)
	assert.Contains(t, text, "STAND-IN ANALYSIS")
	assert.NotContains(t, text, "LICHESS ANALYSIS")
	assert.Contains(t, text, "3 games; 2 compared with the sandbox's Lichess stand-in's analysis: 43/46 judgements agree (93.5%)")
}

func TestBotGamesEmptyAndJSON(t *testing.T) {
	var out bytes.Buffer
	WriteBotGames(&out, nil, Lichess)
	assert.Contains(t, out.String(), "No game of the bot verified against Lichess yet")
	out.Reset()
	WriteBotGames(&out, nil, StandIn)
	assert.Contains(t, out.String(), "No game of the bot verified against the sandbox's Lichess stand-in yet")

	rows, err := BotGames(context.Background(), botGamesStore(t), 10)
	require.NoError(t, err)
	out.Reset()
	require.NoError(t, WriteBotGamesJSON(&out, rows))
	var doc struct {
		Games []map[string]any `json:"games"`
	}
	require.NoError(t, json.Unmarshal(out.Bytes(), &doc))
	require.Len(t, doc.Games, 3)
	first, last := doc.Games[0], doc.Games[2]
	assert.Equal(t, "game0003", first["id"])
	assert.Equal(t, float64(4), first["polls"])
	assert.NotContains(t, first, "lichess")
	assert.NotContains(t, last, "CloudDone", "the cloud check's flag is the table's, not the JSON's")
	assert.Equal(t, map[string]any{"judgements": float64(36), "agree": float64(34)}, last["lichess"])
	assert.Equal(t, map[string]any{"checked": float64(6)}, last["cloud"])
}
