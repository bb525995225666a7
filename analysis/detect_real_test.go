package analysis_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/internal/testkit"
)

// needEngine skips the test when an engine name does not resolve here.
func needEngine(t *testing.T, name string) {
	t.Helper()
	testkit.AwaitEngine(t, name)
	if _, err := enginepath.Resolve([]string{name}); err != nil {
		t.Skipf("engine %s: %v", name, err)
	}
}

// TestDetectPeriodOnRealGames runs the detection on real games with the
// real engines' answers, replayed from recordings of every period's
// engine driven by that period's method (TestRecordedSearchesAreTheEngines
// checks them against the engines): lila's fixture (fishnet 2.6.11) is
// Stockfish 15.1's period; eOXqcPAS (played and analysed 2023-11-20) is
// Stockfish 16's with fishnet 2.7's method, not 2.8's; CCW6EEru (played
// 2024-01-25) is Stockfish 16's with fishnet 2.8's chunks at 1,250,000
// nodes (1/5 with 2.7's method); the 2021 game ZlCTzfMG (Stockfish 13/14
// era) is rejected: no obtainable method gives its evals.
func TestDetectPeriodOnRealGames(t *testing.T) {
	for _, tc := range []struct {
		game, want string // want "" = none matches
	}{
		{"lila-expected1.pgn", "Stockfish 15.1 (fishnet 2.6.7): 5/5 evals exact"},
		{"eOXqcPAS.pgn", "Stockfish 16 (fishnet 2.7.0): 5/5 evals exact"},
		{"CCW6EEru.pgn", "Stockfish 16 (fishnet 2.8.0): 5/5 evals exact"},
		{"ZlCTzfMG.pgn", ""},
	} {
		t.Run(tc.game, func(t *testing.T) {
			g := sharedGame(t, tc.game)
			trial := 0
			pool := func(_ context.Context, engine string) (*analysis.Pool, func(), error) {
				trial++
				name := fmt.Sprintf("detect-%s-%d-%s", strings.TrimSuffix(tc.game, ".pgn"), trial, engine)
				return recordedPool(t, name, engine, tc.game, "DetectPeriod trial"), func() {}, nil
			}
			d, err := analysis.DetectPeriod(context.Background(), g, analysis.DetectOptions{Pool: pool})
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
			case tc.want != "" && d.String() != tc.want:
				t.Errorf("detection %q, want %q", d, tc.want)
			}
			if len(d.Trials) != len(analysis.ExactPeriods()) {
				t.Errorf("%d trials, want one per exact period (%d)", len(d.Trials), len(analysis.ExactPeriods()))
			}
			for _, tr := range d.Trials {
				if tr.Unavailable != "" || tr.Compared < analysis.DetectEvals {
					t.Errorf("%s: compared %d evals (%s), want at least %d", tr.Period.Label(), tr.Compared, tr.Unavailable, analysis.DetectEvals)
				}
			}
		})
	}
}
