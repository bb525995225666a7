package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/internal/verify"
)

func TestCompareBotListsVerifiedGames(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "outpost.db")
	st, err := store.Open(ctx, path)
	require.NoError(t, err)
	// The table itself is internal/verify's (TestBotGamesTable); this is the command's wiring.
	t0 := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	for _, id := range []string{"game0001", "game0002"} {
		require.NoError(t, st.StartGame(ctx, store.Game{ID: id, Opponent: "bob", Color: "black"}))
	}
	require.NoError(t, st.EnqueueVerification(ctx, "game0001", t0, t0))
	require.NoError(t, st.EnqueueVerification(ctx, "game0002", t0.Add(time.Minute), t0))
	require.NoError(t, st.SaveLichessCheck(ctx, "game0001", 20, 19, `{}`))
	require.NoError(t, st.Close())

	code, out, errOut := runCompareCLI(t, "--bot", "--store", path)
	require.Equal(t, 0, code, errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 5, out)
	assert.Regexp(t, `^game0002 +2026-11-25 12:01 +bob +- +- +waiting \(0 polls\)$`, lines[1])
	assert.Regexp(t, `^game0001 +2026-11-25 12:00 +bob +19/20 agree +- +done$`, lines[2])
	assert.Equal(t, "2 games; 1 compared with Lichess's analysis: 19/20 judgements agree (95.0%); cloud eval: 0/0 critical moves agree", lines[4])

	code, out, errOut = runCompareCLI(t, "--bot", "--store", path, "--json", "--max", "1")
	require.Equal(t, 0, code, errOut)
	var doc struct {
		Games []verify.BotGame `json:"games"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	require.Len(t, doc.Games, 1)
	assert.Equal(t, "game0002", doc.Games[0].ID)

	code, _, errOut = runCompareCLI(t, "--bot", "--user", "alice")
	assert.NotEqual(t, 0, code)
	assert.Contains(t, errOut, "--bot takes no --user")
	code, _, errOut = runCompareCLI(t, "--bot", "--store", filepath.Join(t.TempDir(), "missing.db"))
	assert.NotEqual(t, 0, code)
	assert.Contains(t, errOut, "--store")
}
