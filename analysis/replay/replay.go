// Package replay plays moves on a chess board (bots/board for the rules,
// standard chess and Chess960): it resolves SAN leniently but exactly
// (suffixes, 0-0 castling, over-disambiguation), converts between SAN and
// UCI and reports the game state. It is the analysis package's way to the
// chess rules; the expected-winrate calculation (analysis/ewr) builds its
// trees on bots/board directly.
package replay

import (
	"fmt"
	"strings"

	"github.com/outpostchess/outpost/bots/board"
)

// StandardFEN is the standard starting position.
const StandardFEN = board.StartFEN

// Board is a position. Boards are values: Play returns a new one.
type Board struct {
	b *board.Board
}

// New returns the board of fen ("" or "startpos" for the standard start).
// A FEN with only four fields gets "0 1".
func New(fen string) (*Board, error) { return NewVariant(fen, false) }

// NewVariant is New for Chess960 when chess960 is set: castling rights in
// X-FEN or Shredder-FEN, castling in UCI written king takes rook.
func NewVariant(fen string, chess960 bool) (*Board, error) {
	fen = strings.TrimSpace(fen)
	if fen == "" || fen == "startpos" {
		fen = StandardFEN
	}
	if f := strings.Fields(fen); len(f) == 4 {
		fen += " 0 1"
	}
	// the chess core's strict position check: positions no game reaches
	// (castling rights without a rook, the side not to move in check) must
	// never reach an engine
	b, err := board.FromFENChecked(fen, chess960)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	return &Board{b: b}, nil
}

// FEN returns the position in FEN.
func (b *Board) FEN() string { return b.b.FEN() }

// WhiteToMove reports whether White is to move.
func (b *Board) WhiteToMove() bool { return b.b.SideToMove() == board.White }

// FullMove returns the full-move number of the position.
func (b *Board) FullMove() int { return b.b.FullmoveNumber() }

// Ply returns the ply count implied by the FEN: (fullmove-1)*2, +1 when
// Black is to move. The first move of the game is ply Ply()+1.
func (b *Board) Ply() int {
	p := (b.FullMove() - 1) * 2
	if !b.WhiteToMove() {
		p++
	}
	return p
}

// Checkmate reports whether the side to move is checkmated.
func (b *Board) Checkmate() bool { return b.b.IsCheckmate() }

// Stalemate reports whether the side to move is stalemated.
func (b *Board) Stalemate() bool { return b.b.IsStalemate() }

// Move is a legal move resolved on a board.
type Move struct {
	UCI string
	SAN string // canonical SAN with check suffix
	m   board.Move
}

// ParseSAN resolves a SAN move (lenient about suffixes, "0-0", a leading
// "P", a missing "x" or "=") to the single legal move it denotes.
func (b *Board) ParseSAN(san string) (Move, error) {
	m, err := b.b.ParseSAN(san)
	if err != nil {
		return Move{}, fmt.Errorf("replay: %w", err)
	}
	return b.wrap(m), nil
}

// ParseUCI resolves a UCI move ("e2e4", "e7e8q", castling as king move or,
// in Chess960, king takes rook).
func (b *Board) ParseUCI(uci string) (Move, error) {
	m, err := b.b.ParseUCI(uci)
	if err != nil {
		return Move{}, fmt.Errorf("replay: illegal UCI move %q in %s: %w", uci, b.FEN(), err)
	}
	return b.wrap(m), nil
}

// Play returns the board after m (b is unchanged).
func (b *Board) Play(m Move) *Board {
	c := b.b.Clone()
	c.Make(m.m)
	return &Board{b: c}
}

func (b *Board) wrap(m board.Move) Move {
	return Move{UCI: m.String(), SAN: b.b.SAN(m), m: m}
}

// UCIToSAN converts one UCI move to SAN on b.
func (b *Board) UCIToSAN(uci string) (string, error) {
	m, err := b.ParseUCI(uci)
	if err != nil {
		return "", err
	}
	return m.SAN, nil
}

// LineSAN converts a UCI line to SAN, stopping at the first illegal move
// and after max moves (max <= 0: no limit).
func (b *Board) LineSAN(ucis []string, max int) []string {
	return b.line(ucis, max, (*Board).ParseUCI, func(m Move) string { return m.SAN })
}

// LineUCI converts a SAN line to UCI, stopping at the first unreadable or
// illegal move.
func (b *Board) LineUCI(sans []string) []string {
	return b.line(sans, 0, (*Board).ParseSAN, func(m Move) string { return m.UCI })
}

// line plays moves from b, each read by parse and written by write,
// stopping at the first unreadable or illegal move and after max moves
// (max <= 0: no limit).
func (b *Board) line(moves []string, max int, parse func(*Board, string) (Move, error), write func(Move) string) []string {
	var out []string
	cur := b
	for _, mv := range moves {
		if max > 0 && len(out) >= max {
			break
		}
		m, err := parse(cur, mv)
		if err != nil {
			break
		}
		out = append(out, write(m))
		cur = cur.Play(m)
	}
	return out
}
