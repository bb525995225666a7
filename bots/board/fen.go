package board

import (
	"fmt"
	"strconv"
	"strings"
)

// StartFEN is the standard initial position.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// New returns the standard starting position.
func New() *Board {
	b, err := FromFEN(StartFEN)
	if err != nil {
		panic("board: start FEN rejected: " + err.Error()) // unreachable: constant input
	}
	return b
}

// FromFEN parses a FEN string. The half-move clock and full-move number may
// be omitted (defaulting to 0 and 1). Castling rights whose king or rook is
// not on its home square are dropped; an en passant square no pawn can
// capture on is ignored. Any other defect is an error naming the field.
func FromFEN(fen string) (*Board, error) {
	fields := strings.Fields(fen)
	if len(fields) < 4 || len(fields) > 6 {
		return nil, fmt.Errorf("fen %q: want 4 to 6 space-separated fields, got %d", fen, len(fields))
	}
	b := &Board{ep: NoSquare, fullmove: 1, hist: make([]undo, 0, 256)}
	for i := range b.sq {
		b.sq[i] = NoPiece
	}
	ranks := strings.Split(fields[0], "/")
	if len(ranks) != 8 {
		return nil, fmt.Errorf("fen %q: placement has %d ranks, want 8", fen, len(ranks))
	}
	for i, row := range ranks {
		rank := 7 - i
		file := 0
		for _, ch := range row {
			switch {
			case ch >= '1' && ch <= '8':
				file += int(ch - '0')
			case strings.ContainsRune(pieceChars, ch):
				if file > 7 {
					return nil, fmt.Errorf("fen %q: rank %d has more than 8 squares", fen, rank+1)
				}
				p := Piece(strings.IndexRune(pieceChars, ch))
				if p.Type() == Pawn && (rank == 0 || rank == 7) {
					return nil, fmt.Errorf("fen %q: pawn on rank %d", fen, rank+1)
				}
				b.put(p, MakeSquare(file, rank))
				file++
			default:
				return nil, fmt.Errorf("fen %q: invalid character %q in rank %d", fen, ch, rank+1)
			}
		}
		if file != 8 {
			return nil, fmt.Errorf("fen %q: rank %d has %d squares, want 8", fen, rank+1, file)
		}
	}
	for c := White; c <= Black; c++ {
		if n := Count(b.pieces[c][King]); n != 1 {
			return nil, fmt.Errorf("fen %q: %s has %d kings, want 1", fen, colorName(c), n)
		}
		if n := Count(b.occ[c]); n > 16 {
			return nil, fmt.Errorf("fen %q: %s has %d pieces, more than 16", fen, colorName(c), n)
		}
	}
	switch fields[1] {
	case "w":
		b.side = White
	case "b":
		b.side = Black
	default:
		return nil, fmt.Errorf("fen %q: side to move %q, want w or b", fen, fields[1])
	}
	if fields[2] != "-" {
		for _, ch := range fields[2] {
			i := strings.IndexRune("KQkq", ch)
			if i < 0 {
				return nil, fmt.Errorf("fen %q: invalid castling character %q", fen, ch)
			}
			b.castle |= 1 << i
		}
	}
	b.castle &= b.possibleCastling()
	if fields[3] != "-" {
		s, err := ParseSquare(fields[3])
		if err != nil {
			return nil, fmt.Errorf("fen %q: en passant: %w", fen, err)
		}
		want := 5
		if b.side == Black {
			want = 2
		}
		if s.Rank() != want {
			return nil, fmt.Errorf("fen %q: en passant square %s is not on rank %d", fen, s, want+1)
		}
		b.setEP(s)
	}
	if len(fields) > 4 {
		n, err := strconv.Atoi(fields[4])
		if err != nil || n < 0 {
			return nil, fmt.Errorf("fen %q: half-move clock %q is not a non-negative integer", fen, fields[4])
		}
		b.halfmove = n
	}
	if len(fields) > 5 {
		n, err := strconv.Atoi(fields[5])
		if err != nil || n < 1 {
			return nil, fmt.Errorf("fen %q: full-move number %q is not a positive integer", fen, fields[5])
		}
		b.fullmove = n
	}
	if b.attacked(b.KingSquare(b.side^1), b.side, b.all) {
		return nil, fmt.Errorf("fen %q: the side not to move (%s) is in check", fen, colorName(b.side^1))
	}
	b.hash = b.computeHash()
	return b, nil
}

func colorName(c Color) string {
	if c == White {
		return "white"
	}
	return "black"
}

// possibleCastling returns the rights consistent with king and rook placement.
func (b *Board) possibleCastling() uint8 {
	var r uint8
	if b.sq[4] == MakePiece(White, King) {
		if b.sq[7] == MakePiece(White, Rook) {
			r |= CastleWK
		}
		if b.sq[0] == MakePiece(White, Rook) {
			r |= CastleWQ
		}
	}
	if b.sq[60] == MakePiece(Black, King) {
		if b.sq[63] == MakePiece(Black, Rook) {
			r |= CastleBK
		}
		if b.sq[56] == MakePiece(Black, Rook) {
			r |= CastleBQ
		}
	}
	return r
}

// setEP records s as the en passant target if a pawn of the side to move can
// capture there and the enemy pawn that just passed stands in front of it.
// It does not touch the hash.
func (b *Board) setEP(s Square) {
	us := b.side
	pawnSq := s + 8
	if us == White {
		pawnSq = s - 8
	}
	if b.sq[pawnSq] != MakePiece(us^1, Pawn) || b.sq[s] != NoPiece {
		return
	}
	if pawnAtt[us^1][s]&b.pieces[us][Pawn] != 0 {
		b.ep = s
	}
}

// ParseSquare parses a square name like "e4".
func ParseSquare(s string) (Square, error) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return NoSquare, fmt.Errorf("invalid square %q", s)
	}
	return MakeSquare(int(s[0]-'a'), int(s[1]-'1')), nil
}

// FEN returns the position in Forsyth-Edwards notation. The en passant field
// is set only when a pawn can capture there.
func (b *Board) FEN() string {
	var sb strings.Builder
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := 0; file < 8; file++ {
			p := b.sq[MakeSquare(file, rank)]
			if p == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				sb.WriteByte(byte('0' + empty))
				empty = 0
			}
			sb.WriteString(p.String())
		}
		if empty > 0 {
			sb.WriteByte(byte('0' + empty))
		}
		if rank > 0 {
			sb.WriteByte('/')
		}
	}
	sb.WriteByte(' ')
	sb.WriteString(b.side.String())
	sb.WriteByte(' ')
	if b.castle == 0 {
		sb.WriteByte('-')
	}
	for i, ch := range "KQkq" {
		if b.castle&(1<<i) != 0 {
			sb.WriteRune(ch)
		}
	}
	fmt.Fprintf(&sb, " %s %d %d", b.ep, b.halfmove, b.fullmove)
	return sb.String()
}
