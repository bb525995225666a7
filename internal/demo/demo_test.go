package demo

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/daemon"
	"github.com/outpostchess/outpost/internal/postgame"
	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/lichess/runner"
)

func TestDemoPlaysGamesAndSummarisesEachOnce(t *testing.T) {
	ctx := leakChecked(t, 3*time.Minute)
	sum := &countingSummariser{}
	var out bytes.Buffer
	res, err := Run(ctx, Options{Config: fastConfig(), Games: 2, TC: "0.25+1", Out: &out, Summariser: sum,
		Dir: t.TempDir(), Logger: zerolog.Nop()})
	require.NoError(t, err)
	checkGames(t, res, sum)
	assert.Len(t, res.Summary, 2)
	text := out.String()
	assert.Contains(t, text, "=== Game 1/2")
	assert.Contains(t, text, "=== Game 2/2")
	assert.Contains(t, text, "[Event ")
	assert.Contains(t, text, "--- chat ---")
	assert.Contains(t, text, "Hi Sparring, I'm medium. Good luck!")
}

func TestDemoDeclinesByPolicy(t *testing.T) {
	ctx := testContext(t, time.Minute)
	cfg := fastConfig()
	cfg.Challenge.Speeds = []string{"blitz"} // the sparring partner offers bullet
	var seen *sandbox.Server
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	// The run ends once the daemon has declined three challenges.
	var declined atomic.Int32
	onRequest := func(r sandbox.RequestRecord) {
		if strings.HasSuffix(r.Path, "/decline") && r.Status == 200 && declined.Add(1) == 3 {
			stop()
		}
	}
	res, err := Run(runCtx, Options{Config: cfg, Games: 1, TC: "1+0", Summariser: &countingSummariser{},
		Dir: t.TempDir(), Logger: zerolog.Nop(), Ready: func(s *sandbox.Server) { seen = s },
		Sandbox: sandbox.Config{OnRequest: onRequest}})
	require.Error(t, err, "no game can be played")
	require.NotNil(t, seen)
	assert.Empty(t, res.Summary)
	declines := 0
	for _, r := range seen.Requests() {
		if strings.HasSuffix(r.Path, "/decline") && r.Status == 200 {
			declines++
		}
	}
	assert.GreaterOrEqual(t, declines, 3, "challenges were declined")
	assert.Empty(t, seen.Games(), "no game started")
}

// TestDemoRealSummary runs one game with the real post-game analysis
// (Stockfish at a small node budget) and checks the summary in the chat.
func TestDemoRealSummary(t *testing.T) {
	t.Parallel() // waits on its games' clocks; no goroutine check (see docs/testing.md)
	ctx := testContext(t, 3*time.Minute)
	cfg := fastConfig()
	cfg.Engines.Default = "easy"
	sum := realSummariser(t, cfg)
	res, err := Run(ctx, Options{Config: cfg, Games: 1, TC: "0.5+0", Summariser: sum, Dir: t.TempDir(), Logger: zerolog.Nop()})
	require.NoError(t, err)
	require.Len(t, res.Summary, 1)
	for id, lines := range res.Summary {
		require.NotEmpty(t, lines)
		for _, line := range lines {
			assert.LessOrEqual(t, len([]rune(line)), 140)
		}
		assertPostedOnce(t, res, id, lines)
		assert.Contains(t, strings.Join(lines, " "), "accuracy")
	}
}

// TestDemoChess960 plays a Chess960 game end to end (the sparring partner
// challenges with variant chess960, the sandbox draws a start position) with
// the real post-game analysis, which must replay the game's castling and run
// Stockfish with UCI_Chess960.
func TestDemoChess960(t *testing.T) {
	t.Parallel() // waits on its games' clocks; no goroutine check (see docs/testing.md)
	ctx := testContext(t, 3*time.Minute)
	cfg := fastConfig()
	sum := realSummariser(t, cfg)
	var out bytes.Buffer
	res, err := Run(ctx, Options{Config: cfg, Games: 1, TC: "0.5+1", Summariser: sum, Dir: t.TempDir(),
		Logger: zerolog.Nop(), Out: &out, SparringVariant: "chess960"})
	require.NoError(t, err)
	require.Len(t, res.Summary, 1)
	for id, lines := range res.Summary {
		g, ok := res.Sandbox.Game(id)
		require.True(t, ok)
		assert.NotEqual(t, "started", g.Status, "game %s is over", id)
		_, is960 := board.Chess960Number(g.InitialFEN)
		assert.True(t, is960, "game %s starts from %q", id, g.InitialFEN)
		assert.Contains(t, strings.Join(lines, " "), "accuracy", "the post-game analysis ran")
	}
	assert.Contains(t, out.String(), `[Variant "Chess960"]`)
	assert.Contains(t, out.String(), `[SetUp "1"]`)
}

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
			ctx := testContext(t, 3*time.Minute)
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

// namingSummariser records the name each game was summarised under.
type namingSummariser struct {
	countingSummariser
	mu   sync.Mutex
	seen []string
}

func (n *namingSummariser) Summarise(ctx context.Context, r postgame.Request) (postgame.Summary, error) {
	n.mu.Lock()
	n.seen = append(n.seen, r.Me)
	n.mu.Unlock()
	return n.countingSummariser.Summarise(ctx, r)
}

// TestSummariserNamedAfterTheAccount: the daemon's summary request names
// our side with the account's username (a summariser built as `outpost
// run` builds it, before the account is read, has no name); the live summaries
// named our side "" ("Black: 95% accuracy …") before.
func TestSummariserNamedAfterTheAccount(t *testing.T) {
	ctx := leakChecked(t, 3*time.Minute)
	sum := &namingSummariser{}
	res, err := Run(ctx, Options{Config: fastConfig(), Games: 1, TC: "1+0", Summariser: sum,
		Dir: t.TempDir(), SparringResignAfter: 3, Logger: zerolog.Nop()})
	require.NoError(t, err)
	require.Len(t, res.Summary, 1)
	sum.mu.Lock()
	defer sum.mu.Unlock()
	assert.Equal(t, []string{BotName}, sum.seen, "the game was summarised under the account's name")
}
