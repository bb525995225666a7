package board

import "fmt"

// ParseUCI parses a move in UCI notation ("e2e4", "e7e8q", "e1g1") and
// returns it if it is legal in the position.
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
