package htmlreport

import (
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/report"
	"github.com/outpostchess/outpost/internal/web/svgboard"
)

// plyView is what the template shows for one move.
type plyView struct {
	Ply       int
	Label     string // "12. Nf3" or "12… Nf6"
	SAN       string
	NAG       string
	Class     string // judgement class: "inaccuracy", "mistake", "blunder" or ""
	Judgement string
	Eval      string
	Comment   string
	BestSAN   string
	Line      string
	White     bool
	MoveNo    int
	EWR       *ewrView // expected winrate at this move, when computed

	// The boards are drawn when the template writes them (Board,
	// BestBoard), not when the view is built: a page holds one board's
	// SVG at a time, not two per ply (about 10 KB each).
	after, before string
	opt, bestOpt  svgboard.Options
	HasBest       bool // a best-move board is drawn (judged plies)
}

// Board is the position after the move.
func (p *plyView) Board() (template.HTML, error) {
	s, err := svgboard.SVG(p.after, p.opt)
	return template.HTML(s), err
}

// BestBoard is the position before the move, with the best and played
// moves drawn.
func (p *plyView) BestBoard() (template.HTML, error) {
	s, err := svgboard.SVG(p.before, p.bestOpt)
	return template.HTML(s), err
}

// moveRow pairs White's and Black's moves of one move number.
type moveRow struct {
	No           int
	White, Black *plyView
}

type playerRow struct {
	Side, Name                   string
	Accuracy, ACPL               string
	Inaccuracy, Mistake, Blunder int
}

type gameView struct {
	ID      string
	Title   string
	Sub     string
	Start   template.HTML
	Graph   template.HTML
	Players []playerRow
	Rows    []moveRow
	Plies   []plyView
	Compare *compareView
	Judged  int

	start string   // the start position's FEN
	fens  []string // the FEN after each ply
	// HasEWR shows the critical-moments section (EWR may then be empty).
	HasEWR bool
	EWR    []ewrView
}

// Game renders one game's section; id prefixes its element ids (use a
// distinct id per game on a page, e.g. "g1").
func Game(a *analysis.Analysis, id string) (template.HTML, error) {
	return GameEWR(a, id, nil)
}

// GameEWR is Game with the game's expected-winrate moments: a "Critical
// moments" section (each moment's position before the move with the played
// and the best practical move drawn, and both expected winrates with their
// confidence) and the figures in each such move's view. A nil moments
// leaves the section out; an empty one says there was no critical moment.
func GameEWR(a *analysis.Analysis, id string, moments []report.EWRMoment) (template.HTML, error) {
	var b strings.Builder
	if err := WriteGame(&b, a, id, moments); err != nil {
		return "", err
	}
	return template.HTML(b.String()), nil
}

// WriteGame writes GameEWR's section to w as it is rendered (the boards
// one at a time), so that a page of many games never holds more than one
// board. A game of more than MaxPlies plies is refused (*TooLongError)
// before anything is written.
func WriteGame(w io.Writer, a *analysis.Analysis, id string, moments []report.EWRMoment) error {
	sec, err := PrepareGame(a, id, moments)
	if err != nil {
		return err
	}
	return sec.Write(w)
}

// Section is one game's section checked and ready to be written: its
// views (about 1 KB a ply) without the boards, which are drawn as they
// are written.
type Section struct {
	v   *gameView
	key string
}

// PrepareGame checks a game for its section (MaxPlies, legal moves, the
// moments) without writing anything, so that a caller streaming a page
// learns of a refusal before its first byte.
func PrepareGame(a *analysis.Analysis, id string, moments []report.EWRMoment) (*Section, error) {
	if err := CheckPlies(a); err != nil {
		return nil, err
	}
	v, err := buildView(a, id)
	if err != nil {
		return nil, err
	}
	if moments != nil {
		if err := v.addEWR(a, moments); err != nil {
			return nil, fmt.Errorf("report: game %s: %w", gameKey(a), err)
		}
	}
	return &Section{v: v, key: gameKey(a)}, nil
}

// Write writes the section to w as it is rendered.
func (s *Section) Write(w io.Writer) error {
	if err := gameTmpl.Execute(w, s.v); err != nil {
		return fmt.Errorf("report: game %s: %w", s.key, err)
	}
	return nil
}

// gameKey names a game in errors: its id, else source#index.
func gameKey(a *analysis.Analysis) string {
	if a.ID != "" {
		return a.ID
	}
	return fmt.Sprintf("%s#%d", a.Source, a.Index)
}

func buildView(a *analysis.Analysis, id string) (*gameView, error) {
	key := gameKey(a)
	ucis := make([]string, len(a.Plies))
	for i, p := range a.Plies {
		ucis[i] = p.UCI
	}
	fens, err := svgboard.PositionFENs(a.FEN, ucis)
	if err != nil {
		return nil, fmt.Errorf("report: game %s: %w", key, err)
	}
	start := a.FEN
	if start == "" {
		start = svgboard.StartFEN
	}
	v := &gameView{ID: id, Title: playerLine(a), start: start, fens: fens}
	sub := []string{}
	if a.ID != "" {
		sub = append(sub, "game "+a.ID)
	} else if a.Source != "" {
		sub = append(sub, a.Source)
	}
	if a.Engine != "" {
		sub = append(sub, "analysed by "+a.Engine)
	}
	v.Sub = strings.Join(sub, " · ")
	sb, err := svgboard.SVG(start, svgboard.Options{Label: "Start position"})
	if err != nil {
		return nil, fmt.Errorf("report: game %s: %w", key, err)
	}
	v.Start = template.HTML(sb)
	for i := range a.Plies {
		p := &a.Plies[i]
		before := start
		if i > 0 {
			before = fens[i-1]
		}
		pv, err := buildPly(p, before, fens[i])
		if err != nil {
			return nil, fmt.Errorf("report: game %s: %w", key, err)
		}
		if pv.Class != "" {
			v.Judged++
		}
		v.Plies = append(v.Plies, pv)
	}
	for i := range v.Plies {
		pv := &v.Plies[i]
		if pv.White || len(v.Rows) == 0 || v.Rows[len(v.Rows)-1].Black != nil || v.Rows[len(v.Rows)-1].No != pv.MoveNo {
			v.Rows = append(v.Rows, moveRow{No: pv.MoveNo})
		}
		r := &v.Rows[len(v.Rows)-1]
		if pv.White {
			r.White = pv
		} else {
			r.Black = pv
		}
	}
	v.Graph = template.HTML(Graph(a, id))
	v.Players = []playerRow{playerRowOf("White", a.Players.White), playerRowOf("Black", a.Players.Black)}
	v.Compare = compareOf(a)
	return v, nil
}

func buildPly(p *analysis.Ply, before, after string) (plyView, error) {
	pv := plyView{Ply: p.Ply, SAN: p.SAN, NAG: p.NAG, White: p.White(), MoveNo: p.MoveNumber, Comment: p.Comment}
	if pv.NAG == "" {
		pv.NAG = p.Judgement.NAG()
	}
	if p.White() {
		pv.Label = fmt.Sprintf("%d. %s", p.MoveNumber, p.SAN)
	} else {
		pv.Label = fmt.Sprintf("%d… %s", p.MoveNumber, p.SAN)
	}
	if p.Judgement != analysis.NoJudgement {
		pv.Judgement = p.Judgement.String()
		pv.Class = strings.ToLower(pv.Judgement)
	}
	if p.Eval != nil {
		pv.Eval = p.Eval.String()
	} else if strings.HasSuffix(p.SAN, "#") {
		pv.Eval = "checkmate"
	}
	from, to, ok := svgboard.MoveSquares(p.UCI)
	opt := svgboard.Options{Label: "Position after " + pv.Label + pv.NAG}
	if ok {
		opt.Highlight = []string{from, to}
	}
	pv.after, pv.before, pv.opt = after, before, opt
	if p.BestSAN != nil && p.Judgement != analysis.NoJudgement {
		pv.BestSAN = *p.BestSAN
		line := p.Variation
		if len(line) == 0 {
			line = []string{*p.BestSAN}
		}
		pv.Line = numberLine(p.MoveNumber, p.White(), line)
		bopt := svgboard.Options{Label: "Position before " + pv.Label + ", best was " + pv.BestSAN}
		if ok {
			bopt.Arrows = append(bopt.Arrows, svgboard.Arrow{From: from, To: to, Kind: "played"})
		}
		best := ""
		if p.BestUCI != nil {
			best = *p.BestUCI
		} else if l, err := svgboard.PlaySAN(before, line[:1]); err == nil && len(l.UCI) == 1 {
			best = l.UCI[0]
		}
		if bf, bt, ok := svgboard.MoveSquares(best); ok {
			bopt.Arrows = append(bopt.Arrows, svgboard.Arrow{From: bf, To: bt, Kind: "best"})
		}
		pv.bestOpt, pv.HasBest = bopt, true
	}
	return pv, nil
}

// numberLine writes a SAN line with move numbers: "12. Nf3 Nc6 13. Bb5" or
// "12… Nf6 13. Nc3".
func numberLine(no int, white bool, sans []string) string {
	var b strings.Builder
	for i, s := range sans {
		if i > 0 {
			b.WriteByte(' ')
		}
		switch {
		case white:
			fmt.Fprintf(&b, "%d. ", no)
		case i == 0:
			fmt.Fprintf(&b, "%d… ", no)
		}
		b.WriteString(s)
		if !white {
			no++
		}
		white = !white
	}
	return b.String()
}

func playerRowOf(side string, p analysis.Player) playerRow {
	r := playerRow{Side: side, Name: p.Name, Accuracy: "–", ACPL: "–", Inaccuracy: p.Inaccuracy, Mistake: p.Mistake, Blunder: p.Blunder}
	if r.Name == "" {
		r.Name = side
	}
	if p.Rating > 0 {
		r.Name += fmt.Sprintf(" (%d)", p.Rating)
	}
	if p.Accuracy != nil {
		r.Accuracy = fmt.Sprintf("%d%%", *p.Accuracy)
	}
	if p.ACPL != nil {
		r.ACPL = fmt.Sprint(*p.ACPL)
	}
	return r
}
