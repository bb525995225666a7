package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runAnalyseCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	return runCLI(t, stdin, append([]string{"analyse"}, args...)...)
}

const analyseTestPGN = `[Event "t"]
[White "W"]
[Black "B"]
[Result "1-0"]

1. e4 { [%eval 0.2] } 1... f6?! { (0.20 → 0.90) Inaccuracy. e5 was best. } { [%eval 0.9] } (1... e5 2. Nf3) 2. d4 { [%eval 0.8] } 2... g5?? { (0.80 → Mate in 1) Checkmate is now unavoidable. e5 was best. } { [%eval #1] } (2... e5) 3. Qh5# 1-0

[Event "bad"]

1. e4 e4 *
`

func TestAnalyseLichessEvalsJSON(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.pgn")
	if err := os.WriteFile(path, []byte(analyseTestPGN), 0o600); err != nil {
		t.Fatal(err)
	}
	outPath := filepath.Join(t.TempDir(), "out.json")
	code, _, stderr := runAnalyseCLI(t, "", "--lichess-evals", "--format", "json", "--out", outPath, path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "skipped") || !strings.Contains(stderr, "game 2") || !strings.Contains(stderr, "line 10") {
		t.Errorf("bad game not reported: %q", stderr)
	}
	data, err := os.ReadFile(outPath)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Games []struct {
			ID      string
			Players map[string]struct {
				Accuracy   *int
				ACPL       *int
				Inaccuracy int
				Blunder    int
			}
			Plies []struct {
				Ply      int
				SAN      string
				UCI      string
				Eval     map[string]int
				BestUCI  *string `json:"best_uci"`
				BestSAN  *string `json:"best_san"`
				Judgment *string
				Comment  string
			}
			Comparison struct {
				Judgments struct{ Lichess, Ours, Exact int }
				EvalMAECP *float64 `json:"eval_mae_cp"`
			}
		}
		Errors []string
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Games) != 1 || len(doc.Errors) != 1 {
		t.Fatalf("games %d errors %v", len(doc.Games), doc.Errors)
	}
	g := doc.Games[0]
	p := g.Plies[3]
	if p.SAN != "g5" || p.UCI != "g7g5" || p.Eval["mate"] != 1 || *p.Judgment != "Blunder" || *p.BestSAN != "e5" || *p.BestUCI != "e7e5" ||
		p.Comment != "Checkmate is now unavoidable. e5 was best." {
		t.Errorf("ply 4: %+v", p)
	}
	if g.Plies[4].Eval != nil || g.Plies[0].Judgment != nil {
		t.Errorf("plies %+v", g.Plies)
	}
	if g.Players["black"].Inaccuracy != 1 || g.Players["black"].Blunder != 1 || g.Players["white"].Accuracy == nil {
		t.Errorf("players %+v", g.Players)
	}
	if j := g.Comparison.Judgments; j.Lichess != 2 || j.Ours != 2 || j.Exact != 2 || g.Comparison.EvalMAECP == nil {
		t.Errorf("comparison %+v", g.Comparison)
	}
}

func TestAnalyseFormatsFromStdin(t *testing.T) {
	code, out, stderr := runAnalyseCLI(t, analyseTestPGN, "--lichess-evals", "--format", "pgn", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "1... f6?! { (0.20 → 0.90) Inaccuracy. e5 was best. } { [%eval 0.9] } (1... e5 2. Nf3) 2. d4") {
		t.Errorf("pgn output:\n%s", out)
	}
	code, out, _ = runAnalyseCLI(t, analyseTestPGN, "--lichess-evals", "-")
	if code != 0 || !strings.Contains(out, "Inaccuracy") || !strings.Contains(out, "blunder") {
		t.Errorf("text output (%d):\n%s", code, out)
	}
}

// TestAnalyseFlagsAfterInput: `outpost analyse game.pgn --format json`
// works (flags after the positional argument), and "--" ends the flags.
func TestAnalyseFlagsAfterInput(t *testing.T) {
	code, out, stderr := runAnalyseCLI(t, analyseTestPGN, "-", "--format", "json", "--lichess-evals")
	if code != 0 || !strings.HasPrefix(strings.TrimSpace(out), "{") || !strings.Contains(out, `"games"`) {
		t.Fatalf("flags after the input: exit %d %s\n%s", code, stderr, out)
	}
	code, _, stderr = runAnalyseCLI(t, analyseTestPGN, "--lichess-evals", "--", "--format")
	if code == 0 || !strings.Contains(stderr, "--format") {
		t.Errorf("after --, --format is an input: exit %d %s", code, stderr)
	}
}

func TestAnalyseUsageErrors(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "usage"},
		{[]string{"--format", "xml", "x.pgn"}, 1, "--format"},
		{[]string{"--nodes", "5", "--depth", "3", "x.pgn"}, 1, "only one"},
		{[]string{"--preset", "huge", "x.pgn"}, 1, "unknown preset"},
		{[]string{"--offline", "q7ZvsdUF"}, 1, "not available offline"},
		{[]string{"nofile.pgn"}, 1, "no such file"},
	}
	for _, c := range cases {
		code, _, stderr := runAnalyseCLI(t, "", c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q", c.args, code, stderr)
		}
	}
}

func TestAnalyseEngineNotFound(t *testing.T) {
	code, _, stderr := runAnalyseCLI(t, analyseTestPGN, "--engine", "/nonexistent/engine", "-")
	if code != 1 || !strings.Contains(stderr, "engine") {
		t.Errorf("exit %d: %q", code, stderr)
	}
}

// gameByGameReader serves one game per Read call and, before serving game
// k, records how many game reports the output already holds: a run that
// streams has written every game but the last two by then (the parser
// reads one game ahead to find where a game ends), a run that collects
// first has written none.
type gameByGameReader struct {
	t       *testing.T
	games   []string
	next    int
	out     *bytes.Buffer
	written []int // per game served: game reports in out at that moment
}

func (r *gameByGameReader) Read(p []byte) (int, error) {
	if r.next == len(r.games) {
		return 0, io.EOF
	}
	g := r.games[r.next]
	if len(p) < len(g) {
		r.t.Fatalf("read buffer of %d bytes, a game is %d", len(p), len(g))
	}
	r.written = append(r.written, strings.Count(r.out.String(), "Game stdin#"))
	r.next++
	return copy(p, g), nil
}

// TestAnalyseStreamsGameByGame is the regression test for "analysing a
// 10 MB PGN stays under 200 MB": each game's report is written before the
// games after the next one are read, so no run holds more than a game or
// two. Synchronised on the reads themselves, no timing involved.
func TestAnalyseStreamsGameByGame(t *testing.T) {
	game := analyseTestPGN[:strings.Index(analyseTestPGN, `[Event "bad"]`)]
	const n = 6
	var out, errOut bytes.Buffer
	r := &gameByGameReader{t: t, out: &out}
	for range n {
		r.games = append(r.games, game)
	}
	code := run(context.Background(), []string{"analyse", "--offline", "--lichess-evals", "-"}, &Env{Stdin: r, Stdout: &out, Stderr: &errOut})
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if got := strings.Count(out.String(), "Game stdin#"); got != n {
		t.Fatalf("%d game reports, want %d:\n%s", got, n, out.String())
	}
	for k, w := range r.written {
		if want := max(0, k-1); w < want {
			t.Errorf("when game %d was read, %d game reports were written, want at least %d (games collected before writing)", k+1, w, want)
		}
	}
}

// TestAnalysePrintsPGNWarnings: a game the PGN reader kept with a warning
// (here a missing result token) is analysed and its warning printed to
// standard error, naming the input, the game and its players, both when
// the report streams game by game and when it waits for every game
// (--format html).
func TestAnalysePrintsPGNWarnings(t *testing.T) {
	game := analyseTestPGN[:strings.Index(analyseTestPGN, `[Event "bad"]`)]
	noResult := strings.Replace(game, "3. Qh5# 1-0", "3. Qh5#", 1)
	const want = "outpost analyse: stdin: game 2 (W–B): no result token at the end of the movetext\n"
	for _, format := range []string{"json", "html"} {
		code, out, stderr := runAnalyseCLI(t, game+noResult, "--offline", "--lichess-evals", "--format", format, "-")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", format, code, stderr)
		}
		if strings.Count(stderr, "outpost analyse: stdin: game") != 1 || !strings.Contains(stderr, want) {
			t.Errorf("%s: stderr %q, want the one warning %q", format, stderr, want)
		}
		if format == "json" && strings.Count(out, `"source": "stdin"`)+strings.Count(out, `"source":"stdin"`) != 2 {
			t.Errorf("json: both games analysed? %s", out)
		}
	}
}
