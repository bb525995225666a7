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
// else. FromFENPlayable is the same check without its material rule, for
// positions a server makes games from (the sandbox's fromPosition, a game
// stream's initial position), as Lichess counts no promotions.

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
func FromFENChecked(fen string, chess960 bool) (*Board, error) {
	b, err := FromFENPlayable(fen, chess960)
	if err != nil {
		return nil, err
	}
	if p := MaterialProblem(b); p != "" {
		return nil, &PositionError{FEN: strings.TrimSpace(fen), Problem: p}
	}
	return b, nil
}

// FromFENPlayable is FromFENChecked without the material check
// (MaterialProblem): the checks that keep an engine and the move
// generator safe, and no more. It is for positions a server makes games
// from, which are played as they are: Lichess counts no promotions
// (scalachess's Variant.validSide), so it starts a game from nine queens
// and a pawn.
func FromFENPlayable(fen string, chess960 bool) (*Board, error) {
	fen = strings.TrimSpace(fen)
	f := strings.Fields(fen)
	if !chess960 && ShredderCastling(fen) {
		chess960 = true
	}
	b, err := FromFENVariant(fen, chess960)
	if err != nil {
		return nil, &PositionError{FEN: fen, Problem: strings.TrimPrefix(err.Error(), fmt.Sprintf("fen %q: ", fen))}
	}
	fail := func(format string, a ...any) (*Board, error) {
		return nil, &PositionError{FEN: fen, Problem: fmt.Sprintf(format, a...)}
	}
	for c := White; c <= Black; c++ {
		if n := Count(b.pieces[c][Pawn]); n > 8 {
			return fail("%s has %d pawns, more than 8", colorName(c), n)
		}
	}
	if n := Count(b.checkers()); n > maxCheckers {
		return fail("%s is in check by %d pieces at once, which no move can give", colorName(b.side), n)
	}
	if p := castlingProblem(b, f[2]); p != "" {
		return fail("%s", p)
	}
	if p := enPassantProblem(b, f[3]); p != "" {
		return fail("%s", p)
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
