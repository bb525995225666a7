package analysis

import (
	"strings"
	"testing"
	"time"
)

func TestLichessPeriodAt(t *testing.T) {
	for _, tc := range []struct {
		date    string
		preset  string
		fishnet string
		exact   bool
	}{
		{"2021-06-01", "lichess-sf15", "before 2.6.7", false},
		{"2022-11-30", "lichess-sf15", "before 2.6.7", false},
		{"2022-12-01", "lichess-sf15", "2.6.7", true},
		{"2023-06-30", "lichess-sf15", "2.6.7", true},
		{"2023-07-01", "lichess-sf16", "2.7.0", true},
		{"2024-01-03", "lichess-sf16", "2.7.0", true},
		{"2024-01-04", "lichess-sf16-2.8", "2.8.0", true},
		{"2024-01-25", "lichess-sf16-2.8", "2.8.0", true},
		{"2024-02-24", "lichess-sf16-2.8", "2.9.0", false},
		{"2024-09-07", "lichess-sf17.1", "2.9.4", false},
		{"2025-03-29", "lichess-sf17.1", "2.9.4", false},
		{"2025-03-30", "lichess-sf17.1", "2.9.5", true},
		{"2026-01-30", "lichess-sf17.1", "2.9.5", true},
		{"2026-01-31", "lichess-sf18", "2.13.0", true},
		{"2026-02-01", "lichess-sf18", "2.13.1", false},
		{"2026-07-01", "lichess-sf18", "2.13.3", false},
		{"2030-01-01", "lichess-sf18", "2.13.3", false},
	} {
		t.Run(tc.date, func(t *testing.T) {
			d, err := time.Parse("2006-01-02", tc.date)
			if err != nil {
				t.Fatal(err)
			}
			p := LichessPeriodAt(d)
			if p.Preset != tc.preset || p.Fishnet != tc.fishnet || p.Exact != tc.exact {
				t.Errorf("period %+v, want preset %s fishnet %s exact %v", p, tc.preset, tc.fishnet, tc.exact)
			}
			if _, ok := Presets[p.Preset]; !ok {
				t.Errorf("preset %s does not exist", p.Preset)
			}
			if s := p.String(); strings.HasSuffix(s, ": exact)") != p.Exact || !strings.HasPrefix(s, p.Preset) {
				t.Errorf("String %q does not say the preset and whether it is exact", s)
			}
		})
	}
	ps := LichessPeriods()
	for i := 1; i < len(ps); i++ {
		if !ps[i].From.After(ps[i-1].From) {
			t.Errorf("period %d (%s) does not start after period %d", i, ps[i].Fishnet, i-1)
		}
	}
}

func TestGameDate(t *testing.T) {
	for _, tc := range []struct {
		tags []Tag
		want string // "" = no date
	}{
		{[]Tag{{Name: "UTCDate", Value: "2026.02.14"}, {Name: "Date", Value: "2026.02.13"}}, "2026-02-14"},
		{[]Tag{{Name: "Date", Value: "2023.01.05"}}, "2023-01-05"},
		{[]Tag{{Name: "Date", Value: "2023.??.??"}}, ""},
		{[]Tag{{Name: "UTCDate", Value: "garbage"}, {Name: "Date", Value: "2024.03.01"}}, "2024-03-01"},
		{nil, ""},
	} {
		g := &Game{Tags: tc.tags}
		d, ok := g.Date()
		got := ""
		if ok {
			got = d.Format("2006-01-02")
		}
		if got != tc.want {
			t.Errorf("tags %v: date %q, want %q", tc.tags, got, tc.want)
		}
	}
}

// TestPresetsOfLichess: the two Lichess presets name the engine they
// reproduce Lichess with, and lichess-sf18 sends fishnet's 6/7 of 1M.
func TestPresetsOfLichess(t *testing.T) {
	if b := Presets["lichess-sf18"]; b.Engine != "sf18" || b.FreshHash || b.FishnetLimits().Nodes != 857_142 {
		t.Errorf("lichess-sf18 = %+v, limits %+v", b, b.FishnetLimits())
	}
	if b := Presets["lichess-sf15"]; b.Engine != "sf15" || !b.FreshHash || b.FishnetLimits().Nodes != 1_500_000 {
		t.Errorf("lichess-sf15 = %+v", b)
	}
	if b := Presets["lichess-sf17.1"]; b.Engine != "sf17.1" || b.FreshHash || b.FishnetLimits().Nodes != 857_142 {
		t.Errorf("lichess-sf17.1 = %+v, limits %+v", b, b.FishnetLimits())
	}
	if b := Presets["lichess-sf16"]; b.Engine != "sf16" || !b.FreshHash || b.FishnetLimits().Nodes != fishnetSF16Nodes {
		t.Errorf("lichess-sf16 = %+v", b)
	}
	for _, p := range ExactPeriods() {
		if b := Presets[p.Preset]; b.Engine == "" {
			t.Errorf("exact period %s: preset %s names no engine", p.Label(), p.Preset)
		}
	}
	if b, err := Preset("by-date"); err != nil || !b.ByDate || b.String() != "preset by game date" {
		t.Errorf("by-date = %+v, %v", b, err)
	}
}
