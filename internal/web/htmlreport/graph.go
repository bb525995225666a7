package htmlreport

import (
	"fmt"
	"html"
	"strings"

	"github.com/outpostchess/outpost/analysis"
)

// Graph dimensions in SVG user units.
const (
	graphW = 600
	graphH = 160
)

// WinSeries returns White's Win% (0..100) after each ply: from the ply's
// eval; a checkmate (no eval, SAN ending in '#') is 100 or 0 for the mover;
// an unknown eval repeats the previous value (50 before the first).
func WinSeries(a *analysis.Analysis) []float64 {
	out := make([]float64, len(a.Plies))
	prev := (analysis.InitialEval).WinPercent()
	for i, p := range a.Plies {
		switch {
		case p.Eval != nil:
			prev = (*p.Eval).WinPercent()
		case strings.HasSuffix(p.SAN, "#"):
			prev = 0
			if p.White() {
				prev = 100
			}
		}
		out[i] = prev
	}
	return out
}

// Graph draws the evaluation graph of a game as an <svg>: White's Win% over
// the plies as a filled area (white above the line's complement, as on
// Lichess), the 50% line, a marker on every judged move and a clickable band
// per ply (data-ply attributes; the script shows that ply).
func Graph(a *analysis.Analysis, id string) string {
	ws := WinSeries(a)
	n := len(ws)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="eval-graph" id="%s-graph" viewBox="0 0 %d %d" preserveAspectRatio="none" role="img" aria-label="%s">`,
		html.EscapeString(id), graphW, graphH, html.EscapeString(fmt.Sprintf("Evaluation graph over %d moves", n)))
	fmt.Fprintf(&b, `<rect class="bg" width="%d" height="%d"/>`, graphW, graphH)
	if n == 0 {
		b.WriteString(`</svg>`)
		return b.String()
	}
	step := float64(graphW) / float64(max(n, 1))
	x := func(i int) float64 { return (float64(i) + 0.5) * step }
	y := func(w float64) float64 { return graphH - w/100*graphH }
	var pts strings.Builder
	fmt.Fprintf(&pts, "0,%d 0,%.1f", graphH, y((analysis.InitialEval).WinPercent()))
	for i, w := range ws {
		fmt.Fprintf(&pts, " %.1f,%.1f", x(i), y(w))
	}
	fmt.Fprintf(&pts, " %d,%.1f %d,%d", graphW, y(ws[n-1]), graphW, graphH)
	fmt.Fprintf(&b, `<polygon class="area" points="%s"/>`, pts.String())
	fmt.Fprintf(&b, `<line class="mid" x1="0" y1="%d" x2="%d" y2="%d"/>`, graphH/2, graphW, graphH/2)
	var line strings.Builder
	for i, w := range ws {
		if i > 0 {
			line.WriteByte(' ')
		}
		fmt.Fprintf(&line, "%.1f,%.1f", x(i), y(w))
	}
	fmt.Fprintf(&b, `<polyline class="curve" points="%s"/>`, line.String())
	fmt.Fprintf(&b, `<line class="cursor" x1="-10" y1="0" x2="-10" y2="%d"/>`, graphH)
	for i, p := range a.Plies {
		fmt.Fprintf(&b, `<rect class="band" data-ply="%d" x="%.1f" y="0" width="%.1f" height="%d"><title>%s</title></rect>`,
			p.Ply, float64(i)*step, step, graphH, html.EscapeString(fmt.Sprintf("%d%s %s: %.0f%%", p.MoveNumber, dots(p.White()), p.SAN, ws[i])))
	}
	for i, p := range a.Plies {
		if p.Judgement == analysis.NoJudgement {
			continue
		}
		fmt.Fprintf(&b, `<circle class="marker %s" data-ply="%d" cx="%.1f" cy="%.1f" r="5"><title>%s</title></circle>`,
			strings.ToLower(p.Judgement.String()), p.Ply, x(i), y(ws[i]),
			html.EscapeString(fmt.Sprintf("%d%s %s%s %s", p.MoveNumber, dots(p.White()), p.SAN, p.Judgement.NAG(), p.Judgement)))
	}
	b.WriteString(`</svg>`)
	return b.String()
}

func dots(white bool) string {
	if white {
		return "."
	}
	return "…"
}
