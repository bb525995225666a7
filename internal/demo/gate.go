package demo

import (
	"context"
	"sync"
	"time"
)

// gate holds the sparring partners back once the run's games are over but
// not yet summarised: a demo of N games plays N games, not N plus however
// many fit in while the summaries (and their expected winrate, which yields
// the CPU to games on the clock) are written. A game that ends without a
// summary (aborted before any move, say) must not hang the run, so the gate
// opens again after stallBound without progress.
type gate struct {
	games int // opt.Games; 0 = the gate never closes

	mu       sync.Mutex
	ended    map[string]bool // games the daemon finished, by id (a restarted daemon may finish one again)
	reported int             // games summarised (the run's count)
	changed  chan struct{}   // closed and replaced on every change
}

// stallBound is how long the sparring partners wait for a summary before
// challenging again: a liveness bound, not a timing assumption — a summary
// that takes longer only means the demo plays one more game meanwhile.
const stallBound = 3 * time.Minute

func newGate(games int) *gate {
	return &gate{games: games, ended: map[string]bool{}, changed: make(chan struct{})}
}

func (g *gate) bump(f func()) {
	g.mu.Lock()
	defer g.mu.Unlock()
	f()
	close(g.changed)
	g.changed = make(chan struct{})
}

// gameEnded counts a game the daemon finished.
func (g *gate) gameEnded(id string) { g.bump(func() { g.ended[id] = true }) }

// gameReported counts a game summarised.
func (g *gate) gameReported() { g.bump(func() { g.reported++ }) }

// open reports whether a challenge may be sent now.
func (g *gate) open() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.openLocked()
}

func (g *gate) openLocked() bool { return len(g.ended) < g.games || g.reported >= g.games }

// wait returns when a new challenge may be sent: while fewer than games are
// over, at once; otherwise when a summary arrives, after stallBound without
// one, or when ctx ends.
func (g *gate) wait(ctx context.Context) {
	if g == nil || g.games <= 0 {
		return
	}
	timer := time.NewTimer(stallBound)
	defer timer.Stop()
	for {
		g.mu.Lock()
		open := g.openLocked()
		changed := g.changed
		reported := g.reported
		g.mu.Unlock()
		if open {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
			return
		case <-changed:
			g.mu.Lock()
			progressed := g.reported > reported
			g.mu.Unlock()
			if progressed {
				timer.Reset(stallBound)
			}
		}
	}
}
