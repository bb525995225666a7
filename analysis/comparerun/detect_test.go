package comparerun

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/outpostchess/outpost/analysis"
)

// TestRunDetectsThePeriod: `compare --detect-period --preset by-date` on
// a 2024 game whose evals the (oracle) engine named sf15 reproduces: the
// detection runs first, names Stockfish 15.1's period with 5/5 evals
// exact, and the game is then analysed with that period's preset and
// engine, not the date's (Stockfish 16); the JSON names the engine each
// game ran, and the run's params say "by period" instead of one engine.
func TestRunDetectsThePeriod(t *testing.T) {
	path := filepath.Join(sharedDir(t), "CCW6EEru.pgn")
	games, _, err := FileSource{Path: path}.Games(context.Background(), time.Time{})
	if err != nil || len(games) != 1 {
		t.Fatalf("%d games, %v", len(games), err)
	}
	for _, tc := range []struct {
		detect                 bool
		period, preset, engine string
	}{
		{true, "Stockfish 15.1 (fishnet 2.6.7): 5/5 evals exact", "lichess-sf15 (fishnet 2.6.7, Stockfish 15.1: exact), by the evals", "sf15"},
		{false, "", "lichess-sf16 (fishnet 2.7.0, Stockfish 16: exact), by game date", "sf16"},
	} {
		o := newOracle(t, games, 1)
		c := &Comparer{Store: openStore(t), Pool: analysis.PoolConfig{Factory: o.factory(), Workers: 1, Command: []string{"run-engine"}},
			Budget: analysis.Budget{ByDate: true}, BorderlineBand: -1, DetectPeriod: tc.detect}
		var out bytes.Buffer
		if err := c.Execute(context.Background(), FileSource{Path: path}, true, &out); err != nil {
			t.Fatal(err)
		}
		var rep RunReport
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil || len(rep.Games) != 1 {
			t.Fatalf("report %s: %v", out.String(), err)
		}
		g := rep.Games[0]
		if g.Period != tc.period || g.Preset != tc.preset || g.Engine != tc.engine {
			t.Errorf("detect %v: period %q preset %q engine %q, want %q %q %q", tc.detect, g.Period, g.Preset, g.Engine, tc.period, tc.preset, tc.engine)
		}
		if !strings.HasPrefix(rep.Params.Engine, "by period") || rep.Params.DetectPeriod != tc.detect {
			t.Errorf("params %+v", rep.Params)
		}
	}
}
