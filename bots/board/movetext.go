package board

import (
	"fmt"
	"strconv"
	"strings"
)

// Movetext writes moves (UCI, either castling spelling) played from b as
// PGN movetext in SAN with move numbers ("1. e4 e5 2. Nf3", "12... Qd7"
// when Black moves first), without a result. b is left unchanged. An
// illegal move is an error naming its index and the position.
func (b *Board) Movetext(moves []string) (string, error) {
	c := b.Clone()
	var sb strings.Builder
	num := c.FullmoveNumber()
	for i, u := range moves {
		m, err := c.ParseUCI(u)
		if err != nil {
			return "", fmt.Errorf("board: movetext move %d: %w", i+1, err)
		}
		if i > 0 {
			sb.WriteByte(' ')
		}
		switch {
		case c.SideToMove() == White:
			sb.WriteString(strconv.Itoa(num) + ". ")
		case i == 0:
			sb.WriteString(strconv.Itoa(num) + "... ")
		}
		sb.WriteString(c.SAN(m))
		if c.SideToMove() == Black {
			num++
		}
		c.Make(m)
	}
	return sb.String(), nil
}
