package config

import (
	"strings"
	"testing"
)

func TestResolveEngine(t *testing.T) {
	cfg, err := Parse([]byte("[engines.sf]\ntype = \"uci\"\npath = \"/usr/games/stockfish\"\nelo = 1500\n"), "e")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, typ string
		rating    int
		ok        bool
	}{
		{"easy", EngineEasy, 0, true},
		{"medium", EngineMedium, 0, true},
		{"hard", EngineHard, 0, true},
		{"knobs", EngineKnobs, 0, true},
		{"maia-1100", EngineMaia, 1100, true},
		{"maia-1900", EngineMaia, 1900, true},
		{"sf", EngineUCI, 0, true},
		{"maia-2000", "", 0, false},
		{"maia-01500", "", 0, false},
		{"maia-", "", 0, false},
		{"Easy", "", 0, false},
		{"", "", 0, false},
	}
	for _, c := range cases {
		def, err := cfg.ResolveEngine(c.name)
		if (err == nil) != c.ok {
			t.Errorf("%q: err %v, want ok=%v", c.name, err, c.ok)
			continue
		}
		if c.ok && (def.Type != c.typ || def.Rating != c.rating) {
			t.Errorf("%q: got %+v", c.name, def)
		}
		if !c.ok && !strings.Contains(err.Error(), "maia-1500") {
			t.Errorf("%q: error does not list the known engines: %v", c.name, err)
		}
	}
	if def, _ := cfg.ResolveEngine("sf"); def.Elo != 1500 || def.Path != "/usr/games/stockfish" {
		t.Errorf("sf: %+v", def)
	}
	names := cfg.EngineNames()
	if names[len(names)-1] != "sf" || len(names) != len(BuiltinEngines())+1 {
		t.Errorf("EngineNames: %v", names)
	}
}

func TestEngineFor(t *testing.T) {
	src := `
[engines]
default = "medium"

[[rules]]
users = ["Alice"]
engine = "easy"

[[rules]]
speeds = ["bullet", "blitz"]
bot = true
engine = "hard"

[[rules]]
min_rating = 2000
titles = ["GM", "none"]
rated = true
engine = "maia-1900"

[[rules]]
variants = ["chess960"]
human = true
max_rating = 1500
engine = "maia-1100"
`
	cfg, err := Parse([]byte(src), "rules")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		o    Opponent
		want string
		rule int
	}{
		{"user match is case-insensitive", Opponent{Username: "alice", Speed: "blitz", Bot: true}, "easy", 0},
		{"bot in blitz", Opponent{Username: "bot1", Speed: "blitz", Bot: true, Rating: 2500}, "hard", 1},
		{"bot in rapid skips rule 1", Opponent{Username: "bot1", Speed: "rapid", Bot: true, Rating: 2500, Rated: true}, "maia-1900", 2},
		{"titled GM rated", Opponent{Username: "gm", Speed: "rapid", Title: "GM", Rating: 2600, Rated: true}, "maia-1900", 2},
		{"untitled matches none", Opponent{Username: "x", Speed: "rapid", Rating: 2100, Rated: true}, "maia-1900", 2},
		{"IM does not match", Opponent{Username: "im", Speed: "rapid", Title: "IM", Rating: 2400, Rated: true}, "medium", -1},
		{"casual fails rated", Opponent{Username: "x", Speed: "rapid", Rating: 2100}, "medium", -1},
		{"unknown rating fails min_rating", Opponent{Username: "x", Speed: "rapid", Rated: true}, "medium", -1},
		{"960 human low", Opponent{Username: "h", Variant: "chess960", Rating: 1200}, "maia-1100", 3},
		{"960 human too strong", Opponent{Username: "h", Variant: "chess960", Rating: 1600}, "medium", -1},
		{"960 bot", Opponent{Username: "b", Variant: "chess960", Rating: 1200, Bot: true, Speed: "classical"}, "medium", -1},
	}
	for _, c := range cases {
		got, rule := cfg.EngineFor(c.o)
		if got != c.want || rule != c.rule {
			t.Errorf("%s: got %s (rule %d), want %s (rule %d)", c.name, got, rule, c.want, c.rule)
		}
	}
}

func TestKnobConfig(t *testing.T) {
	cfg, err := Parse([]byte("[knobs.k]\nopponent_ply_depth = 7\n"), "k")
	if err != nil {
		t.Fatal(err)
	}
	kc, err := cfg.KnobConfig("k")
	if err != nil || kc.OpponentPlyDepth != 7 {
		t.Fatalf("k: %+v %v", kc.OpponentPlyDepth, err)
	}
	def, err := cfg.KnobConfig("")
	if err != nil || def.OpponentPlyDepth != 4 {
		t.Fatalf("defaults: %v %v", def.OpponentPlyDepth, err)
	}
	if _, err := cfg.KnobConfig("nope"); err == nil || !strings.Contains(err.Error(), "k") {
		t.Fatalf("unknown set: %v", err)
	}
}
