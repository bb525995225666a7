package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// problems parses src and returns its ValidationErrors (failing the test if
// the error is of another kind).
func problems(t *testing.T, src string) ValidationErrors {
	t.Helper()
	cfg, err := Parse([]byte(src), "test.toml")
	if err == nil {
		if cfg == nil {
			t.Fatal("nil config without error")
		}
		return nil
	}
	if cfg != nil {
		t.Fatal("config returned with an error")
	}
	var v ValidationErrors
	if !errors.As(err, &v) {
		t.Fatalf("error is not ValidationErrors: %v", err)
	}
	if !strings.HasPrefix(err.Error(), "config test.toml: ") {
		t.Fatalf("error does not name the file: %v", err)
	}
	return v
}

// find returns the problem about key.
func find(v ValidationErrors, key string) (FieldError, bool) {
	for _, e := range v {
		if e.Key == key {
			return e, true
		}
	}
	return FieldError{}, false
}

func TestSyntaxErrorNamesLine(t *testing.T) {
	v := problems(t, "[lichess]\nurl = \"https://lichess.org\"\nstream_timeout = \"20s\n")
	if len(v) != 1 || v[0].Line != 3 || !strings.Contains(v[0].Problem, "TOML syntax error") {
		t.Fatalf("want one syntax error on line 3, got %v", v)
	}
	if !strings.HasPrefix(v[0].Error(), "line 3: lichess.stream_timeout: TOML syntax error") {
		t.Fatalf("message: %q", v[0].Error())
	}
}

func TestTypeMismatchNamesLineAndKey(t *testing.T) {
	src := "[challenge]\nrated = true\nmin_base = \"10\"\n\n[game]\nclaim_victory = 1\nmove_overhead = 100\n"
	v := problems(t, src)
	for _, want := range []struct {
		key, typ, allowed string
		line              int
	}{
		{"challenge.min_base", "string", "an integer", 3},
		{"game.claim_victory", "integer", "true or false", 6},
		{"game.move_overhead", "integer", "duration string", 7},
	} {
		e, ok := find(v, want.key)
		if !ok {
			t.Errorf("no problem for %s in %v", want.key, v)
			continue
		}
		if e.Line != want.line || !strings.Contains(e.Problem, "wrong type: "+want.typ) || !strings.Contains(e.Allowed, want.allowed) {
			t.Errorf("%s: got %+v", want.key, e)
		}
	}
	if len(v) != 3 {
		t.Errorf("want exactly 3 problems, got %v", v)
	}
}

func TestUnknownKeySuggestions(t *testing.T) {
	cases := []struct {
		src, key, suggestion string
	}{
		{"[lichess]\ntokn_file = \"t\"\n", "lichess.tokn_file", `"lichess.token_file"`},
		{"[challenge]\nmin-base = 3\n", "challenge.min-base", `"challenge.min_base"`},
		{"[challenge]\nspeed = [\"blitz\"]\n", "challenge.speed", `"challenge.speeds"`},
		{"[challenge]\nMin_Base = 3\n", "challenge.Min_Base", `"challenge.min_base"`},
		{"[chalenge]\nmin_base = 3\n", "chalenge", `"challenge"`},
		{"url = \"https://lichess.org\"\n", "url", `in [lichess]`},
		{"[[rules]]\nengine = \"easy\"\nspeed = [\"blitz\"]\n", "rules[0].speed", `"rules[0].speeds"`},
		{"[engines.sf]\ntype = \"uci\"\npath = \"/x\"\nskill = 3\n", "engines.sf.skill", `"engines.sf.skill_level"`},
		{"[engines]\ndefualt = \"hard\"\n", "engines.defualt", `"engines.default"`},
		{"[web]\nzzz = 1\n", "web.zzz", ""},
	}
	for _, c := range cases {
		v := problems(t, c.src)
		e, ok := find(v, c.key)
		if !ok {
			t.Errorf("%q: no problem for %s in %v", c.src, c.key, v)
			continue
		}
		if !strings.HasPrefix(e.Problem, "unknown") {
			t.Errorf("%s: problem %q", c.key, e.Problem)
		}
		if c.suggestion != "" && !strings.Contains(e.Problem, c.suggestion) {
			t.Errorf("%s: want suggestion %s, got %q", c.key, c.suggestion, e.Problem)
		}
		if c.suggestion == "" && strings.Contains(e.Problem, "did you mean") {
			t.Errorf("%s: unexpected suggestion %q", c.key, e.Problem)
		}
		if e.Allowed == "" || e.Line == 0 {
			t.Errorf("%s: want allowed keys and a line, got %+v", c.key, e)
		}
	}
}

func TestTokenKeyRejectedAndHidden(t *testing.T) {
	const secret = "lip_SuperSecretToken123"
	for _, src := range []string{
		"[lichess]\ntoken = \"" + secret + "\"\n",
		"token = \"" + secret + "\"\n",
		"[lichess]\napi_token = \"" + secret + "\"\n",
		"[lichess]\ntoken = " + secret + "\n",               // syntax error on the token line
		"[lichess]\ntoken_file = \"" + secret + "\"\n",      // a token pasted where a path belongs
		"[web]\naccess_token = \"" + secret + "\"\n",        // the console's token
		"[lichess]\ntoken = [\"" + secret + "\", 1]\n",      // odd shapes too
		"[lichess]\ntoken = \"\"\"\n" + secret + "\n\"\"\"", // multi-line string
		"[lichess]\ntoken_file = " + secret + "\n",          // unquoted, a syntax error
	} {
		cfg, err := Parse([]byte(src), "test.toml")
		if err == nil || cfg != nil {
			t.Fatalf("%q accepted", src)
		}
		msg := err.Error()
		if strings.Contains(msg, "SuperSecret") {
			t.Fatalf("error reveals the token: %s", msg)
		}
		if !strings.Contains(msg, "token") {
			t.Fatalf("error does not say what is wrong: %s", msg)
		}
	}
	v := problems(t, "[lichess]\ntoken = \""+secret+"\"\n")
	e, ok := find(v, "lichess.token")
	if !ok || e.Line != 2 || !strings.Contains(e.Allowed, "token_file") || !strings.Contains(e.Allowed, "LICHESS_TOKEN") {
		t.Fatalf("want a token problem naming token_file and LICHESS_TOKEN, got %v", v)
	}
	if _, ok := find(problems(t, "[web]\naddr = \"0.0.0.0:1\"\naccess_token = \"x\"\n"), "web.access_token"); !ok {
		t.Fatal("web.access_token not reported")
	}
}

func TestRuleWithUnknownEngine(t *testing.T) {
	src := "[[rules]]\nengine = \"easy\"\n\n[[rules]]\nspeeds = [\"blitz\"]\nengine = \"stokfish\"\n\n[engines.stockfish]\ntype = \"uci\"\npath = \"/usr/games/stockfish\"\n"
	v := problems(t, src)
	e, ok := find(v, "rules[1].engine")
	if !ok || len(v) != 1 {
		t.Fatalf("want one problem at rules[1].engine, got %v", v)
	}
	if e.Line != 4 || e.Value != `"stokfish"` || !strings.Contains(e.Problem, `did you mean "stockfish"`) ||
		!strings.Contains(e.Allowed, "stockfish") || !strings.Contains(e.Allowed, "maia-1500") {
		t.Fatalf("problem: %+v", e)
	}
	v = problems(t, "[engines]\ndefault = \"nothere\"\n")
	if _, ok := find(v, "engines.default"); !ok {
		t.Fatalf("unknown default engine not reported: %v", v)
	}
}

func TestAllProblemsAtOnce(t *testing.T) {
	src := `[lichess]
url = "ftp://x"
stream_timeout = "2s"
[challenge]
max_games = 0
bot_daily_budget = 500
[game]
shutdown = "explode"
[log]
level = "loud"
`
	v := problems(t, src)
	for _, key := range []string{"lichess.url", "lichess.stream_timeout", "challenge.max_games", "challenge.bot_daily_budget", "game.shutdown", "log.level"} {
		if _, ok := find(v, key); !ok {
			t.Errorf("missing problem for %s", key)
		}
	}
	for i := 1; i < len(v); i++ {
		if v[i].Line < v[i-1].Line {
			t.Errorf("problems not in file order: %v", v)
		}
	}
	if !strings.HasPrefix(v.Error(), "6 problems:\n  line 2: lichess.url") {
		t.Errorf("summary: %q", v.Error())
	}
}

func TestHugeInteger(t *testing.T) {
	e, ok := find(problems(t, "[analysis]\nnodes = 5000000000\n"), "analysis.nodes")
	if !ok || e.Problem != "integer too large" || e.Line != 2 {
		t.Fatalf("got %+v", e)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "c.toml")
	if err := os.WriteFile(p, []byte("[challenge]\nmax_games = 4\n[game]\nabort_after = \"1m\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Challenge.MaxGames != 4 || cfg.Game.AbortAfter != time.Minute || cfg.Challenge.BotDailyBudget != 100 {
		t.Fatalf("loaded %+v", cfg.Challenge)
	}
	if _, err := Load(filepath.Join(dir, "missing.toml")); err == nil || !strings.Contains(err.Error(), "missing.toml") {
		t.Fatalf("missing file: %v", err)
	}
	big := make([]byte, MaxFileSize+1)
	if _, err := Parse(big, "big"); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Fatalf("big file: %v", err)
	}
}

func TestDefaultsValid(t *testing.T) {
	if err := Default().Validate(); err != nil {
		t.Fatalf("defaults invalid: %v", err)
	}
	cfg, err := Parse(nil, "empty")
	if err != nil {
		t.Fatalf("empty file: %v", err)
	}
	if cfg.Lichess.URL != "https://lichess.org" || cfg.Lichess.StreamTimeout != 20*time.Second || cfg.RateLimit.Seconds != 60 ||
		cfg.Challenge.BotDailyBudget != 100 || cfg.Summary.Nodes != 100_000 || cfg.Store.Path != "outpost.db" ||
		cfg.Analysis.Engine[0] != "sf15" || cfg.EWR.Threshold != 0.1 || cfg.EWR.Depth != 15 ||
		cfg.EWR.Loss != -0.1 || cfg.EWR.Maia != 1500 || cfg.Web.Addr != "127.0.0.1:8090" || cfg.Engines.Default != "medium" {
		t.Fatalf("defaults not as documented: %+v", cfg)
	}
	// Default returns fresh values each time.
	a, b := Default(), Default()
	a.Challenge.Speeds[0] = "x"
	if b.Challenge.Speeds[0] == "x" {
		t.Fatal("Default shares slices between calls")
	}
}

func TestInlineRulesAndOptions(t *testing.T) {
	src := `rules = [{engine = "hard", speeds = ["blitz"]}, {engine = "maia-1100", human = true}]
[engines.sf]
type = "uci"
path = "/usr/games/stockfish"
options = {Threads = 2, "Skill Level" = 3, Ponder = false, Name = "x", Contempt = 0.5}
`
	cfg, err := Parse([]byte(src), "inline")
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Rules) != 2 || cfg.Rules[1].Engine != "maia-1100" || *cfg.Rules[1].Human != true || cfg.Rules[0].Human != nil {
		t.Fatalf("rules: %+v", cfg.Rules)
	}
	if o := cfg.Engines.Defs["sf"].Options; o["Threads"] != int64(2) || o["Ponder"] != false || o["Contempt"] != 0.5 {
		t.Fatalf("options: %v", o)
	}
	v := problems(t, "[engines.sf]\ntype = \"uci\"\npath = \"x\"\noptions = {Threads = [1]}\n")
	if e, ok := find(v, "engines.sf.options.Threads"); !ok || !strings.Contains(e.Problem, "array") {
		t.Fatalf("non-scalar option: %v", v)
	}
}

// refusal is one row of a table of refused snippets: src must be refused
// with a problem at key whose text (problem and allowed) contains want.
type refusal struct{ name, src, key, want string }

// checkRefusals runs each refusal as a subtest and hands the problem found
// to more, the table's own further checks (nil: none).
func checkRefusals(t *testing.T, cases []refusal, more func(t *testing.T, c refusal, e FieldError)) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := problems(t, c.src)
			e, ok := find(v, c.key)
			if !ok {
				t.Fatalf("no problem at %s; got %v", c.key, v)
			}
			if text := e.Problem + " " + e.Allowed; !strings.Contains(text, c.want) {
				t.Fatalf("problem at %s does not mention %q: %s", c.key, c.want, e.Error())
			}
			if more != nil {
				more(t, c, e)
			}
		})
	}
}

// saysAllowed is a further check for checkRefusals: the problem says what
// is allowed.
func saysAllowed(t *testing.T, _ refusal, e FieldError) {
	t.Helper()
	if e.Allowed == "" {
		t.Errorf("does not say what is allowed: %s", e.Error())
	}
}

// TestSyntaxErrorNamesKey: a TOML syntax error names the key whose line it
// is on, with its table ("line 3: lichess.stream_timeout: TOML syntax
// error: …"), found from the text since the parser's own last key is the
// table's for some errors (a session-10 trial found only the line named).
func TestSyntaxErrorNamesKey(t *testing.T) {
	for _, c := range []struct {
		src, key string
		line     int
	}{
		{"[lichess]\nurl = \"https://lichess.org\"\nstream_timeout = \"20s\n", "lichess.stream_timeout", 3},
		{"[engine]\nthreads = 4x\n", "engine.threads", 2},
		{"[game]\n  # a comment\n  \"move_overhead\" = [1, 2\n", "game.move_overhead", 3},
		{"log_level = \n", "log_level", 1},
		{"[[rules]]\nname = 'x\n", "rules.name", 2},
		{"[challenge]\nrated = true\nrated = false\n", "challenge.rated", 3},
		{"[matchmaking\nx = 1\n", "", 2},
	} {
		v := problems(t, c.src)
		if len(v) != 1 || v[0].Line != c.line || v[0].Key != c.key || !strings.HasPrefix(v[0].Problem, "TOML syntax error") {
			t.Errorf("%q: want one syntax error on line %d naming %q, got %#v", c.src, c.line, c.key, v)
		}
	}
}
