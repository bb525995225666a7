// Package board is Outpost's fast chess board for search: bitboards with
// magic sliding attacks, make/unmake with an incremental Zobrist hash, legal
// and captures-only move generation, FEN and UCI I/O, game-state helpers and
// conversion from engine.Position at the boundary. It plays standard chess
// and Chess960 (castling rights by rook file, Shredder-FEN and X-FEN,
// king-takes-rook castling in UCI).
//
// Squares are numbered a1=0, b1=1, … h8=63. A Board is not safe for
// concurrent use; copy it (Clone) to hand it to another goroutine.
package board

// Color is a side: White or Black.
type Color uint8

// The two colours.
const (
	White Color = 0
	Black Color = 1
)

// Other returns the opposite colour.
func (c Color) Other() Color { return c ^ 1 }

// String returns "w" or "b".
func (c Color) String() string {
	if c == White {
		return "w"
	}
	return "b"
}

// PieceType is a kind of piece regardless of colour.
type PieceType uint8

// The piece types, in ascending value order; NoPieceType marks "none".
const (
	Pawn PieceType = iota
	Knight
	Bishop
	Rook
	Queen
	King
	NoPieceType
)

// Piece is a coloured piece: type + 6*colour. NoPiece marks an empty square.
type Piece uint8

// NoPiece is the content of an empty square.
const NoPiece Piece = 12

// MakePiece returns the piece of colour c and type t.
func MakePiece(c Color, t PieceType) Piece { return Piece(uint8(t) + 6*uint8(c)) }

// Type returns the piece's type (NoPieceType for NoPiece).
func (p Piece) Type() PieceType {
	if p >= NoPiece {
		return NoPieceType
	}
	return PieceType(p % 6)
}

// Color returns the piece's colour; meaningless for NoPiece.
func (p Piece) Color() Color { return Color(p / 6) }

const pieceChars = "PNBRQKpnbrqk"

// String returns the FEN letter of the piece ("P", "n", …) or "." if empty.
func (p Piece) String() string {
	if p >= NoPiece {
		return "."
	}
	return pieceChars[p : p+1]
}

// Square is a board square, a1=0 … h8=63; NoSquare marks "none".
type Square uint8

// NoSquare is the absence of a square (e.g. no en passant target).
const NoSquare Square = 64

// MakeSquare returns the square at file (0=a) and rank (0=first).
func MakeSquare(file, rank int) Square { return Square(rank*8 + file) }

// File returns the square's file, 0 (a) to 7 (h).
func (s Square) File() int { return int(s) & 7 }

// Rank returns the square's rank, 0 (first) to 7 (eighth).
func (s Square) Rank() int { return int(s) >> 3 }

// String returns the square's name, e.g. "e4", or "-" for NoSquare.
func (s Square) String() string {
	if s >= NoSquare {
		return "-"
	}
	return string([]byte{byte('a' + s.File()), byte('1' + s.Rank())})
}

// Castling-right bits. King side is the side of the h-file rook, queen
// side that of the a-file rook; in Chess960 the rook may stand on any file
// of its side of the king (Board.CastlingRook).
const (
	CastleWK uint8 = 1 << iota // White king side (e1g1)
	CastleWQ                   // White queen side (e1c1)
	CastleBK                   // Black king side (e8g8)
	CastleBQ                   // Black queen side (e8c8)
)
