package demo

import (
	"context"
	"path/filepath"
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
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
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

	st, err := store.Open(ctx, filepath.Join(res.StoreDir, "outpost.db"))
	require.NoError(t, err)
	defer st.Close()
	an, err := st.AnalysisOf(ctx, id)
	require.NoError(t, err)
	assert.Equal(t, store.AnalysisPostFailed, an.State)
	assert.Contains(t, an.Error, "404")
}
