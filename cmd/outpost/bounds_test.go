package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAnalyseBounds: every numeric flag of analyse is checked against a
// stated bound, naming the flag, before anything runs (before, --nodes 0 ran
// at 1M nodes, --depth 500 and --borderline-band 5 ran, --workers 10000
// started 242 Stockfish processes).
func TestAnalyseBounds(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--nodes", "0"}, "--nodes 0: want at least 1"},
		{[]string{"--depth", "0"}, "--depth 0: want at least 1"},
		{[]string{"--depth", "500"}, "--depth 500: want at most 99"},
		{[]string{"--workers", "10000"}, "--workers 10000: want at most 256"},
		{[]string{"--workers", "0"}, "--workers 0: want at least 1"},
		{[]string{"--borderline-band", "5"}, "--borderline-band 5: want a distance in (0, 0.1]"},
		{[]string{"--borderline-band", "0"}, "--borderline-band 0: want a distance in (0, 0.1]"},
		{[]string{"--borderline-band", "NaN"}, "--borderline-band NaN"},
	}
	for _, c := range cases {
		code, out, stderr := runAnalyseCLI(t, analyseTestPGN, append(c.args, "--offline", "-")...)
		if code != 1 || !strings.Contains(stderr, c.want) || out != "" {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, code, stderr, c.want)
		}
	}
	// Inside the bounds, and negative (off) for the band, the checks pass:
	// the run goes on to start the engine (one that does not exist here).
	code, _, stderr := runAnalyseCLI(t, analyseTestPGN, "--borderline-band", "-1", "--depth", "99", "--workers", "256", "--threads", "512",
		"--engine", "/nonexistent/engine", "--offline", "-")
	if code == 0 || strings.Contains(stderr, "want at") || strings.Contains(stderr, "borderline-band") || !strings.Contains(stderr, "/nonexistent/engine") {
		t.Errorf("within the bounds: exit %d %s", code, stderr)
	}
}

// TestAnalyseHTMLRefusesPastItsBound: --format html holds every game, so an
// input of more games than maxReportGames is refused with the count before
// any analysis, and no output file is left (it peaked at 2.2 GB and left an
// empty file); at the bound it runs.
func TestAnalyseHTMLRefusesPastItsBound(t *testing.T) {
	game := analyseTestPGN[:strings.Index(analyseTestPGN, `[Event "bad"]`)]
	dir := t.TempDir()
	out := filepath.Join(dir, "report.html")
	many := strings.Repeat(game, maxReportGames+1)
	code, _, stderr := runAnalyseCLI(t, many, "--lichess-evals", "--format", "html", "--out", out, "-")
	if code != 1 || !strings.Contains(stderr, "201 games in the input, at most 200") || !strings.Contains(stderr, "--format html") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("an output file was left: %v", err)
	}
	code, _, stderr = runAnalyseCLI(t, strings.Repeat(game, maxReportGames), "--lichess-evals", "--format", "html", "--out", out, "-")
	if b, err := os.ReadFile(out); code != 0 || err != nil || !strings.Contains(string(b), "<html") {
		t.Errorf("at the bound: exit %d %s, %d bytes %v", code, stderr, len(b), err)
	}
}

// TestClusterURLChecked: worker and cluster status without a cluster URL
// say so (exit 2; they printed nothing); a --cluster that is no NATS URL is
// refused at once, naming the flag, by analyse, compare, worker and cluster status
// (garbage:// made the client retry for 10 s).
func TestClusterURLChecked(t *testing.T) {
	for _, cmd := range [][]string{{"worker"}, {"cluster", "status"}} {
		code, _, stderr := runCLI(t, "", cmd...)
		if code != 2 || !strings.Contains(stderr, "no cluster: give --cluster URL or set [cluster] url") {
			t.Errorf("%v without a URL: exit %d, stderr %q", cmd, code, stderr)
		}
	}
	for _, args := range [][]string{
		{"worker", "--cluster", "garbage://"},
		{"cluster", "status", "--cluster", "garbage://"},
		{"analyse", "--cluster", "garbage://", "--offline", "-"},
		{"compare", "--cluster", "garbage://", "--pgn", "-"},
	} {
		code, _, stderr := runCLI(t, analyseTestPGN, args...)
		if code != 1 || !strings.Contains(stderr, `--cluster "garbage://": scheme "garbage"`) {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
}

// TestCheckClusterURL: the URLs the NATS client takes, and what it does not.
func TestCheckClusterURL(t *testing.T) {
	for _, ok := range []string{"", "nats://127.0.0.1:4222", "127.0.0.1:4222", "tls://a.example:4222,nats://b.example", "wss://h/x", "nats://user:pw@host:4222"} {
		if err := checkClusterURL(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for bad, want := range map[string]string{
		"garbage://":           `scheme "garbage"`,
		"nats://":              "no host",
		"nats://h:0":           `port "0"`,
		"nats://h:99999":       `port "99999"`,
		"http://h:4222":        `scheme "http"`,
		"nats://a:4222,ftp://": `"ftp://"`,
		"nats://%zz":           "--cluster",
	} {
		if err := checkClusterURL(bad); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "--cluster") {
			t.Errorf("%q: %v, want an error with %q", bad, err, want)
		}
	}
}

// FuzzCheckClusterURL: any input is accepted or refused without a panic, a
// refusal naming the flag.
func FuzzCheckClusterURL(f *testing.F) {
	for _, s := range []string{"", "nats://127.0.0.1:4222", "garbage://", "a,b,,c", "[::1]:4222", "nats://[::1", "tls://h:65536"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if err := checkClusterURL(s); err != nil && !strings.Contains(err.Error(), "--cluster") {
			t.Errorf("%q: %v does not name the flag", s, err)
		}
	})
}

// TestSandboxRefusesDuplicateAccounts: two --account flags with one name
// (case-insensitive, as Lichess user ids) or one token are refused naming
// the account (the later silently replaced the earlier).
func TestSandboxRefusesDuplicateAccounts(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--account", "alice:T1", "--account", "alice:T2"}, `account "alice": the name is already given`},
		{[]string{"--account", "Alice:T1", "--account", "alice:T2:bot"}, `account "alice": the name is already given (as "Alice"`},
		{[]string{"--account", "alice:T1", "--account", "bob:T1"}, `account "bob": its token is already "alice"'s`},
	} {
		code, _, stderr := runCLI(t, "", append([]string{"sandbox", "--addr", "127.0.0.1:0"}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, code, stderr, c.want)
		}
	}
}

// TestAnalyseOutIsNotAnInput: --out naming an input, directly, through a
// symbolic link or through a hard link, is refused before anything runs
// and the input is left intact (before, `analyse --out g.pgn g.pgn`
// replaced the games with the report and exited 0).
func TestAnalyseOutIsNotAnInput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "g.pgn")
	if err := os.WriteFile(in, []byte(analyseTestPGN), 0o644); err != nil {
		t.Fatal(err)
	}
	sym := filepath.Join(dir, "sym.pgn")
	hard := filepath.Join(dir, "hard.pgn")
	if err := os.Symlink(in, sym); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(in, hard); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ out, input string }{{in, in}, {sym, in}, {in, sym}, {hard, in}, {filepath.Join(dir, ".", "g.pgn"), in}} {
		for _, format := range []string{"text", "html"} {
			code, _, stderr := runAnalyseCLI(t, "", "--lichess-evals", "--format", format, "--out", c.out, c.input)
			if code != 1 || !strings.Contains(stderr, "--out "+c.out+" is the input "+c.input) {
				t.Errorf("--out %s %s (%s): exit %d, stderr %q", c.out, c.input, format, code, stderr)
			}
			if b, err := os.ReadFile(in); err != nil || string(b) != analyseTestPGN {
				t.Fatalf("--out %s %s: the input was changed (%d bytes, %v)", c.out, c.input, len(b), err)
			}
		}
	}
	other := filepath.Join(dir, "report.txt")
	if code, _, stderr := runAnalyseCLI(t, "", "--lichess-evals", "--out", other, in); code != 0 {
		t.Errorf("another file: exit %d %s", code, stderr)
	}
}

// shufflePGN is a game of n plies of knights going out and back, each move
// with a Lichess eval (what --lichess-evals reads).
func shufflePGN(n int) string {
	san := []string{"Nf3", "Nf6", "Ng1", "Ng8"}
	var b strings.Builder
	b.WriteString("[Event \"long\"]\n[White \"W\"]\n[Black \"B\"]\n[Result \"*\"]\n\n")
	for i := range n {
		if i%2 == 0 {
			fmt.Fprintf(&b, "%d. ", i/2+1)
		}
		fmt.Fprintf(&b, "%s { [%%eval 0.1] } ", san[i%4])
	}
	b.WriteString("*\n\n")
	return b.String()
}

// TestAnalyseHTMLBoundsPlies: --format html refuses a game past
// report.MaxPlies with its count before any analysis, leaving no file (a
// 10,000-ply game peaked at 652 MB; 20 of them ran out of memory and left
// an empty file); a game at the bound is reported.
func TestAnalyseHTMLBoundsPlies(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.html")
	code, _, stderr := runAnalyseCLI(t, shufflePGN(1001), "--lichess-evals", "--format", "html", "--out", out, "-")
	if code != 1 || !strings.Contains(stderr, "--format html: report: html: game stdin#1 has 1001 plies, at most 1000") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("an output file was left: %v", err)
	}
	code, _, stderr = runAnalyseCLI(t, shufflePGN(1000), "--lichess-evals", "--format", "html", "--out", out, "-")
	if b, err := os.ReadFile(out); code != 0 || err != nil || !strings.Contains(string(b), `id="g1-p1000"`) || !strings.HasSuffix(string(b), "</html>\n") {
		t.Errorf("at the bound: exit %d %s, %d bytes %v", code, stderr, len(b), err)
	}
}

// TestSilentAcceptancesRefused: command lines that ran as if a flag had
// applied, or failed only later, are refused at once with an error naming
// the flag (#32 item 6; each was accepted before).
func TestSilentAcceptancesRefused(t *testing.T) {
	t.Setenv("OUTPOST_CONFIG", "")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"analyse", "--threads", "1000", "--offline", "-"}, "--threads 1000: want at most 512"},
		{[]string{"analyse", "--lichess-evals", "--nodes", "5", "-"}, "--nodes with --lichess-evals: the input's evals are used and no engine runs"},
		{[]string{"analyse", "--lichess-evals", "--engine", "sf15", "-"}, "--engine with --lichess-evals"},
		{[]string{"analyse", "--server", "ftp://x", "-"}, `--server "ftp://x": want an http(s) base URL`},
		{[]string{"analyse", "--server", "https://u:secret@lichess.org", "-"}, "--server: no user name or password"},
		{[]string{"analyse", "--creds", "c.creds", "--offline", "-"}, "--creds with no cluster"},
		{[]string{"analyse", "--tls-ca", "ca.pem", "--offline", "-"}, "--tls-ca with no cluster"},
		{[]string{"predict", "--maia", "-1"}, "--maia -1: want a rating 1..3500"},
		{[]string{"predict", "--top", "-1"}, "--top -1: want 0"},
		{[]string{"ladder", "--engine", "easy", "--games-per-rung", "0"}, "--games-per-rung 0: want at least 1"},
		{[]string{"ladder", "--engine", "easy", "--rungs", "99999"}, "--rungs: 99999 is outside Stockfish's UCI_Elo range 1320..3190"},
		{[]string{"match", "--engine-a", "easy", "--engine-b", "easy", "--concurrency", "0"}, "--concurrency 0: want 1..256"},
		{[]string{"match", "--engine-a", "easy", "--engine-b", "easy", "--max-plies", "-1"}, "--max-plies -1: want at least 1"},
		{[]string{"compare", "--pgn", "x.pgn", "--since", "30x"}, "--since with --pgn: the games come from the file"},
		{[]string{"compare", "--user", "bob", "--server", "ftp://x"}, `--server "ftp://x"`},
		{[]string{"serve", "--workers", "100000", "--no-ewr"}, "--workers 100000: want at most 256"},
		{[]string{"worker", "--name", "a b.c>", "--cluster", "nats://127.0.0.1:1"}, `--name "a b.c>": want at most 64 characters`},
		{[]string{"cluster", "serve", "--store", "d", "--no-auth", "--replicas", "7"}, "--replicas 7: want 1..5"},
		{[]string{"cluster", "serve", "--store", "d", "--no-auth", "--replicas", "3"}, "--replicas 3 on one node"},
	}
	for _, c := range cases {
		code, _, stderr := runCLI(t, analyseTestPGN, c.args...)
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, code, stderr, c.want)
		}
	}
}
