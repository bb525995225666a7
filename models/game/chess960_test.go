package game

import (
	"slices"
	"strings"
	"testing"
)

// A Chess960 position with every castling right and castling legal on both
// wings for White: king f1, rooks b1 and h1 (king-side castling moves the
// king one file, from f1 to g1, which the king's-move form would confuse
// with a plain king move); Black: king f8, rooks b8 and g8.
const (
	fen960XFEN     = "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3K1R w KQkq - 0 1"
	fen960Shredder = "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3K1R w HBgb - 0 1"
)

func TestNewChess960Castling(t *testing.T) {
	for _, c := range []struct {
		name     string
		fen      string
		chess960 bool
	}{
		{"X-FEN, Chess960 said", fen960XFEN, true},
		{"Shredder-FEN, detected", fen960Shredder, false},
		{"Shredder-FEN, Chess960 said", fen960Shredder, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := NewVariant(c.fen, nil, c.chess960)
			if err != nil {
				t.Fatal(err)
			}
			if !g.Chess960 || g.Standard {
				t.Errorf("Chess960 %v, Standard %v; want true, false", g.Chess960, g.Standard)
			}
			if g.Current().Castle != [4]bool{true, true, true, true} {
				t.Errorf("castling rights %v, want all four", g.Current().Castle)
			}
			legal := g.LegalMoves()
			for _, m := range []string{"f1h1", "f1b1", "f1g1", "f1e1"} {
				if !slices.Contains(legal, m) {
					t.Errorf("%s missing from the legal moves %v", m, legal)
				}
			}
			for _, c := range []struct {
				move         string
				rook, kingTo int
				castle       bool
			}{
				{"f1h1", 7, 6, true},  // O-O: king f1→g1, rook h1→f1
				{"f1b1", 1, 2, true},  // O-O-O: king f1→c1, rook b1→d1
				{"f1g1", 0, 0, false}, // the plain king move to g1
				{"f1e1", 0, 0, false},
				{"b1a1", 0, 0, false},
			} {
				rook, kingTo, ok := g.Castling(c.move)
				if ok != c.castle || rook != c.rook || kingTo != c.kingTo {
					t.Errorf("Castling(%s) = %d, %d, %v; want %d, %d, %v", c.move, rook, kingTo, ok, c.rook, c.kingTo, c.castle)
				}
			}
		})
	}
}

func TestNewChess960Moves(t *testing.T) {
	for _, c := range []struct {
		name  string
		moves []string
		want  []string // as Game.Moves stores them
		king  int      // white king's square after the moves
		rook  Piece    // what stands on f1 (king side) or d1 (queen side)
		at    int
	}{
		{"king takes rook, king side", []string{"f1h1"}, []string{"f1h1"}, 6, WR, 5},
		{"king takes rook, queen side", []string{"f1b1"}, []string{"f1b1"}, 2, WR, 3},
		{"king's move form, queen side", []string{"f1c1"}, []string{"f1b1"}, 2, WR, 3},
		{"plain king move", []string{"f1g1"}, []string{"f1g1"}, 6, Empty, 5},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := NewVariant(fen960XFEN, c.moves, true)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(g.Moves, c.want) {
				t.Errorf("moves %v, want %v", g.Moves, c.want)
			}
			cur := g.Current()
			if cur.Board[c.king] != WK || cur.Board[c.at] != c.rook {
				t.Errorf("after %v: %v on the king's square %d, %v on %d", c.moves, cur.Board[c.king], c.king, cur.Board[c.at], c.at)
			}
			if cur.Castle[WhiteKingside] || cur.Castle[WhiteQueenside] || !cur.Castle[BlackKingside] || !cur.Castle[BlackQueenside] {
				t.Errorf("castling rights after a king move %v", cur.Castle)
			}
		})
	}
}

// A Chess960 start given as X-FEN is not a standard position: New says
// why instead of dropping the castling rights.
func TestNewChess960AsStandard(t *testing.T) {
	_, err := New(fen960XFEN, nil)
	if err == nil || !strings.Contains(err.Error(), "castling") {
		t.Errorf("New of a Chess960 X-FEN as standard chess: %v, want a castling error", err)
	}
}

// Standard chess accepts castling written king takes rook (as Lichess
// does) and stores it as the king's move.
func TestNewStandardKingTakesRook(t *testing.T) {
	g, err := New("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", []string{"e1h1", "e8a8"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(g.Moves, []string{"e1g1", "e8c8"}) || g.Chess960 {
		t.Errorf("moves %v (Chess960 %v), want [e1g1 e8c8] in standard chess", g.Moves, g.Chess960)
	}
}
