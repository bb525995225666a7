package web

import (
	"encoding/json"
	"errors"
	"html/template"
	"net/http"
	"strings"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/ewr"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/internal/web/board"
	"github.com/outpostchess/outpost/internal/web/report"
)

// critical is a judged move linked to the explorer (expected winrate of
// the position before it). Key marks a side's critical moment.
type critical struct {
	Label, Judgement, Link string
	Key                    bool
}

// criticalMoments lists each side's critical moment (ewr.CriticalPlies)
// first, then the other mistakes and blunders, in game order.
func criticalMoments(a *analysis.Analysis, gameID string) []critical {
	keys := ewr.CriticalPlies(a)
	isKey := map[int]bool{}
	for _, k := range keys {
		isKey[k] = true
	}
	item := func(p analysis.Ply) critical {
		label := itoa(p.MoveNumber) + "… " + p.SAN
		if p.White() {
			label = itoa(p.MoveNumber) + ". " + p.SAN
		}
		return critical{Label: label + p.Judgement.NAG(), Judgement: p.Judgement.String(), Key: isKey[p.Ply],
			Link: "/explorer?game=" + gameID + "&ply=" + itoa(p.Ply-1)}
	}
	var out []critical
	for _, k := range keys {
		if k >= 1 && k <= len(a.Plies) {
			out = append(out, item(a.Plies[k-1]))
		}
	}
	for _, p := range a.Plies {
		if p.Judgement >= analysis.Mistake && !isKey[p.Ply] {
			out = append(out, item(p))
		}
	}
	return out
}

type gameData struct {
	ID       string
	Opponent string
	Status   string
	Report   template.HTML
	Board    template.HTML
	Moves    string
	State    string
	Error    string
	Critical []critical
}

func (s *Server) game(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	g, err := s.opt.Store.Game(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		s.fail(w, http.StatusNotFound, "Game not found", "No game "+id+" in the store.")
		return
	}
	if err != nil {
		s.fail(w, http.StatusInternalServerError, "Store error", err.Error())
		return
	}
	d := gameData{ID: g.ID, Opponent: g.Opponent, Status: g.Status, Moves: g.Moves}
	a, err := s.opt.Store.AnalysisOf(r.Context(), id)
	switch {
	case err == nil && a.Result != "":
		var an analysis.Analysis
		if err := json.Unmarshal([]byte(a.Result), &an); err != nil {
			d.Error = "the stored analysis cannot be read: " + err.Error()
			break
		}
		html, err := report.Game(&an, "g1")
		if err != nil {
			d.Error = err.Error()
			break
		}
		d.Report = html
		d.Critical = criticalMoments(&an, g.ID)
	case err == nil:
		d.State = string(a.State)
		if a.Error != "" {
			d.State += ": " + a.Error
		}
	case errors.Is(err, store.ErrNotFound):
		d.State = "not analysed"
	default:
		d.Error = err.Error()
	}
	if d.Report == "" {
		fen := g.InitialFEN
		if fen == "" || fen == "startpos" {
			fen = board.StartFEN
		}
		if mv := strings.Fields(g.Moves); len(mv) > 0 {
			if fens, _ := board.Replay(fen, mv); len(fens) > 0 {
				fen = fens[len(fens)-1]
			}
		}
		if svg, err := board.SVG(fen, board.Options{Flip: g.Color == "black", Label: "Final position"}); err == nil {
			d.Board = template.HTML(svg)
		}
	}
	s.render(w, http.StatusOK, "game", page{Title: "Game " + g.ID, Nav: "dashboard", Scripts: []string{"report.js"}, Data: d})
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
