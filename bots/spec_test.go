package bots

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseSpec(t *testing.T) {
	tests := []struct {
		in   string
		want Spec
	}{
		{"easy", Spec{Name: "easy"}},
		{" Hard ", Spec{Name: "hard"}},
		{"hard,Hash=64,Disable=lmr", Spec{Name: "hard", Options: map[string]string{"Hash": "64", "Disable": "lmr"}}},
		{"uci:/usr/games/stockfish", Spec{Name: "uci", Path: "/usr/games/stockfish"}},
		{"uci:/opt/sf,Skill Level=5, UCI_Elo = 1500", Spec{Name: "uci", Path: "/opt/sf",
			Options: map[string]string{"Skill Level": "5", "UCI_Elo": "1500"}}},
		{"uci:./engines/my engine,Threads=2", Spec{Name: "uci", Path: "./engines/my engine", Options: map[string]string{"Threads": "2"}}},
		{"knobs,EvalFile=", Spec{Name: "knobs", Options: map[string]string{"EvalFile": ""}}},
	}
	for _, tc := range tests {
		got, err := ParseSpec(tc.in)
		if err != nil {
			t.Errorf("ParseSpec(%q): %v", tc.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseSpec(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
	for in, want := range map[string]string{
		"":                   "empty engine spec",
		"uci:":               "needs a path",
		"uci:,Hash=1":        "needs a path",
		"hard,Hash":          "not Key=Value",
		"hard,=3":            "not Key=Value",
		"hard,Hash=1,Hash=2": "given twice",
		"my engine":          "not an engine name",
		"Hash=3":             "not an engine name",
		"uci":                "needs a path",
		"UCI:/x":             "not an engine name",
	} {
		if _, err := ParseSpec(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseSpec(%q) error = %v, want %q", in, err, want)
		}
	}
}

// FuzzParseSpec checks ParseSpec never panics and that String gives back
// an equivalent spec.
func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"easy", "uci:/usr/games/stockfish,Skill Level=5", "hard,Hash=64", "uci:", "a,b=c,d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := ParseSpec(in)
		if err != nil {
			return
		}
		back, err := ParseSpec(s.String())
		if err != nil {
			t.Fatalf("re-parse of %q (from %q): %v", s.String(), in, err)
		}
		if !reflect.DeepEqual(s, back) {
			t.Fatalf("round trip of %q: %+v vs %+v", in, s, back)
		}
	})
}
