package demo

import (
	"context"
	"sort"
	"sync"
)

// gate holds the sparring partners back once they have started the run's
// games, until those games are summarised: a demo of N games plays N games,
// not N plus however many fit in while the summaries (and their expected
// winrate, which yields the CPU to games on the clock) are written — an
// extra game could also end before one of the N and take its place. A game
// that ends without a summary to come (aborted, say) frees its place; a
// summary that fails is reported by the daemon (Hooks.SummaryFailed) and
// counts as done. The gate has no time bound of its own: it waits as long
// as the summaries take, which [summary] timeout bounds (a summary past it
// goes out with the parts that are ready). It had one (three minutes
// without a summary), and on a loaded machine an exact expected-winrate
// summary took longer, so `--games 1` played three.
type gate struct {
	games int // opt.Games; 0 = the gate never closes

	mu       sync.Mutex
	started  map[string]bool // games the sparring partners started, by id
	voided   map[string]bool // started games that ended without a summary to come
	done     map[string]bool // games summarised, by id
	reported int             // games summarised (the run's count)
	changed  chan struct{}   // closed and replaced on every change
}

func newGate(games int) *gate {
	return &gate{games: games, started: map[string]bool{}, voided: map[string]bool{}, done: map[string]bool{}, changed: make(chan struct{})}
}

func (g *gate) bump(f func()) {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	f()
	close(g.changed)
	g.changed = make(chan struct{})
}

// gameStarted counts a game a sparring partner started.
func (g *gate) gameStarted(id string) { g.bump(func() { g.started[id] = true }) }

// gameVoided frees the place of a game that ended without a summary to
// come (aborted or never started).
func (g *gate) gameVoided(id string) { g.bump(func() { g.voided[id] = true }) }

// gameReported counts game id summarised.
func (g *gate) gameReported(id string) { g.bump(func() { g.done[id] = true; g.reported++ }) }

// pending returns, sorted, the games the sparring partners started that
// are neither summarised nor voided: the ones a closed gate waits on.
func (g *gate) pending() []string {
	if g == nil {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	var ids []string
	for id := range g.started {
		if !g.voided[id] && !g.done[id] {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return ids
}

// open reports whether a challenge may be sent now.
func (g *gate) open() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.openLocked()
}

func (g *gate) openLocked() bool {
	live := 0
	for id := range g.started {
		if !g.voided[id] {
			live++
		}
	}
	return live < g.games || g.reported >= g.games
}

// wait returns when a new challenge may be sent: at once while fewer than
// games are started (and not voided); otherwise when a summary arrives or a
// game is voided and that opens the gate, or when ctx ends.
func (g *gate) wait(ctx context.Context) {
	if g == nil || g.games <= 0 {
		return
	}
	for {
		g.mu.Lock()
		open := g.openLocked()
		changed := g.changed
		g.mu.Unlock()
		if open {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-changed:
		}
	}
}
