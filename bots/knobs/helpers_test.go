package knobs

import (
	"math"
	"testing"

	"github.com/outpostchess/outpost/bots/engine"
)

// line plays moves from fen with cfg and returns the line's engine-centric
// breakdown together with the searcher that built it. The engine is the
// side to move in fen.
func line(t *testing.T, cfg Config, fen string, moves ...string) (Breakdown, *searcher) {
	t.Helper()
	p := newParams(cfg)
	g, err := parsePosition(p, engine.Position{StartFEN: fen})
	if err != nil {
		t.Fatal(err)
	}
	s := &searcher{p: p, lc: lineContext{p: p, engine: colorIndex(g.root.pos.SideToMove()), root: g.root.feat}, hist: g.hist}
	n := g.root
	for _, u := range moves {
		var found bool
		for _, m := range n.pos.LegalMoves() {
			if m.String() == u {
				var rec plyRecord
				n, rec = s.child(n, m)
				s.path = append(s.path, rec)
				found = true
				break
			}
		}
		if !found {
			t.Fatalf("move %s illegal in %s", u, n.pos.FEN())
		}
	}
	term := termNone
	if len(n.pos.LegalMoves()) == 0 {
		term = termDraw
		if n.feat[colorIndex(n.pos.SideToMove())].inCheck {
			term = termMate
		}
	}
	return s.lc.score(&n.feat, s.path, colorIndex(n.pos.SideToMove()), term), s
}

// measureFEN returns the features of a FEN position.
func measureFEN(t *testing.T, cfg Config, fen string) features {
	t.Helper()
	p := newParams(cfg)
	g, err := parsePosition(p, engine.Position{StartFEN: fen})
	if err != nil {
		t.Fatal(err)
	}
	return g.root.feat
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

func approx(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func engineFEN(fen string) engine.Position { return engine.Position{StartFEN: fen} }

// lineCase is one row of a table that plays moves from fen, with the
// defaults changed by set when it is not nil, and expects want of one
// component of the line's breakdown.
type lineCase struct {
	name  string
	fen   string
	moves []string
	set   func(*Config)
	want  float64
}

// checkLines plays every case and compares the component that get picks
// from the breakdown, naming it component in a failure.
func checkLines(t *testing.T, component string, get func(Breakdown) float64, cases []lineCase) {
	t.Helper()
	for _, tt := range cases {
		c := Defaults()
		if tt.set != nil {
			tt.set(&c)
		}
		b, _ := line(t, c, tt.fen, tt.moves...)
		if got := get(b); !near(got, tt.want) {
			t.Errorf("%s: %s = %g, want %g", tt.name, component, got, tt.want)
		}
	}
}
