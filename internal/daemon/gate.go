package daemon

import (
	"github.com/outpostchess/outpost/analysis/ewr"
)

// gateSetter is a Summariser whose background calculation (the expected
// winrate) can be held back while games are on the clock;
// postgame.Summariser is one. New gives it the daemon's gate.
type gateSetter interface {
	SetGate(ewr.Gate)
}

// gameGate is the ewr.Gate of the post-game calculation: every engine
// may search while no game is on the clock, inGame of them (0: none) while
// one is.
type gameGate struct {
	d      *Daemon
	inGame int
}

// allEngines stands for "no limit" in Allowed.
const allEngines = 1 << 20

// Allowed implements ewr.Gate.
func (g gameGate) Allowed() (int, <-chan struct{}) {
	g.d.mu.Lock()
	defer g.d.mu.Unlock()
	if len(g.d.games) == 0 {
		return allEngines, g.d.gamesChanged
	}
	return g.inGame, g.d.gamesChanged
}

// notifyGames wakes the gate's waiters after the set of running games
// changed; d.mu must be held.
func (d *Daemon) notifyGames() {
	close(d.gamesChanged)
	d.gamesChanged = make(chan struct{})
}
