// Package game replays a chess game (start FEN + UCI moves) into the
// per-position snapshots the neural-network encoders need: piece placement,
// side to move, castling rights, halfmove clock, en-passant state and
// repetition counts, plus the legal moves of the final position.
package game

import (
	"fmt"
	"strings"

	"github.com/outpostchess/outpost/bots/board"
)

// StartFEN is the standard initial position.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// Piece is a coloured piece: 0 empty, 1..6 White P N B R Q K, 7..12 Black
// P N B R Q K.
type Piece int8

// Pieces.
const (
	Empty Piece = iota
	WP
	WN
	WB
	WR
	WQ
	WK
	BP
	BN
	BB
	BR
	BQ
	BK
)

// White reports whether p is a white piece.
func (p Piece) White() bool { return p >= WP && p <= WK }

// Kind returns 0..5 for P N B R Q K regardless of colour (-1 when empty).
func (p Piece) Kind() int {
	switch {
	case p == Empty:
		return -1
	case p.White():
		return int(p - WP)
	default:
		return int(p - BP)
	}
}

// Castling right indices into Snapshot.Castle.
const (
	WhiteKingside = iota
	WhiteQueenside
	BlackKingside
	BlackQueenside
)

// Snapshot is one position of the game. Squares are numbered a1 = 0 … h8 = 63.
type Snapshot struct {
	Board       [64]Piece
	WhiteToMove bool
	Castle      [4]bool
	HalfMove    int
	// EPSquare is the FEN en-passant target square after a double push, or -1.
	EPSquare int
	// LC0EP reports lc0's en-passant flag: set after a double push only when
	// an enemy pawn stands beside the pushed pawn.
	LC0EP bool
	// Repetitions counts earlier occurrences of this position in the game
	// (same pieces, side to move, castling rights and lc0 en-passant flag).
	Repetitions int
}

// Game is a replayed game. It is immutable once returned by New or Play
// and safe to share between goroutines.
type Game struct {
	// Snapshots[0] is the start position, the last one the current position.
	Snapshots []Snapshot
	// Standard reports whether the game began from the standard start position.
	Standard bool
	// Chess960 reports whether the game is played with Chess960 castling:
	// castling rights by rook, castling moves written king takes rook
	// (e1h1) in Moves and LegalMoves.
	Chess960 bool
	// Moves are the moves played, in UCI (castling as the king's move in
	// standard chess, king takes rook in Chess960).
	Moves []string
	final *board.Board // read only once the game is shared; Play clones it
	legal []board.Move // legal moves of final, computed before the game is shared
}

// Current returns the final position.
func (g *Game) Current() *Snapshot { return &g.Snapshots[len(g.Snapshots)-1] }

// New parses startFEN (empty = standard start) and plays moves (UCI,
// e1g1 for castling). An illegal or malformed move gives an error naming it.
// A castling field naming rook files (Shredder-FEN) makes it a Chess960
// game; NewVariant says so explicitly (an X-FEN "KQkq" Chess960 start).
func New(startFEN string, moves []string) (*Game, error) {
	return NewVariant(startFEN, moves, false)
}

// NewVariant is New for a Chess960 game when chess960 is set: the
// castling rights of startFEN are read as X-FEN or Shredder-FEN and castling
// moves may be written either as king takes rook (e1h1) or as the king's
// move (e1g1).
func NewVariant(startFEN string, moves []string, chess960 bool) (*Game, error) {
	if startFEN == "" {
		startFEN = StartFEN
	}
	// the chess core's position check: a position no game reaches (the
	// side not to move in check, castling without a rook) is refused, or
	// the model would be asked for a move such as a king capture
	pos, err := board.FromFENChecked(strings.TrimSpace(startFEN), chess960)
	if err != nil {
		return nil, fmt.Errorf("game: %w", err)
	}
	g := &Game{Snapshots: make([]Snapshot, 0, len(moves)+1), Moves: make([]string, 0, len(moves)), Chess960: pos.Chess960()}
	first := snapshot(pos, fenEP(startFEN))
	g.Standard = isStandard(&first)
	g.Snapshots = append(g.Snapshots, first)
	g.final, g.legal = pos, pos.LegalMoves()
	for i, mv := range moves {
		if err := g.play(mv); err != nil {
			return nil, fmt.Errorf("game: move %d %q: %w", i+1, mv, err)
		}
	}
	return g, nil
}

// Play returns a new game: g followed by one more move (UCI). g itself is
// not changed, so a replayed game can be shared and extended concurrently.
func (g *Game) Play(uci string) (*Game, error) {
	n := &Game{
		Snapshots: make([]Snapshot, len(g.Snapshots), len(g.Snapshots)+1),
		Moves:     make([]string, len(g.Moves), len(g.Moves)+1),
		Standard:  g.Standard,
		Chess960:  g.Chess960,
		final:     g.final,
		legal:     g.legal,
	}
	copy(n.Snapshots, g.Snapshots)
	copy(n.Moves, g.Moves)
	if err := n.play(uci); err != nil {
		return nil, fmt.Errorf("game: move %d %q: %w", len(g.Moves)+1, uci, err)
	}
	return n, nil
}

// play appends a move in place.
func (g *Game) play(uci string) error {
	m, err := findMove(g.final, g.legal, uci)
	if err != nil {
		return err
	}
	next := g.final.Clone()
	next.Make(m)
	g.final = next
	g.legal = g.final.LegalMoves()
	ep := -1
	if m.Flag() == board.FlagDoublePush {
		ep = (int(m.From()) + int(m.To())) / 2
	}
	s := snapshot(g.final, ep)
	s.Repetitions = g.repetitions(&s)
	g.Snapshots = append(g.Snapshots, s)
	g.Moves = append(g.Moves, m.String())
	return nil
}

// repetitions counts earlier occurrences of s, looking back only as far as
// the last irreversible move (the halfmove clock) and only at positions with
// the same side to move.
func (g *Game) repetitions(s *Snapshot) int {
	n := 0
	last := len(g.Snapshots) - 1 // s is about to follow this one
	for j := last - 1; j >= 0 && last+1-j <= s.HalfMove; j -= 2 {
		if samePosition(&g.Snapshots[j], s) {
			n++
		}
	}
	return n
}

// samePosition reports whether two snapshots are the same position for
// repetition purposes: pieces, side to move, castling rights and lc0's
// en-passant flag.
func samePosition(a, b *Snapshot) bool {
	if a.Board != b.Board || a.WhiteToMove != b.WhiteToMove || a.Castle != b.Castle || a.LC0EP != b.LC0EP {
		return false
	}
	return !a.LC0EP || a.EPSquare == b.EPSquare
}

// LegalMoves returns the legal moves of the final position in standard UCI.
func (g *Game) LegalMoves() []string {
	out := make([]string, len(g.legal))
	for i, m := range g.legal {
		out[i] = m.String()
	}
	return out
}

// Castling reports whether uci, a legal move of the final position written
// as LegalMoves writes it, is castling; if so it returns the castling rook's
// square and the king's target square (g- or c-file), a1 = 0 … h8 = 63.
func (g *Game) Castling(uci string) (rook, kingTo int, ok bool) {
	for _, m := range g.legal {
		if !m.IsCastle() || m.String() != uci {
			continue
		}
		sq, _ := g.final.CastlingRook(g.final.SideToMove(), m.Flag() == board.FlagCastleK)
		to, err := board.ParseSquare(g.final.StandardUCI(m)[2:4])
		if err != nil {
			return 0, 0, false // unreachable: the board writes squares
		}
		return int(sq), int(to), true
	}
	return 0, 0, false
}

// EPCaptureLegal reports whether an en-passant capture is legal in the final
// position.
func (g *Game) EPCaptureLegal() bool {
	for _, m := range g.legal {
		if m.IsEnPassant() {
			return true
		}
	}
	return false
}

// FEN returns the final position as FEN.
func (g *Game) FEN() string { return g.final.FEN() }

func findMove(pos *board.Board, legal []board.Move, uci string) (board.Move, error) {
	s := strings.ToLower(strings.TrimSpace(uci))
	if len(s) != 4 && len(s) != 5 {
		return board.NullMove, fmt.Errorf("not a UCI move")
	}
	for _, m := range legal {
		if m.String() == s {
			return m, nil
		}
	}
	// castling in the other mode's notation (e1h1 on a standard board,
	// e1g1 on a Chess960 one), as Lichess accepts both
	if m, err := pos.ParseUCI(s); err == nil && m.IsCastle() {
		return m, nil
	}
	if _, err := board.ParseSquare(s[0:2]); err != nil {
		return board.NullMove, fmt.Errorf("not a UCI move")
	}
	if _, err := board.ParseSquare(s[2:4]); err != nil {
		return board.NullMove, fmt.Errorf("not a UCI move")
	}
	if len(s) == 5 && !strings.ContainsRune("nbrq", rune(s[4])) {
		return board.NullMove, fmt.Errorf("not a UCI move")
	}
	return board.NullMove, fmt.Errorf("illegal in %s", pos.FEN())
}

// pieceMap converts board pieces (small integers, NoPiece = 12) to Piece.
var pieceMap = func() [13]Piece {
	var m [13]Piece
	for bp, p := range map[board.Piece]Piece{
		board.MakePiece(board.White, board.Pawn): WP, board.MakePiece(board.White, board.Knight): WN,
		board.MakePiece(board.White, board.Bishop): WB, board.MakePiece(board.White, board.Rook): WR,
		board.MakePiece(board.White, board.Queen): WQ, board.MakePiece(board.White, board.King): WK,
		board.MakePiece(board.Black, board.Pawn): BP, board.MakePiece(board.Black, board.Knight): BN,
		board.MakePiece(board.Black, board.Bishop): BB, board.MakePiece(board.Black, board.Rook): BR,
		board.MakePiece(board.Black, board.Queen): BQ, board.MakePiece(board.Black, board.King): BK,
	} {
		m[bp] = p
	}
	return m
}()

// fenEP returns the en-passant square of a FEN's fourth field, -1 if none.
func fenEP(fen string) int {
	f := strings.Fields(fen)
	if len(f) < 4 {
		return -1
	}
	sq, err := board.ParseSquare(f[3])
	if err != nil {
		return -1
	}
	return int(sq)
}

// snapshot describes pos, whose en-passant square (-1 if none) is ep: the
// square behind a pawn that just double-pushed, whether or not a pawn can
// take there, as a FEN writes it.
func snapshot(pos *board.Board, ep int) Snapshot {
	s := Snapshot{WhiteToMove: pos.SideToMove() == board.White, HalfMove: pos.HalfmoveClock(), EPSquare: -1}
	for sq := range 64 {
		s.Board[sq] = pieceMap[pos.PieceAt(board.Square(sq))]
	}
	_, s.Castle[WhiteKingside] = pos.CastlingRook(board.White, true)
	_, s.Castle[WhiteQueenside] = pos.CastlingRook(board.White, false)
	_, s.Castle[BlackKingside] = pos.CastlingRook(board.Black, true)
	_, s.Castle[BlackQueenside] = pos.CastlingRook(board.Black, false)
	if ep >= 0 {
		s.EPSquare = ep
		s.LC0EP = lc0EPFlag(&s)
	}
	return s
}

// lc0EPFlag applies lc0's rule: the flag is set only when an enemy pawn (a
// pawn of the side to move) stands beside the pawn that just double-pushed.
func lc0EPFlag(s *Snapshot) bool {
	file := s.EPSquare % 8
	var pushed int
	var ours Piece
	if s.WhiteToMove {
		// Black pushed from rank 7 to rank 5; target square is on rank 6.
		pushed, ours = s.EPSquare-8, WP
	} else {
		// White pushed from rank 2 to rank 4; target square is on rank 3.
		pushed, ours = s.EPSquare+8, BP
	}
	if pushed < 0 || pushed >= 64 {
		return false
	}
	for _, df := range []int{-1, 1} {
		f := file + df
		if f >= 0 && f < 8 && s.Board[pushed-file+f] == ours {
			return true
		}
	}
	return false
}

// isStandard reports whether s is the standard initial position.
func isStandard(s *Snapshot) bool {
	back := [8]Piece{WR, WN, WB, WQ, WK, WB, WN, WR}
	for f := 0; f < 8; f++ {
		if s.Board[f] != back[f] || s.Board[8+f] != WP || s.Board[48+f] != BP || s.Board[56+f] != back[f]+6 {
			return false
		}
	}
	for sq := 16; sq < 48; sq++ {
		if s.Board[sq] != Empty {
			return false
		}
	}
	return s.WhiteToMove && s.Castle == [4]bool{true, true, true, true}
}
