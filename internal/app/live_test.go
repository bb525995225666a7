package app

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/lichess"
)

// liveSandbox serves the sandbox over loopback HTTP and closes streamed
// when the bot opens its event stream.
func liveSandbox(t *testing.T) (url string, streamed <-chan struct{}) {
	t.Helper()
	sb := sandbox.New(sandbox.Config{Logger: zerolog.Nop(), Accounts: []sandbox.Account{
		{Name: "outbot", Token: "bot-token", Bot: true},
		{Name: "alice", Token: "alice-token"},
	}})
	t.Cleanup(sb.Close)
	ch := make(chan struct{})
	var once sync.Once
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/stream/event" {
			once.Do(func() { close(ch) })
		}
		sb.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return ts.URL, ch
}

// TestRunLive runs the live daemon's wiring against the sandbox over
// loopback HTTP: it opens the store, checks the token and the BOT account,
// follows the event stream and stops with its context; a human account's
// token (no bot:play scope) is refused with the reason.
func TestRunLive(t *testing.T) {
	url, streamed := liveSandbox(t)
	newCfg := func() *config.Config {
		cfg := config.Default()
		cfg.Lichess.URL = url
		cfg.Store.Path = filepath.Join(t.TempDir(), "outpost.db")
		cfg.Web.Enabled, cfg.Compare.Enabled = false, false
		return cfg
	}
	cfg := newCfg()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- RunLive(ctx, Live{Config: cfg, Token: lichess.Token("bot-token"), Logger: zerolog.Nop()})
	}()
	select {
	case <-streamed:
	case err := <-done:
		t.Fatalf("the daemon ended before following its event stream: %v", err)
	}
	cancel()
	require.NoError(t, <-done)
	_, err := os.Stat(cfg.Store.Path)
	assert.NoError(t, err, "the store")

	err = RunLive(context.Background(), Live{Config: newCfg(), Token: lichess.Token("alice-token"), Logger: zerolog.Nop()})
	assert.ErrorIs(t, err, lichess.ErrMissingScope)
	assert.ErrorContains(t, err, "bot:play")
}
