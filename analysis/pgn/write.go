package pgn

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Writing PGN: every writer of Outpost (the analysis report, match games,
// the sandbox's exports) writes tag pairs with TagPair and comments with
// CommentText, so that no control character reaches a PGN. The export
// format allows none in a tag value (and a comment on one line needs
// none); the reader keeps such a value as it is, with a warning, and the
// writer replaces each control character: tab, line feed, carriage
// return, vertical tab and form feed by a space, every other one (C0,
// DEL, C1) by U+FFFD, the replacement character. Bytes that are not UTF-8
// are written as they are.

// replacement is what a control character other than white space becomes.
const replacement = '\uFFFD'

// cleanRune returns what r is written as: r itself, a space or U+FFFD.
func cleanRune(r rune) rune {
	switch {
	case r == utf8.RuneError || !unicode.IsControl(r):
		return r
	case r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f':
		return ' '
	}
	return replacement
}

// CleanText returns s with each control character replaced: white space
// (tab, line ends, vertical tab, form feed) by a space, any other (C0,
// DEL, C1) by U+FFFD. Other bytes, UTF-8 or not, are kept.
func CleanText(s string) string {
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	var b strings.Builder
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		if r == utf8.RuneError {
			b.WriteString(s[:n]) // a byte that is not UTF-8, as it was
		} else {
			b.WriteRune(cleanRune(r))
		}
		s = s[n:]
	}
	return b.String()
}

func isControl(r rune) bool { return r != utf8.RuneError && unicode.IsControl(r) }

// EscapeTagValue returns s ready to write between a tag pair's quotes:
// control characters replaced (CleanText), then \ and " escaped.
func EscapeTagValue(s string) string {
	s = strings.ReplaceAll(CleanText(s), `\`, `\\`)
	return strings.ReplaceAll(s, `"`, `\"`)
}

// TagPair returns the tag pair [name "value"] with the value escaped
// (EscapeTagValue), without a line end. name must be a PGN symbol (the
// reader's tag names are).
func TagPair(name, value string) string {
	return "[" + name + ` "` + EscapeTagValue(value) + `"]`
}

// CommentText returns c ready to write between { and }: control
// characters replaced (CleanText) and '}', which would end the comment
// early (a ';' comment may hold one), written as ')'.
func CommentText(c string) string {
	return strings.ReplaceAll(CleanText(c), "}", ")")
}

// controlWarning describes the control characters of tag name's value, or
// returns "" when it has none.
func controlWarning(line int, name, value string) string {
	n, first := 0, rune(0)
	for _, r := range value {
		if isControl(r) {
			if n == 0 {
				first = r
			}
			n++
		}
	}
	if n == 0 {
		return ""
	}
	as := "U+FFFD"
	if cleanRune(first) == ' ' {
		as = "a space"
	}
	what := fmt.Sprintf("control character %U", first)
	if n > 1 {
		what = fmt.Sprintf("%d control characters, the first %U", n, first)
	}
	return fmt.Sprintf("line %d: tag %s: value has %s (written as %s)", line, name, what, as)
}
