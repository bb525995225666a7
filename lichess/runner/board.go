package runner

import (
	"fmt"

	"github.com/outpostchess/outpost/bots/board"
)

// startPosition is a game's initialFen as Lichess reads it.
type startPosition struct {
	fen      string // the position as the board has it ("" for the standard start): what engines are given
	chess960 bool   // played with Chess960 castling
}

// readStart reads a gameFull's initialFen ("" = standard start) as Lichess
// reads a position it makes a game from (board.FromFENPlayable: any
// material, since Lichess counts neither pieces nor promotions; castling
// rights without their king or rook and an impossible en passant square
// dropped): a position Lichess refuses (the side not to move in check, a
// side without exactly one king, …) is a *board.PositionError and never
// reaches the engine, and what Lichess drops never reaches it either,
// since engines are given the FEN the board writes, not the server's.
// (Lichess writes its initialFen without such rights; a server that sends
// them is played as Lichess would have played the position.)
func readStart(fen string, chess960 bool) (startPosition, error) {
	if fen == "" {
		return startPosition{}, nil
	}
	b, err := newBoard(fen, chess960)
	if err != nil {
		return startPosition{}, err
	}
	return startPosition{fen: b.FEN(), chess960: b.Chess960()}, nil
}

// newBoard returns a board at fen ("" = standard start), with Chess960
// castling when chess960 is set or the position needs it, read as
// readStart reads it. The runner keeps one board per game and plays each
// new server move onto it, so that a game state costs one move's work,
// not a replay of the whole game.
func newBoard(fen string, chess960 bool) (*board.Board, error) {
	if fen == "" {
		fen = board.StartFEN
	}
	b, err := board.FromFENPlayable(fen, chess960)
	if err != nil {
		return nil, fmt.Errorf("initial position %q: %w", fen, err)
	}
	return b, nil
}

// legal reports whether uci is a legal move on b, written exactly as
// Lichess expects it (lower-case promotion letter, castling as e1g1 in
// standard chess and king takes rook, e1h1, in Chess960).
func legal(b *board.Board, uci string) bool {
	if b == nil || uci == "" {
		return false
	}
	_, ok := b.FindUCI(uci)
	return ok
}

// canonical returns uci as Lichess expects it on b when it is legal in any
// accepted spelling (an engine may write castling e1g1 in Chess960 or e1h1
// in standard chess, or a promotion in upper case), else uci unchanged.
func canonical(b *board.Board, uci string) string {
	if b == nil || len(uci) < 4 || len(uci) > 5 {
		return uci
	}
	if m, err := b.ParseUCI(uci); err == nil {
		return m.String()
	}
	return uci
}

// fallbackMove picks a legal move without an engine: a capture of the most
// valuable piece if there is one, else the first legal move (in generation
// order). It is the last resort when the engine failed; "" when there is no
// legal move.
func fallbackMove(b *board.Board) string {
	var ml board.MoveList
	b.GenerateMoves(&ml)
	if ml.N == 0 {
		return ""
	}
	best, bestVal := ml.Moves[0], -1
	for _, m := range ml.Slice() {
		if v := pieceValue(captured(b, m)); v > bestVal {
			best, bestVal = m, v
		}
	}
	return best.String()
}

// captured returns the type of the piece m takes (NoPieceType when none).
func captured(b *board.Board, m board.Move) board.PieceType {
	switch {
	case m.IsEnPassant():
		return board.Pawn
	case m.IsCapture():
		return b.PieceAt(m.To()).Type()
	}
	return board.NoPieceType
}

func pieceValue(t board.PieceType) int {
	switch t {
	case board.Queen:
		return 9
	case board.Rook:
		return 5
	case board.Bishop, board.Knight:
		return 3
	case board.Pawn:
		return 1
	}
	return 0
}
