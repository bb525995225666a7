package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/bots/enginepath"
	"github.com/outpostchess/outpost/internal/sandbox"
	"github.com/outpostchess/outpost/lichess"
)

func runCompareCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return runCLI(t, "", append([]string{"compare"}, args...)...)
}

func TestCompareFlags(t *testing.T) {
	t.Setenv("OUTPOST_CONFIG", "")
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{nil, 2, "exactly one of --user, --pgn and --bot"},
		{[]string{"--user", "a", "--pgn", "x.pgn"}, 2, "exactly one of --user, --pgn and --bot"},
		{[]string{"--user", "a", "extra"}, 2, "unexpected arguments"},
		{[]string{"--user", "a", "--nodes", "5", "--preset", "quick"}, 1, "only one of --nodes and --preset"},
		{[]string{"--user", "a", "--preset", "huge"}, 1, "unknown preset"},
		{[]string{"--user", "a", "--since", "forever"}, 1, "--since"},
		{[]string{"--pgn", filepath.Join(t.TempDir(), "missing.pgn")}, 1, "--pgn"},
	} {
		code, _, stderr := runCompareCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.msg) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", tc.args, code, stderr, tc.code, tc.msg)
		}
	}
}

// TestCompareUserAgainstSandbox runs `outpost compare --user` against a
// sandbox with the real Stockfish at a tiny budget, twice: the second
// report shows the trend.
func TestCompareUserAgainstSandbox(t *testing.T) {
	if _, err := enginepath.Stockfish15Command(); err != nil {
		t.Skip(err)
	}
	t.Setenv("OUTPOST_CONFIG", "")
	t.Setenv(lichess.TokenEnv, "")
	srv, url := startSandbox(t, sandbox.Account{Name: "Alice", Token: "alice-token-1"}, sandbox.Account{Name: "bot1", Token: "bot-token-1", Bot: true})
	ctx := t.Context()
	alice, _ := lichess.New(lichess.Options{BaseURL: url, Token: "alice-token-1"})
	bot, _ := lichess.New(lichess.Options{BaseURL: url, Token: "bot-token-1"})
	ch, err := alice.CreateChallenge(ctx, "bot1", lichess.ChallengeParams{Clock: &lichess.ChallengeClock{Limit: 600}, Color: lichess.White})
	if err != nil {
		t.Fatal(err)
	}
	if err := bot.AcceptChallenge(ctx, ch.ID, ""); err != nil {
		t.Fatal(err)
	}
	for i, m := range []string{"f2f3", "e7e5", "g2g4", "d8h4"} {
		api := alice.Board()
		if i%2 == 1 {
			api = bot.Bot()
		}
		if err := api.Move(ctx, ch.ID, m, false); err != nil {
			t.Fatal(err)
		}
	}
	ip := func(v int) *int { return &v }
	if err := srv.AttachAnalysis(ch.ID, sandbox.Analysis{Moves: []sandbox.MoveAnalysis{
		{Eval: ip(-20)}, {Eval: ip(0)},
		{Mate: ip(-1), Best: "e2e4", Variation: "e4 Qh4 Nc3", Judgment: &sandbox.Judgment{Name: "Blunder", Comment: "Checkmate is now unavoidable. e4 was best."}},
		{},
	}, White: sandbox.PlayerAnalysis{Blunder: 1, ACPL: 300}}); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "runs.db")
	args := []string{"--user", "alice", "--server", url, "--nodes", "2000", "--workers", "1", "--store", db}
	code, stdout, stderr := runCompareCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	note := "Compared with the sandbox's Lichess stand-in at " + url + ", not Lichess: below, \"Lichess\" stands for its analysis.\n"
	if !strings.HasPrefix(stdout, note) {
		t.Errorf("output does not start with %q:\n%s", note, stdout)
	}
	for _, want := range []string{"Comparison run 1 for alice", ch.ID, "same judgement on Lichess-flagged plies: 1 of 1 (100.0%)", "Trend"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	code, stdout, stderr = runCompareCLI(t, append(args, "--json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep struct {
		RunID    int64 `json:"run_id"`
		Headline struct {
			Games   int
			Flagged int
		}
		Trend []struct {
			RunID int64 `json:"run_id"`
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if rep.RunID != 2 || rep.Headline.Games != 1 || rep.Headline.Flagged != 1 || len(rep.Trend) != 2 || rep.Trend[1].RunID != 1 {
		t.Fatalf("report %+v", rep)
	}
	// --last reads the stored report: no server, no engine
	srv.Close()
	code, stdout, stderr = runCompareCLI(t, "--user", "Alice", "--store", db, "--last", "--engine", "/nonexistent")
	if code != 0 || !strings.Contains(stdout, "Comparison run 2 for alice") || !strings.Contains(stdout, "\n  1     ") {
		t.Fatalf("--last: exit %d %s\n%s", code, stderr, stdout)
	}
	code, _, stderr = runCompareCLI(t, "--user", "bob", "--store", db, "--last")
	if code != 1 || !strings.Contains(stderr, "no finished comparison run for bob") {
		t.Fatalf("--last for an unknown user: exit %d %s", code, stderr)
	}
}
