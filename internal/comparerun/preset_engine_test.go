package comparerun

import (
	"reflect"
	"testing"

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
		{"sf16 preset", preset("lichess-sf16"), false, RunEngine{Command: []string{"sf16"}, From: "the lichess-sf16 preset's engine", Preset: "lichess-sf16"}},
		{"sf18 preset", preset("LICHESS-SF18"), false, RunEngine{Command: []string{"sf18"}, From: "the lichess-sf18 preset's engine", Preset: "lichess-sf18"}},
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
