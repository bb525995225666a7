package board

// Move is a move packed in 16 bits: from (6 bits), to (6 bits) and a 4-bit
// flag telling its kind. The zero Move is NullMove.
type Move uint16

// Move flags (bits 12-15).
const (
	FlagQuiet      = 0
	FlagDoublePush = 1
	FlagCastleK    = 2
	FlagCastleQ    = 3
	FlagCapture    = 4
	FlagEnPassant  = 5
	FlagPromo      = 8  // + (promoted type - Knight); quiet promotions 8-11
	FlagPromoCapt  = 12 // + (promoted type - Knight); capturing promotions 12-15
)

// NullMove is "no move" (also used for a null move in search).
const NullMove Move = 0

// NewMove packs a move.
func NewMove(from, to Square, flag int) Move {
	return Move(uint16(from) | uint16(to)<<6 | uint16(flag)<<12)
}

// From returns the origin square.
func (m Move) From() Square { return Square(m & 63) }

// To returns the destination square.
func (m Move) To() Square { return Square((m >> 6) & 63) }

// Flag returns the move's 4-bit kind.
func (m Move) Flag() int { return int(m >> 12) }

// IsCapture reports whether the move captures (including en passant).
func (m Move) IsCapture() bool { return m.Flag()&FlagCapture != 0 }

// IsPromotion reports whether the move promotes a pawn.
func (m Move) IsPromotion() bool { return m.Flag()&FlagPromo != 0 }

// IsCastle reports whether the move is castling.
func (m Move) IsCastle() bool { f := m.Flag(); return f == FlagCastleK || f == FlagCastleQ }

// IsEnPassant reports whether the move is an en passant capture.
func (m Move) IsEnPassant() bool { return m.Flag() == FlagEnPassant }

// Promotion returns the promoted-to type, or NoPieceType.
func (m Move) Promotion() PieceType {
	if !m.IsPromotion() {
		return NoPieceType
	}
	return Knight + PieceType(m.Flag()&3)
}

// String returns the move in UCI notation ("e2e4", "e7e8q", "e1g1"), or
// "0000" for NullMove.
func (m Move) String() string {
	if m == NullMove {
		return "0000"
	}
	s := m.From().String() + m.To().String()
	if p := m.Promotion(); p != NoPieceType {
		s += string("nbrq"[p-Knight])
	}
	return s
}

// MaxMoves bounds the number of legal moves in any position a board can
// hold, reachable or not. 218 is the most a reachable position has, but
// Lichess makes games from any material (FromFENPlayable): queens on the
// 28 border squares alone have 288 moves. The bound: a move to a square
// comes from the nearest piece along one of its 8 lines or from one of 8
// knights, so a side with s pieces has at most 16(64-s) moves, plus 3 more
// for each of the 24 pawn moves onto the last rank that promote and 2
// castlings; and at most 27(s-1)+10 (27 for a queen, less for any other
// piece, 8 king moves and 2 castlings). The smaller of the two is at most
// 682 (s = 26).
const MaxMoves = 768

// MoveList is a fixed-capacity list of moves that never allocates.
type MoveList struct {
	Moves [MaxMoves]Move
	N     int
}

func (l *MoveList) add(m Move) { l.Moves[l.N] = m; l.N++ }

// Slice returns the moves as a slice aliasing the list.
func (l *MoveList) Slice() []Move { return l.Moves[:l.N] }

// Contains reports whether m is in the list.
func (l *MoveList) Contains(m Move) bool {
	for _, x := range l.Moves[:l.N] {
		if x == m {
			return true
		}
	}
	return false
}
