package runner

import (
	"fmt"

	"github.com/notnil/chess"
)

// startGame returns a notnil game at fen ("" = standard start).
func startGame(fen string) (*chess.Game, error) {
	if fen == "" {
		return chess.NewGame(), nil
	}
	opt, err := chess.FEN(fen)
	if err != nil {
		return nil, fmt.Errorf("initial position %q: %w", fen, err)
	}
	return chess.NewGame(opt), nil
}

// playUCI plays a UCI move on g, refusing illegal ones.
func playUCI(g *chess.Game, uci string) error {
	m, err := chess.UCINotation{}.Decode(g.Position(), uci)
	if err != nil {
		return err
	}
	return g.Move(m)
}

// legal reports whether uci is a legal move in g's current position.
func legal(g *chess.Game, uci string) bool {
	if g == nil || uci == "" {
		return false
	}
	pos := g.Position()
	m, err := chess.UCINotation{}.Decode(pos, uci)
	if err != nil {
		return false
	}
	for _, v := range pos.ValidMoves() {
		if v.S1() == m.S1() && v.S2() == m.S2() && v.Promo() == m.Promo() {
			return true
		}
	}
	return false
}

// fallbackMove picks a legal move without an engine: a capture of the most
// valuable piece if there is one, else the first legal move. It is the last
// resort when the engine failed; "" when there is no legal move.
func fallbackMove(g *chess.Game) string {
	pos := g.Position()
	moves := pos.ValidMoves()
	if len(moves) == 0 {
		return ""
	}
	best, bestVal := moves[0], -1
	for _, m := range moves {
		if v := pieceValue(pos.Board().Piece(m.S2()).Type()); v > bestVal {
			best, bestVal = m, v
		}
	}
	return chess.UCINotation{}.Encode(pos, best)
}

func pieceValue(t chess.PieceType) int {
	switch t {
	case chess.Queen:
		return 9
	case chess.Rook:
		return 5
	case chess.Bishop, chess.Knight:
		return 3
	case chess.Pawn:
		return 1
	}
	return 0
}
