package uci

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestParseOption(t *testing.T) {
	tests := []struct {
		line string
		want OptionSpec
	}{
		{"option name Threads type spin default 1 min 1 max 1024",
			OptionSpec{Name: "Threads", Type: OptionSpin, Default: "1", Min: 1, Max: 1024}},
		{"option name Skill Level type spin default 20 min 0 max 20",
			OptionSpec{Name: "Skill Level", Type: OptionSpin, Default: "20", Min: 0, Max: 20}},
		{"option name Debug Log File type string default ",
			OptionSpec{Name: "Debug Log File", Type: OptionString}},
		{"option name SyzygyPath type string default <empty>",
			OptionSpec{Name: "SyzygyPath", Type: OptionString}},
		{"option name EvalFile type string default nn-ad9b42354671.nnue",
			OptionSpec{Name: "EvalFile", Type: OptionString, Default: "nn-ad9b42354671.nnue"}},
		{"option name Clear Hash type button",
			OptionSpec{Name: "Clear Hash", Type: OptionButton}},
		{"option name UCI_LimitStrength type check default false",
			OptionSpec{Name: "UCI_LimitStrength", Type: OptionCheck, Default: "false"}},
		{"option name Style type combo default Normal var Solid var Normal var Risky Play",
			OptionSpec{Name: "Style", Type: OptionCombo, Default: "Normal", Vars: []string{"Solid", "Normal", "Risky Play"}}},
		{"option name Name With default Inside type string default a b",
			OptionSpec{Name: "Name With default Inside", Type: OptionString, Default: "a b"}},
	}
	for _, tc := range tests {
		got, err := ParseOption(tc.line)
		if err != nil {
			t.Errorf("ParseOption(%q): %v", tc.line, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseOption(%q)\n got %+v\nwant %+v", tc.line, got, tc.want)
		}
	}
}

func TestParseOptionErrors(t *testing.T) {
	for line, want := range map[string]string{
		"option type spin default 1 min 1 max 2":        "no name",
		"option name X type sideways":                   "unknown type",
		"option name X type spin default 1 min a":       "not an integer",
		"option name X type spin default 1 min 3 max 2": "min <= max",
		"option name X type spin default 1":             "min <= max",
		"options name X type check":                     "does not start",
		"option X type check":                           "unexpected",
	} {
		_, err := ParseOption(line)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseOption(%q) error = %v, want %q", line, err, want)
		}
	}
}

func TestOptionValidate(t *testing.T) {
	spin := OptionSpec{Name: "Hash", Type: OptionSpin, Min: 1, Max: 64}
	check := OptionSpec{Name: "Ponder", Type: OptionCheck}
	combo := OptionSpec{Name: "Style", Type: OptionCombo, Vars: []string{"Solid", "Risky"}}
	str := OptionSpec{Name: "Path", Type: OptionString}
	ok := []struct {
		spec      OptionSpec
		in, canon string
	}{
		{spin, " 32 ", "32"}, {spin, "1", "1"}, {check, "TRUE", "true"}, {check, "0", "false"},
		{combo, "risky", "Risky"}, {str, "/tmp/x y", "/tmp/x y"},
	}
	for _, c := range ok {
		got, err := c.spec.Validate(c.in)
		if err != nil || got != c.canon {
			t.Errorf("%s.Validate(%q) = %q, %v; want %q", c.spec.Name, c.in, got, err, c.canon)
		}
	}
	bad := []struct {
		spec OptionSpec
		in   string
	}{{spin, "0"}, {spin, "65"}, {spin, "big"}, {check, "maybe"}, {combo, "Wild"}, {str, "a\nquit"}}
	for _, c := range bad {
		if _, err := c.spec.Validate(c.in); err == nil {
			t.Errorf("%s.Validate(%q) accepted", c.spec.Name, c.in)
		}
	}
}

// FuzzParseOption checks the option parser never panics and that accepted
// options survive Format → ParseOption.
func FuzzParseOption(f *testing.F) {
	f.Add("option name Threads type spin default 1 min 1 max 1024")
	f.Add("option name Style type combo default Normal var Solid var Normal")
	f.Add("option name SyzygyPath type string default <empty>")
	f.Add("option name Clear Hash type button")
	f.Fuzz(func(t *testing.T, line string) {
		spec, err := ParseOption(line)
		if err != nil {
			return
		}
		back, err := ParseOption(spec.Format())
		if err != nil {
			t.Fatalf("re-parse of %q: %v", spec.Format(), err)
		}
		if spec.Type == OptionButton {
			spec.Default, spec.Vars = "", nil
		}
		if spec.Type != OptionSpin {
			spec.Min, spec.Max = 0, 0
		}
		if !reflect.DeepEqual(spec, back) {
			t.Fatalf("round trip of %q\n got %+v\nwant %+v", line, back, spec)
		}
	})
}

func TestEloOptions(t *testing.T) {
	specs := []OptionSpec{
		{Name: "UCI_LimitStrength", Type: OptionCheck, Default: "false"},
		{Name: "UCI_Elo", Type: OptionSpin, Min: 1350, Max: 2850},
	}
	for elo, want := range map[int]int{1000: 1350, 1350: 1350, 2000: 2000, 3200: 2850} {
		opts, used, err := EloOptions(specs, elo)
		if err != nil || used != want || opts["UCI_Elo"] != strconv.Itoa(want) || opts["UCI_LimitStrength"] != "true" {
			t.Errorf("EloOptions(%d) = %v, %d, %v; want Elo %d", elo, opts, used, err, want)
		}
	}
	if _, _, err := EloOptions(specs[:1], 1500); err == nil {
		t.Error("EloOptions without UCI_Elo accepted")
	}
}
