package search

import (
	"strings"
	"testing"

	"github.com/outpostchess/outpost/bots/board"
)

// mirrorFEN flips the board vertically and swaps the colours, the side to
// move, castling rights and the en passant square.
func mirrorFEN(fen string) string {
	f := strings.Fields(fen)
	ranks := strings.Split(f[0], "/")
	for i, j := 0, len(ranks)-1; i < j; i, j = i+1, j-1 {
		ranks[i], ranks[j] = ranks[j], ranks[i]
	}
	swap := func(s string) string {
		return strings.Map(func(r rune) rune {
			switch {
			case r >= 'a' && r <= 'z':
				return r - 'a' + 'A'
			case r >= 'A' && r <= 'Z':
				return r - 'A' + 'a'
			}
			return r
		}, s)
	}
	f[0] = swap(strings.Join(ranks, "/"))
	f[1] = map[string]string{"w": "b", "b": "w"}[f[1]]
	if f[2] != "-" {
		c := swap(f[2])
		var out string
		for _, ch := range "KQkq" {
			if strings.ContainsRune(c, ch) {
				out += string(ch)
			}
		}
		f[2] = out
	}
	if f[3] != "-" {
		f[3] = string(f[3][0]) + string('1'+'8'-f[3][1])
	}
	return strings.Join(f, " ")
}

var evalFENs = []string{
	board.StartFEN,
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
	"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
	"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
	"8/8/4k3/8/8/3QK3/8/8 w - - 0 1",
	"8/5pk1/6p1/8/3P4/8/5PPP/6K1 b - - 0 1",
}

// TestEvalSymmetry: the evaluation from the side to move's view is the
// same in the colour-mirrored position (so White's view is negated).
func TestEvalSymmetry(t *testing.T) {
	for _, fen := range evalFENs {
		b, err := board.FromFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		m, err := board.FromFEN(mirrorFEN(fen))
		if err != nil {
			t.Fatalf("mirror of %s: %v", fen, err)
		}
		for _, kind := range []EvalKind{EvalSimple, EvalFull, EvalPlus} {
			if a, c := Evaluate(b, kind), Evaluate(m, kind); a != c {
				t.Errorf("kind %d: eval %d, mirrored %d for %s", kind, a, c, fen)
			}
		}
	}
}

func TestEvalSanity(t *testing.T) {
	ev := func(fen string, kind EvalKind) int {
		b, err := board.FromFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		return Evaluate(b, kind)
	}
	for _, kind := range []EvalKind{EvalSimple, EvalFull, EvalPlus} {
		if s := ev(board.StartFEN, kind); s < -30 || s > 30 {
			t.Errorf("kind %d: start position %d, want near 0", kind, s)
		}
		// An extra queen is worth roughly a queen.
		if s := ev("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", kind); s < 800 || s > 1200 {
			t.Errorf("kind %d: extra queen %d", kind, s)
		}
		// Same position, Black to move: the sign flips.
		if s := ev("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1", kind); s > -800 {
			t.Errorf("kind %d: extra queen seen by Black %d", kind, s)
		}
		// Insufficient material is a dead draw.
		if s := ev("8/8/4k3/8/8/3BK3/8/8 w - - 0 1", kind); s != 0 {
			t.Errorf("kind %d: KB v K %d", kind, s)
		}
	}
	// Hard knows a passed pawn on the seventh is worth far more than one at home.
	if a, b := ev("8/3P4/8/8/8/k7/8/K7 w - - 0 1", EvalFull), ev("8/8/8/8/8/k7/3P4/K7 w - - 0 1", EvalFull); a <= b+100 {
		t.Errorf("advanced passer %d vs home pawn %d", a, b)
	}
	// Hard penalises a broken king shelter.
	if a, b := ev("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", EvalFull), ev("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", EvalFull); a <= b {
		t.Errorf("sheltered king %d vs bare king %d", a, b)
	}
}

// TestEvalPlusTerms: what EvalPlus adds to EvalFull (plus − full, White to
// move) is larger in the position that has the feature than in the same
// position without it, by about the term's tapered value.
func TestEvalPlusTerms(t *testing.T) {
	plus := func(fen string) int {
		b, err := board.FromFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		return Evaluate(b, EvalPlus) - Evaluate(b, EvalFull)
	}
	for _, tc := range []struct {
		name, with, without string
		least               int
	}{
		// (Pawns on a2 and h7 keep drawish scaling out.)
		// e4 attacks the knight on d5 (threat by pawn, 50 mg / 35 eg) vs e3.
		{"threat by pawn", "4k3/7p/8/3n4/4P3/8/P7/4K3 w - - 0 1", "4k3/7p/8/3n4/8/4P3/P7/4K3 w - - 0 1", 25},
		// The e5 knight, defended by d4, with no black pawn on d/f able to
		// drive it (outpost, 25 / 15) vs a pawn on f7 that can.
		{"knight outpost", "4k3/p7/8/4N3/3P4/8/8/4K3 w - - 0 1", "4k3/5p2/8/4N3/3P4/8/8/4K3 w - - 0 1", 10},
		// A rook attacked by a bishop (threat by a lesser piece, 35 / 25).
		{"threat by lesser", "4k3/7p/2r5/8/8/5B2/P7/4K3 w - - 0 1", "4k3/7p/1r6/8/8/5B2/P7/4K3 w - - 0 1", 20},
		// The passer on e6 with the black king on a8 (far from e7) vs e8.
		{"king far from passer", "k7/8/4P3/8/8/8/8/4K3 w - - 0 1", "4k3/8/4P3/8/8/8/8/4K3 w - - 0 1", 30},
	} {
		if a, b := plus(tc.with), plus(tc.without); a-b < tc.least {
			t.Errorf("%s: plus terms %d with, %d without, want at least %d more", tc.name, a, b, tc.least)
		}
	}
}

func BenchmarkEvaluateFull(b *testing.B) {
	bd, _ := board.FromFEN(evalFENs[5])
	for b.Loop() {
		Evaluate(bd, EvalFull)
	}
}
