package maia1

import (
	"testing"

	"github.com/outpostchess/outpost/models/game"
)

// Chess960 positions with castling rights on both wings and castling among
// the legal moves: White king f1, rooks b1 and h1; Black king f8, rooks b8
// and g8.
const (
	white960 = "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3K1R w KQkq - 0 1"
	black960 = "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3K1R b KQkq - 0 1"
)

// TestMoveIndexChess960 checks that castling maps to lc0's king takes own
// rook, in the mover's view, whatever files king and rook start on.
func TestMoveIndexChess960(t *testing.T) {
	for _, c := range []struct {
		fen, move, want string
	}{
		{white960, "f1h1", "f1h1"}, // O-O: the king moves one file, the rook two
		{white960, "f1b1", "f1b1"}, // O-O-O
		{white960, "f1g1", "f1g1"}, // plain king move, not castling
		{white960, "f1e1", "f1e1"},
		{black960, "f8g8", "f1g1"}, // O-O: king f8→g8, rook g8→f8
		{black960, "f8b8", "f1b1"},
		{black960, "f8e8", "f1e1"},
	} {
		g, err := game.NewVariant(c.fen, nil, true)
		if err != nil {
			t.Fatal(err)
		}
		i, err := MoveIndex(g, c.move)
		if err != nil {
			t.Fatalf("%s in %s: %v", c.move, c.fen, err)
		}
		if PolicyMove(i) != c.want {
			t.Errorf("%s in %s: policy move %s, want %s", c.move, c.fen, PolicyMove(i), c.want)
		}
	}
}

// TestLegalIndexKingTakesRook: a king two files from its own rook already
// writes castling as king takes rook; it must not be taken for the king's
// move form (which sent f1h1 to f1a1).
func TestLegalIndexKingTakesRook(t *testing.T) {
	g, err := game.NewVariant(white960, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	i, err := LegalIndex(g.Current(), "f1h1")
	if err != nil {
		t.Fatal(err)
	}
	if PolicyMove(i) != "f1h1" {
		t.Errorf("f1h1: policy move %s, want f1h1", PolicyMove(i))
	}
}

// TestDecodeChess960 gives every legal move of a Chess960 position a
// probability, castling included: the logit of O-O's policy output goes to
// f1h1.
func TestDecodeChess960(t *testing.T) {
	g, err := game.NewVariant(white960, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	logits := make([]float32, PolicySize)
	logits[PolicyIndex(5, 7, PromoNone)] = 10 // f1h1
	probs, err := Decode(g, logits)
	if err != nil {
		t.Fatal(err)
	}
	if len(probs) != len(g.LegalMoves()) {
		t.Fatalf("%d probabilities for %d legal moves", len(probs), len(g.LegalMoves()))
	}
	if probs[0].UCI != "f1h1" || probs[0].P < 0.9 {
		t.Errorf("best %s %.3f, want f1h1 above 0.9", probs[0].UCI, probs[0].P)
	}
}

// TestEncodeChess960Castling: the four castling planes carry the Chess960
// rights, ours and theirs from the mover's view.
func TestEncodeChess960Castling(t *testing.T) {
	for _, c := range []struct {
		name, fen string
		want      [4]bool // our queen side, our king side, their queen side, their king side
	}{
		{"all, White to move", white960, [4]bool{true, true, true, true}},
		{"White's king side and Black's queen side, White to move", "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3K1R w Hb - 0 1", [4]bool{false, true, true, false}},
		{"same rights, Black to move", "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3K1R b Hb - 0 1", [4]bool{true, false, false, true}},
		{"Black's king side only, Black to move", "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3K1R b g - 0 1", [4]bool{false, true, false, false}},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := game.NewVariant(c.fen, nil, true)
			if err != nil {
				t.Fatal(err)
			}
			dst := make([]float32, InputSize)
			if err := Encode(g, dst); err != nil {
				t.Fatal(err)
			}
			for k, plane := range []int{planeOurQueenside, planeOurKingside, planeTheirQueenside, planeTheirKingside} {
				for sq := 0; sq < PlaneSize; sq++ {
					if got := dst[plane*PlaneSize+sq] == 1; got != c.want[k] {
						t.Fatalf("plane %d square %d: %v, want %v", plane, sq, got, c.want[k])
					}
				}
			}
		})
	}
}
