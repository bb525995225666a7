package demo

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/bots/runner"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/daemon"
)

// TestPonderDaemonPlaysFullGames: the daemon plays a whole game against
// the sandbox's sparring partner with pondering on (Stockfish when
// installed, otherwise the hard engine; the runner tests cover both), the
// runner pondering after its moves, and the game's record is written with
// our evaluations and clocks.
func TestPonderDaemonPlaysFullGames(t *testing.T) {
	t.Parallel() // waits on its games' clocks; no goroutine check (see docs/testing.md)
	const sf = "/usr/games/stockfish"
	tests := []struct {
		name string
		def  config.EngineConfig
		per  string
	}{
		{"hard", config.EngineConfig{Type: "hard", Ponder: true}, "game"},
		{"stockfish", config.EngineConfig{Type: "uci", Path: sf, HashMB: 16, Ponder: true,
			Options: map[string]any{"Threads": 1}}, "day"},
	}
	if _, err := os.Stat(sf); err == nil {
		tests = tests[1:]
	} else {
		tests = tests[:1]
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			cfg := fastConfig()
			cfg.Engines.Defs = map[string]config.EngineConfig{"pond": tt.def}
			cfg.Engines.Default = "pond"
			cfg.Records = config.RecordsConfig{Dir: filepath.Join(dir, "records"), Per: tt.per}
			require.NoError(t, cfg.Validate())
			var mu sync.Mutex
			var outs []runner.Outcome
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			res, err := Run(ctx, Options{Config: cfg, Games: 1, TC: "0.5+0", Sparring: "medium", Out: &strings.Builder{},
				Summariser: &countingSummariser{}, Dir: dir, Logger: zerolog.Nop(),
				Hooks: daemon.Hooks{RunnerDone: func(out runner.Outcome, err error) {
					mu.Lock()
					defer mu.Unlock()
					if err == nil {
						outs = append(outs, out)
					}
				}}})
			require.NoError(t, err)
			// The sparring partner may have started another game before the
			// demo stopped: that one is left unfinished, without a record.
			var finished []string
			for _, g := range res.Games {
				if g.Finished() {
					finished = append(finished, g.ID)
				}
			}
			require.NotEmpty(t, finished)
			mu.Lock()
			defer mu.Unlock()
			require.Len(t, outs, len(finished), "one outcome per finished game")
			for _, out := range outs {
				assert.Positive(t, out.PonderHits+out.PonderMisses, "game %s: the runner pondered (hits %d, misses %d)",
					out.GameID, out.PonderHits, out.PonderMisses)
				assert.Zero(t, out.Fallbacks)
			}
			files, err := filepath.Glob(filepath.Join(dir, "records", "*.pgn"))
			require.NoError(t, err)
			var all string
			for _, f := range files {
				b, err := os.ReadFile(f)
				require.NoError(t, err)
				all += string(b)
			}
			for _, id := range finished {
				assert.Equal(t, 1, strings.Count(all, `[GameId "`+id+`"]`), "one record of game %s", id)
			}
			assert.Equal(t, len(finished), strings.Count(all, "[GameId "), "records of finished games only")
			assert.Contains(t, all, "[%eval ")
			assert.Contains(t, all, "[%clk ")
		})
	}
}
