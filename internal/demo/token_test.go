package demo

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTokenNeverWritten runs a whole session (start-up checks, a game,
// chat, summary, shutdown) at debug level with a distinctive token, then
// scans every log line, the printed output, the store and the PGN files.
func TestTokenNeverWritten(t *testing.T) {
	const token = "lip_SECRETtoken4242outpostDistinctive"
	var logs, out bytes.Buffer
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cfg := fastConfig()
	cfg.Engines.Default = "easy"
	logger := zerolog.New(&logs).Level(zerolog.TraceLevel).With().Timestamp().Logger()
	_, err := Run(ctx, Options{Config: cfg, Games: 1, TC: "0.5+0", Out: &out, Summariser: &countingSummariser{},
		Dir: dir, Logger: logger, BotToken: token})
	require.NoError(t, err)
	require.Positive(t, logs.Len(), "the session logged")
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
