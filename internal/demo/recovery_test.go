package demo

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/outpostchess/outpost/internal/store"
)

// TestGoneGameClosedOnceAcrossRestarts: a game the store holds as running
// but the server does not know (its export answers 404: the server was
// replaced while the daemon was down) is closed at the daemon's start with
// its own status, gone, after one export request; the next daemon on the
// same store does not ask for it again.
func TestGoneGameClosedOnceAcrossRestarts(t *testing.T) {
	if testing.Short() {
		t.Skip("plays two games: skipped in -short mode")
	}
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := t.TempDir()
	const id = "g0neG4me"
	st, err := store.Open(ctx, filepath.Join(dir, "outpost.db"))
	require.NoError(t, err)
	require.NoError(t, st.StartGame(ctx, store.Game{ID: id, Opponent: "someone", Color: "white", Engine: "easy", Speed: "bullet"}))
	require.NoError(t, st.Close())

	for run, want := range []int{1, 0} {
		res, err := Run(ctx, Options{Config: fastConfig(), Games: 1, TC: "1+0", Summariser: &countingSummariser{},
			Dir: dir, Logger: testLogger(t)})
		require.NoError(t, err, "run %d", run+1)
		exports, notFound := 0, 0
		for _, r := range res.Sandbox.Requests() {
			if strings.HasPrefix(r.Path, "/game/export/"+id) {
				exports++
				if r.Status == 404 {
					notFound++
				}
			}
		}
		assert.Equal(t, want, exports, "run %d: export requests for the unknown game", run+1)
		assert.Equal(t, want, notFound, "run %d: answered 404", run+1)
	}
	st, err = store.Open(ctx, filepath.Join(dir, "outpost.db"))
	require.NoError(t, err)
	defer st.Close()
	g, err := st.Game(ctx, id)
	require.NoError(t, err)
	assert.Equal(t, store.StatusGone, g.Status)
	active, err := st.ActiveGames(ctx)
	require.NoError(t, err)
	assert.Empty(t, active, "nothing left running")
}
