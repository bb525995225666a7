package daemon

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/internal/records"
	"github.com/outpostchess/outpost/internal/store"
)

// TestRecordLogsExportWarnings: a record made from a Lichess export that
// the PGN reader kept with a warning (no result token) is written, and
// the daemon logs the warning at warn level, naming the game and its
// players.
func TestRecordLogsExportWarnings(t *testing.T) {
	var logs bytes.Buffer
	d := &Daemon{log: zerolog.New(&logs)}
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "outpost.db"))
	require.NoError(t, err)
	defer st.Close()
	w, err := records.NewWriter(t.TempDir(), records.PerGame, st)
	require.NoError(t, err)
	w.Warn = d.recordWarning
	export := "[Event \"Casual game\"]\n[White \"outpost\"]\n[Black \"Alice\"]\n[GameId \"abcdefgh\"]\n\n1. e4 e5\n"
	path, err := w.Write(context.Background(), records.Game{ID: "abcdefgh", ServerPGN: export, Moves: []string{"e2e4", "e7e5"},
		White: "outpost", Black: "Alice", Result: "*", Ended: time.Now()})
	require.NoError(t, err)
	assert.NotEmpty(t, path)
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	require.Len(t, lines, 1, logs.String())
	assert.Contains(t, lines[0], `"level":"warn","game":"abcdefgh","message":"record: Lichess's export: game 1 (outpost–Alice): no result token at the end of the movetext"`)
}
