package knobs

import (
	"github.com/notnil/chess"
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
// notnil position so that attack maps are cheap.
type mailbox [64]int8

func colorIndex(c chess.Color) int {
	if c == chess.Black {
		return black
	}
	return white
}

func kindOf(t chess.PieceType) int8 {
	switch t {
	case chess.Pawn:
		return kPawn
	case chess.Knight:
		return kKnight
	case chess.Bishop:
		return kBishop
	case chess.Rook:
		return kRook
	case chess.Queen:
		return kQueen
	case chess.King:
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

func mailboxOf(b *chess.Board) mailbox {
	var m mailbox
	for sq := 0; sq < 64; sq++ {
		p := b.Piece(chess.Square(sq))
		if p == chess.NoPiece {
			continue
		}
		m[sq] = signed(kindOf(p.Type()), colorIndex(p.Color()))
	}
	return m
}

// play applies a legal notnil move to the mailbox and reports what it did.
func (m *mailbox) play(mv *chess.Move) (captured int8, promo int8) {
	from, to := int(mv.S1()), int(mv.S2())
	p := m[from]
	captured = absKind(m[to])
	if mv.HasTag(chess.EnPassant) {
		capSq := to - 8
		if p < 0 {
			capSq = to + 8
		}
		captured = absKind(m[capSq])
		m[capSq] = 0
	}
	m[to] = p
	m[from] = 0
	if pr := mv.Promo(); pr != chess.NoPieceType {
		promo = kindOf(pr)
		m[to] = signed(promo, pieceColor(p))
	}
	switch {
	case mv.HasTag(chess.KingSideCastle):
		m[to-1], m[to+1] = m[to+1], 0
	case mv.HasTag(chess.QueenSideCastle):
		m[to+1], m[to-2] = m[to-2], 0
	}
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

func keyOf(m *mailbox, pos *chess.Position) repKey {
	var k repKey
	for i, p := range m {
		k[i] = byte(p)
	}
	cr := pos.CastleRights()
	var flags byte
	if pos.Turn() == chess.Black {
		flags |= 1
	}
	if cr.CanCastle(chess.White, chess.KingSide) {
		flags |= 2
	}
	if cr.CanCastle(chess.White, chess.QueenSide) {
		flags |= 4
	}
	if cr.CanCastle(chess.Black, chess.KingSide) {
		flags |= 8
	}
	if cr.CanCastle(chess.Black, chess.QueenSide) {
		flags |= 16
	}
	k[64] = flags
	k[65] = 255
	if ep := pos.EnPassantSquare(); ep != chess.NoSquare {
		// Only an en-passant square that a pawn can use changes the position.
		sq := int(ep)
		pawnRank, pawn := sq/8-1, int8(kPawn)
		if pos.Turn() == chess.Black {
			pawnRank, pawn = sq/8+1, -kPawn
		}
		f := sq % 8
		for _, df := range []int{-1, 1} {
			if nf := f + df; nf >= 0 && nf < 8 && pawnRank >= 0 && pawnRank < 8 && m[pawnRank*8+nf] == pawn {
				k[65] = byte(sq)
			}
		}
	}
	return k
}
