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

// FromFEN parses a FEN string of a standard chess position. The half-move
// clock and full-move number may be omitted (defaulting to 0 and 1).
// Castling rights whose king or rook is not on its home square are dropped;
// an en passant square no pawn can capture on is ignored. Any other defect
// is an error naming the field. A castling field naming rook files
// (Shredder-FEN, "HAha") sets the board up for Chess960, as FromFEN960,
// and so does a K, Q, k or q right that only Chess960 castling can hold:
// read as X-FEN and Lichess read it (the outermost rook on that side of a
// king on its first rank), it has a rook or king off the standard squares,
// as in a Lichess fromPosition game whose king castles with a rook on g1.
// The position is not limited to 16 pieces or 8 pawns a side (Validate
// is).
func FromFEN(fen string) (*Board, error) {
	f := strings.Fields(fen)
	if len(f) > 2 && strings.ContainsAny(f[2], "ABCDEFGHabcdefgh") {
		return parseFEN(fen, true)
	}
	b, err := parseFEN(fen, false)
	if err != nil || len(f) < 3 || b.castle == namedRights(f[2]) {
		return b, err
	}
	if b960, err := parseFEN(fen, true); err == nil && b960.castle&^b.castle != 0 {
		return b960, nil
	}
	return b, nil
}

// namedRights is the set of rights a KQkq castling field names.
func namedRights(field string) uint8 {
	var r uint8
	for i, ch := range "KQkq" {
		if strings.ContainsRune(field, ch) {
			r |= 1 << i
		}
	}
	return r
}

// FromFEN960 parses a FEN string of a Chess960 position: castling rights in
// X-FEN (KQkq for the outermost rook, a file letter otherwise) or
// Shredder-FEN (file letters only). Moves use Chess960 castling: the king
// "takes" its rook in UCI (e1h1).
func FromFEN960(fen string) (*Board, error) { return parseFEN(fen, true) }

// FromFENVariant parses fen for Chess960 when chess960 is set, for standard
// chess otherwise.
func FromFENVariant(fen string, chess960 bool) (*Board, error) {
	if chess960 {
		return FromFEN960(fen)
	}
	return FromFEN(fen)
}

func parseFEN(fen string, chess960 bool) (*Board, error) {
	fields := strings.Fields(fen)
	if len(fields) < 4 || len(fields) > 6 {
		return nil, fmt.Errorf("fen %q: want 4 to 6 space-separated fields, got %d", fen, len(fields))
	}
	b := &Board{ep: NoSquare, fullmove: 1, hist: make([]undo, 0, 256), chess960: chess960}
	for i := range b.sq {
		b.sq[i] = NoPiece
	}
	if err := b.parsePlacement(fen, fields[0]); err != nil {
		return nil, err
	}
	switch fields[1] {
	case "w":
		b.side = White
	case "b":
		b.side = Black
	default:
		return nil, fmt.Errorf("fen %q: side to move %q, want w or b", fen, fields[1])
	}
	if err := b.setCastling(fields[2]); err != nil {
		return nil, fmt.Errorf("fen %q: %w", fen, err)
	}
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

// parsePlacement puts the pieces of a FEN's placement field on b and checks
// the ranks, the pawns' ranks and the kings; errors name the FEN.
func (b *Board) parsePlacement(fen, placement string) error {
	ranks := strings.Split(placement, "/")
	if len(ranks) != 8 {
		return fmt.Errorf("fen %q: placement has %d ranks, want 8", fen, len(ranks))
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
					return fmt.Errorf("fen %q: rank %d has more than 8 squares", fen, rank+1)
				}
				p := Piece(strings.IndexRune(pieceChars, ch))
				if p.Type() == Pawn && (rank == 0 || rank == 7) {
					return fmt.Errorf("fen %q: pawn on rank %d", fen, rank+1)
				}
				b.put(p, MakeSquare(file, rank))
				file++
			default:
				return fmt.Errorf("fen %q: invalid character %q in rank %d", fen, ch, rank+1)
			}
		}
		if file != 8 {
			return fmt.Errorf("fen %q: rank %d has %d squares, want 8", fen, rank+1, file)
		}
	}
	for c := White; c <= Black; c++ {
		if n := Count(b.pieces[c][King]); n != 1 {
			return fmt.Errorf("fen %q: %s has %d kings, want 1", fen, colorName(c), n)
		}
	}
	return nil
}

func colorName(c Color) string {
	if c == White {
		return "white"
	}
	return "black"
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
// is set only when a pawn can capture there. Chess960 castling rights are
// written in X-FEN (KQkq for outermost rooks, file letters otherwise), as
// Lichess writes them.
func (b *Board) FEN() string { return b.fen(false) }

// ShredderFEN returns the FEN with the castling rights written as rook
// files (HAha) in Chess960; in standard chess it equals FEN.
func (b *Board) ShredderFEN() string { return b.fen(true) }

func (b *Board) fen(shredder bool) string {
	var sb strings.Builder
	sb.WriteString(b.placement())
	sb.WriteByte(' ')
	sb.WriteString(b.side.String())
	sb.WriteByte(' ')
	sb.WriteString(b.castlingField(shredder))
	fmt.Fprintf(&sb, " %s %d %d", b.ep, b.halfmove, b.fullmove)
	return sb.String()
}

// placement is the FEN's first field: the pieces, rank 8 first.
func (b *Board) placement() string {
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
	return sb.String()
}
