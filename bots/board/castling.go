package board

import (
	"fmt"
	"strings"
)

// Castling, for standard chess and Chess960.
//
// A castling right is one of four bits (CastleWK…): king side means the rook
// on the h-file side of the king, queen side the rook on the a-file side.
// Each right remembers the square of its rook, fixed when the board is set
// up. Castling always ends with the king on the g- or c-file and the rook on
// the f- or d-file of its first rank, whatever the squares they started on.
//
// A castling Move goes from the king's square and carries FlagCastleK or
// FlagCastleQ. Its destination is the king's target square in standard
// chess (e1g1, as UCI writes it) and the castling rook's square in Chess960
// (king takes rook: e1h1), so that Move.String is the right UCI for the mode
// the board plays in.

// castleIndex returns the bit number (0-3) of colour c's right on one side.
func castleIndex(c Color, kingSide bool) int {
	i := 2 * int(c)
	if !kingSide {
		i++
	}
	return i
}

// castleTargets returns where king and rook end up for right i.
func castleTargets(i int) (king, rook Square) {
	rank := 0
	if i >= 2 {
		rank = 7
	}
	if i%2 == 0 {
		return MakeSquare(6, rank), MakeSquare(5, rank)
	}
	return MakeSquare(2, rank), MakeSquare(3, rank)
}

// Chess960 reports whether the board plays Chess960 castling (king takes
// rook in UCI, X-FEN castling field).
func (b *Board) Chess960() bool { return b.chess960 }

// CastlingRook returns the rook square of colour c's king-side or
// queen-side right, and whether the right is still held.
func (b *Board) CastlingRook(c Color, kingSide bool) (Square, bool) {
	i := castleIndex(c, kingSide)
	return b.castleRook[i], b.castle&(1<<i) != 0
}

// setCastling parses the FEN castling field into rights, rook squares and
// the per-square masks. In standard chess only KQkq are accepted and a right
// whose king or rook is not on its home square is dropped. In Chess960 K/Q
// name the outermost rook on that side of the king (X-FEN) and A-H / a-h
// name the rook's file (Shredder-FEN); a right without a king on its first
// rank or without a rook on the named square is dropped.
func (b *Board) setCastling(field string) error {
	b.castleRook = [4]Square{7, 0, 63, 56}
	if field != "-" {
		for _, ch := range field {
			if err := b.addCastling(ch); err != nil {
				return err
			}
		}
	}
	b.initCastleMask()
	return nil
}

func (b *Board) addCastling(ch rune) error {
	c := White
	if ch >= 'a' && ch <= 'z' {
		c = Black
	}
	upper := ch &^ 0x20
	rank := 0
	if c == Black {
		rank = 7
	}
	if !b.chess960 {
		i := strings.IndexRune("KQkq", ch)
		if i < 0 {
			return fmt.Errorf("invalid castling character %q (standard chess takes KQkq)", ch)
		}
		king, rook := MakeSquare(4, rank), b.castleRook[i]
		if b.sq[king] == MakePiece(c, King) && b.sq[rook] == MakePiece(c, Rook) {
			b.castle |= 1 << i
		}
		return nil
	}
	ksq := b.KingSquare(c)
	if ksq.Rank() != rank {
		return nil // the king left its first rank: no right
	}
	var rook Square
	switch {
	case upper == 'K':
		rook = b.outermostRook(c, ksq, true)
	case upper == 'Q':
		rook = b.outermostRook(c, ksq, false)
	case upper >= 'A' && upper <= 'H':
		rook = MakeSquare(int(upper-'A'), rank)
		if rook == ksq {
			return fmt.Errorf("castling character %q names the king's file", ch)
		}
		if b.sq[rook] != MakePiece(c, Rook) {
			return nil
		}
	default:
		return fmt.Errorf("invalid castling character %q (want KQkq or a rook file A-H, a-h)", ch)
	}
	if rook == NoSquare {
		return nil
	}
	i := castleIndex(c, rook.File() > ksq.File())
	if b.castle&(1<<i) != 0 && b.castleRook[i] != rook {
		return fmt.Errorf("castling character %q: a second %s right on the same side", ch, colorName(c))
	}
	b.castle |= 1 << i
	b.castleRook[i] = rook
	return nil
}

// outermostRook returns colour c's rook farthest from the king on its side
// of the first rank, or NoSquare.
func (b *Board) outermostRook(c Color, ksq Square, kingSide bool) Square {
	rank := ksq.Rank()
	if kingSide {
		for f := 7; f > ksq.File(); f-- {
			if s := MakeSquare(f, rank); b.sq[s] == MakePiece(c, Rook) {
				return s
			}
		}
		return NoSquare
	}
	for f := 0; f < ksq.File(); f++ {
		if s := MakeSquare(f, rank); b.sq[s] == MakePiece(c, Rook) {
			return s
		}
	}
	return NoSquare
}

// initCastleMask sets the masks that clear a right when its king or rook
// moves or is captured.
func (b *Board) initCastleMask() {
	for i := range b.castleMask {
		b.castleMask[i] = 15
	}
	for i := 0; i < 4; i++ {
		if b.castle&(1<<i) == 0 {
			continue
		}
		c := Color(i / 2)
		b.castleMask[b.castleRook[i]] &^= 1 << i
		b.castleMask[b.KingSquare(c)] &^= 1 << i
	}
}

// castlingField writes the FEN castling field: KQkq in standard chess;
// X-FEN in Chess960 (K/Q for the outermost rook, the rook's file letter
// otherwise); Shredder-FEN (file letters only) when shredder is set.
func (b *Board) castlingField(shredder bool) string {
	if b.castle == 0 {
		return "-"
	}
	var sb strings.Builder
	for i := 0; i < 4; i++ {
		if b.castle&(1<<i) == 0 {
			continue
		}
		c := Color(i / 2)
		kingSide := i%2 == 0
		rook := b.castleRook[i]
		var ch byte
		switch {
		case !b.chess960:
			ch = "KQkq"[i]
		case !shredder && b.outermostRook(c, b.KingSquare(c), kingSide) == rook:
			ch = "KQ"[i%2]
		default:
			ch = byte('A' + rook.File())
		}
		if c == Black {
			ch |= 0x20
		}
		sb.WriteByte(ch)
	}
	return sb.String()
}

// genCastling adds the legal castling moves. The side to move is not in
// check. Every square the king and rook cross or land on must be empty
// (but for the two of them), and no square of the king's path, its target
// included, may be attacked once king and rook have left their squares (a
// rook may have been shielding the king's target, as in Chess960 with the
// rook on b1 and the king castling to c1).
func (b *Board) genCastling(ml *MoveList) {
	us, them := b.side, b.side^1
	ksq := b.KingSquare(us)
	for _, kingSide := range [2]bool{true, false} {
		i := castleIndex(us, kingSide)
		if b.castle&(1<<i) == 0 {
			continue
		}
		rook := b.castleRook[i]
		kTo, rTo := castleTargets(i)
		movers := Bitboard(1)<<ksq | Bitboard(1)<<rook
		path := between[ksq][kTo] | Bitboard(1)<<kTo
		if (path|between[rook][rTo]|Bitboard(1)<<rTo)&^movers&b.all != 0 {
			continue
		}
		occ := b.all &^ movers
		safe := true
		for p := path; p != 0 && safe; {
			safe = !b.attacked(PopLSB(&p), them, occ)
		}
		if !safe {
			continue
		}
		flag := FlagCastleQ
		if kingSide {
			flag = FlagCastleK
		}
		to := kTo
		if b.chess960 {
			to = rook
		}
		ml.add(NewMove(ksq, to, flag))
	}
}

// castleRight returns the bit number of the right a castling move by the
// side to move uses.
func (b *Board) castleRight(m Move) int {
	return castleIndex(b.side, m.Flag() == FlagCastleK)
}

// StandardCastling reports whether every castling right held has its king
// on the e-file and its rook in the a- or h-file corner, so that the
// position reads the same in standard chess and in Chess960 (an engine can
// search it without UCI_Chess960).
func (b *Board) StandardCastling() bool {
	for i := 0; i < 4; i++ {
		if b.castle&(1<<i) == 0 {
			continue
		}
		c := Color(i / 2)
		rank := 0
		if c == Black {
			rank = 7
		}
		corner := MakeSquare(7, rank)
		if i%2 == 1 {
			corner = MakeSquare(0, rank)
		}
		if b.KingSquare(c) != MakeSquare(4, rank) || b.castleRook[i] != corner {
			return false
		}
	}
	return true
}
