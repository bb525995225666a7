// Package replay plays moves on a chess board (github.com/notnil/chess for
// the rules): it resolves SAN leniently but exactly (suffixes, 0-0 castling,
// over-disambiguation), converts between SAN and UCI and reports the game
// state. It is the only place the analysis packages touch chess rules.
package replay

import (
	"fmt"
	"github.com/outpostchess/outpost/bots/board"
	"strconv"
	"strings"

	"github.com/notnil/chess"
)

// StandardFEN is the standard starting position.
const StandardFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// Board is a position with its move history count.
type Board struct {
	pos *chess.Position
}

// New returns the board of fen ("" or "startpos" for the standard start).
// A FEN with only four fields gets "0 1".
func New(fen string) (*Board, error) {
	fen = strings.TrimSpace(fen)
	if fen == "" || fen == "startpos" {
		fen = StandardFEN
	}
	if f := strings.Fields(fen); len(f) == 4 {
		fen += " 0 1"
	}
	// the chess core's position check first: notnil/chess accepts
	// positions no game reaches (castling rights without a rook, the side
	// not to move in check) and those must never reach an engine
	if err := board.Validate(fen, false); err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	opt, err := chess.FEN(fen)
	if err != nil {
		return nil, fmt.Errorf("replay: bad FEN %q: %w", fen, err)
	}
	return &Board{pos: chess.NewGame(opt).Position()}, nil
}

// FEN returns the position in FEN.
func (b *Board) FEN() string { return b.pos.String() }

// WhiteToMove reports whether White is to move.
func (b *Board) WhiteToMove() bool { return b.pos.Turn() == chess.White }

// FullMove returns the full-move number of the position.
func (b *Board) FullMove() int {
	f := strings.Fields(b.pos.String())
	if len(f) == 6 {
		if n, err := strconv.Atoi(f[5]); err == nil {
			return n
		}
	}
	return 1
}

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
func (b *Board) Checkmate() bool { return b.pos.Status() == chess.Checkmate }

// Stalemate reports whether the side to move is stalemated.
func (b *Board) Stalemate() bool { return b.pos.Status() == chess.Stalemate }

// Move is a legal move resolved on a board.
type Move struct {
	UCI string
	SAN string // canonical SAN with check suffix
	m   *chess.Move
}

// ParseSAN resolves a SAN move (lenient about suffixes, "0-0", a leading
// "P", a missing "x" or "=") to the single legal move it denotes.
func (b *Board) ParseSAN(san string) (Move, error) {
	s := strings.TrimRight(san, "+#!?")
	s = strings.TrimSuffix(s, "e.p.")
	legal := b.pos.ValidMoves()
	if s == "O-O" || s == "0-0" || s == "O-O-O" || s == "0-0-0" {
		tag := chess.KingSideCastle
		if len(s) == 5 {
			tag = chess.QueenSideCastle
		}
		for _, m := range legal {
			if m.HasTag(tag) {
				return b.wrap(m), nil
			}
		}
		return Move{}, fmt.Errorf("illegal move %q in %s", san, b.FEN())
	}
	piece := chess.Pawn
	if s != "" && strings.ContainsRune("KQRBNP", rune(s[0])) {
		piece = pieceType(s[0])
		s = s[1:]
	}
	promo := chess.NoPieceType
	if n := len(s); n >= 1 && strings.ContainsRune("QRBN", rune(s[n-1])) {
		promo = pieceType(s[n-1])
		s = strings.TrimSuffix(s[:n-1], "=")
	}
	if len(s) < 2 {
		return Move{}, fmt.Errorf("cannot read move %q", san)
	}
	to := s[len(s)-2:]
	if to[0] < 'a' || to[0] > 'h' || to[1] < '1' || to[1] > '8' {
		return Move{}, fmt.Errorf("cannot read move %q", san)
	}
	from := strings.TrimSuffix(strings.TrimSuffix(s[:len(s)-2], "x"), "-")
	if len(from) > 2 {
		return Move{}, fmt.Errorf("cannot read move %q", san)
	}
	var fromFile, fromRank byte
	for i := 0; i < len(from); i++ {
		c := from[i]
		switch {
		case c >= 'a' && c <= 'h':
			fromFile = c
		case c >= '1' && c <= '8':
			fromRank = c
		default:
			return Move{}, fmt.Errorf("cannot read move %q", san)
		}
	}
	var found []*chess.Move
	for _, m := range legal {
		if m.S2().String() != to || m.Promo() != promo {
			continue
		}
		if b.pos.Board().Piece(m.S1()).Type() != piece {
			continue
		}
		fs := m.S1().String()
		if (fromFile != 0 && fs[0] != fromFile) || (fromRank != 0 && fs[1] != fromRank) {
			continue
		}
		found = append(found, m)
	}
	switch len(found) {
	case 1:
		return b.wrap(found[0]), nil
	case 0:
		return Move{}, fmt.Errorf("illegal move %q in %s", san, b.FEN())
	}
	return Move{}, fmt.Errorf("ambiguous move %q in %s", san, b.FEN())
}

// ParseUCI resolves a UCI move ("e2e4", "e7e8q", castling as king move).
func (b *Board) ParseUCI(uci string) (Move, error) {
	for _, m := range b.pos.ValidMoves() {
		if (chess.UCINotation{}).Encode(b.pos, m) == uci {
			return b.wrap(m), nil
		}
	}
	return Move{}, fmt.Errorf("illegal UCI move %q in %s", uci, b.FEN())
}

// Play returns the board after m (b is unchanged).
func (b *Board) Play(m Move) *Board { return &Board{pos: b.pos.Update(m.m)} }

func (b *Board) wrap(m *chess.Move) Move {
	return Move{
		UCI: chess.UCINotation{}.Encode(b.pos, m),
		SAN: chess.AlgebraicNotation{}.Encode(b.pos, m),
		m:   m,
	}
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
	var out []string
	cur := b
	for _, u := range ucis {
		if max > 0 && len(out) >= max {
			break
		}
		m, err := cur.ParseUCI(u)
		if err != nil {
			break
		}
		out = append(out, m.SAN)
		cur = cur.Play(m)
	}
	return out
}

// LineUCI converts a SAN line to UCI, stopping at the first unreadable or
// illegal move.
func (b *Board) LineUCI(sans []string) []string {
	var out []string
	cur := b
	for _, s := range sans {
		m, err := cur.ParseSAN(s)
		if err != nil {
			break
		}
		out = append(out, m.UCI)
		cur = cur.Play(m)
	}
	return out
}

func pieceType(c byte) chess.PieceType {
	switch c {
	case 'K':
		return chess.King
	case 'Q':
		return chess.Queen
	case 'R':
		return chess.Rook
	case 'B':
		return chess.Bishop
	case 'N':
		return chess.Knight
	}
	return chess.Pawn
}
