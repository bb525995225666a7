package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/input"
)

const sharedGames = "../../../shared/lichess-games"

// TestLiteratePGNGolden re-renders every shared Lichess PGN from the
// analysis rebuilt from its own evals and compares it byte for byte with
// the file: Lichess's literate format exactly (comment order and wording,
// NAGs, move numbers, variations, opening and status comments). The export
// switches (evals, clocks, eval prefix) follow what each file was exported
// with.
func TestLiteratePGNGolden(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(sharedGames, "*.pgn"))
	if len(files) == 0 {
		t.Skip("shared Lichess games not found")
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			games, errs := input.ReadPGN(strings.NewReader(string(data)), filepath.Base(path))
			if len(errs) > 0 || len(games) != 1 {
				t.Fatalf("read: %v (%d games)", errs, len(games))
			}
			a, err := analysis.BuildLichess(games[0])
			if err != nil {
				t.Fatal(err)
			}
			text := string(data)
			opt := PGNOptions{
				Evals:         strings.Contains(text, "[%eval"),
				Clocks:        strings.Contains(text, "[%clk"),
				EvalInComment: strings.Contains(text, " → "),
			}
			got := RenderPGN(a, opt) + "\n"
			if got != text {
				t.Errorf("render differs from Lichess's text at byte %d:\n got …%s…\nwant …%s…",
					firstDiff(got, text), around(got, firstDiff(got, text)), around(text, firstDiff(got, text)))
			}
		})
	}
}

func firstDiff(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

func around(s string, i int) string {
	lo, hi := max(0, i-80), min(len(s), i+80)
	return s[lo:hi]
}

func TestDerivedStatusComment(t *testing.T) {
	cases := map[string]string{
		"[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1":                                   "2. g4 Qh4# { Black wins by checkmate. } 0-1",
		"[Result \"1-0\"]\n[Termination \"Normal\"]\n\n1. e4 e5 1-0":                    "1. e4 e5 { Black resigns. } 1-0",
		"[Result \"1-0\"]\n[Termination \"Time forfeit\"]\n\n1. e4 { [%eval 0.3] } 1-0": "1. e4 { [%eval 0.3] } { White wins on time. } 1-0",
		"[Result \"1/2-1/2\"]\n\n1. e4 e5 1/2-1/2":                                      "1. e4 e5 { The game is a draw. } 1/2-1/2",
		"1. e4 e5 *": "1. e4 e5 *",
	}
	for src, want := range cases {
		games, errs := input.ReadPGN(strings.NewReader(src), "t.pgn")
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		var a *analysis.Analysis
		var err error
		if games[0].Lichess != nil {
			a, err = analysis.BuildLichess(games[0])
		} else {
			a, err = analysis.Build(games[0], make([]analysis.PlyEval, len(games[0].Moves)), "none")
		}
		if err != nil {
			t.Fatal(err)
		}
		got := RenderPGN(a, DefaultPGNOptions)
		if !strings.HasSuffix(got, want) {
			t.Errorf("%q: got %q, want suffix %q", src, got, want)
		}
	}
}
