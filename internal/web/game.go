package web

import (
	"encoding/json"
	"errors"
	"html/template"
	"net/http"
	"strings"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/internal/web/htmlreport"
	"github.com/outpostchess/outpost/internal/web/svgboard"
)

// critical is a judged move linked to the explorer (expected winrate of
// the position before it).
type critical struct {
	Label, Judgement, Link string
}

// otherMistakes lists the mistakes and blunders that are not among the
// moments shown, in game order.
func otherMistakes(a *analysis.Analysis, gameID string, shown []momentView) []critical {
	isShown := map[int]bool{}
	for _, m := range shown {
		isShown[m.Ply] = true
	}
	var out []critical
	for _, p := range a.Plies {
		if p.Judgement >= analysis.Mistake && !isShown[p.Ply] {
			out = append(out, critical{Label: plyLabel(p), Judgement: p.Judgement.String(),
				Link: "/explorer?game=" + gameID + "&ply=" + itoa(p.Ply-1)})
		}
	}
	return out
}

type gameData struct {
	ID       string
	Opponent string
	Status   string
	// HasReport: the report section (report) is written between the
	// page's top and its rest.
	HasReport bool
	report    *htmlreport.Section
	Board     template.HTML
	Moves     string
	State     string
	Error     string
	// Moments are each side's critical moment with its expected winrate
	// (computed in the background; Live when the page must follow the
	// computation); Others the other mistakes and blunders.
	Moments momentsView
	Live    bool
	Others  []critical
	// Verified is the game's check against Lichess's evaluations, nil
	// when there is none.
	Verified *verifiedView
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
	d := gameData{ID: g.ID, Opponent: g.Opponent, Status: g.Status, Moves: g.Moves, Verified: s.verifiedFor(r.Context(), id)}
	a, err := s.opt.Store.AnalysisOf(r.Context(), id)
	switch {
	case err == nil && a.Result != "":
		var an analysis.Analysis
		if err := json.Unmarshal([]byte(a.Result), &an); err != nil {
			d.Error = "the stored analysis cannot be read: " + err.Error()
			break
		}
		sec, err := htmlreport.PrepareGame(&an, "g1", nil)
		if err != nil {
			d.Error = err.Error()
			break
		}
		d.HasReport, d.report = true, sec
		d.Moments, d.Live = s.momentsFor(&an, g)
		d.Others = otherMistakes(&an, g.ID, d.Moments.Moments)
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
	if !d.HasReport {
		fen := g.InitialFEN
		if fen == "" || fen == "startpos" {
			fen = svgboard.StartFEN
		}
		if mv := strings.Fields(g.Moves); len(mv) > 0 {
			if fens, _ := svgboard.PositionFENs(fen, mv); len(fens) > 0 {
				fen = fens[len(fens)-1]
			}
		}
		if svg, err := svgboard.SVG(fen, svgboard.Options{Flip: g.Color == "black", Label: "Final position"}); err == nil {
			d.Board = template.HTML(svg)
		}
	}
	scripts := []string{"report.js"}
	if d.Live {
		scripts = append(scripts, "moments.js")
	}
	s.writeGame(w, r, page{Title: "Game " + g.ID, Nav: "dashboard", Scripts: scripts, Data: d})
}

// reportPages bounds the game pages with a report written at once. A
// page is streamed (its boards drawn as they are written), so each holds
// its analysis and views, about 2 MB for a game at htmlreport.MaxPlies,
// not its 11 MB of HTML; the bound keeps a burst of such requests to a
// few of those (four 1,000-ply pages at once took 175 MB when each page
// was built in memory first, and four 10,000-ply ones killed `outpost
// serve` before the ply bound). A page waiting for its turn waits for its
// request's context.
const reportPages = 4

// writeGame writes the game page: the layout's top and the page's head,
// then the report section straight to w as it is rendered, then the rest.
// Everything that can fail for a reason of the game's (the ply bound, an
// unreadable analysis) was checked before (htmlreport.PrepareGame), so
// only writing fails here, and is logged: the status is already sent.
func (s *Server) writeGame(w http.ResponseWriter, r *http.Request, p page) {
	d := p.Data.(gameData)
	if d.HasReport {
		select {
		case s.reportSem <- struct{}{}:
		case <-r.Context().Done():
			return
		}
		defer func() { <-s.reportSem }()
	}
	p.CSRF = s.csrf
	t := s.pages["game"]
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	err := t.ExecuteTemplate(w, "top", p)
	if err == nil {
		err = t.ExecuteTemplate(w, "game-top", p)
	}
	if err == nil && d.HasReport {
		err = d.report.Write(w)
	}
	if err == nil {
		err = t.ExecuteTemplate(w, "game-rest", p)
	}
	if err == nil {
		err = t.ExecuteTemplate(w, "bottom", p)
	}
	if err != nil {
		s.opt.Logger.Warn().Err(err).Str("game", d.ID).Msg("web: write the game page")
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// momentsFor returns the critical moments to show: the finished job's when
// there is one, else the moments still to compute (live: the page follows
// the computation), or unavailable without a calculator.
func (s *Server) momentsFor(a *analysis.Analysis, g store.Game) (momentsView, bool) {
	views := criticalViews(a, g.ID, g.Color)
	if s.opt.Calculator == nil {
		return momentsView{GameID: g.ID, State: jobUnavailable, Moments: views}, false
	}
	if v, ok := s.momentsSnapshot(g.ID, views); ok {
		return v, v.State == jobRunning
	}
	v := momentsView{GameID: g.ID, Available: true, State: jobRunning, Moments: views}
	return v, len(v.Moments) > 0
}
