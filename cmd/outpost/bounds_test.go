package main

import (
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
	// Inside the bounds, and negative (off) for the band, runs.
	code, _, stderr := runAnalyseCLI(t, analyseTestPGN, "--borderline-band", "-1", "--depth", "99", "--workers", "256", "--lichess-evals", "-")
	if code != 0 {
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
