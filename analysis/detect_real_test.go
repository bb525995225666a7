package analysis_test

import (
	"context"
	"testing"
	"time"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/bots/enginepath"
)

// needEngine skips the test when an engine name does not resolve here.
func needEngine(t *testing.T, name string) {
	t.Helper()
	if _, err := enginepath.Resolve([]string{name}); err != nil {
		t.Skipf("engine %s: %v", name, err)
	}
}

// TestDetectPeriodOnRealGames runs the detection with this machine's
// engines: lila's fixture (fishnet 2.6.11) is Stockfish 15.1's period,
// 5/5 evals exact; the 2021 game ZlCTzfMG (Stockfish 13/14 era) and
// CCW6EEru (played 2024-01-25, yet analysed by none of our engines and
// methods: docs/stockfish.md) must be rejected: no obtainable method gives
// their five evals.
func TestDetectPeriodOnRealGames(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: runs every installed period's engine on 5 positions per game")
	}
	for _, tc := range []struct {
		game, engine, want string // want "" = none matches
	}{
		{"lila-expected1.pgn", "sf15", "15.1"},
		{"CCW6EEru.pgn", "sf16", ""},
		{"ZlCTzfMG.pgn", "sf15", ""},
	} {
		t.Run(tc.game, func(t *testing.T) {
			needEngine(t, tc.engine)
			g := sharedGame(t, tc.game)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			d, err := analysis.DetectPeriod(ctx, g, analysis.DetectOptions{})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %s", tc.game, d)
			for _, tr := range d.Trials {
				t.Logf("  %s: %d/%d %s %s", tr.Period.Label(), tr.Exact, tr.Compared, tr.Mismatch, tr.Unavailable)
			}
			switch {
			case tc.want == "" && d.Found != nil:
				t.Errorf("found %s, want none", d.Found.Period.Label())
			case tc.want != "" && (d.Found == nil || d.Found.Period.Stockfish != tc.want):
				t.Errorf("detection %q, want Stockfish %s", d, tc.want)
			}
			if tc.want == "" {
				ran := 0
				for _, tr := range d.Trials {
					if tr.Unavailable == "" {
						ran++
						if tr.Compared != analysis.DetectEvals {
							t.Errorf("%s compared %d evals, want %d", tr.Period.Label(), tr.Compared, analysis.DetectEvals)
						}
					}
				}
				if ran == 0 {
					t.Error("no engine ran")
				}
			}
		})
	}
}
