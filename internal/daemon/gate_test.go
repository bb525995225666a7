package daemon

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGameGate(t *testing.T) {
	for _, tc := range []struct {
		name    string
		inGame  int
		playing int
		want    int
	}{
		{"no game: every engine", 0, 0, allEngines},
		{"a game on the clock, pause", 0, 1, 0},
		{"a game on the clock, shrink to one", 1, 1, 1},
		{"two games, shrink to one", 1, 2, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &Daemon{games: map[string]*gameSlot{}, gamesChanged: make(chan struct{})}
			for i := 0; i < tc.playing; i++ {
				d.games[string(rune('a'+i))] = &gameSlot{}
			}
			n, _ := gameGate{d: d, inGame: tc.inGame}.Allowed()
			assert.Equal(t, tc.want, n)
		})
	}
}

// TestGameGateWakes: a calculation held back by a game hears the game end.
func TestGameGateWakes(t *testing.T) {
	d := &Daemon{games: map[string]*gameSlot{"g1": {}}, gamesChanged: make(chan struct{})}
	g := gameGate{d: d}
	n, changed := g.Allowed()
	require.Zero(t, n)
	select {
	case <-changed:
		t.Fatal("changed before any game ended")
	default:
	}
	d.mu.Lock()
	delete(d.games, "g1")
	d.notifyGames()
	d.mu.Unlock()
	<-changed // closed by the game's end
	n, _ = g.Allowed()
	assert.Equal(t, allEngines, n)
}
