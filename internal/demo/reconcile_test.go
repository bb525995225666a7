package demo

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/replay"
	"github.com/outpostchess/outpost/internal/postgame"
	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/lichess"
)

// replayStored reads a stored game as the real summariser does
// (postgame.AnalysisGame) and replays its moves as the analysis does, from
// its start position (Chess960 castling in a Chess960 game).
func replayStored(g store.Game) (*analysis.Game, error) {
	ag := postgame.AnalysisGame(g, BotName)
	b, err := replay.NewVariant(ag.StartFEN, ag.Chess960())
	if err != nil {
		return nil, err
	}
	for i, m := range ag.Moves {
		mv, err := b.ParseUCI(m.UCI)
		if err != nil {
			return nil, fmt.Errorf("game %s: move %d: %w", g.ID, i+1, err)
		}
		b = b.Play(mv)
	}
	return ag, nil
}

// replayingSummariser reads each game as the real summariser does
// (replayStored: the stored moves replayed as UCI) and counts its calls
// per game; a game whose moves do not replay fails its analysis, as it
// would with Stockfish behind it.
type replayingSummariser struct {
	mu    sync.Mutex
	calls map[string]int
}

func (r *replayingSummariser) Summarise(_ context.Context, req postgame.Request) (postgame.Summary, error) {
	g := req.Game
	r.mu.Lock()
	if r.calls == nil {
		r.calls = map[string]int{}
	}
	r.calls[g.ID]++
	r.mu.Unlock()
	ag, err := replayStored(g)
	if err != nil {
		return postgame.Summary{}, err
	}
	return postgame.Summary{JSON: `{}`, Lines: []string{"Summary of " + g.ID + " (" + g.Status + ", " + strconv.Itoa(len(ag.Moves)) + " plies)"}}, nil
}

// TestGameEndedWhileDownReconciled (issue 24, item 1): the daemon is
// killed mid-game (its game left running, as kill -9 leaves it), the
// opponent resigns while it is down (POST /api/board/game/ID/resign over
// HTTP), and the daemon starts again on the same store. The restarted
// daemon must reconcile the game with the server: the stored moves stay
// UCI (the server's export gives SAN), the result and status are the
// server's, the PGN record is written, and the summary is analysed once
// and posted once in the player chat (Lichess keeps it open after the end).
func TestGameEndedWhileDownReconciled(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a game: skipped in -short mode")
	}
	ctx := leakChecked(t, 3*time.Minute)
	dir := t.TempDir()
	cfg := easyConfig()
	cfg.Records.Dir = filepath.Join(dir, "records")
	// The sparring partner holds after its second move; the bot's reply
	// to it is the restart's signal: the partner is to move, nothing can
	// end the game on the board while the daemon is down.
	const hold = 2
	restart := make(chan struct{}, 1)
	var srvRef atomic.Pointer[sandbox.Server]
	var gameID atomic.Value
	var once sync.Once
	onMove := func(id string, plies int) {
		g, ok := srvRef.Load().Game(id)
		if !ok {
			return
		}
		botWhite := g.White == BotName
		// plies after the bot's reply to the partner's move number hold
		want := 2 * hold
		if botWhite {
			want++
		}
		if plies == want {
			once.Do(func() {
				gameID.Store(id)
				restart <- struct{}{}
			})
		}
	}
	var resigned atomic.Bool
	whileDown := func(ctx context.Context, s *sandbox.Server, tokens []string) {
		id, _ := gameID.Load().(string)
		c, err := lichess.New(lichess.Options{BaseURL: s.URL(), Token: lichess.Token(tokens[0])})
		require.NoError(t, err)
		defer c.Close()
		require.NoError(t, c.Board().Resign(ctx, id), "the opponent resigns while the daemon is down")
		resigned.Store(true)
	}
	sum := &replayingSummariser{}
	res, err := Run(ctx, Options{Config: cfg, Games: 1, TC: "1+0", SparringHoldAfter: hold, Summariser: sum,
		Dir: dir, Logger: testLogger(t), Restart: restart, WhileDown: whileDown,
		Ready:   func(s *sandbox.Server) { srvRef.Store(s) },
		Sandbox: sandbox.Config{OnMove: onMove}})
	require.NoError(t, err)
	require.True(t, resigned.Load(), "the opponent resigned while the daemon was down")
	id := gameID.Load().(string)
	g, ok := res.Sandbox.Game(id)
	require.True(t, ok)
	require.Equal(t, "resign", g.Status)

	st := openStore(t, res)
	defer st.Close()
	rec, err := st.Game(ctx, id)
	require.NoError(t, err)
	assert.Equal(t, g.Status, rec.Status, "the server's status")
	assert.Equal(t, g.Winner, rec.Winner, "the server's winner")
	assert.Equal(t, rec.Color, g.Winner, "the bot won: the opponent resigned")
	assert.Equal(t, strings.Join(g.Moves, " "), rec.Moves, "the stored moves are the game's, in UCI")
	assert.True(t, rec.Finished())

	pgn, err := os.ReadFile(filepath.Join(cfg.Records.Dir, id+".pgn"))
	require.NoError(t, err, "the game's record is written")
	assert.Contains(t, string(pgn), `[GameId "`+id+`"]`)

	sum.mu.Lock()
	assert.Equal(t, 1, sum.calls[id], "the game is analysed once")
	sum.mu.Unlock()
	want := "Summary of " + id + " (resign, " + strconv.Itoa(len(g.Moves)) + " plies)"
	assert.Equal(t, []string{want}, res.Summary[id], "the summary posted")
	n := 0
	for _, l := range res.Sandbox.Chat(id) {
		if l.User == BotName && l.Text == want {
			n++
		}
	}
	assert.Equal(t, 1, n, "the summary is in the player chat exactly once")
}
