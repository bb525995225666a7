package daemon

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/lichess"
)

func TestGameGate(t *testing.T) {
	for _, tc := range []struct {
		name    string
		inGame  int
		playing int
		corr    int // correspondence games besides
		want    int
	}{
		{"no game: every engine", 0, 0, 0, allEngines},
		{"a game on the clock, pause", 0, 1, 0, 0},
		{"a game on the clock, shrink to one", 1, 1, 0, 1},
		{"two games, shrink to one", 1, 2, 0, 1},
		{"correspondence only: every engine", 0, 0, 2, allEngines},
		{"correspondence and a game on the clock", 0, 1, 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &Daemon{games: map[string]*gameSlot{}, gamesChanged: make(chan struct{})}
			for i := 0; i < tc.playing; i++ {
				d.games[string(rune('a'+i))] = &gameSlot{}
			}
			for i := 0; i < tc.corr; i++ {
				d.games[string(rune('A'+i))] = &gameSlot{correspondence: true}
			}
			g := gameGate{d: d, inGame: tc.inGame}
			n, _ := g.Allowed()
			assert.Equal(t, tc.want, n)
			on, _ := g.OnClock()
			assert.Equal(t, tc.playing > 0, on, "on the clock")
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

// gateRecorder is a Summariser that takes the daemon's gate.
type gateRecorder struct{ gate ewr.Gate }

func (g *gateRecorder) Summarise(context.Context, store.Game) (string, []string, error) {
	return "{}", nil, nil
}
func (g *gateRecorder) SetGate(gate ewr.Gate) { g.gate = gate }

// TestNewGivesSummariserTheGate: New hands a gate-taking Summariser the
// gate of its games, with [summary] ewr_engines_in_game.
func TestNewGivesSummariserTheGate(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "outpost.db"))
	require.NoError(t, err)
	defer st.Close()
	client, err := lichess.New(lichess.Options{BaseURL: "http://127.0.0.1:1", Token: "lip_test"})
	require.NoError(t, err)
	cfg := config.Default()
	cfg.Summary.EWREnginesInGame = 0
	sum := &gateRecorder{}
	d, err := New(Options{Config: cfg, Client: client, Store: st, Summariser: sum,
		Engines: func(context.Context, string) (engine.Engine, error) { return nil, nil }})
	require.NoError(t, err)
	require.NotNil(t, sum.gate)
	n, changed := sum.gate.Allowed()
	assert.Equal(t, allEngines, n, "no game: every engine")
	d.mu.Lock()
	d.games["g1"] = &gameSlot{}
	d.notifyGames()
	d.mu.Unlock()
	<-changed
	n, _ = sum.gate.Allowed()
	assert.Zero(t, n, "paused while a game is on the clock")
}
