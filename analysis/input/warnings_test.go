package input

import (
	"strings"
	"testing"
)

// TestPGNWarningsReachTheGame: the reader's warnings of a game it kept (a
// missing result token, a control character in a tag value) come along
// with the game read, and WarningLines names the game by its index and
// players ("?" for a name the input lacks, control characters cleaned).
func TestPGNWarningsReachTheGame(t *testing.T) {
	const text = "[Event \"a\"]\n[White \"W\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n" +
		"[Event \"b\"]\n[White \"Al\x01ice\"]\n\n1. d4 d5\n"
	games, errs := ReadPGN(strings.NewReader(text), "w.pgn")
	if len(errs) != 0 || len(games) != 2 {
		t.Fatalf("games %d errors %v", len(games), errs)
	}
	if lines := games[0].WarningLines(); lines != nil {
		t.Errorf("a clean game warns %q", lines)
	}
	want := []string{
		"game 2 (Al\uFFFDice–?): line 9: tag White: value has control character U+0001 (written as U+FFFD)",
		"game 2 (Al\uFFFDice–?): no result token at the end of the movetext",
	}
	if got := games[1].WarningLines(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings\n%q\nwant\n%q", got, want)
	}
}
