package main

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

func TestCompareBotListsVerifiedGames(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "outpost.db")
	st, err := store.Open(ctx, path)
	require.NoError(t, err)
	t0 := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	for i, id := range []string{"game0001", "game0002", "game0003"} {
		require.NoError(t, st.StartGame(ctx, store.Game{ID: id, Opponent: "alice", Color: "white"}))
		require.NoError(t, st.EnqueueVerification(ctx, id, t0.Add(time.Duration(i)*time.Hour), t0))
	}
	require.NoError(t, st.SaveCloudCheck(ctx, "game0001", 6, 5, 1, `{"checked":6}`))
	require.NoError(t, st.SaveLichessCheck(ctx, "game0001", 36, 34, `{"judgements":36,"agree":34}`))
	require.NoError(t, st.SaveLichessCheck(ctx, "game0002", 10, 9, `{}`))
	require.NoError(t, st.RetryVerification(ctx, "game0003", 4, t0.Add(time.Hour), ""))
	require.NoError(t, st.Close())

	run1 := func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := run(ctx, append([]string{"compare"}, args...), &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut})
		return code, out.String(), errOut.String()
	}
	code, out, errOut := run1("--bot", "--store", path)
	require.Equal(t, 0, code, errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.GreaterOrEqual(t, len(lines), 5, out)
	assert.Contains(t, lines[1], "game0003")
	assert.Contains(t, lines[1], "waiting (4 polls)")
	assert.Contains(t, lines[3], "34/36 agree")
	assert.Contains(t, lines[3], "5/6 agree (1 not in the cloud)")
	assert.Contains(t, out, "3 games; 2 compared with Lichess's analysis: 43/46 judgements agree (93.5%); cloud eval: 5/6 critical moves agree (83.3%)")

	code, out, errOut = run1("--bot", "--store", path, "--json", "--max", "1")
	require.Equal(t, 0, code, errOut)
	var doc struct {
		Games []botVerification `json:"games"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	require.Len(t, doc.Games, 1)
	assert.Equal(t, "game0003", doc.Games[0].ID)

	code, _, errOut = run1("--bot", "--user", "alice")
	assert.NotEqual(t, 0, code)
	assert.Contains(t, errOut, "--bot takes no --user")
	code, _, errOut = run1("--bot", "--store", filepath.Join(t.TempDir(), "missing.db"))
	assert.NotEqual(t, 0, code)
	assert.Contains(t, errOut, "--store")
}
