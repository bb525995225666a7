package htmlreport

import (
	"fmt"
	"html/template"
	"strings"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/report"
	"github.com/outpostchess/outpost/internal/web/svgboard"
)

// ewrView is what the template shows for one expected-winrate moment.
type ewrView struct {
	Ply            int
	Label          string // "14. Qf3?" or "14… Qf3?"
	Class          string // judgement class of the move, "" when not judged
	Why            string // "White's worst move", "our bot's move"
	Rating         int
	OpponentRating int
	Played, Best   *ewrMoveView
	PlayedWasBest  bool
	Base           string
	Partial        bool
	Warnings       []string
	Error          string
	Board          template.HTML // position before the move, both moves drawn
}

type ewrMoveView struct {
	SAN        string
	Winrate    string  // "43.1%"
	Value      float64 // 0..1, for the meter
	Confidence string  // High, Medium or Low
	Coverage   string  // "82%"
	Stockfish  string  // Stockfish's winrate after the move
}

func ewrMoveViewOf(m *report.EWRMove) *ewrMoveView {
	if m == nil {
		return nil
	}
	return &ewrMoveView{SAN: m.SAN, Winrate: report.Percent(m.ExpectedWinrate), Value: m.ExpectedWinrate,
		Confidence: m.ConfidenceLabel, Coverage: fmt.Sprintf("%.0f%%", 100*m.Confidence), Stockfish: report.Percent(m.StockfishWinrate)}
}

// buildEWR builds the moments' views; before(ply) is the FEN before the
// move at ply (1-based).
func buildEWR(a *analysis.Analysis, ms []report.EWRMoment, before func(int) (string, bool)) ([]ewrView, error) {
	out := make([]ewrView, 0, len(ms))
	for _, m := range ms {
		v := ewrView{Ply: m.Ply, Label: m.Label, Why: m.KindText(), Rating: m.Rating, OpponentRating: m.OpponentRating,
			Played: ewrMoveViewOf(m.Played), Best: ewrMoveViewOf(m.Best), PlayedWasBest: m.PlayedWasBest,
			Partial: m.Partial, Warnings: m.Warnings, Error: m.Error, Base: "–"}
		if m.BaseWinrate != nil {
			v.Base = report.Percent(*m.BaseWinrate)
		}
		if m.Ply >= 1 && m.Ply <= len(a.Plies) {
			p := &a.Plies[m.Ply-1]
			v.Label = plyLabel(p) + p.NAG
			if p.NAG == "" {
				v.Label += p.Judgement.NAG()
			}
			if p.Judgement != analysis.NoJudgement {
				v.Class = strings.ToLower(p.Judgement.String())
			}
		}
		fen, ok := before(m.Ply)
		if !ok {
			fen = m.FEN
		}
		if fen != "" {
			opt := svgboard.Options{Label: "Position before " + v.Label, Flip: m.Side == "black"}
			if f, t, ok := svgboard.MoveSquares(m.UCI); ok {
				opt.Arrows = append(opt.Arrows, svgboard.Arrow{From: f, To: t, Kind: "played"})
			}
			if m.Best != nil && !m.PlayedWasBest {
				if f, t, ok := svgboard.MoveSquares(m.Best.UCI); ok {
					opt.Arrows = append(opt.Arrows, svgboard.Arrow{From: f, To: t, Kind: "best"})
				}
			}
			s, err := svgboard.SVG(fen, opt)
			if err != nil {
				return nil, fmt.Errorf("expected winrate at ply %d: %w", m.Ply, err)
			}
			v.Board = template.HTML(s)
		}
		out = append(out, v)
	}
	return out, nil
}

func plyLabel(p *analysis.Ply) string {
	if p.White() {
		return fmt.Sprintf("%d. %s", p.MoveNumber, p.SAN)
	}
	return fmt.Sprintf("%d… %s", p.MoveNumber, p.SAN)
}

// addEWR adds the moments to the view: the section's entries and each
// moment's figures in its move's view.
func (v *gameView) addEWR(a *analysis.Analysis, ms []report.EWRMoment) error {
	before := func(ply int) (string, bool) {
		switch {
		case ply == 1:
			return v.start, true
		case ply >= 2 && ply-2 < len(v.fens):
			return v.fens[ply-2], true
		}
		return "", false
	}
	views, err := buildEWR(a, ms, before)
	if err != nil {
		return err
	}
	v.HasEWR, v.EWR = true, views
	for i := range v.EWR {
		e := &v.EWR[i]
		if e.Ply >= 1 && e.Ply <= len(v.Plies) && v.Plies[e.Ply-1].Ply == e.Ply {
			v.Plies[e.Ply-1].EWR = e
		}
	}
	return nil
}
