package daemon

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/postgame"
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

// gateRecorder is a Summariser that records its request.
type gateRecorder struct{ req postgame.Request }

func (g *gateRecorder) Summarise(_ context.Context, r postgame.Request) (postgame.Summary, error) {
	g.req = r
	return postgame.Summary{Analysis: &analysis.Analysis{}, JSON: "{}", Lines: []string{"ours"}}, nil
}

// TestSummaryRequestCarriesTheGate: the daemon's summary request carries
// the gate of its games ([summary] ewr_engines_in_game) and our username,
// and the summary lines (verification's hook) run on the analysis the
// summariser returned — no optional interface to forward.
func TestSummaryRequestCarriesTheGate(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "outpost.db"))
	require.NoError(t, err)
	defer st.Close()
	client, err := lichess.New(lichess.Options{BaseURL: "http://127.0.0.1:1", Token: "lip_test"})
	require.NoError(t, err)
	cfg := config.Default()
	cfg.Summary.EWREnginesInGame = 0
	sum := &gateRecorder{}
	var seen *analysis.Analysis
	line := func(_ context.Context, g store.Game, a *analysis.Analysis) (string, bool) {
		seen = a
		return "checked " + g.ID, true
	}
	d, err := New(Options{Config: cfg, Client: client, Store: st, Summariser: sum, SummaryLines: []SummaryLine{line},
		Engines: func(context.Context, string) (engine.Engine, error) { return nil, nil }})
	require.NoError(t, err)
	d.username = "OutpostBot"
	require.NoError(t, st.StartGame(ctx, store.Game{ID: "g0000001", Opponent: "x", Color: "white"}))
	_, err = st.FinishGame(ctx, "g0000001", "mate", "white", "e2e4", "")
	require.NoError(t, err)
	require.NoError(t, st.EnqueueAnalysis(ctx, "g0000001"))
	a := d.analyse(ctx, "g0000001")
	assert.Equal(t, store.AnalysisDone, a.State)
	assert.Equal(t, "ours\nchecked g0000001", a.Summary)
	assert.NotNil(t, seen, "the line hook got the summariser's analysis")
	assert.Equal(t, "OutpostBot", sum.req.Me)
	assert.Equal(t, "g0000001", sum.req.Game.ID)
	require.NotNil(t, sum.req.Phases)
	n, changed := sum.req.Phases.Allowed()
	assert.Equal(t, allEngines, n, "no game: every engine")
	d.mu.Lock()
	d.games["g1"] = &gameSlot{}
	d.notifyGames()
	d.mu.Unlock()
	<-changed
	n, _ = sum.req.Phases.Allowed()
	assert.Zero(t, n, "paused while a game is on the clock")
}
