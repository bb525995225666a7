package match

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/outpostchess/outpost/bots/board"

	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/uci"
)

// Opening is a start for a pair of games.
type Opening struct {
	Name     string
	StartFEN string   // "" = the standard start
	Moves    []string // UCI moves played from StartFEN
}

// Position returns the opening as an engine position.
func (o Opening) Position() engine.Position {
	return engine.Position{StartFEN: o.StartFEN, Moves: append([]string(nil), o.Moves...)}
}

// Bounds of the default ECO selection.
const (
	ecoMinPlies = 6
	ecoMaxPlies = 12
	// DefaultOpeningCount is the size of the default opening list.
	DefaultOpeningCount = 100
)

// ECOOpenings returns a fixed, deterministic list of DefaultOpeningCount
// openings from the ECO book shipped with notnil/chess: the book's lines of
// 6 to 12 plies, sorted by ECO code and name, taken at an even stride so
// that all ECO volumes (A–E) are represented. The list is generated
// (eco_book.go) and checked against the book by a test; callers get a copy.
func ECOOpenings() []Opening {
	src := ecoOpenings()
	out := make([]Opening, len(src))
	for i, o := range src {
		out[i] = Opening{Name: o.Name, StartFEN: o.StartFEN, Moves: append([]string(nil), o.Moves...)}
	}
	return out
}

// ecoOpenings is the read-only list behind ECOOpenings.
func ecoOpenings() []Opening { return ecoBook }

var moveNumber = regexp.MustCompile(`^\d+\.+`)

// ParseOpenings reads one opening per line: a FEN or EPD (the first four
// fields, plus the move counters when present; EPD operations are ignored),
// or a move list from the standard start in SAN ("1. e4 e5 2. Nf3") or UCI
// ("e2e4 e7e5"). Blank lines and lines starting with # or ; are skipped.
// Errors name the line.
func ParseOpenings(r io.Reader) ([]Opening, error) {
	var out []Opening
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' || line[0] == '[' {
			continue
		}
		o, err := parseOpeningLine(line)
		if err != nil {
			return nil, fmt.Errorf("match: openings line %d: %w", n, err)
		}
		o.Name = fmt.Sprintf("line %d", n)
		out = append(out, o)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("match: reading openings: %w", err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("match: no openings found")
	}
	return out, nil
}

func parseOpeningLine(line string) (Opening, error) {
	f := strings.Fields(line)
	if strings.Count(f[0], "/") == 7 {
		if len(f) < 4 {
			return Opening{}, fmt.Errorf("FEN %q has %d fields, want at least 4", line, len(f))
		}
		fen := strings.Join(f[:4], " ")
		if len(f) >= 6 && isDigits(f[4]) && isDigits(f[5]) {
			fen += " " + f[4] + " " + f[5]
		} else {
			fen += " 0 1"
		}
		o := Opening{StartFEN: fen}
		g, err := o.Position().Board()
		if err != nil {
			return Opening{}, fmt.Errorf("FEN %q: %w", fen, err)
		}
		if !g.HasLegalMoves() {
			return Opening{}, fmt.Errorf("FEN %q: the game is already over", fen)
		}
		return o, nil
	}
	g := board.New()
	var moves []string
	for _, tok := range f {
		tok = moveNumber.ReplaceAllString(tok, "")
		switch tok {
		case "", "1-0", "0-1", "1/2-1/2", "*":
			continue
		}
		var m board.Move
		var err error
		if uci.IsMove(tok) {
			m, err = g.ParseUCI(tok)
		} else {
			m, err = g.ParseSAN(tok)
		}
		if err != nil {
			return Opening{}, fmt.Errorf("move %q is not legal after %s", tok, strings.Join(moves, " "))
		}
		moves = append(moves, m.String())
		g.Make(m)
	}
	if len(moves) == 0 {
		return Opening{}, fmt.Errorf("%q is neither a FEN nor a move list", line)
	}
	if st := g.Status(); st == board.Checkmate || st == board.Stalemate || st == board.DrawInsufficient {
		return Opening{}, fmt.Errorf("the game is already over after %s", strings.Join(moves, " "))
	}
	return Opening{Moves: moves}, nil
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}
