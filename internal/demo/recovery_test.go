package demo

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/internal/daemon"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/lichess/sandbox"
)

// TestGoneGameClosedOnceAcrossRestarts: a game the store holds as running
// but the server does not know (its export answers 404: the server was
// replaced while the daemon was down) is closed at the daemon's start with
// its own status, gone, after one export request; the next daemon on the
// same store does not ask for it again.
func TestGoneGameClosedOnceAcrossRestarts(t *testing.T) {
	if testing.Short() {
		t.Skip("plays two games: skipped in -short mode")
	}
	ctx := leakChecked(t, 3*time.Minute)
	dir := t.TempDir()
	const id = "g0neG4me"
	st, err := store.Open(ctx, filepath.Join(dir, "outpost.db"))
	require.NoError(t, err)
	require.NoError(t, st.StartGame(ctx, store.Game{ID: id, Opponent: "someone", Color: "white", Engine: "easy", Speed: "bullet"}))
	require.NoError(t, st.Close())

	for run, want := range []int{1, 0} {
		// the game only has to end: the sparring partner resigns early
		res, err := Run(ctx, Options{Config: fastConfig(), Games: 1, TC: "0.5+0", Summariser: &countingSummariser{},
			SparringResignAfter: 2, Dir: dir, Logger: testLogger(t)})
		require.NoError(t, err, "run %d", run+1)
		exports, notFound := 0, 0
		for _, r := range res.Sandbox.Requests() {
			if strings.HasPrefix(r.Path, "/game/export/"+id) {
				exports++
				if r.Status == 404 {
					notFound++
				}
			}
		}
		assert.Equal(t, want, exports, "run %d: export requests for the unknown game", run+1)
		assert.Equal(t, want, notFound, "run %d: answered 404", run+1)
	}
	st, err = store.Open(ctx, filepath.Join(dir, "outpost.db"))
	require.NoError(t, err)
	defer st.Close()
	g, err := st.Game(ctx, id)
	require.NoError(t, err)
	assert.Equal(t, store.StatusGone, g.Status)
	active, err := st.ActiveGames(ctx)
	require.NoError(t, err)
	for _, a := range active { // a next game may have started before the demo stopped
		assert.NotEqual(t, id, a.ID, "the gone game is no longer running")
	}
}

// TestSummaryNotPostedWhileEveryChatPostFails: when every chat POST of a
// summary fails (502s, more than one posting attempt makes), the summary
// is not marked posted but goes back to the queue; once the server
// answers again it is posted, each line exactly once, and only then marked
// posted. Time is injected (ChatWait, PostRetryWait): no wall-clock wait.
func TestSummaryNotPostedWhileEveryChatPostFails(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a game: skipped in -short mode")
	}
	ctx := leakChecked(t, 3*time.Minute)
	// more 502s on the chat POSTs than one posting attempt makes (chatonce
	// tries a line 6 times per call)
	const fails = 9
	cfg := fastConfig()
	cfg.Game.Greeting, cfg.Game.Goodbye = "", "" // the summary is the only chat
	var srvRef atomic.Pointer[sandbox.Server]
	var armOnce sync.Once
	onMove := func(id string, _ int) {
		armOnce.Do(func() {
			_, err := srvRef.Load().Faults().AddSpec(fmt.Sprintf("5xx:path=/api/bot/game/%s/chat,method=POST,status=502,times=%d", id, fails))
			assert.NoError(t, err)
		})
	}
	var mu sync.Mutex
	requeued := 0
	var atPosted []sandbox.ChatLine
	firedAtPosted := 0
	hooks := daemon.Hooks{
		ChatWait:      func(ctx context.Context, _ int) error { return ctx.Err() },
		PostRetryWait: func(ctx context.Context) error { return ctx.Err() },
		PostRequeued: func(id string) {
			mu.Lock()
			requeued++
			mu.Unlock()
		},
		SummaryPosted: func(id string, _ []string) {
			s := srvRef.Load()
			mu.Lock()
			atPosted, firedAtPosted = s.Chat(id), s.Faults().Fired(sandbox.FaultServerError)
			mu.Unlock()
		},
	}
	sum := &countingSummariser{}
	// the faults are armed at the first move; the game then only has to
	// end (the sparring partner resigns early)
	res, err := Run(ctx, Options{Config: cfg, Games: 1, TC: "1+0", Summariser: sum, Dir: t.TempDir(),
		SparringResignAfter: 3, Logger: testLogger(t), Hooks: hooks, Ready: func(s *sandbox.Server) { srvRef.Store(s) },
		Sandbox: sandbox.Config{OnMove: onMove}})
	require.NoError(t, err)
	checkGames(t, res, sum)
	require.Len(t, res.Summary, 1)
	var id string
	var lines []string
	for id, lines = range res.Summary {
	}
	mu.Lock()
	defer mu.Unlock()
	assert.GreaterOrEqual(t, requeued, 1, "the summary went back to the queue while every post failed")
	assert.Equal(t, fails, firedAtPosted, "marked posted only after the server answered again")
	for _, chat := range [][]sandbox.ChatLine{atPosted, res.Sandbox.Chat(id)} {
		for _, l := range lines {
			n := 0
			for _, c := range chat {
				if c.Text == l {
					n++
				}
			}
			assert.Equal(t, 1, n, "summary line %q in the chat", l)
		}
	}
	assert.Equal(t, store.AnalysisPosted, analysisOf(t, res, id).State)
}

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
	ctx := leakChecked(t, time.Minute)
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

// forgettingSummariser summarises like countingSummariser, then makes the
// sandbox forget the game: the server restarts between the summary and
// its post.
type forgettingSummariser struct {
	countingSummariser
	srv    *atomic.Pointer[sandbox.Server]
	forgot atomic.Int32
}

func (f *forgettingSummariser) Summarise(ctx context.Context, g store.Game) (string, []string, error) {
	js, lines, err := f.countingSummariser.Summarise(ctx, g)
	if f.srv.Load().Forget(g.ID) {
		f.forgot.Add(1)
	}
	return js, lines, err
}

// TestSummaryPostFailedWhenServerForgotGame: the server restarts after
// the game's end and before the summary's post, and no longer knows the
// game (its chat answers 404). The summary is marked post-failed with the
// server's refusal, once, after one chat POST (a 404 is final: never
// retried, never marked posted), and the demo counts the game as done
// instead of waiting for a summary that cannot come.
func TestSummaryPostFailedWhenServerForgotGame(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a game: skipped in -short mode")
	}
	ctx := leakChecked(t, 3*time.Minute)
	cfg := fastConfig()
	cfg.Game.Greeting, cfg.Game.Goodbye = "", "" // the summary is the only chat
	var srvRef atomic.Pointer[sandbox.Server]
	sum := &forgettingSummariser{srv: &srvRef}
	var mu sync.Mutex
	failed := map[string]error{}
	posted := 0
	hooks := daemon.Hooks{
		SummaryFailed: func(id string, reason error) {
			mu.Lock()
			defer mu.Unlock()
			_, dup := failed[id]
			assert.False(t, dup, "SummaryFailed called twice for %s", id)
			failed[id] = reason
		},
		SummaryPosted: func(string, []string) {
			mu.Lock()
			posted++
			mu.Unlock()
		},
	}
	res, err := Run(ctx, Options{Config: cfg, Games: 1, TC: "1+0", Summariser: sum, Dir: t.TempDir(),
		SparringResignAfter: 3, Logger: testLogger(t), Hooks: hooks, Ready: func(s *sandbox.Server) { srvRef.Store(s) }})
	require.NoError(t, err)
	require.Len(t, res.Summary, 1)
	var id string
	for id = range res.Summary {
	}
	assert.Nil(t, res.Summary[id], "no summary lines for a game whose summary was refused")
	assert.Equal(t, int32(1), sum.forgot.Load(), "the server forgot the finished game")
	_, known := res.Sandbox.Game(id)
	assert.False(t, known)

	mu.Lock()
	defer mu.Unlock()
	assert.Zero(t, posted, "never marked posted")
	require.Contains(t, failed, id)
	assert.ErrorContains(t, failed[id], "404")

	chatPath := "/api/bot/game/" + id + "/chat"
	posts := 0
	for _, r := range res.Sandbox.Requests() {
		if r.Method == "POST" && r.Path == chatPath {
			posts++
			assert.Equal(t, 404, r.Status)
		}
	}
	assert.Equal(t, 1, posts, "a 404 is final: the line is tried once, the next lines not at all")

	an := analysisOf(t, res, id)
	assert.Equal(t, store.AnalysisPostFailed, an.State)
	assert.Contains(t, an.Error, "404")
}
