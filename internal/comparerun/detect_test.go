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
		scale                  float64 // of the oracle's evals: 1 = Lichess's
		period, preset, engine string
	}{
		{true, 1, "Stockfish 15.1 (fishnet 2.6.7): 5/5 evals exact", "lichess-sf15 (fishnet 2.6.7, Stockfish 15.1: exact), by the evals", "sf15"},
		{false, 1, "", "lichess-sf16-2.8 (fishnet 2.8.0, Stockfish 16: exact), by game date", "sf16"},
		{true, 1.5, "no obtainable period gives Lichess's evals (Stockfish 15.1 (fishnet 2.6.7) 0/5; Stockfish 16 (fishnet 2.7.0) 0/5; Stockfish 16 (fishnet 2.8.0) 0/5; Stockfish 17.1 (fishnet 2.9.5) 0/5; Stockfish 18 (fishnet 2.13.0) 0/5): the analysis ran on an engine we cannot have (Stockfish 15 or older, 16.1, 17, a 2026 development build) or with evals from Lichess's cloud cache",
			"lichess-sf16-2.8 (fishnet 2.8.0, Stockfish 16: exact), by game date; but Lichess's evals match no obtainable period's: not exact", "sf16"},
	} {
		o := newOracle(t, games, tc.scale)
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
