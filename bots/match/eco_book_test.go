package match

import (
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/notnil/chess/opening"
)

// TestECOBookMatchesNotnil checks the generated opening list (eco_book.go)
// against the ECO book of notnil/chess it was built from, and that every
// line replays.
func TestECOBookMatchesNotnil(t *testing.T) {
	want := buildECOOpenings()
	if len(ecoBook) != DefaultOpeningCount || !reflect.DeepEqual(ecoBook, want) {
		t.Fatalf("eco_book.go (%d lines) differs from notnil's book (%d lines): regenerate it", len(ecoBook), len(want))
	}
}

func buildECOOpenings() []Opening {
	book := opening.NewBookECO()
	all := book.Possible(nil)
	type cand struct {
		code, title string
		moves       []string
	}
	var cands []cand
	for _, o := range all {
		// notnil's book keeps the UCI column of its ECO table in PGN().
		moves := strings.Fields(o.PGN())
		if len(moves) < ecoMinPlies || len(moves) > ecoMaxPlies {
			continue
		}
		cands = append(cands, cand{o.Code(), o.Title(), moves})
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].code != cands[j].code {
			return cands[i].code < cands[j].code
		}
		if cands[i].title != cands[j].title {
			return cands[i].title < cands[j].title
		}
		return strings.Join(cands[i].moves, " ") < strings.Join(cands[j].moves, " ")
	})
	var out []Opening
	n := min(DefaultOpeningCount, len(cands))
	for i := range n {
		c := cands[i*len(cands)/n]
		o := Opening{Name: c.code + " " + c.title, Moves: c.moves}
		if _, err := o.Position().Board(); err != nil {
			continue // never expected: the book is well-formed
		}
		out = append(out, o)
	}
	return out
}

// TestSPRTOpeningsFile checks testdata/sprt-openings.txt, the openings of
// the SPRTs in docs/engines.md: it parses, it holds 1505 distinct lines of
// 8 to 14 plies, each a line of notnil's ECO book, and together they are
// all of the book's distinct lines of that length but those ending in mate.
func TestSPRTOpeningsFile(t *testing.T) {
	f, err := os.Open("testdata/sprt-openings.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := ParseOpenings(f)
	if err != nil {
		t.Fatal(err)
	}
	book := map[string]bool{}
	for _, o := range opening.NewBookECO().Possible(nil) {
		if moves := strings.Fields(o.PGN()); len(moves) >= 8 && len(moves) <= 14 {
			book[strings.Join(moves, " ")] = true
		}
	}
	seen := map[string]bool{}
	for _, o := range got {
		line := strings.Join(o.Moves, " ")
		if !book[line] || seen[line] {
			t.Errorf("%s: %q is not a new 8-14-ply line of the ECO book", o.Name, line)
		}
		seen[line] = true
	}
	for line := range book {
		if seen[line] {
			continue
		}
		if _, err := parseOpeningLine(line); err == nil {
			t.Errorf("book line %q (not over) is missing", line)
		}
	}
	if len(got) != 1505 {
		t.Errorf("%d openings, want 1505", len(got))
	}
}
