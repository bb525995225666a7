package comparerun

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/bots/enginepath"
)

// TestSchedulerEngine: scheduled runs use compare.engine, resolved: "auto"
// falls back to Stockfish 15.1 when Stockfish 19 is missing, an explicit
// "sf19" then fails with the setup command.
func TestSchedulerEngine(t *testing.T) {
	t.Setenv(enginepath.EnvStockfish19Dir, t.TempDir()) // nothing installed there
	sf15, err := enginepath.Stockfish15Command()
	if err != nil {
		t.Skip(err)
	}
	w := newWorld(t)
	st := openStore(t)
	cfg := func(engine ...string) SchedulerConfig {
		return SchedulerConfig{
			Compare: Schedule{Users: []string{"alice"}, Interval: time.Hour, MaxGames: 5, Since: time.Hour,
				Budget: analysis.Presets["quick"], Engine: engine, HashMB: 16},
			Client: w.public, Store: st,
		}
	}
	for _, engine := range [][]string{{"auto"}, nil} {
		s, err := NewScheduler(cfg(engine...))
		if err != nil {
			t.Fatal(err)
		}
		cmd := s.comparer.Pool.Command
		if s.comparer.EngineLabel != sf15[0] || cmd[len(cmd)-1] != sf15[0] {
			t.Errorf("engine %q: command %q label %q, want Stockfish 15.1", engine, cmd, s.comparer.EngineLabel)
		}
	}
	_, err = NewScheduler(cfg("sf19"))
	if !errors.Is(err, enginepath.ErrNotInstalled) || !strings.Contains(err.Error(), "compare.engine") || !strings.Contains(err.Error(), "setup") {
		t.Errorf("sf19 not installed: %v", err)
	}
}
