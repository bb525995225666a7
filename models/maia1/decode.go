package maia1

import (
	"fmt"

	"github.com/outpostchess/outpost/models/game"
)

// LegalIndex maps a legal move in standard UCI (e1g1 for castling) of the
// game's final position to its policy index, or an error if the move cannot
// be expressed.
func LegalIndex(cur *game.Snapshot, uci string) (int, error) {
	from, to, promo, err := parseUCI(uci)
	if err != nil {
		return -1, err
	}
	p := cur.Board[from]
	if p.Kind() == 5 && abs(to%8-from%8) == 2 && to/8 == from/8 && !ownRook(cur, p, to) {
		// Castling written as the king's move: lc0 writes king takes own
		// rook. (A Chess960 king two files from its rook already does.)
		if to%8 == 6 {
			to = from/8*8 + 7
		} else {
			to = from / 8 * 8
		}
	}
	if !cur.WhiteToMove {
		from, to = from^56, to^56
	}
	i := PolicyIndex(from, to, promo)
	if i < 0 {
		return -1, fmt.Errorf("maia1: move %q has no policy output", uci)
	}
	return i, nil
}

// Decode turns the 1858 policy logits of g's final position into the legal
// moves' probabilities (softmax over legal moves only, temperature 1),
// sorted by decreasing probability.
func Decode(g *game.Game, logits []float32) ([]game.MoveProb, error) {
	if len(logits) != PolicySize {
		return nil, fmt.Errorf("maia1: %d policy logits, want %d", len(logits), PolicySize)
	}
	return game.SoftmaxLegal(g.LegalMoves(), logits, func(m string) (int, error) { return MoveIndex(g, m) })
}

// MoveIndex maps a legal move of g's final position, written as
// g.LegalMoves writes it, to its policy index. Castling becomes king takes
// own rook from the game's own knowledge of the castling rook, so Chess960
// castling (king and rook on any files) maps right.
func MoveIndex(g *game.Game, uci string) (int, error) {
	if rook, _, ok := g.Castling(uci); ok {
		from, _, _, err := parseUCI(uci)
		if err != nil {
			return -1, err
		}
		to := rook
		if !g.Current().WhiteToMove {
			from, to = from^56, to^56
		}
		if i := PolicyIndex(from, to, PromoNone); i >= 0 {
			return i, nil
		}
		return -1, fmt.Errorf("maia1: castling %q has no policy output", uci)
	}
	return LegalIndex(g.Current(), uci)
}

// ownRook reports whether square sq holds a rook of king's colour.
func ownRook(cur *game.Snapshot, king game.Piece, sq int) bool {
	p := cur.Board[sq]
	return p.Kind() == 3 && p.White() == king.White()
}

func parseUCI(s string) (from, to, promo int, err error) {
	if len(s) < 4 || len(s) > 5 {
		return 0, 0, 0, fmt.Errorf("maia1: bad move %q", s)
	}
	sq := func(f, r byte) int {
		if f < 'a' || f > 'h' || r < '1' || r > '8' {
			return -1
		}
		return int(r-'1')*8 + int(f-'a')
	}
	from, to = sq(s[0], s[1]), sq(s[2], s[3])
	if from < 0 || to < 0 {
		return 0, 0, 0, fmt.Errorf("maia1: bad move %q", s)
	}
	if len(s) == 5 {
		switch s[4] {
		case 'q':
			promo = PromoQueen
		case 'r':
			promo = PromoRook
		case 'b':
			promo = PromoBishop
		case 'n':
			promo = PromoNone
		default:
			return 0, 0, 0, fmt.Errorf("maia1: bad promotion in %q", s)
		}
	}
	return from, to, promo, nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
