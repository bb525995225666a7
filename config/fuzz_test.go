package config

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParse: Parse never panics; it either returns a valid config or a
// ValidationErrors whose every entry is a clean, bounded message; a token
// written into a token key never appears in the error.
func FuzzParse(f *testing.F) {
	f.Add(Example())
	for _, s := range []string{
		"",
		"[lichess]\ntoken = \"lip_fuzzsecret0001\"\n",
		"[challenge]\nmin_base = \"10\"\nspeeds = [1]\n",
		"[[rules]]\nengine = \"x\"\n[[rules]]\nusers = [\"a\"]\n",
		"rules = [{engine = \"easy\"}, 3]\n",
		"[engines.a]\ntype = \"uci\"\noptions = {x = {y = 1}}\n",
		"[engines]\ndefault = 3\n[engines.b]\ntype = \"knobs\"\nknobs = \"k\"\n[knobs.k]\nrisk_pow = \"a\"\n",
		"[knobs]\nk = [1, 2]\n",
		"a.b.c.d = 1\n[x.\"y z\"]\nq = 1979-05-27T07:32:00Z\n",
		"[game]\ngreeting = \"{{{}}}\"\n",
		"[lichess\n",
		"[web]\naddr = \"[::1\"\n",
		"[ewr]\nthreshold = nan\nloss = inf\n",
		"[matchmaking]\ntime_controls = [\"1e308+0\"]\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := Parse(data, "fuzz.toml")
		if err == nil {
			if cfg == nil {
				t.Fatal("nil config without error")
			}
			if verr := cfg.Validate(); verr != nil {
				t.Fatalf("accepted config fails Validate: %v", verr)
			}
			return
		}
		if cfg != nil {
			t.Fatal("config returned with an error")
		}
		var v ValidationErrors
		if !errors.As(err, &v) || len(v) == 0 {
			t.Fatalf("error is not a non-empty ValidationErrors: %v", err)
		}
		for _, e := range v {
			msg := e.Error()
			if e.Problem == "" || strings.Contains(msg, "%!") || strings.Contains(msg, "internal error") ||
				strings.Contains(msg, "reflect") || strings.Contains(msg, "toml.Primitive") {
				t.Fatalf("unclean problem: %q", msg)
			}
			if e.Key == "" && !strings.HasPrefix(e.Problem, "TOML syntax error") && !strings.HasPrefix(e.Problem, "file too large") &&
				!strings.Contains(e.Problem, "more problems not shown") {
				t.Fatalf("problem without a key: %q", msg)
			}
			if utf8.RuneCountInString(e.Value) > maxValueLen {
				t.Fatalf("value not bounded: %d runes", utf8.RuneCountInString(e.Value))
			}
			if e.Line < 0 || e.Line > strings.Count(string(data), "\n")+1 {
				t.Fatalf("line %d outside the input: %q", e.Line, msg)
			}
		}
		if strings.Contains(string(data), "lip_fuzzsecret0001") && strings.Contains(err.Error(), "fuzzsecret") {
			for _, e := range v {
				if strings.Contains(e.Error(), "fuzzsecret") && strings.Contains(strings.ToLower(e.Key), "token") {
					t.Fatalf("token shown: %q", e.Error())
				}
			}
		}
	})
}
