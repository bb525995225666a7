package board

// Board is a chess position with the history needed to unmake moves and
// detect repetitions.
type Board struct {
	pieces   [2][6]Bitboard
	occ      [2]Bitboard
	all      Bitboard
	sq       [64]Piece
	side     Color
	castle   uint8
	ep       Square // en passant target, set only when a capture there is possible
	halfmove int
	fullmove int
	hash     uint64
	hist     []undo

	// Castling geometry, fixed when the board is set up (see castling.go).
	chess960   bool
	castleRook [4]Square // rook square of each right, indexed by bit number
	castleMask [64]uint8 // ANDed into the rights when a move touches a square
}

type undo struct {
	move     Move
	captured Piece
	castle   uint8
	ep       Square
	halfmove int
	hash     uint64
}

// Clone returns an independent copy of b, history included.
func (b *Board) Clone() *Board {
	c := *b
	c.hist = make([]undo, len(b.hist), len(b.hist)+64)
	copy(c.hist, b.hist)
	return &c
}

// SideToMove returns the colour to move.
func (b *Board) SideToMove() Color { return b.side }

// Hash returns the Zobrist hash of the position (pieces, side, castling
// rights and en passant file).
func (b *Board) Hash() uint64 { return b.hash }

// PieceAt returns the piece on s, or NoPiece.
func (b *Board) PieceAt(s Square) Piece { return b.sq[s] }

// Pieces returns the bitboard of colour c's pieces of type t.
func (b *Board) Pieces(c Color, t PieceType) Bitboard { return b.pieces[c][t] }

// Occupied returns the bitboard of colour c's pieces.
func (b *Board) Occupied(c Color) Bitboard { return b.occ[c] }

// All returns the bitboard of all pieces.
func (b *Board) All() Bitboard { return b.all }

// KingSquare returns the square of colour c's king.
func (b *Board) KingSquare(c Color) Square { return LSB(b.pieces[c][King]) }

// CastlingRights returns the castling-right bits (CastleWK…).
func (b *Board) CastlingRights() uint8 { return b.castle }

// EnPassant returns the en passant target square or NoSquare.
func (b *Board) EnPassant() Square { return b.ep }

// HalfmoveClock returns the plies since the last capture or pawn move.
func (b *Board) HalfmoveClock() int { return b.halfmove }

// FullmoveNumber returns the FEN full-move number.
func (b *Board) FullmoveNumber() int { return b.fullmove }

// Ply returns the number of moves made on this board since it was set up.
func (b *Board) Ply() int { return len(b.hist) }

// LastMove returns the last move made, or NullMove.
func (b *Board) LastMove() Move {
	if len(b.hist) == 0 {
		return NullMove
	}
	return b.hist[len(b.hist)-1].move
}

func (b *Board) put(p Piece, s Square) {
	bb := Bitboard(1) << s
	c := p.Color()
	b.pieces[c][p.Type()] |= bb
	b.occ[c] |= bb
	b.all |= bb
	b.sq[s] = p
	b.hash ^= zobPiece[p][s]
}

func (b *Board) remove(s Square) {
	p := b.sq[s]
	bb := Bitboard(1) << s
	c := p.Color()
	b.pieces[c][p.Type()] &^= bb
	b.occ[c] &^= bb
	b.all &^= bb
	b.sq[s] = NoPiece
	b.hash ^= zobPiece[p][s]
}

func (b *Board) move(from, to Square) {
	p := b.sq[from]
	bb := Bitboard(1)<<from | Bitboard(1)<<to
	c := p.Color()
	b.pieces[c][p.Type()] ^= bb
	b.occ[c] ^= bb
	b.all ^= bb
	b.sq[from] = NoPiece
	b.sq[to] = p
	b.hash ^= zobPiece[p][from] ^ zobPiece[p][to]
}

// AttackersTo returns all pieces (both colours) attacking s given occupancy occ.
func (b *Board) AttackersTo(s Square, occ Bitboard) Bitboard {
	return pawnAtt[White][s]&b.pieces[Black][Pawn] |
		pawnAtt[Black][s]&b.pieces[White][Pawn] |
		knightAtt[s]&(b.pieces[White][Knight]|b.pieces[Black][Knight]) |
		kingAtt[s]&(b.pieces[White][King]|b.pieces[Black][King]) |
		BishopAttacks(s, occ)&(b.pieces[White][Bishop]|b.pieces[Black][Bishop]|b.pieces[White][Queen]|b.pieces[Black][Queen]) |
		RookAttacks(s, occ)&(b.pieces[White][Rook]|b.pieces[Black][Rook]|b.pieces[White][Queen]|b.pieces[Black][Queen])
}

// attacked reports whether colour by attacks s with occupancy occ.
func (b *Board) attacked(s Square, by Color, occ Bitboard) bool {
	p := &b.pieces[by]
	return pawnAtt[by^1][s]&p[Pawn] != 0 ||
		knightAtt[s]&p[Knight] != 0 ||
		kingAtt[s]&p[King] != 0 ||
		BishopAttacks(s, occ)&(p[Bishop]|p[Queen]) != 0 ||
		RookAttacks(s, occ)&(p[Rook]|p[Queen]) != 0
}

// IsAttacked reports whether colour by attacks square s.
func (b *Board) IsAttacked(s Square, by Color) bool { return b.attacked(s, by, b.all) }

// InCheck reports whether the side to move is in check.
func (b *Board) InCheck() bool {
	return b.attacked(b.KingSquare(b.side), b.side^1, b.all)
}

// checkers returns the enemy pieces giving check to the side to move.
func (b *Board) checkers() Bitboard {
	return b.AttackersTo(b.KingSquare(b.side), b.all) & b.occ[b.side^1]
}
