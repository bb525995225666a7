package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/analysis/ewr/ewrtest"
	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/bots/score"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/analysis/input"
	"github.com/outpostchess/outpost/analysis/report"
	"github.com/outpostchess/outpost/config"
	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/lichess"
	"github.com/outpostchess/outpost/models"
)

func TestAnalyseEWRFlagErrors(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--ewr", "--ewr-depth", "16"}, "depth 16 not allowed"},
		{[]string{"--ewr", "--ewr-threshold", "0.05"}, "threshold 0.05 not allowed"},
		{[]string{"--ewr", "--ewr-loss", "0.2"}, "loss threshold 0.2"},
		{[]string{"--ewr", "--maia", "2500"}, "--maia 2500"},
		{[]string{"--ewr", "--ewr-time", "-1s"}, "--ewr-time"},
		{[]string{"--ewr", "--ewr-bot-moves", "-2"}, "--ewr-bot-moves"},
		{[]string{"--ewr-depth", "20"}, "--ewr-depth needs --ewr"},
		{[]string{"--bot", "x"}, "--bot needs --ewr"},
		{[]string{"--ewr-engine", "sf19"}, "--ewr-engine needs --ewr"},
	}
	for _, c := range cases {
		code, _, stderr := runAnalyseCLI(t, analyseTestPGN, append(append([]string{"--lichess-evals"}, c.args...), "-")...)
		if code != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q", c.args, code, stderr)
		}
	}
}

// TestAnalyseEWRMissingMaia: without the Maia files the command stops
// before any analysis with one error naming the install command.
func TestAnalyseEWRMissingMaia(t *testing.T) {
	t.Setenv("OUTPOST_CONFIG", "")
	t.Setenv(models.EnvDir, t.TempDir())
	t.Setenv(models.EnvLibrary, "")
	t.Setenv(models.EnvMaia1Dir, "")
	code, out, stderr := runAnalyseCLI(t, analyseTestPGN, "--lichess-evals", "--ewr", "--ewr-engine", "/bin/true", "-")
	if code != 1 || !strings.Contains(stderr, "--ewr needs Maia") || !strings.Contains(stderr, models.FetchCommand) || out != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	if n := strings.Count(strings.TrimSpace(stderr), "\n"); n > 0 {
		t.Errorf("more than one error line: %q", stderr)
	}
}

func TestAnalyseEWRMissingStockfish(t *testing.T) {
	code, out, stderr := runAnalyseCLI(t, analyseTestPGN, "--lichess-evals", "--ewr", "--ewr-engine", "/nonexistent/stockfish", "-")
	if code != 1 || !strings.Contains(stderr, "--ewr needs Stockfish: /nonexistent/stockfish not found") || !strings.Contains(stderr, "make setup") || out != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	// An engine name whose engine is not installed.
	t.Setenv(enginepath.EnvStockfish19Dir, t.TempDir())
	code, out, stderr = runAnalyseCLI(t, analyseTestPGN, "--lichess-evals", "--ewr", "--ewr-engine", "sf19", "-")
	if code != 1 || !strings.Contains(stderr, "--ewr-engine: ") || !strings.Contains(stderr, "make setup") || out != "" {
		t.Errorf("sf19: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}

// TestAnalyseEWREndToEnd runs `outpost analyse --ewr` on a real game with
// real Maia and Stockfish, in JSON, then PGN and HTML from the cache.
func TestAnalyseEWREndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: real engines not started")
	}
	game := filepath.Join("..", "..", "..", "shared", "lichess-games", "CCW6EEru.pgn")
	if _, err := os.Stat(game); err != nil {
		t.Skip("shared Lichess games not found")
	}
	if _, err := enginepath.Stockfish15Command(); err != nil {
		t.Skip(err)
	}
	t.Setenv("OUTPOST_CONFIG", "")
	cfg, err := models.LoadConfig()
	if err != nil {
		t.Skipf("models config: %v", err)
	}
	pred, err := models.NewPredictor(cfg)
	if err != nil {
		t.Skipf("Maia not available (run `%s`): %v", models.FetchCommand, err)
	}
	err = pred.Load(models.Maia1Name(1800))
	pred.Close()
	if err != nil {
		t.Skipf("Maia weights not available (run `%s`): %v", models.FetchCommand, err)
	}
	dir := t.TempDir()
	cache := filepath.Join(dir, "ewr.db")
	common := []string{"--lichess-evals", "--offline", "--ewr", "--ewr-store", cache, "--workers", "2"}

	jsonOut := filepath.Join(dir, "out.json")
	code, _, stderr := runAnalyseCLI(t, "", append(common, "--ewr-time", "10s", "--format", "json", "--out", jsonOut, game)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(jsonOut)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Games []struct {
			ID  string
			EWR []report.EWRMoment `json:"ewr"`
		}
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Games) != 1 {
		t.Fatalf("%d games", len(doc.Games))
	}
	ms := doc.Games[0].EWR
	// Each side's worst judgement by analysis.Worst (the chat's rule too: a
	// blunder into a mate loses more than one that loses material), 16...
	// Re8?? and 17. Bh3??; both players (1789, 1810) at Maia 1800.
	want := []struct {
		ply       int
		side, san string
	}{{32, "black", "Re8"}, {33, "white", "Bh3"}}
	if len(ms) != len(want) {
		t.Fatalf("%d moments, want %d: %+v", len(ms), len(want), ms)
	}
	var complete []report.EWRMoment
	for i, w := range want {
		m := ms[i]
		if m.Ply != w.ply || m.Side != w.side || m.SAN != w.san || m.Kind != report.EWRCritical {
			t.Errorf("moment %d: %+v, want ply %d %s %s", i, m, w.ply, w.side, w.san)
			continue
		}
		if !m.OK() {
			// Only the time limit may stop a moment, and it is reported.
			if !strings.Contains(m.Error, "not evaluated") || !strings.Contains(stderr, "ply "+strconv.Itoa(m.Ply)+" not computed") {
				t.Errorf("moment %d failed: %q; stderr %q", m.Ply, m.Error, stderr)
			}
			continue
		}
		if m.Rating != 1800 || m.OpponentRating != 1800 || m.Played.SAN != w.san || m.BaseWinrate == nil || m.FEN == "" {
			t.Errorf("moment %d: %+v", m.Ply, m)
		}
		for _, mv := range []*report.EWRMove{m.Played, m.Best} {
			// Confidence is the tree's coverage: above 0 unless the time
			// limit left the move's tree unevaluated, and then the move
			// and its moment are marked partial.
			if mv.ExpectedWinrate < 0 || mv.ExpectedWinrate > 1 || mv.Confidence > 1 ||
				(mv.Confidence <= 0 && !mv.Partial) || (mv.Partial && !m.Partial) ||
				mv.ConfidenceLabel == "" || mv.SAN == "" || len(mv.UCI) < 4 {
				t.Errorf("moment %d move %+v", m.Ply, mv)
			}
		}
		if !m.Partial {
			if m.Best.ExpectedWinrate < m.Played.ExpectedWinrate {
				t.Errorf("moment %d: best practical %v below the played move's %v", m.Ply, m.Best.ExpectedWinrate, m.Played.ExpectedWinrate)
			}
			complete = append(complete, m)
		} else if !strings.Contains(stderr, "partial") {
			t.Errorf("partial moment %d without a warning: %q", m.Ply, stderr)
		}
	}
	t.Logf("%d of %d moments complete within 10s", len(complete), len(ms))

	// The same moments come from the cache in the annotated PGN and the
	// HTML report.
	code, pgn, stderr := runAnalyseCLI(t, "", append(common, "--ewr-time", "1s", "--format", "pgn", game)...)
	if code != 0 {
		t.Fatalf("pgn: exit %d: %s", code, stderr)
	}
	for _, m := range complete {
		if !strings.Contains(pgn, "{ "+m.Comment()+" }") {
			t.Errorf("PGN lacks %q", m.Comment())
		}
	}
	htmlOut := filepath.Join(dir, "report.html")
	code, _, stderr = runAnalyseCLI(t, "", append(common, "--ewr-time", "1s", "--format", "html", "--out", htmlOut, game)...)
	if code != 0 {
		t.Fatalf("html: exit %d: %s", code, stderr)
	}
	page, err := os.ReadFile(htmlOut)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(page), `<article class="ewr-moment"`); n != 2 {
		t.Errorf("HTML shows %d moments, want 2", n)
	}
	for _, m := range complete {
		if !strings.Contains(string(page), "Played "+m.Played.SAN+"</th><td><meter") || !strings.Contains(string(page), report.Percent(m.Played.ExpectedWinrate)) {
			t.Errorf("HTML lacks moment %d's figures", m.Ply)
		}
	}
}

// TestAnalyseEWRBotName: our bot is --bot, else the configured token's
// account (read over loopback from the sandbox), never online with
// --offline or without a token.
func TestAnalyseEWRBotName(t *testing.T) {
	t.Setenv("OUTPOST_CONFIG", "")
	_, url := startSandbox(t, sandbox.Account{Name: "OutpostBot", Token: "bot-token-1", Bot: true})
	ctx := t.Context()
	newEWR := func(args ...string) *analyseEWR {
		fs := flag.NewFlagSet("analyse", flag.ContinueOnError)
		f := addAnalyseEWRFlags(fs)
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		return &analyseEWR{flags: f, cfg: config.Default()}
	}
	var errOut bytes.Buffer
	env := &Env{Stdout: &bytes.Buffer{}, Stderr: &errOut}

	t.Setenv(lichess.TokenEnv, "bot-token-1")
	if got := newEWR().botName(ctx, env, url, false); got != "OutpostBot" {
		t.Errorf("from the account: %q (stderr %q)", got, errOut.String())
	}
	if got := newEWR("--bot", "Other").botName(ctx, env, url, false); got != "Other" {
		t.Errorf("--bot: %q", got)
	}
	if got := newEWR().botName(ctx, env, url, true); got != "" {
		t.Errorf("offline: %q", got)
	}
	t.Setenv(lichess.TokenEnv, "wrong-token")
	if got := newEWR().botName(ctx, env, url, false); got != "" || !strings.Contains(errOut.String(), "pass --bot NAME") {
		t.Errorf("bad token: %q, stderr %q", got, errOut.String())
	}
	if strings.Contains(errOut.String(), "wrong-token") {
		t.Errorf("the token is printed: %q", errOut.String())
	}
	t.Setenv(lichess.TokenEnv, "")
	errOut.Reset()
	if got := newEWR().botName(ctx, env, url, false); got != "" || errOut.Len() != 0 {
		t.Errorf("no token: %q, stderr %q", got, errOut.String())
	}
}

// TestAnalyseEWRMoments runs the moments of a game on in-process fakes:
// our bot's moves and the critical moment in game order, a moment whose
// engine fails kept as not computed with a warning, the others computed.
func TestAnalyseEWRMoments(t *testing.T) {
	games, errs := input.ReadPGN(strings.NewReader(analyseTestPGN), "t.pgn")
	if len(games) != 1 || len(errs) != 1 {
		t.Fatalf("read: %d games, %v", len(games), errs)
	}
	a, err := analysis.BuildLichess(games[0])
	if err != nil {
		t.Fatal(err)
	}
	fs := flag.NewFlagSet("analyse", flag.ContinueOnError)
	f := addAnalyseEWRFlags(fs)
	if err := fs.Parse([]string{"--ewr", "--ewr-bot-moves", "5"}); err != nil {
		t.Fatal(err)
	}
	p, err := f.params()
	if err != nil {
		t.Fatal(err)
	}
	e := &analyseEWR{flags: f, params: p}
	// The position before 2. d4 (our bot's second move) fails.
	ev := ewrtest.LevelEvaluator{FailOn: "rnbqkbnr/ppppp1pp/5p2/8/4P3/8/PPPP1PPP/RNBQKBNR w"}
	calc := &ewr.Calculator{Prober: ewrtest.UniformProber{}, Evaluator: ev}
	var errOut bytes.Buffer
	set, err := e.moments(context.Background(), &Env{Stderr: &errOut}, calc, []*analysis.Analysis{a}, "w")
	if err != nil {
		t.Fatal(err)
	}
	ms := set[a]
	want := []struct {
		ply  int
		kind string
		ok   bool
	}{{1, report.EWRBot, true}, {3, report.EWRBot, false}, {4, report.EWRCritical, true}, {5, report.EWRBot, true}}
	if len(ms) != len(want) {
		t.Fatalf("%d moments: %+v", len(ms), ms)
	}
	for i, w := range want {
		m := ms[i]
		if m.Ply != w.ply || m.Kind != w.kind || m.OK() != w.ok {
			t.Errorf("moment %d: ply %d kind %s ok %v, want %+v", i, m.Ply, m.Kind, m.OK(), w)
			continue
		}
		if !w.ok {
			if !strings.Contains(m.Error, "engine crashed") || !strings.Contains(errOut.String(), "game t.pgn#1 at ply 3 not computed: ") {
				t.Errorf("failed moment %+v, stderr %q", m, errOut.String())
			}
			continue
		}
		// Unrated players are Maia 1500; every position is level.
		if m.Rating != 1500 || m.BaseWinrate == nil || *m.BaseWinrate != 0.5 || m.Played.SAN != a.Plies[m.Ply-1].SAN {
			t.Errorf("moment %d: %+v", m.Ply, m)
		}
	}
	if m := ms[3]; m.Played.ExpectedWinrate != 1 || !m.PlayedWasBest {
		t.Errorf("the mate 3. Qh5#: %+v %+v", m.Played, m.Best)
	}

	// Cancelled in the second game: the first game's moments are kept.
	b, err := analysis.BuildLichess(games[0])
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	calls := 0
	calc.Evaluator = evalFunc(func(ctx context.Context, reqs []ewr.EvalRequest, onResult func(int, score.Score)) error {
		calls++
		if calls > 1 && strings.HasPrefix(reqs[0].FEN, "rnbqkbnr/ppppp1pp/5p2/8/3PP3/8/PPP2PPP/RNBQKBNR b") {
			cancel()
			return ctx.Err()
		}
		return ewrtest.LevelEvaluator{}.Evaluate(ctx, reqs, onResult)
	})
	set, err = e.moments(ctx, &Env{Stderr: &errOut}, calc, []*analysis.Analysis{a, b}, "")
	if !errors.Is(err, context.Canceled) || len(set[a]) != 1 || set[a][0].Ply != 4 || !set[a][0].OK() {
		t.Errorf("cancelled: err %v, set %+v", err, set)
	}
	if _, ok := set[b]; ok {
		t.Error("the interrupted game has moments")
	}
}

type evalFunc func(ctx context.Context, reqs []ewr.EvalRequest, onResult func(int, score.Score)) error

func (f evalFunc) Evaluate(ctx context.Context, reqs []ewr.EvalRequest, onResult func(int, score.Score)) error {
	return f(ctx, reqs, onResult)
}
