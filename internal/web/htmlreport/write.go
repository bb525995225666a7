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

var pageHead = template.Must(template.New("head").Parse(`<!DOCTYPE html>
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
`))

var pageTail = template.Must(template.New("tail").Parse(`</main>
<script>{{.}}</script>
</body>
</html>
`))

// The bounds of a report (docs/operations.md, "Bounds"). A page is
// written as it is rendered, one board at a time, so its memory is that of
// the analyses it is given plus one game's views (about 1 KB a ply) and
// the writer's buffer; the file itself is about 10 KB a ply.
const (
	// MaxPlies bounds the plies of one game in a report (the longest
	// decisive games on Lichess are a few hundred plies; 1000 plies make a
	// 10 MB section). A longer game is refused with its count.
	MaxPlies = 1000
	// MaxPagePlies bounds the plies of all the games of one page: 200
	// games of 300 plies, a 600 MB file a browser no longer opens.
	MaxPagePlies = 60000
)

// TooLongError is a game or a page past MaxPlies or MaxPagePlies.
type TooLongError struct {
	What  string // "game abcd1234" or "the page"
	Plies int
	Max   int
}

// Error names the count and the bound.
func (e *TooLongError) Error() string {
	return fmt.Sprintf("report: html: %s has %d plies, at most %d are reported in HTML (use the text, json or pgn format, which have no such bound)", e.What, e.Plies, e.Max)
}

// CheckPlies refuses a game past MaxPlies.
func CheckPlies(a *analysis.Analysis) error {
	if n := len(a.Plies); n > MaxPlies {
		return &TooLongError{What: "game " + gameKey(a), Plies: n, Max: MaxPlies}
	}
	return nil
}

// CheckPage refuses games of which one is past MaxPlies or all together
// past MaxPagePlies; plies gives a game's count (the games may not be
// analysed yet).
func CheckPage(n int, plies func(i int) (key string, plies int)) error {
	total := 0
	for i := range n {
		key, p := plies(i)
		if p > MaxPlies {
			return &TooLongError{What: "game " + key, Plies: p, Max: MaxPlies}
		}
		total += p
	}
	if total > MaxPagePlies {
		return &TooLongError{What: fmt.Sprintf("the page of %d games", n), Plies: total, Max: MaxPagePlies}
	}
	return nil
}

// Write writes one self-contained HTML document reporting the analyses:
// every style, script and board is inline, so it opens offline.
func Write(w io.Writer, analyses []*analysis.Analysis) error {
	return WriteEWR(w, analyses, nil)
}

// WriteEWR is Write with the expected-winrate moments of the games in
// moments shown inline (see GameEWR); games missing from moments have no
// such section. The page is written to w as it is rendered, game by game;
// the bounds (MaxPlies, MaxPagePlies) are checked before anything is
// written.
func WriteEWR(w io.Writer, analyses []*analysis.Analysis, moments report.EWRSet) error {
	for i, a := range analyses {
		if a == nil {
			return fmt.Errorf("report: html: game %d: no analysis", i+1)
		}
	}
	if err := CheckPage(len(analyses), func(i int) (string, int) { return gameKey(analyses[i]), len(analyses[i].Plies) }); err != nil {
		return err
	}
	title := "Outpost game analysis"
	if len(analyses) == 1 {
		title = "Analysis: " + playerLine(analyses[0])
	}
	head := struct {
		Title string
		Count int
		CSS   template.CSS
	}{title, len(analyses), template.CSS(styles)}
	if err := pageHead.Execute(w, head); err != nil {
		return fmt.Errorf("report: html: %w", err)
	}
	for i, a := range analyses {
		ms, ok := moments[a]
		if ok && ms == nil {
			ms = []report.EWRMoment{}
		}
		if err := WriteGame(w, a, fmt.Sprintf("g%d", i+1), ms); err != nil {
			return err
		}
		if _, err := io.WriteString(w, "\n"); err != nil {
			return fmt.Errorf("report: html: %w", err)
		}
	}
	if err := pageTail.Execute(w, template.JS(script)); err != nil {
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
