package pgn

import (
	"fmt"
	"strconv"
)

type tokKind int

const (
	tEOF tokKind = iota
	tSymbol
	tString
	tComment
	tPeriod
	tSuffix // !, ?, !?, ?!, !!, ??
	tNAG
	tLParen
	tRParen
	tLBracket
	tRBracket
	tStar
)

type token struct {
	kind tokKind
	text string
	nag  int
	line int
}

// lexer splits PGN bytes into tokens, tracking lines.
type lexer struct {
	data []byte
	pos  int
	line int
	peek *token
}

func newLexer(data []byte) *lexer {
	if len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF {
		data = data[3:]
	}
	return &lexer{data: data, line: 1}
}

func isSymbolChar(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	switch c {
	case '_', '+', '#', '=', ':', '-', '/':
		return true
	}
	return false
}

// punctuation is the kind of the one-character token c, or tEOF when c is
// not one.
func punctuation(c byte) tokKind {
	switch c {
	case '.':
		return tPeriod
	case '(':
		return tLParen
	case ')':
		return tRParen
	case '[':
		return tLBracket
	case ']':
		return tRBracket
	case '*':
		return tStar
	}
	return tEOF
}

func (l *lexer) unread(t token) { l.peek = &t }

// next returns the next token; a lexical error carries the line.
// Long: one case per PGN token kind, a flat switch.
func (l *lexer) next() (token, error) {
	if l.peek != nil {
		t := *l.peek
		l.peek = nil
		return t, nil
	}
	for l.pos < len(l.data) {
		c := l.data[l.pos]
		switch {
		case c == '\n':
			l.line++
			l.pos++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			l.pos++
		case c == '%' && (l.pos == 0 || l.data[l.pos-1] == '\n'):
			l.skipLine()
		case c == ';':
			start, line := l.pos+1, l.line
			l.skipLine()
			end := l.pos
			if end > start && l.data[end-1] == '\n' {
				end--
			}
			return token{kind: tComment, text: trimSpace(string(l.data[start:end])), line: line}, nil
		case c == '{':
			line := l.line
			start := l.pos + 1
			i := start
			for i < len(l.data) && l.data[i] != '}' {
				if l.data[i] == '\n' {
					l.line++
				}
				i++
			}
			if i >= len(l.data) {
				l.pos, l.line = start, line
				return token{}, fmt.Errorf("line %d: comment never closed (missing '}')", line)
			}
			l.pos = i + 1
			return token{kind: tComment, text: trimSpace(string(l.data[start:i])), line: line}, nil
		case c == '"':
			return l.lexString()
		case punctuation(c) != tEOF:
			l.pos++
			return token{kind: punctuation(c), text: string(c), line: l.line}, nil
		case c == '!' || c == '?':
			start := l.pos
			for l.pos < len(l.data) && (l.data[l.pos] == '!' || l.data[l.pos] == '?') {
				l.pos++
			}
			return token{kind: tSuffix, text: string(l.data[start:l.pos]), line: l.line}, nil
		case c == '$':
			start := l.pos + 1
			i := start
			for i < len(l.data) && l.data[i] >= '0' && l.data[i] <= '9' {
				i++
			}
			l.pos = i
			n, err := strconv.Atoi(string(l.data[start:i]))
			if err != nil || n > 255 {
				return token{}, fmt.Errorf("line %d: bad NAG %q", l.line, "$"+string(l.data[start:i]))
			}
			return token{kind: tNAG, nag: n, line: l.line}, nil
		case c == '<':
			// reserved for future expansion: skip to '>'
			for l.pos < len(l.data) && l.data[l.pos] != '>' {
				if l.data[l.pos] == '\n' {
					l.line++
				}
				l.pos++
			}
			l.pos++
		case isSymbolChar(c):
			start := l.pos
			for l.pos < len(l.data) && isSymbolChar(l.data[l.pos]) {
				l.pos++
			}
			return token{kind: tSymbol, text: string(l.data[start:l.pos]), line: l.line}, nil
		default:
			l.pos++
			return token{}, fmt.Errorf("line %d: unexpected character %q", l.line, rune(c))
		}
	}
	return token{kind: tEOF, line: l.line}, nil
}

func (l *lexer) lexString() (token, error) {
	line := l.line
	l.pos++ // opening quote
	var b []byte
	for l.pos < len(l.data) {
		c := l.data[l.pos]
		switch c {
		case '\\':
			if l.pos+1 < len(l.data) {
				if l.data[l.pos+1] == '\n' {
					l.line++
				}
				b = append(b, l.data[l.pos+1])
				l.pos += 2
				continue
			}
			l.pos++
		case '"':
			l.pos++
			return token{kind: tString, text: string(b), line: line}, nil
		case '\n':
			return token{}, fmt.Errorf("line %d: string never closed (missing '\"')", line)
		default:
			b = append(b, c)
			l.pos++
		}
	}
	return token{}, fmt.Errorf("line %d: string never closed (missing '\"')", line)
}

func (l *lexer) skipLine() {
	for l.pos < len(l.data) && l.data[l.pos] != '\n' {
		l.pos++
	}
	if l.pos < len(l.data) {
		l.pos++
		l.line++
	}
}

// resync moves to the start of the next line that begins a tag section
// ('[' followed by a letter) after a blank line, or to the end.
func (l *lexer) resync() {
	l.peek = nil
	// go to the start of the next line
	l.skipLine()
	prevBlank := false
	for l.pos < len(l.data) {
		end := l.pos
		for end < len(l.data) && l.data[end] != '\n' {
			end++
		}
		lineText := trimSpace(string(l.data[l.pos:end]))
		if prevBlank && len(lineText) > 1 && lineText[0] == '[' && isLetter(lineText[1]) {
			return
		}
		prevBlank = lineText == ""
		l.skipLine()
	}
}

func isLetter(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }

func trimSpace(s string) string {
	i, j := 0, len(s)
	for i < j && isSpace(s[i]) {
		i++
	}
	for j > i && isSpace(s[j-1]) {
		j--
	}
	return s[i:j]
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
