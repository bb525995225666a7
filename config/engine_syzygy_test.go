package config

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSyzygyConfigValidation: every [engines.NAME.syzygy] rule is refused
// with an error naming its key and what is allowed.
func TestSyzygyConfigValidation(t *testing.T) {
	empty := t.TempDir()
	tables := t.TempDir()
	if err := os.WriteFile(filepath.Join(tables, "KQvK.rtbw"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	tables2 := t.TempDir()
	if err := os.WriteFile(filepath.Join(tables2, "KRvK.rtbw"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	eng := func(typ, body string) string {
		return "[engines.e]\ntype = \"" + typ + "\"\n" + body
	}
	cases := []refusal{
		{"no path", eng("medium", "[engines.e.syzygy]\nenabled = true"), "engines.e.syzygy.path", "at least one directory"},
		{"missing dir", eng("medium", "[engines.e.syzygy]\nenabled = true\npath = [\""+filepath.Join(empty, "nope")+"\"]"), "engines.e.syzygy.path[0]", "cannot be read"},
		{"no tables", eng("hard", "[engines.e.syzygy]\nenabled = true\npath = [\""+tables+"\", \""+empty+"\"]"), "engines.e.syzygy.path[1]", "no Syzygy WDL table"},
		{"colon", eng("hard", "[engines.e.syzygy]\nenabled = true\npath = [\"/a:/b\"]"), "engines.e.syzygy.path[0]", "path separator"},
		{"max pieces low", eng("hard", "[engines.e.syzygy]\nmax_pieces = 2"), "engines.e.syzygy.max_pieces", "3..7"},
		{"max pieces high", eng("hard", "[engines.e.syzygy]\nmax_pieces = 8"), "engines.e.syzygy.max_pieces", "3..7"},
		{"probe depth", eng("hard", "[engines.e.syzygy]\nprobe_depth = 65"), "engines.e.syzygy.probe_depth", "0..64"},
		{"two sets", "[engines.a]\ntype = \"hard\"\n[engines.a.syzygy]\nenabled = true\npath = [\"" + tables + "\"]\n" +
			"[engines.b]\ntype = \"easy\"\n[engines.b.syzygy]\nenabled = true\npath = [\"" + tables2 + "\"]",
			"engines.b.syzygy.path", "one set per process"},
		{"uci conflict", eng("uci", "path = \"/usr/games/stockfish\"\n[engines.e.options]\nSyzygyPath = \"/x\"\n[engines.e.syzygy]\nenabled = true\npath = [\""+tables+"\"]"), "engines.e.options.SyzygyPath", "not both"},
	}
	checkRefusals(t, cases, saysAllowed)
}

// TestSyzygyConfigValid: a correct table decodes, and a disabled one is
// not checked against the disk.
func TestSyzygyConfigValid(t *testing.T) {
	tables := t.TempDir()
	if err := os.WriteFile(filepath.Join(tables, "KRvK.rtbw"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	src := "[engines]\ndefault = \"e\"\n[engines.e]\ntype = \"medium\"\n[engines.e.syzygy]\nenabled = true\npath = [\"" + tables +
		"\"]\nmax_pieces = 4\nprobe_depth = 2\n[engines.f]\ntype = \"hard\"\n[engines.f.syzygy]\npath = [\"/not/there\"]\n"
	c, err := Parse([]byte(src), "syzygy.toml")
	if err != nil {
		t.Fatal(err)
	}
	e := c.Engines.Defs["e"]
	if !e.SyzygyOn() || e.Syzygy.MaxPieces != 4 || e.Syzygy.ProbeDepth != 2 || e.Syzygy.SyzygyPathOption() != tables {
		t.Fatalf("decoded %+v", *e.Syzygy)
	}
	if c.Engines.Defs["f"].SyzygyOn() {
		t.Fatal("a table without enabled = true is off")
	}
}
