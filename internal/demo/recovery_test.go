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
	"go.uber.org/goleak"

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
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
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
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
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
	st, err := store.Open(ctx, filepath.Join(res.StoreDir, "outpost.db"))
	require.NoError(t, err)
	defer st.Close()
	an, err := st.AnalysisOf(ctx, id)
	require.NoError(t, err)
	assert.Equal(t, store.AnalysisPosted, an.State)
}
