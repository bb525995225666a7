package daemon

// gameGate is the gate of the post-game work (an ewr.Gate, and a
// postgame.Phases): every engine may search while no game is on the clock,
// inGame of them (0: none) while one is. A correspondence game is not on
// the clock: a move's days leave no time to lose, and with one open for
// weeks the summaries would otherwise always run as if a game were.
type gameGate struct {
	d      *Daemon
	inGame int
}

// allEngines stands for "no limit" in Allowed.
const allEngines = 1 << 20

// Allowed implements ewr.Gate.
func (g gameGate) Allowed() (int, <-chan struct{}) {
	on, changed := g.OnClock()
	if !on {
		return allEngines, changed
	}
	return g.inGame, changed
}

// OnClock implements postgame.Phases: whether a real-time game is running.
func (g gameGate) OnClock() (bool, <-chan struct{}) {
	g.d.mu.Lock()
	defer g.d.mu.Unlock()
	for _, s := range g.d.games {
		if !s.correspondence {
			return true, g.d.gamesChanged
		}
	}
	return false, g.d.gamesChanged
}

// notifyGames wakes the gate's waiters after the set of running games
// changed; d.mu must be held.
func (d *Daemon) notifyGames() {
	close(d.gamesChanged)
	d.gamesChanged = make(chan struct{})
}
