package input

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/outpostchess/outpost/analysis"
)

const sharedGames = "../../../shared/lichess-games"

// sharedFiles returns the shared Lichess games (skipping when absent).
func sharedFiles(t testing.TB, pattern string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(sharedGames, pattern))
	if err != nil || len(files) == 0 {
		t.Skipf("shared Lichess games not found in %s", sharedGames)
	}
	return files
}

func readShared(t *testing.T, path string) []*analysis.Game {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var games []*analysis.Game
	var errs []error
	if strings.HasSuffix(path, ".json") {
		games, errs = ReadJSON(f, filepath.Base(path))
	} else {
		games, errs = ReadPGN(f, filepath.Base(path))
	}
	for _, e := range errs {
		t.Errorf("%s: %v", path, e)
	}
	if len(games) == 0 {
		t.Fatalf("%s: no games", path)
	}
	return games
}

// TestLichessEvalsReproduceLichess proves that, given Lichess's own evals,
// our rules reproduce every Lichess judgement of the shared games exactly
// (name, NAG, "(a → b)" numbers, mate texts, best move), and Lichess's
// ACPL, accuracy and counts where the input states them.
func TestLichessEvalsReproduceLichess(t *testing.T) {
	files := append(sharedFiles(t, "*.pgn"), sharedFiles(t, "json/*.json")...)
	total, stated := 0, 0
	for _, path := range files {
		for _, g := range readShared(t, path) {
			name := filepath.Base(path)
			if g.Lichess == nil {
				t.Fatalf("%s: no Lichess analysis found", name)
			}
			a, err := analysis.BuildLichess(g)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for i, lp := range g.Lichess.Plies {
				p := a.Plies[i]
				where := name + " ply " + p.SAN
				if p.Judgement != lp.Judgement {
					t.Errorf("%s %d: judgement %q, Lichess %q", where, i+1, p.Judgement, lp.Judgement)
					continue
				}
				if lp.Judgement == analysis.NoJudgement {
					continue
				}
				total++
				if p.NAG != lp.Judgement.NAG() {
					t.Errorf("%s: NAG %q", where, p.NAG)
				}
				if p.Verdict().Mate != lp.Mate {
					t.Errorf("%s: mate case %v, Lichess %v", where, p.Verdict().Mate, lp.Mate)
				}
				// the comment as Lichess wrote it: literate with (a → b)
				// when the input had it, else the JSON form; older
				// exports say "Best move was X."
				want := strings.Replace(lp.Comment, "Best move was ", "", 1)
				got := p.LiterateComment(strings.HasPrefix(lp.Comment, "("))
				if strings.Contains(lp.Comment, "Best move was ") {
					got = strings.Replace(got, " was best.", ".", 1)
				}
				if got != want {
					t.Errorf("%s: comment\n got %q\nwant %q", where, got, lp.Comment)
				}
				if lp.BestSAN != "" && (p.BestSAN == nil || *p.BestSAN != lp.BestSAN) {
					t.Errorf("%s: best move %v, Lichess %q", where, p.BestSAN, lp.BestSAN)
				}
			}
			stated += checkStated(t, name+" white", a.Players.White, g.Lichess.White)
			stated += checkStated(t, name+" black", a.Players.Black, g.Lichess.Black)
		}
	}
	// every judgement comment of the inputs: 109 in the PGNs with [%eval]
	// ("was best"), 24 in eOXqcPAS.pgn (a literate export: the evals stand
	// in its judgement comments) and 29 in the JSON exports
	if total != 162 {
		t.Errorf("checked %d Lichess judgements, want 162", total)
	}
	// stated figures: CCW6EEru.pgn (ACPL, counts), both JSON exports
	// (ACPL, counts; q7ZvsdUF also accuracy) = 3 games x 2 players + 2 accuracies
	if stated != 8 {
		t.Errorf("checked %d stated figures, want 8", stated)
	}
	t.Logf("reproduced %d Lichess judgements and %d stated figures", total, stated)
}

func checkStated(t *testing.T, who string, p analysis.Player, s *analysis.StatedFigures) int {
	t.Helper()
	if s == nil {
		return 0
	}
	n := 1
	if s.ACPL != nil && (p.ACPL == nil || *p.ACPL != *s.ACPL) {
		t.Errorf("%s: ACPL %v, Lichess %d", who, deref(p.ACPL), *s.ACPL)
	}
	if s.Accuracy != nil {
		n++
		if p.Accuracy == nil || *p.Accuracy != *s.Accuracy {
			t.Errorf("%s: accuracy %v, Lichess %d", who, deref(p.Accuracy), *s.Accuracy)
		}
	}
	if p.Inaccuracy != s.Inaccuracy || p.Mistake != s.Mistake || p.Blunder != s.Blunder {
		t.Errorf("%s: counts %d/%d/%d, Lichess %d/%d/%d", who, p.Inaccuracy, p.Mistake, p.Blunder, s.Inaccuracy, s.Mistake, s.Blunder)
	}
	return n
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}
