package book

import (
	"errors"
	"fmt"

	"github.com/outpostchess/outpost/bots/board"
)

// Offsets of the sub-tables of random64.
const (
	castleOffset    = 768 // white short, white long, black short, black long
	enPassantOffset = 772 // one value per file a..h
	turnOffset      = 780 // XORed in when White is to move
)

// ErrUnhashable is returned by Key for a Chess960 position the Polyglot
// format cannot key: a castling right held by a rook that is not the
// outermost on its side of the king.
var ErrUnhashable = errors.New("book: position has no Polyglot key")

// Key returns the Polyglot key of the position: the XOR of a value per
// piece, per castling right, for the en passant file when a pawn of the
// side to move stands next to the pawn that has just made a double step
// (whether or not the capture is legal), and for White to move.
func Key(b *board.Board) (uint64, error) {
	var key uint64
	for sq := board.Square(0); sq < 64; sq++ {
		p := b.PieceAt(sq)
		if p == board.NoPiece {
			continue
		}
		kind := 2 * int(p.Type())
		if p.Color() == board.White {
			kind++
		}
		key ^= random64[64*kind+int(sq)]
	}
	for i, right := range [4]struct {
		c        board.Color
		kingSide bool
	}{{board.White, true}, {board.White, false}, {board.Black, true}, {board.Black, false}} {
		rook, held := b.CastlingRook(right.c, right.kingSide)
		if !held {
			continue
		}
		if !outermostRook(b, right.c, rook, right.kingSide) {
			return 0, fmt.Errorf("%w: castling right of the rook on %s is not the outermost rook's (%s)", ErrUnhashable, rook, b.FEN())
		}
		key ^= random64[castleOffset+i]
	}
	// The board keeps an en passant square exactly when a pawn of the side
	// to move attacks it, which is Polyglot's rule.
	if ep := b.EnPassant(); ep != board.NoSquare {
		key ^= random64[enPassantOffset+ep.File()]
	}
	if b.SideToMove() == board.White {
		key ^= random64[turnOffset]
	}
	return key, nil
}

// outermostRook reports whether no other rook of colour c stands beyond
// rook on its first rank, on the side of the king the right belongs to.
func outermostRook(b *board.Board, c board.Color, rook board.Square, kingSide bool) bool {
	own := board.MakePiece(c, board.Rook)
	rank := rook.Rank()
	step, end := -1, -1
	if kingSide {
		step, end = 1, 8
	}
	for f := rook.File() + step; f != end; f += step {
		if b.PieceAt(board.MakeSquare(f, rank)) == own {
			return false
		}
	}
	return true
}
