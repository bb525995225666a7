package sandbox

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/outpostchess/outpost/bots/board"
)

// ErrTablebaseUnknown is what a TablebaseProber returns for a position it
// cannot resolve exactly; the sandbox then answers category "unknown".
var ErrTablebaseUnknown = errors.New("sandbox: tablebase: position not resolved")

// TablebaseProbe is an exact result for the side to move.
type TablebaseProbe struct {
	// WDL is Syzygy's result: 2 win, 1 cursed win (the 50-move rule
	// draws), 0 draw, -1 blessed loss, -2 loss.
	WDL int
	// DTZ and DTM are the distances in plies (signed as Lichess signs
	// them: positive when the side to move wins), when known.
	DTZ, DTM *int
}

// TablebaseProber resolves positions for the sandbox's tablebase
// (tablebase.lichess.org's GET /standard, served on the sandbox's host).
// Probe must answer exactly or return ErrTablebaseUnknown; the sandbox
// itself handles checkmate, stalemate and insufficient material. A local
// Syzygy prober fits; MateSearchProber is a small exact stand-in.
type TablebaseProber interface {
	Probe(ctx context.Context, b *board.Board) (TablebaseProbe, error)
}

// tbMaxPieces is the most pieces the sandbox's tablebase answers for, as
// Lichess's (7-piece Syzygy).
const tbMaxPieces = 7

// tbCategory maps a WDL to Lichess's category.
func tbCategory(wdl int) string {
	switch wdl {
	case 2:
		return "win"
	case 1:
		return "cursed-win"
	case 0:
		return "draw"
	case -1:
		return "blessed-loss"
	case -2:
		return "loss"
	}
	return "unknown"
}

// tbEntry is one position's answer fields.
type tbEntry struct {
	Category             string `json:"category"`
	DTZ                  *int   `json:"dtz"`
	PreciseDTZ           *int   `json:"precise_dtz"`
	DTM                  *int   `json:"dtm"`
	DTC                  *int   `json:"dtc"`
	DTW                  *int   `json:"dtw"`
	Checkmate            bool   `json:"checkmate"`
	Stalemate            bool   `json:"stalemate"`
	VariantWin           bool   `json:"variant_win"`
	VariantLoss          bool   `json:"variant_loss"`
	InsufficientMaterial bool   `json:"insufficient_material"`
}

// tbMove is one move of the answer.
type tbMove struct {
	UCI     string `json:"uci"`
	SAN     string `json:"san"`
	Zeroing bool   `json:"zeroing"`
	tbEntry
	rank int
}

// probeEntry resolves b with the prober, settling ended positions itself.
func (s *Server) probeEntry(ctx context.Context, b *board.Board) (tbEntry, error) {
	zero := 0
	switch {
	case !b.HasLegalMoves() && b.InCheck():
		return tbEntry{Category: "loss", DTZ: &zero, PreciseDTZ: &zero, DTM: &zero, Checkmate: true}, nil
	case !b.HasLegalMoves():
		return tbEntry{Category: "draw", DTZ: &zero, PreciseDTZ: &zero, DTM: &zero, Stalemate: true}, nil
	case b.InsufficientMaterial():
		return tbEntry{Category: "draw", DTZ: &zero, PreciseDTZ: &zero, DTM: &zero, InsufficientMaterial: true}, nil
	}
	if s.cfg.Tablebase == nil {
		return tbEntry{Category: "unknown"}, nil
	}
	p, err := s.cfg.Tablebase.Probe(ctx, b)
	if errors.Is(err, ErrTablebaseUnknown) {
		return tbEntry{Category: "unknown"}, nil
	}
	if err != nil {
		return tbEntry{}, err
	}
	return tbEntry{Category: tbCategory(p.WDL), DTZ: p.DTZ, PreciseDTZ: p.DTZ, DTM: p.DTM}, nil
}

// moveRank orders the answer's moves best first for the side to move,
// by the category after the move (the opponent's).
var moveRank = map[string]int{"loss": 0, "blessed-loss": 1, "draw": 2, "unknown": 3, "cursed-win": 4, "win": 5}

// handleTablebase serves GET /standard?fen=.
func (s *Server) handleTablebase(w http.ResponseWriter, r *http.Request, _ *account) {
	fen := strings.ReplaceAll(r.URL.Query().Get("fen"), "_", " ")
	p, err := newPosition(fen)
	if err != nil || fen == "" {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("Invalid fen: %s", fen))
		return
	}
	b := p.b
	if board.Count(b.All()) > tbMaxPieces || b.CastlingRights() != 0 {
		writeJSON(w, http.StatusOK, map[string]any{"category": "unknown", "moves": []any{}})
		return
	}
	root, err := s.probeEntry(r.Context(), b)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "tablebase: "+err.Error())
		return
	}
	moves := []tbMove{}
	for _, m := range p.legal.Slice() {
		san := b.SAN(m)
		zeroing := m.IsCapture() || b.PieceAt(m.From()).Type() == board.Pawn
		b.Make(m)
		e, err := s.probeEntry(r.Context(), b)
		b.Unmake()
		if err != nil {
			writeError(w, http.StatusInternalServerError, "tablebase: "+err.Error())
			return
		}
		moves = append(moves, tbMove{UCI: m.String(), SAN: san, Zeroing: zeroing, tbEntry: e, rank: moveRank[e.Category]})
	}
	sort.SliceStable(moves, func(i, j int) bool {
		if moves[i].rank != moves[j].rank {
			return moves[i].rank < moves[j].rank
		}
		return dist(moves[i].DTM) < dist(moves[j].DTM)
	})
	writeJSON(w, http.StatusOK, struct {
		tbEntry
		Moves []tbMove `json:"moves"`
	}{root, moves})
}

// dist is |d|, or a large number when unknown.
func dist(d *int) int {
	if d == nil {
		return 1 << 20
	}
	return max(*d, -*d)
}
