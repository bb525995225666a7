package demo

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/outpostchess/outpost/internal/postgame"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// restartingSummariser counts its calls like countingSummariser; its
// first call asks for a restart of the daemon and returns its result only
// once the daemon's context has ended — an analysis finishing while the
// daemon stops, as TestSoakWithFaults's restart met under load.
type restartingSummariser struct {
	countingSummariser
	restart chan<- struct{}
	once    sync.Once
}

// Summarise counts the call; the first one waits for the daemon's stop.
func (r *restartingSummariser) Summarise(ctx context.Context, req postgame.Request) (postgame.Summary, error) {
	first := false
	r.once.Do(func() { first = true })
	if first {
		r.restart <- struct{}{}
		<-ctx.Done()
	}
	return r.countingSummariser.Summarise(ctx, req)
}

// TestAnalysisDoneAtStopIsKept (#31.7): an analysis that completes as the
// daemon stops is saved (with a context of its own, bounded), so the
// restarted daemon posts it without analysing the game again. Before the
// fix its save ran with the stopped context, failed, and the game was
// analysed twice ("game … analysed once — expected 1, actual 2" in the
// soak at load 11-14).
func TestAnalysisDoneAtStopIsKept(t *testing.T) {
	ctx := leakChecked(t, 2*time.Minute)
	restart := make(chan struct{}, 1)
	sum := &restartingSummariser{restart: restart}
	cfg := easyConfig()
	cfg.Game.ShutdownTimeout = 300 * time.Millisecond // the stop waits for summaries this long
	res, err := Run(ctx, Options{Config: cfg, Games: 1, TC: "1+0", SparringResignAfter: 3, Summariser: sum,
		Dir: t.TempDir(), Logger: testLogger(t), Restart: restart})
	require.NoError(t, err)
	require.Len(t, res.Summary, 1)
	sum.mu.Lock()
	defer sum.mu.Unlock()
	for id, n := range sum.calls {
		assert.Equal(t, 1, n, "game %s analysed once", id)
	}
	for id, lines := range res.Summary {
		assert.Len(t, lines, 1, "game %s: the summary posted once", id)
	}
}
