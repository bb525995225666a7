package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSetKnobSetReplacesInPlace(t *testing.T) {
	src := `# my config
[engines.t]
type = "knobs"
knobs = "mine"

[knobs.mine] # tuned by hand
opponent_ply_depth = 2
debug = true

# the game section
[game]
abort_after = "40s"
`
	out, err := SetKnobSet([]byte(src), "mine", map[string]any{"opponent_ply_depth": 6, "search_mode": "greedy", "risk_pow": 1.5})
	if err != nil {
		t.Fatal(err)
	}
	want := `# my config
[engines.t]
type = "knobs"
knobs = "mine"

[knobs.mine]
opponent_ply_depth = 6
risk_pow = 1.5
search_mode = "greedy"

# the game section
[game]
abort_after = "40s"
`
	if string(out) != want {
		t.Fatalf("got:\n%s\nwant:\n%s", out, want)
	}
	cfg, err := Parse(out, "edited")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Knobs["mine"]["opponent_ply_depth"] != int64(6) || cfg.Game.AbortAfter.String() != "40s" || len(cfg.Knobs["mine"]) != 3 {
		t.Fatalf("read back: %+v", cfg.Knobs)
	}
}

func TestSetKnobSetAppendsAndLastSection(t *testing.T) {
	out, err := SetKnobSet([]byte("[game]\nabort_after = \"40s\""), "new-set", map[string]any{"debug": true})
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != "[game]\nabort_after = \"40s\"\n\n[knobs.new-set]\ndebug = true\n" {
		t.Fatalf("append: %q", out)
	}
	out2, err := SetKnobSet(out, "new-set", map[string]any{"debug": false})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(string(out2), "[knobs.new-set]\ndebug = false\n") || strings.Count(string(out2), "knobs.new-set") != 1 {
		t.Fatalf("replace last section: %q", out2)
	}
	empty, err := SetKnobSet(nil, "a", map[string]any{})
	if err != nil || string(empty) != "[knobs.a]\n" {
		t.Fatalf("empty file: %q %v", empty, err)
	}
}

func TestSetKnobSetRefuses(t *testing.T) {
	cases := []struct {
		src, name string
		values    map[string]any
		want      string
	}{
		{"", "bad name", nil, "knob set name"},
		{"", "a", map[string]any{"opponent_ply_depth": 99}, "knobs.a.opponent_ply_depth: out of range"},
		{"", "a", map[string]any{"no_such_knob": 1}, "unknown knob"},
		{"[knobs]\na = {debug = true}\n", "a", map[string]any{"debug": false}, "edit it by hand"},
		{"knobs.a.debug = true\n", "a", map[string]any{"debug": false}, "edit it by hand"},
	}
	for _, c := range cases {
		if _, err := SetKnobSet([]byte(c.src), c.name, c.values); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q %s: want error containing %q, got %v", c.src, c.name, c.want, err)
		}
	}
}

func TestWriteKnobSet(t *testing.T) {
	p := filepath.Join(t.TempDir(), "outpost.toml")
	if err := os.WriteFile(p, []byte("[log]\nlevel = \"debug\"\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := WriteKnobSet(p, "k", map[string]any{"search_depth": 3}); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Knobs["k"]["search_depth"] != int64(3) || cfg.Log.Level != "debug" {
		t.Fatalf("read back: %+v %+v", cfg.Knobs, cfg.Log)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o640 {
		t.Fatalf("mode changed to %v", st.Mode().Perm())
	}
	entries, _ := os.ReadDir(filepath.Dir(p))
	if len(entries) != 1 {
		t.Fatalf("temporary file left behind: %v", entries)
	}
}
