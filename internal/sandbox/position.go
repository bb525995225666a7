package sandbox

import (
	"fmt"
	"strings"

	"github.com/outpostchess/outpost/bots/board"
)

// position is the rules state of one game, kept incrementally so that a
// move costs the same at ply 200 as at ply 20: the board, the legal moves of
// the side to move, and how often each position occurred since the last
// capture or pawn move (positions before one can never recur).
//
// Positions are equal, for repetition, as FIDE and Lichess define it: same
// pieces on the same squares, same side to move, same castling rights and
// the same en passant capture, counted only when one is actually legal.
type position struct {
	b     *board.Board
	legal board.MoveList // legal moves of the side to move
	epOK  bool           // an en passant capture is among them
	seen  map[positionKey]int
	reps  int // occurrences of the current position, itself included
}

// positionKey identifies a position for repetition counting, exactly (no
// hash collisions).
type positionKey struct {
	pieces [2][6]board.Bitboard
	side   board.Color
	castle uint8
	ep     board.Square
}

// newPosition sets up a position from a FEN ("" for the standard start).
func newPosition(fen string) (*position, error) { return newVariantPosition(fen, false) }

// newVariantPosition sets up a position from a FEN ("" for the standard
// start), with Chess960 castling when chess960 is set.
func newVariantPosition(fen string, chess960 bool) (*position, error) {
	if fen == "" {
		fen = board.StartFEN
	}
	b, err := board.FromFENVariant(fen, chess960)
	if err != nil {
		return nil, fmt.Errorf("sandbox: position %q: %w", fen, err)
	}
	if b.IsAttacked(b.KingSquare(b.SideToMove().Other()), b.SideToMove()) {
		return nil, fmt.Errorf("sandbox: position %q: the side not to move is in check", fen)
	}
	p := &position{b: b, seen: map[positionKey]int{}}
	p.update()
	return p, nil
}

// update recomputes the legal moves and counts the new current position.
func (p *position) update() {
	p.legal.N = 0
	p.b.GenerateMoves(&p.legal)
	p.epOK = false
	for _, m := range p.legal.Slice() {
		if m.IsEnPassant() {
			p.epOK = true
			break
		}
	}
	if p.b.HalfmoveClock() == 0 {
		clear(p.seen)
	}
	k := p.key()
	p.seen[k]++
	p.reps = p.seen[k]
}

// key is the current position's repetition key.
func (p *position) key() positionKey {
	k := positionKey{side: p.b.SideToMove(), castle: p.b.CastlingRights(), ep: board.NoSquare}
	for c := board.White; c <= board.Black; c++ {
		for t := board.Pawn; t <= board.King; t++ {
			k.pieces[c][t] = p.b.Pieces(c, t)
		}
	}
	if p.epOK {
		k.ep = p.b.EnPassant()
	}
	return k
}

// turn is the color index to move.
func (p *position) turn() int {
	if p.b.SideToMove() == board.Black {
		return black
	}
	return white
}

// find returns the legal move written uci (castling as the king's two-
// square move, promotion in lower case), if there is one.
func (p *position) find(uci string) (board.Move, bool) {
	if len(uci) != 4 && len(uci) != 5 {
		return board.NullMove, false
	}
	from, err1 := board.ParseSquare(uci[0:2])
	to, err2 := board.ParseSquare(uci[2:4])
	if err1 != nil || err2 != nil {
		return board.NullMove, false
	}
	promo := board.NoPieceType
	if len(uci) == 5 {
		i := strings.IndexByte("nbrq", uci[4])
		if i < 0 {
			return board.NullMove, false
		}
		promo = board.Knight + board.PieceType(i)
	}
	for _, m := range p.legal.Slice() {
		if m.From() == from && m.To() == to && m.Promotion() == promo {
			return m, true
		}
	}
	return board.NullMove, false
}

// pieceAt is the piece on a square given by name, or NoPiece.
func (p *position) pieceAt(name string) board.Piece {
	s, err := board.ParseSquare(name)
	if err != nil {
		return board.NoPiece
	}
	return p.b.PieceAt(s)
}

// play makes a legal move and returns its SAN.
func (p *position) play(m board.Move) string {
	san := p.b.SAN(m)
	p.b.Make(m)
	p.update()
	return san
}

// ending names how the current position ends the game, as Lichess rules
// it: checkmate, stalemate, or a draw by insufficient material, threefold
// repetition or the fifty-move rule (which also covers fivefold and
// seventy-five moves).
type ending int

// The endings, ongoing first.
const (
	ongoing ending = iota
	endMate
	endStalemate
	endInsufficient
	endRepetition
	endFiftyMoves
)

// ending reports how the current position ends the game, if it does.
func (p *position) ending() ending {
	switch {
	case p.legal.N == 0 && p.b.InCheck():
		return endMate
	case p.legal.N == 0:
		return endStalemate
	case p.b.InsufficientMaterial():
		return endInsufficient
	case p.reps >= 3:
		return endRepetition
	case p.b.HalfmoveClock() >= 100:
		return endFiftyMoves
	}
	return ongoing
}

// fen is the position in FEN, with an en passant square only when the
// capture is legal, as Lichess writes it.
func (p *position) fen() string {
	f := p.b.FEN()
	if p.b.EnPassant() == board.NoSquare || p.epOK {
		return f
	}
	fields := strings.Fields(f)
	fields[3] = "-"
	return strings.Join(fields, " ")
}

// hasMatingMaterial reports whether color c has enough material to mate in
// principle (anything beyond a bare king or king and one minor piece).
func (p *position) hasMatingMaterial(c int) bool {
	col := board.White
	if c == black {
		col = board.Black
	}
	if p.b.Pieces(col, board.Pawn)|p.b.Pieces(col, board.Rook)|p.b.Pieces(col, board.Queen) != 0 {
		return true
	}
	return board.Count(p.b.Pieces(col, board.Bishop)|p.b.Pieces(col, board.Knight)) >= 2
}
