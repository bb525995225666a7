package comparerun

import (
	"bufio"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/bots/enginepath"
)

// TestPlanByDate: with --preset by-date each game gets its period's preset
// and engine; a missing engine falls back to the run's, saying so; a game
// without a date gets the lichess preset, saying why.
func TestPlanByDate(t *testing.T) {
	installed := map[string][]string{"sf15": {"/engines/sf15"}, "sf16": {"/engines/sf16"}, "sf17.1": {"/engines/sf17.1"}, "sf18": {"/engines/sf18"}}
	resolve := func(have map[string][]string) func(string) ([]string, error) {
		return func(name string) ([]string, error) {
			if cmd, ok := have[name]; ok {
				return cmd, nil
			}
			return nil, fmt.Errorf("enginepath: engine %s: not built: %w", name, enginepath.ErrNotInstalled)
		}
	}
	game := func(date string) *analysis.Game {
		if date == "" {
			return &analysis.Game{}
		}
		return &analysis.Game{Tags: []analysis.Tag{{Name: "UTCDate", Value: date}}}
	}
	for _, tc := range []struct {
		name     string
		date     string
		have     map[string][]string
		budget   string   // preset name
		command  []string // engines run
		contains []string // in the preset note
	}{
		{"2023: sf15 exact", "2023.01.15", installed, "lichess-sf15", []string{"/engines/sf15"}, []string{"fishnet 2.6.7", ": exact)"}},
		{"2026-01-31: sf18 exact", "2026.01.31", installed, "lichess-sf18", []string{"/engines/sf18"}, []string{"2.13.0", ": exact)"}},
		{"2023-11: sf16 (fishnet 2.7) exact", "2023.11.20", installed, "lichess-sf16", []string{"/engines/sf16"}, []string{"fishnet 2.7.0", ": exact)", "by game date"}},
		{"2024-01: sf16 (fishnet 2.8) exact", "2024.01.25", installed, "lichess-sf16-2.8", []string{"/engines/sf16"}, []string{"fishnet 2.8.0", ": exact)", "by game date"}},
		{"2025: sf17.1 exact", "2025.05.01", installed, "lichess-sf17.1", []string{"/engines/sf17.1"}, []string{"fishnet 2.9.5", ": exact)"}},
		{"2024-10: Stockfish 17, nearest", "2024.10.01", installed, "lichess-sf17.1", []string{"/engines/sf17.1"}, []string{"Stockfish 17,", "nearest, not exact"}},
		{"2024-03: Stockfish 16.1, nearest", "2024.03.01", installed, "lichess-sf16-2.8", []string{"/engines/sf16"}, []string{"Stockfish 16.1", "nearest, not exact"}},
		{"sf16 missing", "2023.08.01", map[string][]string{}, "lichess-sf16", []string{"run-engine"}, []string{"not built", "run-engine ran instead: not exact"}},
		{"sf18 missing", "2026.01.31", map[string][]string{}, "lichess-sf18", []string{"run-engine"}, []string{"not built", "run-engine ran instead: not exact"}},
		{"no date", "", installed, "lichess", []string{"run-engine"}, []string{"no date", "not exact"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &Comparer{Budget: analysis.Budget{ByDate: true}, Pool: analysis.PoolConfig{Command: []string{"run-engine"}},
				ResolveEngine: resolve(tc.have)}
			p := c.planFor(game(tc.date), nil)
			if p.budget != analysis.Presets[tc.budget] {
				t.Errorf("budget %+v, want %s", p.budget, tc.budget)
			}
			if !reflect.DeepEqual(p.pool.Command, tc.command) {
				t.Errorf("command %q, want %q", p.pool.Command, tc.command)
			}
			for _, s := range tc.contains {
				if !strings.Contains(p.preset, s) {
					t.Errorf("preset note %q lacks %q", p.preset, s)
				}
			}
		})
	}
	fixed := &Comparer{Budget: analysis.Presets["quick"], Pool: analysis.PoolConfig{Command: []string{"x"}}}
	if p := fixed.planFor(game("2026.01.31"), nil); p.preset != "" || p.budget != analysis.Presets["quick"] || p.pool.Command[0] != "x" {
		t.Errorf("a fixed budget changed: %+v", p)
	}
	wrapped := &Comparer{Budget: analysis.Budget{ByDate: true}, ResolveEngine: resolve(installed),
		WrapCommand: func(cmd []string) []string { return append([]string{"nice"}, cmd...) }}
	if p := wrapped.planFor(game("2026.01.31"), nil); !reflect.DeepEqual(p.pool.Command, []string{"nice", "/engines/sf18"}) {
		t.Errorf("wrapped command %q", p.pool.Command)
	}
	// a detected period overrides the date: a 2022 game analysed by
	// Stockfish 16 runs sf16
	sf16 := analysis.LichessPeriodAt(time.Date(2023, 8, 1, 0, 0, 0, 0, time.UTC))
	det := &Comparer{Budget: analysis.Budget{ByDate: true}, ResolveEngine: resolve(installed)}
	if p := det.planFor(game("2022.07.24"), &sf16); p.budget != analysis.Presets["lichess-sf16"] ||
		!reflect.DeepEqual(p.pool.Command, []string{"/engines/sf16"}) || !strings.HasSuffix(p.preset, "by the evals") {
		t.Errorf("detected plan %+v", p)
	}
}

// TestWritePresets: the text report says which preset each game used.
func TestWritePresets(t *testing.T) {
	r := &RunReport{Games: []GameSummary{{ID: "a", Preset: "lichess-sf18 (x: exact)"}, {ID: "b", Preset: "lichess-sf15 (y)"}, {ID: "c", Preset: "lichess-sf18 (x: exact)"}, {ID: "d"}}}
	var sb strings.Builder
	w := bufio.NewWriter(&sb)
	writePresets(w, r)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	want := "Presets by game date:\n  2 game(s): lichess-sf18 (x: exact)\n  1 game(s): lichess-sf15 (y)\n"
	if sb.String() != want {
		t.Errorf("got %q, want %q", sb.String(), want)
	}
}

// TestWritePeriods: the text report lists each game's detected period and
// the engine it ran; nothing without detection.
func TestWritePeriods(t *testing.T) {
	for _, tc := range []struct {
		games []GameSummary
		want  string
	}{
		{[]GameSummary{{ID: "a", Period: "Stockfish 16 (fishnet 2.7.0): 5/5 evals exact", Engine: "/e/sf16"}, {ID: "b"}},
			"Periods detected from Lichess's evals:\n  a: Stockfish 16 (fishnet 2.7.0): 5/5 evals exact; analysed with /e/sf16\n"},
		{[]GameSummary{{ID: "b"}}, ""},
	} {
		var sb strings.Builder
		w := bufio.NewWriter(&sb)
		writePeriods(w, &RunReport{Games: tc.games})
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if sb.String() != tc.want {
			t.Errorf("got %q, want %q", sb.String(), tc.want)
		}
	}
}
