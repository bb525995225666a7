package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunDaysBadValues: `run --sandbox --days` takes only Lichess's
// correspondence choices and not together with --tc, each error naming the
// flag and the value.
func TestRunDaysBadValues(t *testing.T) {
	t.Setenv("OUTPOST_CONFIG", "")
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--days", "4"}, "--days 4: want 1, 2, 3, 5, 7, 10 or 14"},
		{[]string{"--days", "-1"}, "--days -1: want 1, 2, 3, 5, 7, 10 or 14"},
		{[]string{"--days", "15"}, "--days 15: want 1, 2, 3, 5, 7, 10 or 14"},
		{[]string{"--days", "1", "--tc", "3+2"}, "--days 1 and --tc 3+2: give one"},
		{[]string{"--days", "one"}, `invalid value "one" for flag -days`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			args := append([]string{"run", "--sandbox", "--games", "1"}, tc.args...)
			code, _, errOut := runCLI(t, "", args...)
			if code == 0 || !strings.Contains(errOut, tc.msg) {
				t.Errorf("exit %d, stderr %q; want an error containing %q", code, errOut, tc.msg)
			}
		})
	}
}

// TestRunSandboxDays plays one correspondence game of `run --sandbox
// --days 3` to its end: the sparring partner's challenge has no clock and
// three days per move (the banner and the game's PGN say so), and the game
// is played and summarised.
func TestRunSandboxDays(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a game")
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "outpost.toml")
	// easy engine thinking the shortest correspondence move time, no
	// expected winrate and no verification: the test is about the game's
	// time control, not the summary's engines
	toml := "[engines]\ndefault = \"easy\"\n[game]\ncorrespondence_move_time = \"1s\"\n[summary]\newr = false\nnodes = 2000\n[verify]\nenabled = false\n[store]\npath = \"" +
		filepath.Join(dir, "o.db") + "\"\n"
	if err := os.WriteFile(cfg, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "", "run", "--sandbox", "--config", cfg, "--games", "1", "--days", "3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"playing easy at correspondence, 3 days per move)", "1 games played", `[TimeControl "-"]`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
