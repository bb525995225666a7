package htmlreport

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/bots/score"
)

func loadFixture(t testing.TB) *analysis.Analysis {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "analysis.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Games []*analysis.Analysis `json:"games"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Games) != 1 {
		t.Fatalf("fixture has %d games", len(doc.Games))
	}
	return doc.Games[0]
}

// nodes returns the elements matching pred, in document order.
func nodes(n *html.Node, pred func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && pred(n) {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasClass(n *html.Node, c string) bool {
	for _, f := range strings.Fields(attr(n, "class")) {
		if f == c {
			return true
		}
	}
	return false
}

func TestWriteStructure(t *testing.T) {
	a := loadFixture(t)
	var buf bytes.Buffer
	if err := Write(&buf, []*analysis.Analysis{a}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	doc, err := html.Parse(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	judged := 0
	for _, p := range a.Plies {
		if p.Judgement != analysis.NoJudgement {
			judged++
		}
	}
	if judged != 14 {
		t.Fatalf("fixture has %d judged plies, want 14", judged)
	}
	games := nodes(doc, func(n *html.Node) bool { return n.Data == "section" && hasClass(n, "game") })
	if len(games) != 1 || attr(games[0], "id") != "g1" {
		t.Fatalf("game sections: %d", len(games))
	}
	buttons := nodes(doc, func(n *html.Node) bool {
		return n.Data == "button" && hasClass(n, "mv") && attr(n, "data-ply") != "" && n.Parent != nil && n.Parent.Data == "li"
	})
	if len(buttons) != len(a.Plies) {
		t.Errorf("%d move buttons, want %d", len(buttons), len(a.Plies))
	}
	judgedButtons := 0
	for _, b := range buttons {
		if hasClass(b, "inaccuracy") || hasClass(b, "mistake") || hasClass(b, "blunder") {
			judgedButtons++
		}
	}
	if judgedButtons != judged {
		t.Errorf("%d judged buttons, want %d", judgedButtons, judged)
	}
	markers := nodes(doc, func(n *html.Node) bool { return n.Data == "circle" && hasClass(n, "marker") })
	if len(markers) != judged {
		t.Errorf("%d graph markers, want %d", len(markers), judged)
	}
	// A template per ply plus the start, each holding a board; judged
	// plies with a best move hold a second board with the best arrow.
	for _, p := range append([]analysis.Ply{{Ply: 0}}, a.Plies...) {
		id := "g1-p" + itoa(p.Ply)
		if !strings.Contains(out, `<template id="`+id+`">`) {
			t.Fatalf("no template %s", id)
		}
	}
	// The template contents are parsed into fragments; count via the
	// source instead.
	if n := strings.Count(out, `class="board-wrap best"`); n != judged {
		t.Errorf("%d best-line boards, want %d", n, judged)
	}
	for _, want := range []string{"Comparison with Lichess", "veloce (1789)", "chabrot (1810)", "Best line:", "Blunder. d6 was best.", "arrow-best", "72%", "Inaccuracies"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestWriteSelfContained checks that the report refers to nothing outside
// the file: no src/href to a URL, no CSS url() or @import, no fetch.
func TestWriteSelfContained(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, []*analysis.Analysis{loadFixture(t), loadFixture(t)}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	doc, err := html.Parse(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range nodes(doc, func(*html.Node) bool { return true }) {
		for _, a := range n.Attr {
			if (a.Key == "src" || a.Key == "href" || a.Key == "xlink:href" || a.Key == "action") && a.Val != "" {
				t.Errorf("<%s %s=%q> refers outside the file", n.Data, a.Key, a.Val)
			}
		}
	}
	for _, bad := range []*regexp.Regexp{regexp.MustCompile(`url\(`), regexp.MustCompile(`@import`), regexp.MustCompile(`fetch\(`), regexp.MustCompile(`XMLHttpRequest`)} {
		if loc := bad.FindStringIndex(out); loc != nil {
			t.Errorf("report contains %q: %q", bad, out[max(0, loc[0]-40):min(len(out), loc[1]+40)])
		}
	}
	if n, ns := strings.Count(out, "://"), strings.Count(out, `xmlns="http://www.w3.org/2000/svg"`); n != ns {
		t.Errorf("report has %d URLs besides the %d SVG namespaces", n-ns, ns)
	}
	// Two games get distinct ids.
	if !strings.Contains(out, `id="g2-p1"`) || strings.Count(out, `id="g1-p1"`) != 1 {
		t.Error("game ids not distinct")
	}
}

func TestWriteEscapesNames(t *testing.T) {
	a := loadFixture(t)
	a.Players.White.Name = `<script>alert(1)</script>`
	var buf bytes.Buffer
	if err := Write(&buf, []*analysis.Analysis{a}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "<script>alert(1)") {
		t.Error("player name not escaped")
	}
}

func TestWriteBadGame(t *testing.T) {
	a := loadFixture(t)
	a.Plies[3].UCI = "e2e5"
	err := Write(&bytes.Buffer{}, []*analysis.Analysis{a})
	if err == nil || !strings.Contains(err.Error(), "CCW6EEru") || !strings.Contains(err.Error(), "move 4") {
		t.Errorf("err = %v", err)
	}
	if err := Write(&bytes.Buffer{}, []*analysis.Analysis{nil}); err == nil {
		t.Error("nil analysis accepted")
	}
}

func TestWinSeries(t *testing.T) {
	cp := func(c int) *score.Score { e := score.CP(c); return &e }
	a := &analysis.Analysis{Plies: []analysis.Ply{
		{Ply: 1, Color: "white", SAN: "e4", Eval: cp(0)},
		{Ply: 2, Color: "black", SAN: "e5"},
		{Ply: 3, Color: "white", SAN: "Qh5", Eval: cp(1000)},
		{Ply: 4, Color: "black", SAN: "Qxf2#"},
	}}
	got := WinSeries(a)
	want := []float64{50, 50, (score.CP(1000)).WinPercent(), 0}
	for i := range want {
		if d := got[i] - want[i]; d > 1e-9 || d < -1e-9 {
			t.Errorf("ply %d: %v, want %v", i+1, got[i], want[i])
		}
	}
}

func TestNumberLine(t *testing.T) {
	tests := []struct {
		no    int
		white bool
		sans  []string
		want  string
	}{
		{12, true, []string{"Nf3", "Nc6", "Bb5"}, "12. Nf3 Nc6 13. Bb5"},
		{12, false, []string{"Nf6", "Nc3", "d6"}, "12… Nf6 13. Nc3 d6"},
		{1, true, []string{"e4"}, "1. e4"},
	}
	for _, tc := range tests {
		if got := numberLine(tc.no, tc.white, tc.sans); got != tc.want {
			t.Errorf("numberLine(%d,%v,%v) = %q, want %q", tc.no, tc.white, tc.sans, got, tc.want)
		}
	}
}

// TestCompareNamesStandIn: a comparison with another server's analysis
// (analysis.Comparison.Against, from the game's Site) is headed with that
// server, not "Lichess" (issue 35).
func TestCompareNamesStandIn(t *testing.T) {
	a := loadFixture(t)
	if a.Comparison == nil {
		t.Fatal("fixture has no comparison")
	}
	a.Comparison.Against = "127.0.0.1:9663"
	var buf bytes.Buffer
	if err := Write(&buf, []*analysis.Analysis{a}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"<h3>Comparison with the Lichess stand-in at 127.0.0.1:9663</h3>", "the Lichess stand-in at 127.0.0.1:9663&#39;s judgements", `<th scope="col">stand-in</th>`} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if strings.Contains(out, "Comparison with Lichess") {
		t.Error("report still says \"Comparison with Lichess\" for the stand-in's analysis")
	}
}
