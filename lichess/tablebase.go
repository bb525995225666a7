package lichess

import (
	"context"
	"fmt"
	"net/url"
	"strings"
)

// Tablebase categories, from the side to move's point of view
// (TablebaseJson.category in the spec). CursedWin and BlessedLoss are
// decisive results the 50-move rule turns into draws; the Syzygy and
// Maybe kinds are wins or losses the 50-move rule may or may not spoil.
const (
	TBWin         = "win"
	TBSyzygyWin   = "syzygy-win"
	TBMaybeWin    = "maybe-win"
	TBCursedWin   = "cursed-win"
	TBDraw        = "draw"
	TBUnknown     = "unknown"
	TBBlessedLoss = "blessed-loss"
	TBMaybeLoss   = "maybe-loss"
	TBSyzygyLoss  = "syzygy-loss"
	TBLoss        = "loss"
)

// TablebaseMaxPieces is the most pieces (kings included) the online
// tablebase answers exactly for in standard chess.
const TablebaseMaxPieces = 7

// TablebaseResult is what the tablebase says of one position, from its
// side to move's point of view (the fields TablebaseJson and TablebaseMove
// share in the spec).
type TablebaseResult struct {
	// Category is the position's result for the side to move.
	Category string `json:"category"`
	// DTZ is the distance to zeroing (plies, rounded), when known.
	DTZ *int `json:"dtz"`
	// PreciseDTZ is DTZ when known not to be rounded.
	PreciseDTZ *int `json:"precise_dtz"`
	// DTM is the distance to mate in plies (up to 6 pieces), when known.
	DTM *int `json:"dtm"`
	// Checkmate, Stalemate and InsufficientMaterial describe the position.
	Checkmate            bool `json:"checkmate"`
	Stalemate            bool `json:"stalemate"`
	InsufficientMaterial bool `json:"insufficient_material"`
}

// Tablebase is the tablebase's answer for a position (TablebaseJson).
type Tablebase struct {
	TablebaseResult
	// Moves are the legal moves, best first.
	Moves []TablebaseMove `json:"moves"`
}

// TablebaseMove is one legal move and the result of the position it leads
// to, from the opponent's (the side to move after it) point of view
// (TablebaseMove in the spec).
type TablebaseMove struct {
	UCI string `json:"uci"`
	SAN string `json:"san"`
	TablebaseResult
	// Zeroing is a capture or pawn move (it resets the 50-move counter).
	Zeroing bool `json:"zeroing"`
}

// Tablebase looks a standard-chess position up (GET /standard?fen= on the
// tablebase host).
func (s *Service) Tablebase(ctx context.Context, fen string) (*Tablebase, error) {
	fen = strings.TrimSpace(fen)
	if fen == "" {
		return nil, fmt.Errorf("lichess: tablebase: empty FEN")
	}
	var out Tablebase
	if err := s.getJSON(ctx, "/standard", url.Values{"fen": {fen}}, &out); err != nil {
		return nil, fmt.Errorf("lichess: tablebase: %w", err)
	}
	if out.Category == "" {
		return nil, fmt.Errorf("lichess: tablebase %q: answer without a category", fen)
	}
	return &out, nil
}
