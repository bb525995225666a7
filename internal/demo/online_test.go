package demo

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/lichess/sandbox"
)

// logSink is a log sink safe for the daemon's goroutines.
type logSink struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logSink) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// sourceMoves returns the "move source" log lines that gave a move, as
// source → moves.
func (b *logSink) sourceMoves(t *testing.T) map[string][]string {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(b.buf.Bytes()))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var l struct{ Message, Source, Move string }
		if json.Unmarshal(sc.Bytes(), &l) == nil && l.Message == "move source" && l.Move != "" {
			out[l.Source] = append(out[l.Source], l.Move)
		}
	}
	require.NoError(t, sc.Err())
	return out
}

// onlineConfig is a daemon configuration whose default engine asks all
// three Lichess sources before searching.
func onlineConfig() *config.Config {
	cfg := fastConfig()
	on := config.OnlineConfig{
		CloudEval: config.CloudEvalConfig{Enabled: true, MinDepth: 20, MultiPV: 2, Timeout: 5 * time.Second},
		Explorer:  config.ExplorerConfig{Enabled: true, Source: "masters", Selection: "winrate", MinGames: 5, MaxPly: 10, Timeout: 5 * time.Second},
		Tablebase: config.TablebaseConfig{Enabled: true, MaxPieces: 5, Timeout: 10 * time.Second},
	}
	cfg.Engines.Defs = map[string]config.EngineConfig{"online": {Type: "easy", Online: on}}
	cfg.Engines.Default = "online"
	return cfg
}

// TestCloudEvalAndExplorerInDaemonGame: the daemon plays White from the
// start against the sandbox; its first move comes from the cloud
// evaluation the sandbox holds, its second from the masters explorer,
// then its engine takes over.
func TestCloudEvalAndExplorerInDaemonGame(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	logs := &logSink{}
	ready := func(srv *sandbox.Server) {
		cp := 35
		require.NoError(t, srv.AttachCloudEval(board.StartFEN, sandbox.CloudEval{Depth: 30, PVs: []sandbox.CloudPV{
			{CP: &cp, Moves: "e2e4 e7e5"}}}))
		b, err := board.FromFEN(board.StartFEN)
		require.NoError(t, err)
		require.NoError(t, b.MakeUCI("e2e4"))
		for _, reply := range b.LegalMoves() {
			b.Make(reply)
			require.NoError(t, srv.AttachExplorer("masters", b.FEN(), []sandbox.ExplorerMove{
				{UCI: "g1f3", White: 6, Draws: 3, Black: 1}, {UCI: "b1c3", White: 1, Draws: 1, Black: 1}}))
			b.Unmake()
		}
	}
	res, err := Run(ctx, Options{Config: onlineConfig(), Games: 1, TC: "1+0", Dir: t.TempDir(), Out: io.Discard,
		Logger: zerolog.New(logs), Ready: ready})
	require.NoError(t, err)
	require.Len(t, res.Summary, 1)
	moves := logs.sourceMoves(t)
	assert.Equal(t, []string{"e2e4"}, moves["cloud-eval"], "the first move is the cloud's")
	assert.Equal(t, []string{"g1f3"}, moves["explorer"], "the second move is the explorer's best by win rate")
	for id := range res.Summary {
		g, ok := res.Sandbox.Game(id)
		require.True(t, ok)
		require.GreaterOrEqual(t, len(g.Moves), 3, "game %s", id)
		assert.Equal(t, []string{"e2e4", "g1f3"}, []string{g.Moves[0], g.Moves[2]})
	}
}

// TestTablebaseInDaemonGame: from a king-and-queen ending the daemon, as
// White, mates at once with the move the sandbox's tablebase (an exact
// mate search standing in for Syzygy) ranks first.
func TestTablebaseInDaemonGame(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	logs := &logSink{}
	res, err := Run(ctx, Options{Config: onlineConfig(), Games: 1, TC: "1+0", Dir: t.TempDir(), Out: io.Discard,
		Logger: zerolog.New(logs), SparringFEN: "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1",
		Sandbox: sandbox.Config{Tablebase: sandbox.MateSearchProber{MaxPlies: 3}}})
	require.NoError(t, err)
	require.Len(t, res.Summary, 1)
	assert.Equal(t, []string{"f1f8"}, logs.sourceMoves(t)["tablebase"])
	for id := range res.Summary {
		g, ok := res.Sandbox.Game(id)
		require.True(t, ok)
		assert.Equal(t, "mate", g.Status)
		assert.Equal(t, "white", g.Winner)
	}
}
