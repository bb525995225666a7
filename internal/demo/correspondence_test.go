package demo

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/outpostchess/outpost/lichess/sandbox"
)

// corrFEN is the correspondence test's start position: kings and pawns,
// so that two random movers cannot end the game by mate in its first
// moves; the game ends when the sparring partner resigns.
const corrFEN = "4k3/pppp4/8/8/8/8/4PPPP/4K3 w - - 0 1"

// TestCorrespondenceSurvivesRestarts: a correspondence challenge (1 day
// per move, from a position) is accepted by policy and played; the daemon
// is killed and restarted three times during the game, and after each
// restart it reads the account's playing list, resumes the game and moves
// again, never twice at one ply. The game ends (the sparring partner
// resigns) and is summarised once.
func TestCorrespondenceSurvivesRestarts(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cfg := fastConfig()
	cfg.Engines.Default = "easy"
	cfg.Challenge.Speeds = []string{"correspondence"} // real-time challenges would be declined
	cfg.Challenge.MinDays, cfg.Challenge.MaxDays = 1, 3
	cfg.Game.CorrespondenceMoveTime = 40 * time.Millisecond

	// Each restart waits until the running daemon has read the playing
	// list and moved since; the first comes at ply 3 at the earliest. The
	// sparring partner waits a little before each move, so that a fast
	// game cannot end before the third restart.
	const restarts = 3
	restart := make(chan struct{}, 1)
	var mu sync.Mutex
	var restartedAt []int
	// Every answered request wakes the watcher: it looks again at what the
	// daemon did, without polling.
	wake := make(chan struct{}, 1)
	onRequest := func(sandbox.RequestRecord) {
		select {
		case wake <- struct{}{}:
		default:
		}
	}
	ready := func(s *sandbox.Server) {
		go func() {
			for n := 0; ctx.Err() == nil && n < restarts; {
				reads, moved := sinceLastStart(s)
				for _, g := range s.Games() {
					if !g.Over() && g.DaysPerTurn > 0 && len(g.Moves) >= 3 && reads == n+1 && moved {
						mu.Lock()
						restartedAt = append(restartedAt, len(g.Moves))
						mu.Unlock()
						restart <- struct{}{}
						n++
						break
					}
				}
				select {
				case <-ctx.Done():
				case <-wake:
				}
			}
		}()
	}
	sum := &countingSummariser{}
	res, err := Run(ctx, Options{Config: cfg, Games: 1, Days: 1, SparringFEN: corrFEN, SparringResignAfter: 12, SparringMoveDelay: 30 * time.Millisecond,
		Summariser: sum, Dir: t.TempDir(), Logger: testLogger(t), Ready: ready, Restart: restart,
		Sandbox: sandbox.Config{OnRequest: onRequest}})
	require.NoError(t, err)
	checkGames(t, res, sum)
	require.Len(t, res.Summary, 1)
	mu.Lock()
	require.Len(t, restartedAt, restarts, "the daemon was restarted three times mid-game")
	last := restartedAt[len(restartedAt)-1]
	t.Logf("restarted at plies %v", restartedAt)
	mu.Unlock()

	var id string
	for k := range res.Summary {
		id = k
	}
	g, ok := res.Sandbox.Game(id)
	require.True(t, ok)
	assert.Equal(t, "correspondence", g.Speed)
	assert.Equal(t, corrFEN, g.InitialFEN)
	assert.Equal(t, 1, g.DaysPerTurn)
	assert.Equal(t, BotName, g.White, "the sparring partner took Black")
	assert.Equal(t, "resign", g.Status, "the sparring partner resigned")
	assert.Equal(t, "white", g.Winner)
	assert.Greater(t, len(g.Moves), last+1, "the bot moved after the last restart")

	// Exactly one accepted move request per bot ply: nothing moved twice.
	botMoves := (len(g.Moves) + 1) / 2
	accepted := 0
	for _, r := range res.Sandbox.Requests() {
		if r.User == strings.ToLower(BotName) && r.Status == 200 && strings.HasPrefix(r.Path, "/api/bot/game/"+id+"/move/") {
			accepted++
		}
	}
	assert.Equal(t, botMoves, accepted, "one move request accepted per bot ply")
	playing := 0
	for _, r := range res.Sandbox.Requests() {
		if r.User == strings.ToLower(BotName) && r.Path == "/api/account/playing" && r.Status == 200 {
			playing++
		}
	}
	assert.Equal(t, 1+restarts, playing, "each start read the playing list")

	st := openStore(t, res)
	defer st.Close()
	sent, err := st.SentMoves(ctx, id)
	require.NoError(t, err)
	require.Len(t, sent, botMoves, "one reserved move per bot ply")
	for _, m := range sent {
		require.Less(t, m.Ply, len(g.Moves))
		assert.Zero(t, m.Ply%2, "the bot (White) moves at even plies")
		assert.Equal(t, g.Moves[m.Ply], m.UCI, "ply %d: the reserved move is the one played", m.Ply)
	}
	rec, err := st.Game(ctx, id)
	require.NoError(t, err)
	assert.Equal(t, "correspondence", rec.Speed)
	assert.Equal(t, g.Status, rec.Status)
	assert.True(t, rec.Finished())
}

// sinceLastStart reads the sandbox's request log: how many times the bot
// read its playing list (once per daemon start) and whether a move of the
// bot was accepted after the last of those reads.
func sinceLastStart(s *sandbox.Server) (reads int, moved bool) {
	bot := strings.ToLower(BotName)
	var last time.Time
	for _, r := range s.Requests() {
		if r.User != bot || r.Status != 200 {
			continue
		}
		switch {
		case r.Path == "/api/account/playing":
			reads++
			last, moved = r.Time, false
		case strings.Contains(r.Path, "/move/") && r.Time.After(last):
			moved = reads > 0
		}
	}
	return reads, moved
}
