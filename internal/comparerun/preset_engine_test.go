package comparerun

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/outpostchess/outpost/analysis"
)

// TestPickEngine: a lichess-sfN preset runs sfN unless overridden; other
// budgets and by-date run the given engine.
func TestPickEngine(t *testing.T) {
	preset := func(name string) analysis.Budget {
		b, err := analysis.Preset(name)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	cfg := []string{"sf15"}
	for _, tc := range []struct {
		name     string
		b        analysis.Budget
		override bool
		want     RunEngine
	}{
		{"sf16 preset", preset("lichess-sf16"), false, RunEngine{Command: []string{"sf16"}, From: "the lichess-sf16 preset's engine, its plies not re-searched unless --borderline-band says so", Preset: "lichess-sf16"}},
		{"sf18 preset", preset("LICHESS-SF18"), false, RunEngine{Command: []string{"sf18"}, From: "the lichess-sf18 preset's engine, its plies not re-searched unless --borderline-band says so", Preset: "lichess-sf18"}},
		{"overridden", preset("lichess-sf17.1"), true, RunEngine{Command: cfg, From: "--engine, instead of the lichess-sf17.1 preset's sf17.1: not the preset's engine"}},
		{"engine-less preset", preset("lichess"), false, RunEngine{Command: cfg}},
		{"by date", preset("by-date"), false, RunEngine{Command: cfg}},
		{"nodes", analysis.Budget{Nodes: 5}, true, RunEngine{Command: cfg}},
	} {
		if got := PickEngine(tc.b, cfg, tc.override); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// TestExactMethodNotReSearched: a game analysed by an exact period's
// method (CCW6EEru, 2024-01-25: lichess-sf16-2.8 with sf16) is not
// re-searched at the default band, since a deeper search would move its
// evals off the ones Lichess computed; an explicit band still re-searches,
// and a preset that is not its period's exact method keeps the default.
func TestExactMethodNotReSearched(t *testing.T) {
	path := filepath.Join(sharedDir(t), "CCW6EEru.pgn")
	games, _, err := FileSource{Path: path}.Games(context.Background(), time.Time{})
	if err != nil || len(games) != 1 {
		t.Fatalf("%d games, %v", len(games), err)
	}
	plain := len(games[0].Moves) + 1 + (len(games[0].Moves)+1)/analysis.FishnetChunk // positions and warm-ups
	for _, tc := range []struct {
		band     float64
		budget   analysis.Budget
		reSearch bool
		note     string
	}{
		{0, analysis.Budget{ByDate: true}, false, "; no borderline re-search (the method is Lichess's own)"},
		{0.03, analysis.Budget{ByDate: true}, true, ""},
		{0, analysis.Budget{Nodes: 1000}, true, ""},
	} {
		o := newOracle(t, games, 1)
		c := &Comparer{Store: openStore(t), Pool: analysis.PoolConfig{Factory: o.factory(), Workers: 1, Command: []string{"run-engine"}},
			Budget: tc.budget, BorderlineBand: tc.band}
		var out bytes.Buffer
		if err := c.Execute(context.Background(), FileSource{Path: path}, true, &out); err != nil {
			t.Fatal(err)
		}
		var rep RunReport
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil || len(rep.Games) != 1 {
			t.Fatalf("report %s: %v", out.String(), err)
		}
		n := len(o.searched())
		if (n > plain) != tc.reSearch || !strings.HasSuffix(rep.Games[0].Preset, tc.note) {
			t.Errorf("band %v, %s: %d searches for %d positions and warm-ups (re-search wanted: %v), preset %q", tc.band, tc.budget, n, plain, tc.reSearch, rep.Games[0].Preset)
		}
	}
}
