package board

import (
	"fmt"
	"strings"
)

// Position checks: the one place that decides whether a FEN describes a
// position a game can reach, so that nothing illegal reaches an engine.
// FromFEN is lenient where FEN writers commonly are (it drops castling
// rights it cannot honour and ignores an en passant square no pawn can
// use); Validate is strict and says what is wrong, and every entry point
// that takes a position from a user (PGN [FEN], Lichess JSON initialFen,
// predict, ewr, perft, uci, the challenge policy) calls it before anything
// else. FromFENPlayable is Lichess's own check, for positions a server
// makes games from (the sandbox's challenges, a game stream's initial
// position): it accepts what Lichess accepts and drops what Lichess drops.

// PositionError is a FEN that no game can reach, with the problem named.
type PositionError struct {
	FEN     string
	Problem string
}

// Error names the FEN and the problem.
func (e *PositionError) Error() string {
	return fmt.Sprintf("illegal position (fen %q): %s", e.FEN, e.Problem)
}

// maxCheckers is the most pieces that can give check at once after a legal
// move (a discovered check combined with a direct one).
const maxCheckers = 2

// Validate parses fen (Chess960 castling when chess960 is set, or when the
// castling field uses rook-file letters) and checks that it is a legal
// position: one king a side, no pawn on the first or last rank, at most 16
// pieces and 8 pawns a side, no more promoted pieces than missing pawns
// (see MaterialProblem), the side not to move not in check, the side to
// move in check by at most two pieces, every castling right backed by its
// king and rook on their squares, and an en passant square that a
// double-stepping pawn can just have passed. The error is a
// *PositionError naming the first problem found.
func Validate(fen string, chess960 bool) error {
	_, err := FromFENChecked(fen, chess960)
	return err
}

// MaterialProblem explains why b's material cannot come from a game, or
// returns "": each side starts with 8 pawns, 1 queen and 2 each of rooks,
// bishops and knights (in Chess960 too), so a queen beyond the first or a
// rook, bishop or knight beyond the second is a promoted pawn, and a side's
// pawns and promoted pieces together are at most 8.
func MaterialProblem(b *Board) string {
	for c := White; c <= Black; c++ {
		pawns := Count(b.pieces[c][Pawn])
		promoted := 0
		for pt := Knight; pt <= Queen; pt++ {
			promoted += max(0, Count(b.pieces[c][pt])-startingCount(pt))
		}
		if pawns+promoted > 8 {
			return fmt.Sprintf("%s has %d pawns and %d promoted pieces: %d, more than the 8 pawns a side starts with "+
				"(a queen beyond the first, a rook, bishop or knight beyond the second is a promoted pawn)",
				colorName(c), pawns, promoted, pawns+promoted)
		}
	}
	return ""
}

// startingCount is how many pieces of type pt (knight to queen) a side has
// in the starting position, standard or Chess960.
func startingCount(pt PieceType) int {
	if pt == Queen {
		return 1
	}
	return 2
}

// ShredderCastling reports whether fen's castling field names rooks by
// their files (Shredder-FEN "HAha", X-FEN "Bb"): such a position is played
// with Chess960 castling (the king takes its rook in UCI), whatever a
// variant tag says, and an engine must be told UCI_Chess960.
func ShredderCastling(fen string) bool {
	f := strings.Fields(fen)
	return len(f) > 2 && strings.ContainsAny(f[2], "ABCDEFGHabcdefgh")
}

// FromFENChecked is FromFENVariant preceded by the checks of Validate.
// It reads castling as the standard squares have it (a K right wants the
// king on e1 and a rook on h1) unless chess960 is set or the field names
// rook files: it never takes up FromFEN's Chess960 reading of KQkq.
func FromFENChecked(fen string, chess960 bool) (*Board, error) {
	fen = strings.TrimSpace(fen)
	b, err := parseFEN(fen, chess960 || ShredderCastling(fen))
	if err != nil {
		return nil, &PositionError{FEN: fen, Problem: strings.TrimPrefix(err.Error(), fmt.Sprintf("fen %q: ", fen))}
	}
	f := strings.Fields(fen)
	if p := strictProblem(b, f[2], f[3]); p != "" {
		return nil, &PositionError{FEN: fen, Problem: p}
	}
	return b, nil
}

// strictProblem explains the first of Validate's problems a parsed board
// has, or returns "".
func strictProblem(b *Board, castling, ep string) string {
	for c := White; c <= Black; c++ {
		if n := Count(b.occ[c]); n > 16 {
			return fmt.Sprintf("%s has %d pieces, more than 16", colorName(c), n)
		}
		if n := Count(b.pieces[c][Pawn]); n > 8 {
			return fmt.Sprintf("%s has %d pawns, more than 8", colorName(c), n)
		}
	}
	if n := Count(b.checkers()); n > maxCheckers {
		return fmt.Sprintf("%s is in check by %d pieces at once, which no move can give", colorName(b.side), n)
	}
	if p := castlingProblem(b, castling); p != "" {
		return p
	}
	if p := enPassantProblem(b, ep); p != "" {
		return p
	}
	return MaterialProblem(b)
}

// FromFENPlayable parses fen as Lichess accepts a challenge's position
// (scalachess Variant.isValidInitialFen, non-strict: see lichessFEN for
// the rules and where they are): the position a game is played from, with
// what Lichess drops dropped. It refuses what Lichess refuses (a
// placement it cannot read, a side without exactly one king, a pawn on the
// first or last rank, the side not to move in check), naming the problem
// in a *PositionError; it accepts what Lichess accepts, any material
// included (Lichess counts neither promotions nor pieces: nine queens,
// ten pawns and triple check make games), and drops what Lichess drops: a
// castling right with no king on its first rank or no rook behind it, an
// en passant square no double step produced, characters of the castling
// field that name no rook; the side to move, half-move clock and full-move
// number default and are bounded as Lichess has them. The board's FEN is
// then the initialFen Lichess reports for the game (but for an en passant
// square Lichess writes only when the capture is legal). A right Lichess
// keeps with its rook or king off the standard squares is played with
// Chess960 castling (see FromFEN). The one thing Lichess accepts and this
// refuses is two rooks for one castling right ("KG" with rooks on g1 and
// h1): a board here holds one rook a right. Lichess also refuses a
// position that has ended (mate, stalemate, insufficient material): that
// is for the caller to check, on the board returned.
func FromFENPlayable(fen string, chess960 bool) (*Board, error) {
	fen = strings.TrimSpace(fen)
	norm, problem := lichessFEN(fen)
	if problem != "" {
		return nil, &PositionError{FEN: fen, Problem: problem}
	}
	b, err := FromFENVariant(norm, chess960)
	if err != nil {
		return nil, &PositionError{FEN: fen, Problem: strings.TrimPrefix(err.Error(), fmt.Sprintf("fen %q: ", norm))}
	}
	return b, nil
}

// castlingProblem explains the first castling right of field that the
// board did not keep (its king or rook is not where the right needs it),
// or a right written twice.
func castlingProblem(b *Board, field string) string {
	if field == "-" {
		return ""
	}
	seen := map[int]rune{}
	for _, ch := range field {
		c := White
		if ch >= 'a' && ch <= 'z' {
			c = Black
		}
		i, why := rightOf(b, c, ch)
		if why != "" {
			return fmt.Sprintf("castling right %q: %s", ch, why)
		}
		if prev, dup := seen[i]; dup {
			return fmt.Sprintf("castling rights %q and %q name the same right", prev, ch)
		}
		seen[i] = ch
		if b.castle&(1<<i) == 0 {
			return fmt.Sprintf("castling right %q is not possible in this position", ch)
		}
	}
	return ""
}

// rightOf maps a castling character to its right's bit, or explains why
// the position cannot hold it.
func rightOf(b *Board, c Color, ch rune) (int, string) {
	rank := 0
	if c == Black {
		rank = 7
	}
	upper := ch &^ 0x20
	ksq := b.KingSquare(c)
	if !b.chess960 {
		i := strings.IndexRune("KQkq", ch)
		home := MakeSquare(4, rank)
		rook := MakeSquare(7, rank)
		if upper == 'Q' {
			rook = MakeSquare(0, rank)
		}
		switch {
		case ksq != home:
			return i, fmt.Sprintf("the %s king is on %s, not on %s", colorName(c), ksq, home)
		case b.sq[rook] != MakePiece(c, Rook):
			return i, fmt.Sprintf("no %s rook on %s", colorName(c), rook)
		}
		return i, ""
	}
	if ksq.Rank() != rank {
		return 0, fmt.Sprintf("the %s king is on %s, not on its first rank", colorName(c), ksq)
	}
	var rook Square
	switch {
	case upper == 'K' || upper == 'Q':
		rook = b.outermostRook(c, ksq, upper == 'K')
		if rook == NoSquare {
			side := "king"
			if upper == 'Q' {
				side = "queen"
			}
			return 0, fmt.Sprintf("no %s rook on the %s side of the king on %s", colorName(c), side, ksq)
		}
	default:
		rook = MakeSquare(int(upper-'A'), rank)
		if b.sq[rook] != MakePiece(c, Rook) {
			return 0, fmt.Sprintf("no %s rook on %s", colorName(c), rook)
		}
	}
	return castleIndex(c, rook.File() > ksq.File()), ""
}

// enPassantProblem explains an en passant square that no double step can
// have produced: the pawn that just moved must stand in front of it, and
// the square and the one the pawn left must be empty.
func enPassantProblem(b *Board, field string) string {
	if field == "-" {
		return ""
	}
	ep, err := ParseSquare(field)
	if err != nil {
		return fmt.Sprintf("en passant square %q: %v", field, err)
	}
	them := b.side ^ 1
	pawnSq, fromSq := ep-8, ep+8
	if them == White {
		pawnSq, fromSq = ep+8, ep-8
	}
	switch {
	case b.sq[pawnSq] != MakePiece(them, Pawn):
		return fmt.Sprintf("en passant square %s but no %s pawn on %s that could just have moved two squares", ep, colorName(them), pawnSq)
	case b.sq[ep] != NoPiece:
		return fmt.Sprintf("en passant square %s is occupied", ep)
	case b.sq[fromSq] != NoPiece:
		return fmt.Sprintf("en passant square %s but %s, which the pawn just left, is occupied", ep, fromSq)
	}
	return ""
}
