package demo

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/internal/postgame"
	"github.com/outpostchess/outpost/models/modeltest"
)

// TestDemoChess960SummaryEWR plays a Chess960 game against the sandbox with
// the real post-game analysis and the real Maia: the summary carries the
// expected-winrate line (Maia replays the game from its X-FEN start with
// its castling rights), never "could not be computed".
func TestDemoChess960SummaryEWR(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a game")
	}
	if _, err := os.Stat("/usr/games/stockfish"); err != nil {
		t.Skip("Stockfish not installed (make setup installs it)")
	}
	pred := modeltest.Predictor(t, 1500)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cfg := fastConfig()
	cfg.Engines.Default = "easy" // a weak bot: the game has a judged move
	cfg.Summary.Nodes = 20000
	sum := postgame.New(analysis.PoolConfig{Command: []string{"/usr/games/stockfish"}, Workers: 1, Threads: 1, HashMB: 16},
		int64(cfg.Summary.Nodes), BotName)
	defer sum.Close()
	sum.WithEWR(postgame.EWROptions{Prober: ewr.NewMaiaProber(pred), Evaluator: fakeStockfish{}, Fast: true})
	res, err := Run(ctx, Options{Config: cfg, Games: 1, TC: "0.5+1", Summariser: sum, Dir: t.TempDir(),
		Logger: zerolog.Nop(), SparringVariant: "chess960"})
	require.NoError(t, err)
	require.Len(t, res.Summary, 1)
	for id, lines := range res.Summary {
		g, ok := res.Sandbox.Game(id)
		require.True(t, ok)
		_, is960 := board.Chess960Number(g.InitialFEN)
		require.True(t, is960, "game %s starts from %q", id, g.InitialFEN)
		text := strings.Join(lines, "\n")
		assert.NotContains(t, text, postgame.EWRFailed)
		n := 0
		for _, l := range lines {
			if strings.HasPrefix(l, "Critical moment ") {
				n++
			}
		}
		assert.Equal(t, 1, n, "one expected-winrate line in %q", lines)
	}
}
