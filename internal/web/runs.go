package web

import (
	"encoding/json"
	"fmt"
	"html"
	"html/template"
	"net/http"
	"strings"
	"time"

	"github.com/outpostchess/outpost/internal/comparerun"
	"github.com/outpostchess/outpost/internal/store"
	"github.com/outpostchess/outpost/internal/verify"
)

// runsLimit is how many runs the page reads.
const runsLimit = 200

type runRow struct {
	ID                          int64
	User, State, Started        string
	Games, Flagged              int
	SameName, Precision, Recall string
	F1, Agree, MAE              string
	Error                       string
	h                           comparerun.Headline
	at                          time.Time
}

type runsData struct {
	Rows   []runRow
	Chart  template.HTML
	Legend template.HTML
	User   string
	Error  string
	// AgainstPossessive names whose judgements the runs were compared
	// with ("Lichess's", or the sandbox's stand-in's): the console's
	// Against, from the configured [lichess] url.
	AgainstPossessive string
}

func (s *Server) runs(w http.ResponseWriter, r *http.Request) {
	user := r.URL.Query().Get("user")
	runs, err := s.opt.Store.Runs(r.Context(), user, runsLimit)
	d := runsData{User: user, AgainstPossessive: s.opt.Against.Possessive()}
	if err != nil {
		d.Error = err.Error()
	}
	for _, run := range runs {
		d.Rows = append(d.Rows, runRowOf(run))
	}
	// Oldest first for the chart; finished runs with figures only.
	var pts []runRow
	for i := len(d.Rows) - 1; i >= 0; i-- {
		if d.Rows[i].State == string(store.RunFinished) && d.Rows[i].Error == "" {
			pts = append(pts, d.Rows[i])
		}
	}
	d.Chart = template.HTML(runsChart(pts, s.opt.Against))
	d.Legend = template.HTML(runsLegend())
	s.render(w, http.StatusOK, "runs", page{Title: "Comparison runs", Nav: "runs", Data: d})
}

func runRowOf(run store.CompareRun) runRow {
	row := runRow{ID: run.ID, User: run.User, State: string(run.State), Started: run.StartedAt.UTC().Format("2006-01-02 15:04"), at: run.StartedAt}
	if run.Report != "" {
		var rep struct {
			Headline comparerun.Headline `json:"headline"`
		}
		if err := json.Unmarshal([]byte(run.Report), &rep); err != nil {
			row.Error = "report unreadable: " + err.Error()
		}
		row.h = rep.Headline
	}
	h := row.h
	row.Games, row.Flagged = h.Games, h.Flagged
	row.SameName, row.Precision, row.Recall, row.F1, row.Agree = share(h.SameName), share(h.Precision), share(h.Recall), share(h.F1), share(h.Agree)
	row.MAE = fmt.Sprintf("%.1f", h.EvalMAECP)
	return row
}

func share(p *float64) string {
	if p == nil {
		return "–"
	}
	return fmt.Sprintf("%.1f%%", *p*100)
}

// series of the runs chart: name, colour, dash pattern (so that the lines
// differ without colour too) and the value.
var series = []struct {
	name, colour, dash string
	get                func(comparerun.Headline) *float64
}{
	{"same name", "#1d4ed8", "", func(h comparerun.Headline) *float64 { return h.SameName }},
	{"precision", "#b45309", "6 3", func(h comparerun.Headline) *float64 { return h.Precision }},
	{"recall", "#047857", "2 3", func(h comparerun.Headline) *float64 { return h.Recall }},
	{"F1", "#9d174d", "10 3 2 3", func(h comparerun.Headline) *float64 { return h.F1 }},
}

// runsLegend names the chart's lines with swatches drawn like them.
func runsLegend() string {
	var b strings.Builder
	for _, s := range series {
		fmt.Fprintf(&b, `<span class="lg"><svg xmlns="http://www.w3.org/2000/svg" width="34" height="10" aria-hidden="true"><line x1="0" y1="5" x2="34" y2="5" stroke="%s" stroke-width="2.5" stroke-dasharray="%s"/></svg> %s</span> `,
			s.colour, s.dash, html.EscapeString(s.name))
	}
	return b.String()
}

// runsChart draws the agreement figures of the runs (oldest first) with
// against's judgements as lines from 0 to 100%.
func runsChart(rows []runRow, against verify.Against) string {
	const w, h, padL, padB, padT = 640, 240, 44, 28, 10
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="runs-chart" viewBox="0 0 %d %d" role="img" aria-label="%s">`, w, h,
		html.EscapeString(fmt.Sprintf("Agreement with %s over %d finished runs", against.Name(), len(rows))))
	plotH := float64(h - padB - padT)
	y := func(v float64) float64 { return padT + plotH*(1-v) }
	for _, t := range []float64{0, 0.25, 0.5, 0.75, 1} {
		fmt.Fprintf(&b, `<line class="grid" x1="%d" y1="%.1f" x2="%d" y2="%.1f"/><text class="axis" x="%d" y="%.1f" text-anchor="end">%.0f%%</text>`,
			padL, y(t), w-8, y(t), padL-6, y(t)+4, t*100)
	}
	if len(rows) == 0 {
		fmt.Fprintf(&b, `<text class="axis" x="%d" y="%d" text-anchor="middle">no finished runs yet</text></svg>`, w/2, h/2)
		return b.String()
	}
	x := func(i int) float64 {
		if len(rows) == 1 {
			return float64(padL+w-8) / 2
		}
		return padL + 10 + float64(i)*float64(w-8-padL-20)/float64(len(rows)-1)
	}
	for i, r := range rows {
		if len(rows) <= 12 || i%((len(rows)+11)/12) == 0 {
			fmt.Fprintf(&b, `<text class="axis" x="%.1f" y="%d" text-anchor="middle">#%d</text>`, x(i), h-8, r.ID)
		}
	}
	for _, s := range series {
		var pts []string
		for i, r := range rows {
			if v := s.get(r.h); v != nil {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(i), y(*v)))
			}
		}
		if len(pts) == 0 {
			continue
		}
		fmt.Fprintf(&b, `<polyline class="series" data-series="%s" fill="none" stroke="%s" stroke-width="2.5" stroke-dasharray="%s" points="%s"/>`,
			html.EscapeString(s.name), s.colour, s.dash, strings.Join(pts, " "))
		for i, r := range rows {
			if v := s.get(r.h); v != nil {
				fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3.5" fill="%s"><title>%s</title></circle>`, x(i), y(*v), s.colour,
					html.EscapeString(fmt.Sprintf("run %d (%s): %s %.1f%%", r.ID, r.Started, s.name, *v*100)))
			}
		}
	}
	b.WriteString(`</svg>`)
	return b.String()
}
