package board

import (
	"fmt"
	"strings"
)

// ParseSAN resolves a move in standard algebraic notation to the single
// legal move it denotes. It is lenient about what PGN writers vary on —
// check, mate and annotation suffixes ("+", "#", "!?"), "e.p.", castling
// written with zeros ("0-0"), a leading "P", a missing "x" or "=", a "-"
// between squares, over-disambiguation ("Ng1f3") — but exact about the
// move: an illegal or ambiguous move is an error naming it.
func (b *Board) ParseSAN(san string) (Move, error) {
	s := strings.TrimRight(san, "+#!?")
	s = strings.TrimSuffix(s, "e.p.")
	var ml MoveList
	b.GenerateMoves(&ml)
	if s == "O-O" || s == "0-0" || s == "O-O-O" || s == "0-0-0" {
		flag := FlagCastleK
		if len(s) == 5 {
			flag = FlagCastleQ
		}
		for _, m := range ml.Slice() {
			if m.Flag() == flag {
				return m, nil
			}
		}
		return NullMove, fmt.Errorf("illegal move %q in %s", san, b.FEN())
	}
	piece := Pawn
	if s != "" && strings.IndexByte("KQRBNP", s[0]) >= 0 {
		piece = sanPiece(s[0])
		s = s[1:]
	}
	promo := NoPieceType
	if n := len(s); n >= 1 && strings.IndexByte("QRBN", s[n-1]) >= 0 {
		promo = sanPiece(s[n-1])
		s = strings.TrimSuffix(s[:n-1], "=")
	}
	if len(s) < 2 {
		return NullMove, fmt.Errorf("cannot read move %q", san)
	}
	to, err := ParseSquare(s[len(s)-2:])
	if err != nil {
		return NullMove, fmt.Errorf("cannot read move %q", san)
	}
	from := strings.TrimSuffix(strings.TrimSuffix(s[:len(s)-2], "x"), "-")
	if len(from) > 2 {
		return NullMove, fmt.Errorf("cannot read move %q", san)
	}
	fromFile, fromRank := -1, -1
	for i := 0; i < len(from); i++ {
		c := from[i]
		switch {
		case c >= 'a' && c <= 'h':
			fromFile = int(c - 'a')
		case c >= '1' && c <= '8':
			fromRank = int(c - '1')
		default:
			return NullMove, fmt.Errorf("cannot read move %q", san)
		}
	}
	found, n := NullMove, 0
	for _, m := range ml.Slice() {
		if m.IsCastle() || m.To() != to || m.Promotion() != promo || b.PieceAt(m.From()).Type() != piece {
			continue
		}
		if (fromFile >= 0 && m.From().File() != fromFile) || (fromRank >= 0 && m.From().Rank() != fromRank) {
			continue
		}
		found, n = m, n+1
	}
	switch n {
	case 1:
		return found, nil
	case 0:
		return NullMove, fmt.Errorf("illegal move %q in %s", san, b.FEN())
	}
	return NullMove, fmt.Errorf("ambiguous move %q in %s", san, b.FEN())
}

// sanPiece returns the piece type of a SAN piece letter (a pawn for any
// other byte).
func sanPiece(c byte) PieceType {
	switch c {
	case 'K':
		return King
	case 'Q':
		return Queen
	case 'R':
		return Rook
	case 'B':
		return Bishop
	case 'N':
		return Knight
	}
	return Pawn
}
