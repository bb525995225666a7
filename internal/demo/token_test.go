package demo

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/internal/logging"
	"github.com/outpostchess/outpost/internal/testkit"
)

// TestTokenNeverWritten runs a whole session (start-up checks, a game,
// chat, summary, shutdown) at debug level with a distinctive token, then
// scans every log line, the printed output, the store and the PGN files.
func TestTokenNeverWritten(t *testing.T) {
	t.Parallel() // waits on its game's clock; no goroutine check (see docs/testing.md)
	const token = "lip_SECRETtoken4242outpostDistinctive"
	// zerolog and the session's printer write from several goroutines:
	// the buffers take a lock (regression, issue 18: ~30 race reports)
	var logs, out testkit.SyncBuffer
	dir := t.TempDir()
	ctx := testContext(t, 2*time.Minute)
	cfg := fastConfig()
	cfg.Engines.Default = "easy"
	// The game record ([records]) and the log file ([log] file) are
	// scanned too. The file logger is given no secret to redact, so that
	// a token reaching the logger would show here.
	cfg.Records.Dir = filepath.Join(dir, "records")
	logFile := filepath.Join(dir, "logs", "outpost.log")
	logger, closeLog, err := logging.NewWithFile(&logs, "trace", logging.File{Path: logFile, MaxSizeMB: 1, MaxFiles: 3, Level: "trace"})
	require.NoError(t, err)
	_, err = Run(ctx, Options{Config: cfg, Games: 1, TC: "0.5+0", Out: &out, Summariser: &countingSummariser{},
		Dir: dir, Logger: logger, BotToken: token})
	require.NoError(t, err)
	require.NoError(t, closeLog.Close())
	require.Positive(t, logs.Len(), "the session logged")
	fileLog, err := os.ReadFile(logFile)
	require.NoError(t, err)
	require.Contains(t, string(fileLog), "game record written", "the log file has the session")
	records, err := filepath.Glob(filepath.Join(dir, "records", "*.pgn"))
	require.NoError(t, err)
	require.Len(t, records, 1, "the game's record")
	assert.NotContains(t, logs.String(), token)
	assert.NotContains(t, out.String(), token)
	assert.NotContains(t, logs.String(), "SECRETtoken4242")
	require.NoError(t, filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		assert.NotContains(t, string(data), "SECRETtoken4242", "file %s", path)
		return nil
	}))
}
