package htmlreport

import (
	"fmt"

	"github.com/outpostchess/outpost/analysis"
)

type compareView struct {
	// Against names the compared analysis ("Lichess", or the stand-in at
	// its host: analysis.Comparison.AgainstName); Label is its column
	// heading, Possessive its possessive form.
	Against, Label, Possessive string
	Lichess, Ours, Exact       int
	SameName                   string
	Precision, Recall, F1      string
	Agree, Plies, Within       int
	MAECP, MAEWin              string
	EvalPlies                  int
	Players                    []comparePlayer
	Disagreements              []disagreeView
}

type comparePlayer struct {
	Side                           string
	OurAcc, LiAcc, OurACPL, LiACPL string
}

type disagreeView struct {
	Ply                  int
	Label                string
	Lichess, Ours, Cause string
}

func pct(p *float64) string {
	if p == nil {
		return "–"
	}
	return fmt.Sprintf("%.0f%%", *p*100)
}

func optFloat(p *float64, format string) string {
	if p == nil {
		return "–"
	}
	return fmt.Sprintf(format, *p)
}

func optInt(p *int) string {
	if p == nil {
		return "–"
	}
	return fmt.Sprint(*p)
}

// compareOf builds the comparison view, nil when the game was not compared.
func compareOf(a *analysis.Analysis) *compareView {
	c := a.Comparison
	if c == nil {
		return nil
	}
	v := &compareView{
		Against: c.AgainstName(), Label: c.AgainstLabel(), Possessive: c.AgainstName() + "'s",
		Lichess: c.Judgments.Lichess, Ours: c.Judgments.Ours, Exact: c.Judgments.Exact,
		SameName: pct(c.SameNameRate), Precision: pct(c.Precision), Recall: pct(c.Recall), F1: pct(c.F1),
		Agree: c.Agree, Plies: c.Plies, Within: c.WithinOneGrade,
		MAECP: fmt.Sprintf("%.1f", c.EvalMAECP), MAEWin: fmt.Sprintf("%.1f", c.EvalMAEWinPct), EvalPlies: c.EvalPlies,
	}
	for _, s := range []struct {
		side string
		d    analysis.PlayerDiff
	}{{"White", c.White}, {"Black", c.Black}} {
		v.Players = append(v.Players, comparePlayer{Side: s.side,
			OurAcc: optFloat(s.d.OurAccuracy, "%.1f"), LiAcc: optFloat(s.d.LichessAccuracy, "%.1f"),
			OurACPL: optInt(s.d.OurACPL), LiACPL: optInt(s.d.LichessACPL)})
	}
	for _, d := range c.Disagreements {
		label := d.SAN
		if d.Ply >= 1 && d.Ply <= len(a.Plies) {
			p := a.Plies[d.Ply-1]
			if p.White() {
				label = fmt.Sprintf("%d. %s", p.MoveNumber, p.SAN)
			} else {
				label = fmt.Sprintf("%d… %s", p.MoveNumber, p.SAN)
			}
		}
		v.Disagreements = append(v.Disagreements, disagreeView{Ply: d.Ply, Label: label, Lichess: d.Lichess, Ours: d.Ours, Cause: d.Cause})
	}
	return v
}
