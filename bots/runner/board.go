package runner

import (
	"fmt"

	"github.com/outpostchess/outpost/bots/board"
)

// newBoard returns a board at fen ("" = standard start). The runner keeps
// one board per game and plays each new server move onto it, so that a
// game state costs one move's work, not a replay of the whole game.
// bots/board is checked move for move against notnil/chess (perft and
// random-game differential tests), the referee the sandbox uses.
func newBoard(fen string) (*board.Board, error) {
	if fen == "" {
		return board.New(), nil
	}
	b, err := board.FromFEN(fen)
	if err != nil {
		return nil, fmt.Errorf("initial position %q: %w", fen, err)
	}
	return b, nil
}

// legal reports whether uci is a legal move on b, written exactly as
// Lichess expects it (lower-case promotion letter, castling as e1g1).
func legal(b *board.Board, uci string) bool {
	if b == nil || uci == "" {
		return false
	}
	_, ok := b.FindUCI(uci)
	return ok
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
