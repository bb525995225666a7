package board

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// Lichess's reading of a FEN (the facts are from scalachess, which lila
// uses; no code is taken from it). A challenge's position is accepted when
// scalachess's Variant.isValidInitialFen (core/src/main/scala/variant/
// Variant.scala) holds: for fromPosition, FenReader.read
// (core/src/main/scala/format/FenReader.scala) reads it and
// Position.playable(strict = false) (core/src/main/scala/Position.scala)
// holds, and the non-strict Variant.validSide asks only for one king a
// side and no pawn on the first or last rank: no limit on pieces or pawns,
// no limit on checkers. The reader itself refuses little and drops much:
//
//   - placement (FenReader.makeBoardWithCrazyPromoted): '/' is optional
//     (a rank ends after its eighth square), squares left out are empty,
//     a '~' after a piece is skipped; refused: a character that is no
//     piece or digit 1-8, a digit running past the eighth file, a square
//     past h1, a Crazyhouse pocket (a ninth '/' part, or "[...]");
//   - side to move: "w" or "b"; anything else (or nothing) is the side in
//     check, else white;
//   - castling: each K/Q (k/q) is the outermost rook of that colour on its
//     first rank on that side of its king, each file letter the rook on
//     that file; a right whose king is not on its first rank or whose rook
//     is not there is dropped, as is any other character;
//   - en passant: kept only when the square is on the side to move's sixth
//     rank with an enemy pawn in front of it and both squares behind empty;
//   - the half-move clock and full-move number (FenReader.readWithMoveNumber,
//     as the game is made): a missing or unreadable one is 0 and 1, and
//     they are kept within 0-100 and 1-500.
//
// lichessFEN applies those rules and writes the result in the form this
// package parses, which is also the FEN lila writes for the game (lila's
// GameRepo.insertDenormalized stores scalachess's Fen.write of it).

// lichessFEN returns fen as Lichess reads it, or the problem that makes
// Lichess refuse it.
func lichessFEN(fen string) (string, string) {
	parts := strings.Split(fen, " ")
	b, problem := lenientPlacement(parts[0])
	if problem != "" {
		return "", problem
	}
	b.side = lichessSide(b, parts)
	field := "-"
	if len(parts) > 2 {
		field = parts[2]
	}
	castling, problem := lichessCastling(b, field)
	if problem != "" {
		return "", problem
	}
	half, full := lichessMoveNumbers(parts)
	return fmt.Sprintf("%s %s %s %s %d %d", b.placement(), b.side, castling, lichessEnPassant(b, parts), half, full), ""
}

// lenientPlacement puts the pieces of a placement field on a new board as
// scalachess's reader does (see above), or names what it refuses.
func lenientPlacement(field string) (*Board, string) {
	b := &Board{ep: NoSquare}
	for i := range b.sq {
		b.sq[i] = NoPiece
	}
	switch {
	case strings.Count(field, "/") == 8:
		parts := strings.Split(field, "/")
		if parts[8] != "" {
			return nil, fmt.Sprintf("a ninth placement part %q (a Crazyhouse pocket) in a standard position", parts[8])
		}
		field = strings.Join(parts[:8], "/")
	case strings.Contains(field, "[") && strings.HasSuffix(field, "]"):
		return nil, "a Crazyhouse pocket in a standard position"
	}
	rank, file := 7, 0
	for i := 0; i < len(field); i++ {
		if file >= 8 {
			file, rank = 0, rank-1
		}
		if rank < 0 {
			return nil, "the placement has more than 64 squares"
		}
		switch ch := field[i]; {
		case ch == '/':
		case ch >= '1' && ch <= '8':
			file += int(ch - '0')
			if file > 8 {
				return nil, fmt.Sprintf("rank %d has more than 8 squares", rank+1)
			}
		case strings.IndexByte(pieceChars, ch) >= 0:
			b.put(Piece(strings.IndexByte(pieceChars, ch)), MakeSquare(file, rank))
			if i+1 < len(field) && field[i+1] == '~' {
				i++
			}
			file++
		default:
			return nil, fmt.Sprintf("invalid character %q in the placement", rune(ch))
		}
	}
	return b, ""
}

// lichessSide is the side to move: the FEN's "w" or "b", else the side in
// check, else white.
func lichessSide(b *Board, parts []string) Color {
	if len(parts) > 1 {
		switch parts[1] {
		case "w":
			return White
		case "b":
			return Black
		}
	}
	for c := White; c <= Black; c++ {
		if Count(b.pieces[c][King]) == 1 && b.attacked(b.KingSquare(c), c^1, b.all) {
			return c
		}
	}
	return White
}

// lichessCastling resolves the castling field to rook squares as Lichess
// does and writes the rights kept (X-FEN: K/Q for the outermost rook on
// the king's side, the file letter otherwise; "-" for none). Two rooks
// for one right, which Lichess keeps both of, are refused: a board here
// holds one rook a right.
func lichessCastling(b *Board, field string) (string, string) {
	var rooks, kings [4]Square
	var names [4]rune
	for _, ch := range field {
		c, ksq, rook, ok := lichessRight(b, ch)
		if !ok {
			continue
		}
		i := castleIndex(c, rook > ksq)
		if names[i] != 0 && rooks[i] != rook {
			return "", fmt.Sprintf("castling rights %q and %q name two %s rooks on the same side of the king (%s and %s), which is not supported",
				names[i], ch, colorName(c), rooks[i], rook)
		}
		rooks[i], kings[i], names[i] = rook, ksq, ch
	}
	var sb strings.Builder
	for i := range 4 {
		if names[i] == 0 {
			continue
		}
		c, kingSide := Color(i/2), i%2 == 0
		ch := byte('A' + rooks[i].File())
		if b.outermostRook(c, kings[i], kingSide) == rooks[i] {
			ch = "KQ"[i%2]
		}
		if c == Black {
			ch |= 0x20
		}
		sb.WriteByte(ch)
	}
	if sb.Len() == 0 {
		return "-", ""
	}
	return sb.String(), ""
}

// lichessRight is the king and rook one castling character names, as
// Lichess reads it; ok is false when Lichess drops the character.
func lichessRight(b *Board, ch rune) (c Color, ksq, rook Square, ok bool) {
	c, rank := Black, 7
	if unicode.IsUpper(ch) {
		c, rank = White, 0
	}
	first := Bitboard(0xFF) << (8 * rank)
	kings := b.pieces[c][King] & first
	if kings == 0 {
		return c, NoSquare, NoSquare, false
	}
	ksq = LSB(kings)
	switch lower := unicode.ToLower(ch); {
	case lower == 'k':
		rook = b.outermostRook(c, ksq, true)
	case lower == 'q':
		rook = b.outermostRook(c, ksq, false)
	case lower >= 'a' && lower <= 'h':
		rook = MakeSquare(int(lower-'a'), rank)
		if b.sq[rook] != MakePiece(c, Rook) {
			rook = NoSquare
		}
	default:
		rook = NoSquare
	}
	return c, ksq, rook, rook != NoSquare
}

// lichessEnPassant is the en passant field Lichess keeps: the FEN's square
// when a double step can have produced it, else "-".
func lichessEnPassant(b *Board, parts []string) string {
	if len(parts) < 4 {
		return "-"
	}
	ep, err := ParseSquare(parts[3])
	if err != nil {
		return "-"
	}
	rank, pawnSq, fromSq := 5, ep-8, ep+8
	if b.side == Black {
		rank, pawnSq, fromSq = 2, ep+8, ep-8
	}
	if ep.Rank() != rank { // checked first: the squares around are then on the board
		return "-"
	}
	if b.sq[pawnSq] != MakePiece(b.side^1, Pawn) || b.sq[ep] != NoPiece || b.sq[fromSq] != NoPiece {
		return "-"
	}
	return parts[3]
}

// lichessMoveNumbers are the half-move clock (0-100, default 0) and the
// full-move number (1-500, default 1) Lichess starts the game with. Fields
// holding '+' (Winboard's three-check counts) are skipped first.
func lichessMoveNumbers(parts []string) (half, full int) {
	rest := []string{}
	if len(parts) > 4 {
		rest = parts[4:]
	}
	for len(rest) > 0 && strings.Contains(rest[0], "+") {
		rest = rest[1:]
	}
	half, full = 0, 1
	if len(rest) > 0 {
		if n, err := strconv.Atoi(rest[0]); err == nil {
			half = min(max(n, 0), 100)
		}
	}
	if len(rest) > 1 {
		if n, err := strconv.Atoi(rest[1]); err == nil {
			full = min(max(n, 1), 500)
		}
	}
	return half, full
}
