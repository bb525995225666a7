package ewr

import "github.com/outpostchess/outpost/bots/board"

// chess960FEN reports whether fen holds castling rights that standard chess
// cannot express (a king off the e-file or a rook off the corner, as in
// Chess960), so that the engine must search it with UCI_Chess960 on.
func chess960FEN(fen string) bool {
	b, err := board.FromFEN960(fen)
	return err == nil && !b.StandardCastling()
}
