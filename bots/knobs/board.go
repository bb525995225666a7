package knobs

import (
	"github.com/outpostchess/outpost/bots/board"
)

// Piece kinds of the mailbox; a square holds +kind for White, -kind for
// Black and 0 when empty.
const (
	kPawn   = 1
	kKnight = 2
	kBishop = 3
	kRook   = 4
	kQueen  = 5
	kKing   = 6
)

// Colour indices.
const (
	white = 0
	black = 1
)

// mailbox is a 64-square board (a1 = 0, h8 = 63) kept in step with the
// board so that attack maps are cheap.
type mailbox [64]int8

func colorIndex(c board.Color) int {
	if c == board.Black {
		return black
	}
	return white
}

func kindOf(t board.PieceType) int8 {
	switch t {
	case board.Pawn:
		return kPawn
	case board.Knight:
		return kKnight
	case board.Bishop:
		return kBishop
	case board.Rook:
		return kRook
	case board.Queen:
		return kQueen
	case board.King:
		return kKing
	}
	return 0
}

func signed(kind int8, color int) int8 {
	if color == black {
		return -kind
	}
	return kind
}

// pieceColor returns the colour of a non-empty square value.
func pieceColor(p int8) int {
	if p < 0 {
		return black
	}
	return white
}

func absKind(p int8) int8 {
	if p < 0 {
		return -p
	}
	return p
}

func mailboxOf(b *board.Board) mailbox {
	var m mailbox
	for sq := board.Square(0); sq < 64; sq++ {
		p := b.PieceAt(sq)
		if p == board.NoPiece {
			continue
		}
		m[sq] = signed(kindOf(p.Type()), colorIndex(p.Color()))
	}
	return m
}

// play records the legal move mv, whose result is the board after, and
// reports what the move captured and promoted to. The mailbox is read back
// from after, so that castling in any of its Chess960 forms is right.
func (m *mailbox) play(mv board.Move, after *board.Board) (captured int8, promo int8) {
	switch {
	case mv.IsEnPassant():
		captured = kPawn
	case mv.IsCapture():
		captured = absKind(m[mv.To()])
	}
	promo = kindOf(mv.Promotion())
	*m = mailboxOf(after)
	return captured, promo
}

// Attack tables, built once at init and read-only afterwards.
var (
	knightTargets [64][]int
	kingTargets   [64][]int
	rays          [64][8][]int // N, S, E, W, NE, NW, SE, SW
)

func init() {
	steps := func(sq int, df, dr []int) []int {
		var out []int
		f, r := sq%8, sq/8
		for i := range df {
			nf, nr := f+df[i], r+dr[i]
			if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
				out = append(out, nr*8+nf)
			}
		}
		return out
	}
	dirs := [8][2]int{{0, 1}, {0, -1}, {1, 0}, {-1, 0}, {1, 1}, {-1, 1}, {1, -1}, {-1, -1}}
	for sq := 0; sq < 64; sq++ {
		knightTargets[sq] = steps(sq, []int{1, 2, 2, 1, -1, -2, -2, -1}, []int{2, 1, -1, -2, -2, -1, 1, 2})
		kingTargets[sq] = steps(sq, []int{0, 1, 1, 1, 0, -1, -1, -1}, []int{1, 1, 0, -1, -1, -1, 0, 1})
		for d, dir := range dirs {
			f, r := sq%8+dir[0], sq/8+dir[1]
			for f >= 0 && f < 8 && r >= 0 && r < 8 {
				rays[sq][d] = append(rays[sq][d], r*8+f)
				f, r = f+dir[0], r+dir[1]
			}
		}
	}
}

// forEachAttack calls fn for every square the piece on sq attacks
// (pseudo-legally: pins are ignored, own-occupied squares are included as
// defended squares).
func (m *mailbox) forEachAttack(sq int, fn func(target int)) {
	p := m[sq]
	switch absKind(p) {
	case kPawn:
		f, r := sq%8, sq/8
		nr := r + 1
		if p < 0 {
			nr = r - 1
		}
		if nr < 0 || nr > 7 {
			return
		}
		if f > 0 {
			fn(nr*8 + f - 1)
		}
		if f < 7 {
			fn(nr*8 + f + 1)
		}
	case kKnight:
		for _, t := range knightTargets[sq] {
			fn(t)
		}
	case kKing:
		for _, t := range kingTargets[sq] {
			fn(t)
		}
	case kBishop:
		m.slide(sq, 4, 8, fn)
	case kRook:
		m.slide(sq, 0, 4, fn)
	case kQueen:
		m.slide(sq, 0, 8, fn)
	}
}

func (m *mailbox) slide(sq, d0, d1 int, fn func(target int)) {
	for d := d0; d < d1; d++ {
		for _, t := range rays[sq][d] {
			fn(t)
			if m[t] != 0 {
				break
			}
		}
	}
}

// repKey identifies a position for repetition: placement, side to move,
// castling rights and a capturable en-passant square.
type repKey [66]byte

func keyOf(m *mailbox, pos *board.Board) repKey {
	var k repKey
	for i, p := range m {
		k[i] = byte(p)
	}
	var flags byte
	if pos.SideToMove() == board.Black {
		flags |= 1
	}
	flags |= pos.CastlingRights() << 1
	k[64] = flags
	k[65] = 255
	// The board keeps an en-passant square only when a pawn can use it,
	// the only case in which it changes the position.
	if ep := pos.EnPassant(); ep != board.NoSquare {
		k[65] = byte(ep)
	}
	return k
}
