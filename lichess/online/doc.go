// Package online implements move sources (bots/movesource) backed by
// Lichess's services: the cloud evaluation cache (/api/cloud-eval), the
// opening explorer (masters and lichess databases) and the online Syzygy
// tablebase. Every move a source returns is checked legal with bots/board
// and written as the board writes it (castling as the king's move).
//
// Variants: the explorer and the cloud evaluation are asked for standard
// chess only (standard games and games from a position); Chess960 games
// are not sent to them, since Lichess's explorer has no Chess960 database
// and its cloud cache is not documented to hold Chess960 castling rights.
// The tablebase is asked for Chess960 games too once no castling right is
// left, when the position is an ordinary standard position.
package online

import (
	"fmt"

	"github.com/outpostchess/outpost/bots/board"
	"github.com/outpostchess/outpost/bots/engine"
	"github.com/outpostchess/outpost/bots/movesource"
)

// Source names, as they appear in engine.Move.Source and the logs.
const (
	NameCloudEval = "cloud-eval"
	NameExplorer  = "explorer"
	NameTablebase = "tablebase"
)

// position sets up pos's board for a source; Chess960 positions are
// refused with ErrNoMove unless allow960.
func position(pos engine.Position, allow960 bool) (*board.Board, error) {
	if pos.Chess960 && !allow960 {
		return nil, movesource.ErrNoMove
	}
	b, err := pos.Board()
	if err != nil {
		return nil, fmt.Errorf("online: %w", err)
	}
	if !b.HasLegalMoves() {
		return nil, movesource.ErrNoMove
	}
	return b, nil
}

// legal returns the legal move uci (either castling notation) written as
// the board writes it, or false.
func legal(b *board.Board, uci string) (string, bool) {
	m, err := b.ParseUCI(uci)
	if err != nil {
		return "", false
	}
	return m.String(), true
}

// gamePly is the position's ply counted from the game's true start, so a
// game from a position at move 20 is at ply 38 or 39.
func gamePly(b *board.Board) int {
	p := (b.FullmoveNumber() - 1) * 2
	if b.SideToMove() == board.Black {
		p++
	}
	return p
}
