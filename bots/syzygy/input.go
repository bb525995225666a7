package syzygy

import (
	"strings"

	"github.com/outpostchess/outpost/bots/board"
)

// input is a position in fathom's terms: the bitboards of White, Black,
// kings, queens, rooks, bishops, knights and pawns (a1 = bit 0), the en
// passant square (0 = none), the halfmove clock and the side to move.
type input struct {
	bb     [8]uint64
	ep     uint32
	rule50 uint32
	white  bool
}

// inputOf converts a board to fathom's input.
func inputOf(b *board.Board) input {
	var in input
	in.bb[0] = b.Occupied(board.White)
	in.bb[1] = b.Occupied(board.Black)
	for i, pt := range []board.PieceType{board.King, board.Queen, board.Rook, board.Bishop, board.Knight, board.Pawn} {
		in.bb[2+i] = b.Pieces(board.White, pt) | b.Pieces(board.Black, pt)
	}
	if ep := b.EnPassant(); ep != board.NoSquare {
		in.ep = uint32(ep)
	}
	in.rule50 = uint32(b.HalfmoveClock())
	in.white = b.SideToMove() == board.White
	return in
}

// Material names a position's material the way Syzygy names its files,
// the stronger side first: "KQvKR", "KPvK".
func Material(b *board.Board) string {
	side := func(c board.Color) string {
		var sb strings.Builder
		for _, pt := range []board.PieceType{board.King, board.Queen, board.Rook, board.Bishop, board.Knight, board.Pawn} {
			sb.WriteString(strings.Repeat(strings.ToUpper(board.MakePiece(board.White, pt).String()), board.Count(b.Pieces(c, pt))))
		}
		return sb.String()
	}
	w, k := side(board.White), side(board.Black)
	if stronger(k, w) {
		w, k = k, w
	}
	return w + "v" + k
}

// stronger orders two sides' material the way table names do: more
// pieces first, then the more valuable pieces (KQ before KR).
func stronger(a, b string) bool {
	if len(a) != len(b) {
		return len(a) > len(b)
	}
	const order = "KQRBNP"
	for i := 0; i < len(a); i++ {
		if a[i] != b[i] {
			return strings.IndexByte(order, a[i]) < strings.IndexByte(order, b[i])
		}
	}
	return false
}
