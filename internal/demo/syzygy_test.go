package demo

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/testkit"
)

// TestSyzygyDaemonFinishesFromTables: the daemon plays a fromPosition game
// over loopback HTTP against the sandbox from a won KRK endgame, with
// medium's [engines.NAME.syzygy] tables enabled; every one of its moves
// comes from the tables (move source "syzygy" in its log) and the game
// ends in mate by the bot.
func TestSyzygyDaemonFinishesFromTables(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	tables, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "tablebases", "syzygy"))
	require.NoError(t, err)
	cfg := fastConfig()
	cfg.Engines.Defs["tb"] = config.EngineConfig{Type: "medium", Syzygy: &config.SyzygyConfig{Enabled: true, Path: []string{tables}}}
	cfg.Engines.Default = "tb"
	const fen = "8/8/8/4k3/8/8/8/K6R w - - 0 1"
	var logs testkit.SyncBuffer
	res, err := Run(ctx, Options{Config: cfg, Games: 1, TC: "1+1", Dir: t.TempDir(), Summariser: &countingSummariser{},
		Logger: zerolog.New(&logs).Level(zerolog.DebugLevel), SparringFEN: fen, SparringVariant: "fromPosition"})
	require.NoError(t, err)
	require.Len(t, res.Summary, 1)
	sources := map[string]int{}
	for _, line := range strings.Split(logs.String(), "\n") {
		var ev struct{ Message, Engine, Source, Move string }
		if json.Unmarshal([]byte(line), &ev) == nil && ev.Message == "move source" && ev.Source == "syzygy" && ev.Move != "" {
			sources[ev.Move]++
		}
	}
	for id := range res.Summary {
		g, ok := res.Sandbox.Game(id)
		require.True(t, ok)
		assert.Equal(t, fen, g.InitialFEN)
		require.Equal(t, BotName, g.White, "the first sparring challenge gives the bot White")
		assert.Equal(t, "mate", g.Status, "moves %v", g.Moves)
		assert.Equal(t, "white", g.Winner)
		b, err := board.FromFEN(fen)
		require.NoError(t, err)
		for i, m := range g.Moves {
			if i%2 == 0 {
				assert.Positive(t, sources[m], "bot move %d %s came from the tables", i/2+1, m)
			}
			require.NoError(t, b.MakeUCI(m))
		}
		assert.True(t, b.IsCheckmate())
		t.Logf("game %s: %d plies, %v", id, len(g.Moves), g.Moves)
		assert.Less(t, len(g.Moves), 2*32, "KRK is mated within 32 moves (DTZ-optimal play)")
	}
}
