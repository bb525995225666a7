package verify

import (
	"context"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/lichess"
)

// sandboxClient starts a sandbox (which knows no game) and returns a real
// Lichess client on it, without the client's own retries.
func sandboxClient(t *testing.T) (*sandbox.Server, *lichess.Client) {
	t.Helper()
	srv := sandbox.New(sandbox.Config{Accounts: []sandbox.Account{{Name: "bot", Token: "lip_verifysandboxtoken", Bot: true}}})
	ctx, cancel := context.WithCancel(context.Background())
	url, err := srv.Listen(ctx, "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { cancel(); srv.Close() })
	c, err := lichess.New(lichess.Options{BaseURL: url, Token: "lip_verifysandboxtoken", RetryMax: -1})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return srv, c
}

// TestPermanentOverHTTP classifies the real client's errors from a real
// server: a game the server does not know (404) is permanent; a 503 and a
// 429 are transient.
func TestPermanentOverHTTP(t *testing.T) {
	srv, c := sandboxClient(t)
	ctx := context.Background()
	_, err := c.ExportGame(ctx, "NoSuchGm", lichess.ExportOptions{Evals: true})
	require.Error(t, err)
	assert.True(t, Permanent(err), "404: %v", err)

	id, err := srv.Faults().Add(sandbox.Fault{Kind: sandbox.FaultServerError, Path: "/game/export/", Status: 503})
	require.NoError(t, err)
	_, err = c.ExportGame(ctx, "NoSuchGm", lichess.ExportOptions{Evals: true})
	require.Error(t, err)
	assert.False(t, Permanent(err), "503: %v", err)
	srv.Faults().Remove(id)

	_, err = srv.Faults().Add(sandbox.Fault{Kind: sandbox.FaultRateLimit, Path: "/game/export/", RetryAfter: 90 * time.Second, Times: 1})
	require.NoError(t, err)
	_, err = c.ExportGame(ctx, "NoSuchGm", lichess.ExportOptions{Evals: true})
	require.Error(t, err)
	assert.False(t, Permanent(err), "429: %v", err)
}

// TestWorkerGameNotFoundOverHTTP runs the worker with the real client on a
// sandbox that does not know the game: one poll, then the verification is
// failed with the 404 stored.
func TestWorkerGameNotFoundOverHTTP(t *testing.T) {
	_, c := sandboxClient(t)
	st, g := analysedSample(t, lichessAnalysis(t, sampleExport(t)))
	updates := make(chan store.Verification, 10)
	w, err := New(Options{API: c, Store: st, Clock: lichess.NewManualClock(g.FinishedAt.Add(time.Second)), Logger: zerolog.Nop(),
		Hooks: Hooks{Updated: func(v store.Verification) { updates <- v }}})
	require.NoError(t, err)
	defer runWorker(t, w)()
	select {
	case v := <-updates:
		assert.Equal(t, store.VerifyFailed, v.State)
		assert.Contains(t, v.Error, "permanent")
		assert.Contains(t, v.Error, "HTTP 404")
	case <-time.After(30 * time.Second): // a deadlock guard only
		t.Fatal("the worker made no progress")
	}
}
