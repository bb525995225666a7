package pgn

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// maxDepth bounds variation nesting.
const maxDepth = 64

// Reader reads games one at a time from PGN bytes.
type Reader struct {
	lx    *lexer
	index int
}

// NewReader returns a reader over data.
func NewReader(data []byte) *Reader { return &Reader{lx: newLexer(data)} }

// ReadAll reads every game of r through a Stream with the default limits.
// Games that fail to parse are reported in errs (each a *SyntaxError) and
// skipped; the others are kept. A read error or a *LimitError ends the
// input and is returned as the last element of errs.
func ReadAll(r io.Reader) (games []*Game, errs []error) {
	st := NewStream(r, Limits{})
	for {
		g, err := st.Next()
		if errors.Is(err, io.EOF) {
			return games, errs
		}
		var se *SyntaxError
		switch {
		case err == nil:
			games = append(games, g)
		case errors.As(err, &se):
			errs = append(errs, err)
		default:
			return games, append(errs, err)
		}
	}
}

// Parse parses every game in data; see ReadAll.
func Parse(data []byte) (games []*Game, errs []error) {
	rd := NewReader(data)
	for {
		g, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return games, errs
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		games = append(games, g)
	}
}

// errEmpty marks a "game" with neither tags nor moves (stray move numbers
// before a tag section): it is skipped, not the end of the input.
var errEmpty = errors.New("pgn: empty game")

// Next returns the next game, io.EOF at the end, or a *SyntaxError for a
// malformed game (the reader has then skipped to the next game).
func (rd *Reader) Next() (*Game, error) {
	for {
		g, err := rd.next()
		if !errors.Is(err, errEmpty) {
			return g, err
		}
		rd.index--
		if rd.lx.peek == nil && rd.lx.pos >= len(rd.lx.data) {
			return nil, io.EOF
		}
	}
}

func (rd *Reader) next() (*Game, error) {
	// skip stray comments between games
	var lead []string
	var t token
	var err error
	for {
		t, err = rd.lx.next()
		if err != nil {
			rd.index++
			return nil, rd.fail(&Game{Index: rd.index, Line: rd.lx.line}, err.Error(), rd.lx.line)
		}
		if t.kind != tComment {
			break
		}
		lead = append(lead, t.text)
	}
	if t.kind == tEOF {
		return nil, io.EOF
	}
	rd.index++
	g := &Game{Index: rd.index, Line: t.line}
	// tag section
	for t.kind == tLBracket {
		name, err := rd.lx.next()
		if err != nil {
			return nil, rd.fail(g, err.Error(), name.line)
		}
		if name.kind != tSymbol {
			return nil, rd.fail(g, "tag name expected after '['", t.line)
		}
		val, err := rd.lx.next()
		if err != nil {
			return nil, rd.fail(g, err.Error(), t.line)
		}
		if val.kind != tString {
			return nil, rd.fail(g, fmt.Sprintf("tag %s: quoted value expected", name.text), t.line)
		}
		end, err := rd.lx.next()
		if err != nil {
			return nil, rd.fail(g, err.Error(), t.line)
		}
		if end.kind != tRBracket {
			return nil, rd.fail(g, fmt.Sprintf("tag %s: ']' expected", name.text), t.line)
		}
		// a control character is kept (nothing is lost) and the writers
		// replace it (TagPair)
		if w := controlWarning(val.line, name.text, val.text); w != "" {
			g.Warnings = append(g.Warnings, w)
		}
		g.Tags = append(g.Tags, Tag{Name: name.text, Value: val.text})
		if t, err = rd.lx.next(); err != nil {
			return nil, rd.fail(g, err.Error(), rd.lx.line)
		}
	}
	g.Initial = lead
	rd.lx.unread(t)
	moves, result, err := rd.parseLine(g, 0)
	if err != nil {
		return nil, err
	}
	g.Moves = moves
	g.Result = result
	if result == "" {
		g.Warnings = append(g.Warnings, "no result token at the end of the movetext")
	}
	if len(g.Tags) == 0 && len(g.Moves) == 0 && result == "" && len(g.Initial) == 0 {
		return nil, errEmpty
	}
	return g, nil
}

func (rd *Reader) fail(g *Game, msg string, line int) error {
	msg = strings.TrimPrefix(msg, fmt.Sprintf("line %d: ", line))
	if i := strings.Index(msg, ": "); i > 0 && strings.HasPrefix(msg, "line ") {
		var l int
		if _, err := fmt.Sscanf(msg[:i], "line %d", &l); err == nil {
			line, msg = l, msg[i+2:]
		}
	}
	e := &SyntaxError{Index: g.Index, Game: g.Describe(), Line: line, Msg: msg}
	rd.lx.resync()
	return e
}

func isResult(s string) bool {
	switch s {
	case "1-0", "0-1", "1/2-1/2", "½-½", "*":
		return true
	}
	return false
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func suffixNAG(s string) (int, bool) {
	switch s {
	case "!":
		return 1, true
	case "?":
		return 2, true
	case "!!":
		return 3, true
	case "??":
		return 4, true
	case "!?":
		return 5, true
	case "?!":
		return 6, true
	}
	return 0, false
}

// parseLine parses moves until the result (depth 0), ')' (depth > 0), a new
// tag section or the end.
// Long: one case per token that may follow a move, a flat switch.
func (rd *Reader) parseLine(g *Game, depth int) ([]*Node, string, error) {
	var nodes []*Node
	var last *Node
	var pending []string // comments before the first move of a variation
	for {
		t, err := rd.lx.next()
		if err != nil {
			return nil, "", rd.fail(g, err.Error(), rd.lx.line)
		}
		switch t.kind {
		case tEOF:
			if depth > 0 {
				return nil, "", rd.fail(g, "variation never closed (missing ')')", t.line)
			}
			return nodes, "", nil
		case tComment:
			switch {
			case last != nil:
				last.Comments = append(last.Comments, t.text)
			case depth == 0:
				g.Initial = append(g.Initial, t.text)
			default:
				pending = append(pending, t.text)
			}
		case tLParen:
			if last == nil {
				return nil, "", rd.fail(g, "variation '(' before any move", t.line)
			}
			if depth+1 > maxDepth {
				return nil, "", rd.fail(g, "variations nested too deeply", t.line)
			}
			v, _, err := rd.parseLine(g, depth+1)
			if err != nil {
				return nil, "", err
			}
			last.Variations = append(last.Variations, v)
		case tRParen:
			if depth == 0 {
				return nil, "", rd.fail(g, "unexpected ')' outside a variation", t.line)
			}
			return nodes, "", nil
		case tNAG:
			if last == nil {
				return nil, "", rd.fail(g, fmt.Sprintf("NAG $%d before any move", t.nag), t.line)
			}
			last.NAGs = append(last.NAGs, t.nag)
		case tSuffix:
			n, ok := suffixNAG(t.text)
			if !ok {
				return nil, "", rd.fail(g, fmt.Sprintf("unknown move annotation %q", t.text), t.line)
			}
			if last == nil {
				return nil, "", rd.fail(g, fmt.Sprintf("annotation %q before any move", t.text), t.line)
			}
			last.NAGs = append(last.NAGs, n)
		case tPeriod:
			// move-number dots
		case tStar:
			if depth > 0 {
				return nil, "", rd.fail(g, "result '*' inside a variation", t.line)
			}
			return nodes, "*", nil
		case tLBracket:
			if depth > 0 {
				return nil, "", rd.fail(g, "'[' inside a variation", t.line)
			}
			// a new game's tags: this game had no result token
			rd.lx.unread(t)
			return nodes, "", nil
		case tRBracket, tString:
			return nil, "", rd.fail(g, fmt.Sprintf("unexpected %s in movetext", describeTok(t)), t.line)
		case tSymbol:
			switch {
			case isResult(t.text):
				if depth > 0 {
					return nil, "", rd.fail(g, fmt.Sprintf("result %q inside a variation", t.text), t.line)
				}
				res := t.text
				if res == "½-½" {
					res = "1/2-1/2"
				}
				return nodes, res, nil
			case isDigits(t.text):
				// move number
			default:
				if !looksLikeMove(t.text) {
					return nil, "", rd.fail(g, fmt.Sprintf("%q is not a move", t.text), t.line)
				}
				last = &Node{SAN: t.text, Line: t.line}
				if len(pending) > 0 {
					last.Comments = append(last.Comments, pending...)
					pending = nil
				}
				nodes = append(nodes, last)
			}
		}
	}
}

func describeTok(t token) string {
	switch t.kind {
	case tString:
		return fmt.Sprintf("string %q", t.text)
	case tRBracket:
		return "']'"
	}
	return fmt.Sprintf("token %q", t.text)
}

var moveRe = regexp.MustCompile(`^(?:[KQRBNP]?[a-h]?[1-8]?[x:-]?[a-h][1-8](?:=?[QRBN])?|O-O(?:-O)?|0-0(?:-0)?)[+#]?$`)

// looksLikeMove accepts SAN-shaped symbols and the null moves "--" and "Z0"
// (legality is checked later).
func looksLikeMove(s string) bool {
	return s == "--" || s == "Z0" || moveRe.MatchString(s)
}
