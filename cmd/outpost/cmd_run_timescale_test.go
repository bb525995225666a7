package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunTimeScaleBadValues: `run --sandbox --time-scale` refuses a factor
// outside 0.01..1 (zero, negative, slower than Lichess, NaN, a clock too
// short for the lag reserve) with an error naming the flag and the value.
func TestRunTimeScaleBadValues(t *testing.T) {
	t.Setenv("OUTPOST_CONFIG", "")
	for _, tc := range []struct{ value, msg string }{
		{"0", "--time-scale 0: want 0.01 to 1"},
		{"-0.5", "--time-scale -0.5: want 0.01 to 1"},
		{"1.5", "--time-scale 1.5: want 0.01 to 1"},
		{"100", "--time-scale 100: want 0.01 to 1"},
		{"0.001", "--time-scale 0.001: want 0.01 to 1"},
		{"NaN", "--time-scale NaN: want 0.01 to 1"},
		{"fast", `invalid value "fast" for flag -time-scale`},
	} {
		t.Run(tc.value, func(t *testing.T) {
			code, _, errOut := runCLI(t, "", "run", "--sandbox", "--games", "1", "--time-scale", tc.value)
			if code == 0 || !strings.Contains(errOut, tc.msg) {
				t.Errorf("exit %d, stderr %q; want an error containing %q", code, errOut, tc.msg)
			}
		})
	}
}

// TestRunTimeScaleHelp: the run help names the flag and its range.
func TestRunTimeScaleHelp(t *testing.T) {
	_, _, errOut := runCLI(t, "", "run", "--help")
	for _, want := range []string{"--time-scale X", "-time-scale", "0.01 to 1"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("run --help lacks %q:\n%s", want, errOut)
		}
	}
}

// TestRunSandboxTimeScale plays one game of `run --sandbox --time-scale`
// to its end: the sandbox runs on the scaled clocks (its banner says the
// factor it was given) and the game is played and summarised.
func TestRunSandboxTimeScale(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a game")
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "outpost.toml")
	// easy engine, no expected winrate and no verification: the test is
	// about the clocks, not the summary's engines
	toml := "[engines]\ndefault = \"easy\"\n[summary]\newr = false\nnodes = 2000\n[verify]\nenabled = false\n[store]\npath = \"" +
		filepath.Join(dir, "o.db") + "\"\n"
	if err := os.WriteFile(cfg, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "", "run", "--sandbox", "--config", cfg, "--games", "1", "--tc", "1+0", "--time-scale", "0.05")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"playing easy at 1+0, clocks scaled ×0.05)", "1 games played", `[TimeControl "60+0"]`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
