package report

import (
	"strings"
	"testing"
	"unicode"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/pgn"
)

// hasControl reports a control character other than a line end.
func hasControl(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return unicode.IsControl(r) && r != '\n' })
}

// twoPlies is e4 e5 with the given tags and comments, unanalysed.
func twoPlies(tags []analysis.Tag, initial, comment string) *analysis.Analysis {
	g := &analysis.Game{Tags: tags, Result: "*", Moves: []analysis.Move{{SAN: "e4", Comments: []string{comment}}, {SAN: "e5"}}}
	if initial != "" {
		g.Initial = []string{initial}
	}
	return &analysis.Analysis{Game: g, Plies: []analysis.Ply{{Ply: 1, SAN: "e4"}, {Ply: 2, SAN: "e5"}}}
}

// TestRenderPGNWritesNoControlCharacter: trial 19 (D6), a NUL in a tag
// value was written raw into `analyse --format pgn`; now every control
// character of a tag value or a comment is replaced (pgn.CleanText) and
// a '}' inside a comment cannot end it early.
func TestRenderPGNWritesNoControlCharacter(t *testing.T) {
	a := twoPlies([]analysis.Tag{{Name: "Event", Value: "t\x00x"}, {Name: "White", Value: "a\x00"}, {Name: "Result", Value: "*"}},
		"from a ; comment }", "a\x00b\nc")
	got := RenderPGN(a, PGNOptions{})
	want := "[Event \"t\uFFFDx\"]\n[White \"a\uFFFD\"]\n[Result \"*\"]\n\n{ from a ; comment ) }\n1. e4 { a\uFFFDb c } 1... e5 *"
	if got != want {
		t.Fatalf("got\n%q\nwant\n%q", got, want)
	}
}

// FuzzRenderPGN: whatever the tag values and comments, the PGN written
// holds no control character and re-parses to the same game: the tags and
// comments as pgn.CleanText (and CommentText) write them, the moves, the
// result.
func FuzzRenderPGN(f *testing.F) {
	f.Add("t\x00x", "a\x00", "b\tc", "{x}", "y\r\nz")
	f.Add(`"\`, "]", "[White \"x\"]", ";", "%")
	f.Add("", "\u0085", "\x7f", "}", "\xff\xfe")
	f.Fuzz(func(t *testing.T, event, white, black, initial, comment string) {
		tags := []analysis.Tag{{Name: "Event", Value: event}, {Name: "White", Value: white}, {Name: "Black", Value: black}}
		out := RenderPGN(twoPlies(tags, initial, comment), PGNOptions{}) + "\n"
		if hasControl(out) {
			t.Fatalf("control character in\n%q", out)
		}
		games, errs := pgn.Parse([]byte(out))
		if len(errs) > 0 || len(games) != 1 {
			t.Fatalf("re-parse of %q: %v, %d games", out, errs, len(games))
		}
		g := games[0]
		for _, tag := range tags {
			if v, _ := g.Tag(tag.Name); v != pgn.CleanText(tag.Value) {
				t.Fatalf("%s %q re-parsed as %q", tag.Name, tag.Value, v)
			}
		}
		if len(g.Moves) != 2 || g.Moves[0].SAN != "e4" || g.Moves[1].SAN != "e5" || g.Result != "*" {
			t.Fatalf("%q: game %+v", out, g)
		}
		if want := cleanComment(comment); strings.Join(g.Moves[0].Comments, "|") != want {
			t.Fatalf("%q: comment %q, want %q", out, g.Moves[0].Comments, want)
		}
		if want := cleanComment(initial); strings.Join(g.Initial, "|") != want {
			t.Fatalf("%q: initial %q, want %q", out, g.Initial, want)
		}
	})
}

// cleanComment is a comment as it reads back: written by CommentText,
// trimmed by the reader; an empty one is written as "{  }" and read as "".
func cleanComment(c string) string {
	return strings.Trim(pgn.CommentText(c), " \t\r\n")
}
