package board

import (
	"fmt"
	"strings"
)

// ParseUCI parses a move in UCI notation ("e2e4", "e7e8q", "e1g1") and
// returns it if it is legal in the position. Castling is accepted both as
// the king's move (e1g1, standard UCI) and as king takes rook (e1h1,
// Chess960 UCI), in either mode, as Lichess accepts both; in Chess960 the
// king's-move form is read as castling only when no other move of the king
// goes there.
func (b *Board) ParseUCI(s string) (Move, error) {
	if len(s) != 4 && len(s) != 5 {
		return NullMove, fmt.Errorf("move %q: want 4 or 5 characters like e2e4 or e7e8q", s)
	}
	from, err := ParseSquare(s[0:2])
	if err != nil {
		return NullMove, fmt.Errorf("move %q: from: %w", s, err)
	}
	to, err := ParseSquare(s[2:4])
	if err != nil {
		return NullMove, fmt.Errorf("move %q: to: %w", s, err)
	}
	promo := NoPieceType
	if len(s) == 5 {
		switch s[4] {
		case 'n', 'N':
			promo = Knight
		case 'b', 'B':
			promo = Bishop
		case 'r', 'R':
			promo = Rook
		case 'q', 'Q':
			promo = Queen
		default:
			return NullMove, fmt.Errorf("move %q: invalid promotion piece %q", s, s[4])
		}
	}
	var ml MoveList
	b.GenerateMoves(&ml)
	for _, m := range ml.Slice() {
		if m.From() == from && m.To() == to && m.Promotion() == promo {
			return m, nil
		}
	}
	if m, ok := b.castlingAlias(&ml, from, to); ok && promo == NoPieceType {
		return m, nil
	}
	return NullMove, fmt.Errorf("move %q is not legal in %s", s, b.FEN())
}

// MakeUCI parses a UCI move and plays it.
func (b *Board) MakeUCI(s string) error {
	m, err := b.ParseUCI(s)
	if err != nil {
		return err
	}
	b.Make(m)
	return nil
}

// FindUCI returns the legal move written exactly s in UCI notation (as
// Move.String writes it: lower-case promotion letter, castling as the
// king's move such as e1g1) and true, or NullMove and false. It does not
// allocate, for callers that check many moves or check on a hot path.
func (b *Board) FindUCI(s string) (Move, bool) {
	if len(s) != 4 && len(s) != 5 {
		return NullMove, false
	}
	from, ok1 := squareOf(s[0], s[1])
	to, ok2 := squareOf(s[2], s[3])
	if !ok1 || !ok2 {
		return NullMove, false
	}
	promo := NoPieceType
	if len(s) == 5 {
		i := strings.IndexByte("nbrq", s[4])
		if i < 0 {
			return NullMove, false
		}
		promo = Knight + PieceType(i)
	}
	var ml MoveList
	b.GenerateMoves(&ml)
	for _, m := range ml.Slice() {
		if m.From() == from && m.To() == to && m.Promotion() == promo {
			return m, true
		}
	}
	return NullMove, false
}

// squareOf parses a file letter and a rank digit.
func squareOf(file, rank byte) (Square, bool) {
	if file < 'a' || file > 'h' || rank < '1' || rank > '8' {
		return NoSquare, false
	}
	return MakeSquare(int(file-'a'), int(rank-'1')), true
}

// castlingAlias finds the castling move written in the other mode's UCI:
// king takes rook on a standard board, the king's target square on a
// Chess960 board.
func (b *Board) castlingAlias(ml *MoveList, from, to Square) (Move, bool) {
	for _, m := range ml.Slice() {
		if !m.IsCastle() || m.From() != from {
			continue
		}
		i := b.castleRight(m)
		kTo, _ := castleTargets(i)
		if (b.chess960 && to == kTo) || (!b.chess960 && to == b.castleRook[i]) {
			return m, true
		}
	}
	return NullMove, false
}

// StandardUCI returns m in standard UCI notation, castling written as the
// king's move (e1g1) even on a Chess960 board, for consumers that do not
// speak Chess960 UCI. Ambiguous on a Chess960 board when the king's target
// is also a plain king move; use Move.String there.
func (b *Board) StandardUCI(m Move) string {
	if !m.IsCastle() || !b.chess960 {
		return m.String()
	}
	kTo, _ := castleTargets(b.castleRight(m))
	return m.From().String() + kTo.String()
}
