package htmlreport

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/report"
)

//go:embed assets/report.css
var styles string

//go:embed assets/report.js
var script string

// Styles returns the report's style sheet.
func Styles() string { return styles }

// Script returns the report's script (move list and graph interaction).
func Script() string { return script }

var pageTmpl = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="outpost">
<title>{{.Title}}</title>
<style>{{.CSS}}</style>
</head>
<body class="report">
<header class="page-head"><h1>{{.Title}}</h1><p class="muted">{{.Count}} game{{if ne .Count 1}}s{{end}} · click a move, a marker on the graph or a disagreement to see its position; ← and → step through the moves.</p></header>
<main>
{{range .Games}}{{.}}
{{end}}</main>
<script>{{.JS}}</script>
</body>
</html>
`))

// Write writes one self-contained HTML document reporting the analyses:
// every style, script and board is inline, so it opens offline.
func Write(w io.Writer, analyses []*analysis.Analysis) error {
	return WriteEWR(w, analyses, nil)
}

// WriteEWR is Write with the expected-winrate moments of the games in
// moments shown inline (see GameEWR); games missing from moments have no
// such section.
func WriteEWR(w io.Writer, analyses []*analysis.Analysis, moments report.EWRSet) error {
	games := make([]template.HTML, 0, len(analyses))
	for i, a := range analyses {
		if a == nil {
			return fmt.Errorf("report: html: game %d: no analysis", i+1)
		}
		ms, ok := moments[a]
		if ok && ms == nil {
			ms = []report.EWRMoment{}
		}
		g, err := GameEWR(a, fmt.Sprintf("g%d", i+1), ms)
		if err != nil {
			return err
		}
		games = append(games, g)
	}
	title := "Outpost game analysis"
	if len(analyses) == 1 {
		title = "Analysis: " + playerLine(analyses[0])
	}
	data := struct {
		Title string
		Count int
		CSS   template.CSS
		JS    template.JS
		Games []template.HTML
	}{title, len(analyses), template.CSS(styles), template.JS(script), games}
	if err := pageTmpl.Execute(w, data); err != nil {
		return fmt.Errorf("report: html: %w", err)
	}
	return nil
}

// playerLine is "White (1789) – Black (1810), 1-0".
func playerLine(a *analysis.Analysis) string {
	return fmt.Sprintf("%s – %s, %s", playerName(a.Players.White, "White"), playerName(a.Players.Black, "Black"), a.Result)
}

func playerName(p analysis.Player, side string) string {
	n := p.Name
	if n == "" {
		n = side
	}
	if p.Rating > 0 {
		n += fmt.Sprintf(" (%d)", p.Rating)
	}
	return n
}
