package pgn

import (
	"strings"
	"testing"
	"unicode"
)

// TestTagPair: a tag pair is written with \ and " escaped and no control
// character (trial 19, D6: a NUL of the input was written raw).
func TestTagPair(t *testing.T) {
	tests := []struct {
		name, value, want string
	}{
		{"plain", "Casual Rapid game", `[Event "Casual Rapid game"]`},
		{"quote and backslash", `a "b" c\d`, `[Event "a \"b\" c\\d"]`},
		{"NUL", "t\x00x", "[Event \"t\uFFFDx\"]"},
		{"other C0 and DEL", "a\x01b\x1bc\x7fd", "[Event \"a\uFFFDb\uFFFDc\uFFFDd\"]"},
		{"C1", "a\u0085b\u009fc", "[Event \"a\uFFFDb\uFFFDc\"]"},
		{"tab and line ends become spaces", "a\tb\nc\r\nd\ve\ff", `[Event "a b c  d e f"]`},
		{"non-ASCII kept", "Réti–Nimzowitsch ♞", `[Event "Réti–Nimzowitsch ♞"]`},
		{"bytes that are not UTF-8 kept", "Caf\xe9", "[Event \"Caf\xe9\"]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := TagPair("Event", tt.value); got != tt.want {
				t.Errorf("TagPair(%q) = %q, want %q", tt.value, got, tt.want)
			}
		})
	}
}

// TestCommentText: a comment is written without control characters and
// without a '}', which would end it early (a ';' comment may hold one).
func TestCommentText(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "[%eval 0.25] [%clk 0:01:00]", "[%eval 0.25] [%clk 0:01:00]"},
		{"NUL", "a\x00b", "a\uFFFDb"},
		{"lines joined", "first line\nsecond line", "first line second line"},
		{"closing brace", "see {this}", "see {this)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CommentText(tt.in); got != tt.want {
				t.Errorf("CommentText(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestControlCharacterInTagKeepsTheGame: the reader keeps a game whose tag
// value holds a control character, with the value as read, and warns
// naming the line and the tag (nothing is lost; the writer replaces it).
func TestControlCharacterInTagKeepsTheGame(t *testing.T) {
	src := "[Event \"t\x00x\"]\n[White \"a\x00\"]\n[Result \"*\"]\n\n1. e4 e5 *\n"
	games, errs := Parse([]byte(src))
	if len(errs) > 0 || len(games) != 1 {
		t.Fatalf("errs %v, %d games; want the game kept", errs, len(games))
	}
	g := games[0]
	if v, _ := g.Tag("Event"); v != "t\x00x" {
		t.Errorf("Event %q, want the value as read", v)
	}
	want := []string{
		`line 1: tag Event: value has control character U+0000 (written as U+FFFD)`,
		`line 2: tag White: value has control character U+0000 (written as U+FFFD)`,
	}
	if strings.Join(g.Warnings, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings %q, want %q", g.Warnings, want)
	}
}

// TestEscapedNewlineCountsTheLine: a backslash before a line end inside a
// tag value still counts the line, so later lines are named right.
func TestEscapedNewlineCountsTheLine(t *testing.T) {
	src := "[Event \"a\\\nb\"]\n\n1. e4 Kx9 *\n"
	_, errs := Parse([]byte(src))
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "line 4:") {
		t.Fatalf("errs %v, want one naming line 4", errs)
	}
}

// hasControl reports a control character other than the line ends a
// writer puts between tag pairs and lines.
func hasControl(s string) bool {
	for _, r := range s {
		if unicode.IsControl(r) && r != '\n' {
			return true
		}
	}
	return false
}

// FuzzTagPair: whatever the value, the tag pair re-parses to the value
// without its control characters (CleanText) and holds none itself.
func FuzzTagPair(f *testing.F) {
	for _, s := range []string{"", "t\x00x", `a "b" \c\`, "a\tb\r\nc", "\u0085", "Caf\xe9", `\`, `"`, "]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, value string) {
		pair := TagPair("Event", value)
		if hasControl(pair) || strings.Contains(pair, "\n") {
			t.Fatalf("TagPair(%q) = %q holds a control character", value, pair)
		}
		games, errs := Parse([]byte(pair + "\n[White \"x\"]\n\n1. e4 *\n"))
		if len(errs) > 0 || len(games) != 1 {
			t.Fatalf("%q: re-parse: %v, %d games", pair, errs, len(games))
		}
		g := games[0]
		if got, _ := g.Tag("Event"); got != CleanText(value) {
			t.Fatalf("%q: re-parsed %q, want %q", pair, got, CleanText(value))
		}
		if w, _ := g.Tag("White"); w != "x" || len(g.Moves) != 1 || g.Result != "*" || len(g.Warnings) != 0 {
			t.Fatalf("%q: game %+v", pair, g)
		}
	})
}
