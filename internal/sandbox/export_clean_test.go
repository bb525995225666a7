package sandbox

import (
	"strings"
	"testing"
	"unicode"

	"github.com/outpostchess/outpost/analysis/pgn"
)

// TestExportPGNWritesNoControlCharacter: the export writes tag values and
// judgement comments through analysis/pgn (TagPair, CommentText), so a
// control character or a '}' from a name or an attached analysis never
// reaches the PGN (trial 19, D6; strconv.Quote wrote "\x00", which PGN
// reads as "x00").
func TestExportPGNWritesNoControlCharacter(t *testing.T) {
	e, _, id := playedGame(t)
	an := foolsAnalysis()
	an.Moves[2].Judgment.Comment = "Checkmate\x00 is now } unavoidable.\n"
	if err := e.srv.AttachAnalysis(id, an); err != nil {
		t.Fatal(err)
	}
	e.srv.mu.Lock()
	e.srv.games[id].players[white].Name = "Al\x00ice"
	e.srv.mu.Unlock()
	code, b := e.do("", "GET", "/game/export/"+id+"?literate=true", nil)
	out := string(b)
	if code != 200 {
		t.Fatalf("%d %s", code, b)
	}
	if strings.ContainsFunc(out, func(r rune) bool { return unicode.IsControl(r) && r != '\n' }) {
		t.Fatalf("control character in\n%q", out)
	}
	for _, want := range []string{"[White \"Al\uFFFDice\"]", "Checkmate\uFFFD is now ) unavoidable."} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	games, errs := pgn.Parse(b)
	if len(errs) > 0 || len(games) != 1 || len(games[0].Moves) != 4 || games[0].Result != "0-1" {
		t.Fatalf("re-parse: %v, %d games", errs, len(games))
	}
}
