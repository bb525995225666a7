package chat

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/input"
)

func sharedAnalyses(t *testing.T) map[string]*analysis.Analysis {
	t.Helper()
	files, _ := filepath.Glob("../../../shared/lichess-games/*.pgn")
	if len(files) == 0 {
		t.Skip("shared Lichess games not found")
	}
	out := map[string]*analysis.Analysis{}
	for _, f := range files {
		r, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		games, errs := input.ReadPGN(r, filepath.Base(f))
		r.Close()
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		a, err := analysis.BuildLichess(games[0])
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = a
	}
	return out
}

func TestSummaryLimitsAndContent(t *testing.T) {
	for name, a := range sharedAnalyses(t) {
		lines := Summary(a)
		if len(lines) == 0 || len(lines) > 2 {
			t.Fatalf("%s: %d lines", name, len(lines))
		}
		for i, l := range lines {
			if n := utf8.RuneCountInString(l); n > MaxLineLen {
				t.Errorf("%s line %d: %d characters: %q", name, i, n, l)
			}
			p, side := a.Players.White, "White"
			if i == 1 {
				p, side = a.Players.Black, "Black"
			}
			if !strings.HasPrefix(l, side) {
				t.Errorf("%s line %d: %q does not start with %s", name, i, l, side)
			}
			if p.Accuracy != nil && !strings.Contains(l, "% accuracy") {
				t.Errorf("%s line %d: no accuracy in %q", name, i, l)
			}
			if p.Inaccuracy+p.Mistake+p.Blunder > 0 && !strings.Contains(l, "Worst: ") {
				t.Errorf("%s line %d: no worst moment in %q", name, i, l)
			}
		}
	}
}

func TestSummaryExactLines(t *testing.T) {
	as := sharedAnalyses(t)
	a := as["q7ZvsdUF.pgn"]
	if a == nil {
		t.Skip("q7ZvsdUF.pgn not found")
	}
	got := Summary(a)
	want := []string{
		"White Lance5500: 90% accuracy, ACPL 26, 5 inaccuracies, 2 mistakes, 1 blunder. Worst: 54. Nd2?? (2.13 → 0.08), b4 was best.",
		"Black TryingHard87: 90% accuracy, ACPL 26, 3 inaccuracies, 3 mistakes, 1 blunder. Worst: 16... Kf7?? (-0.34 → 1.58), Qxg2 was best.",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestSummaryShortensLongLines(t *testing.T) {
	a := sharedAnalyses(t)["ZlCTzfMG.pgn"]
	if a == nil {
		t.Skip("ZlCTzfMG.pgn not found")
	}
	a.Players.White.Name = strings.Repeat("VeryLongUserName", 3)
	lines := Summary(a)
	if n := utf8.RuneCountInString(lines[0]); n > MaxLineLen {
		t.Fatalf("line of %d characters: %q", n, lines[0])
	}
	if !strings.Contains(lines[0], "??") {
		t.Errorf("worst moment NAG lost while shortening: %q", lines[0])
	}
}
