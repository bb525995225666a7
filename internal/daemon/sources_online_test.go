package daemon

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rs/zerolog"

	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/config"
)

// TestTablebaseRateLimitSharedAcrossGames: engines built by one factory
// (one per game) share the tablebase host's client, so after a 429 in one
// game no other game asks the host; each still plays its engine's move.
func TestTablebaseRateLimitSharedAcrossGames(t *testing.T) {
	var hits atomic.Int32
	host := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	defer host.Close()
	cfg := config.Default()
	cfg.Lichess.TablebaseURL = host.URL
	cfg.Engines.Defs = map[string]config.EngineConfig{"tb": {Type: "easy",
		Online: config.OnlineConfig{Tablebase: config.TablebaseConfig{Enabled: true}}}}
	var buf bytes.Buffer
	log := zerolog.New(&buf)
	factory := NewEngineFactory(cfg, log)
	pos := engine.Position{StartFEN: "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1"}
	for game := range 3 {
		e, err := factory(context.Background(), "tb")
		if err != nil {
			t.Fatal(err)
		}
		mv, err := e.SelectMove(context.Background(), pos, engine.Limits{Depth: 2})
		if err != nil || mv.UCI == "" || mv.Source != "" {
			t.Fatalf("game %d: %+v %v, want the engine's own move", game, mv, err)
		}
		_ = e.Close()
	}
	if n := hits.Load(); n != 1 {
		t.Errorf("the tablebase host was asked %d times, want once (then locked out for every game)", n)
	}
	if n := strings.Count(buf.String(), "rate limited earlier"); n != 2 {
		t.Errorf("%d asks refused during the lockout, want 2; log:\n%s", n, buf.String())
	}
}
