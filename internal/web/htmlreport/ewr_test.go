package htmlreport

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/outpostchess/outpost/analysis"
	"github.com/outpostchess/outpost/analysis/report"
)

// fixtureMoments are hand-built moments of the fixture game: Black's
// 12...Be6?? against the best practical move, White's 14.Re1?? as the best
// practical move, and a failed moment.
func fixtureMoments(t testing.TB, a *analysis.Analysis) []report.EWRMoment {
	t.Helper()
	p24, p27 := a.Plies[23], a.Plies[26]
	if p24.SAN != "Be6" || p27.SAN != "Re1" || p24.BestUCI == nil {
		t.Fatalf("fixture moved: %s %s", p24.SAN, p27.SAN)
	}
	base := 0.31
	black := report.EWRMoment{Ply: 24, Label: "12...Be6", SAN: "Be6", UCI: p24.UCI, Side: "black", Kind: report.EWRCritical,
		Rating: 1800, OpponentRating: 1800, BaseWinrate: &base,
		Played: &report.EWRMove{SAN: "Be6", UCI: p24.UCI, ExpectedWinrate: 0.082, Confidence: 0.5, ConfidenceLabel: "Low", StockfishWinrate: 0.05},
		Best:   &report.EWRMove{SAN: *p24.BestSAN, UCI: *p24.BestUCI, ExpectedWinrate: 0.437, Confidence: 0.85, ConfidenceLabel: "High", StockfishWinrate: 0.4}}
	best := &report.EWRMove{SAN: "Re1", UCI: p27.UCI, ExpectedWinrate: 0.615, Confidence: 0.7, ConfidenceLabel: "Medium", StockfishWinrate: 0.6}
	white := report.EWRMoment{Ply: 27, Label: "14.Re1", SAN: "Re1", UCI: p27.UCI, Side: "white", Kind: report.EWRCritical,
		Rating: 1800, OpponentRating: 1800, BaseWinrate: &base, Played: best, Best: best, PlayedWasBest: true, Partial: true,
		Warnings: []string{"time limit 5s reached: the result is partial"}}
	failed := report.FailedEWRMoment(a, 30, report.EWRBot, errors.New("ewr: engine crashed"))
	return []report.EWRMoment{black, white, failed}
}

func TestWriteEWR(t *testing.T) {
	a := loadFixture(t)
	var buf bytes.Buffer
	if err := WriteEWR(&buf, []*analysis.Analysis{a}, report.EWRSet{a: fixtureMoments(t, a)}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	doc, err := html.Parse(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	sections := nodes(doc, func(n *html.Node) bool { return n.Data == "section" && hasClass(n, "ewr") })
	if len(sections) != 1 {
		t.Fatalf("%d expected-winrate sections", len(sections))
	}
	arts := nodes(sections[0], func(n *html.Node) bool { return n.Data == "article" && hasClass(n, "ewr-moment") })
	if len(arts) != 3 {
		t.Fatalf("%d moments, want 3", len(arts))
	}
	for i, want := range []string{"24", "27", "30"} {
		if got := attr(arts[i], "data-ewr-ply"); got != want {
			t.Errorf("moment %d ply %s, want %s", i, got, want)
		}
	}
	text := func(n *html.Node) string {
		var b strings.Builder
		var walk func(*html.Node)
		walk = func(n *html.Node) {
			if n.Type == html.TextNode {
				b.WriteString(n.Data)
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
		}
		walk(n)
		return strings.Join(strings.Fields(b.String()), " ")
	}
	bestSAN := *a.Plies[23].BestSAN
	first := text(arts[0])
	for _, want := range []string{"12… Be6??", "Black's worst move", "Maia 1800", "Played Be6 8.2%", "Low (50%)",
		"Best practical " + bestSAN + " 43.7%", "High (85%)", "Winrate before the move (Stockfish): 31.0%"} {
		if !strings.Contains(first, want) {
			t.Errorf("moment 24 lacks %q: %s", want, first)
		}
	}
	// The board of the position before the move, from Black's side, with
	// the played and the best practical move drawn.
	svgs := nodes(arts[0], func(n *html.Node) bool { return n.Data == "svg" })
	if len(svgs) != 1 || !strings.Contains(attr(svgs[0], "aria-label"), "Position before 12… Be6") {
		t.Fatalf("moment 24 boards: %d", len(svgs))
	}
	var art0 strings.Builder
	if err := html.Render(&art0, arts[0]); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(art0.String(), "arrow-played") || !strings.Contains(art0.String(), "arrow-best") {
		t.Error("moment 24 board lacks the played or the best arrow")
	}
	// The button shows the move in the game's viewer.
	if bs := nodes(arts[0], func(n *html.Node) bool { return n.Data == "button" && attr(n, "data-ply") == "24" }); len(bs) != 1 {
		t.Error("moment 24 has no button to its move")
	}
	second := text(arts[1])
	for _, want := range []string{"14. Re1??", "White's worst move", "The played move was the best practical move.", "partial", "time limit 5s reached"} {
		if !strings.Contains(second, want) {
			t.Errorf("moment 27 lacks %q: %s", want, second)
		}
	}
	var art1 strings.Builder
	if err := html.Render(&art1, arts[1]); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(art1.String(), "arrow-best") {
		t.Error("a best arrow drawn although the played move was best")
	}
	if third := text(arts[2]); !strings.Contains(third, "our bot's move") || !strings.Contains(third, "Not computed: ewr: engine crashed") {
		t.Errorf("failed moment: %s", third)
	}
	// The move's own view carries the figures.
	tpl := out[strings.Index(out, `<template id="g1-p24">`):]
	tpl = tpl[:strings.Index(tpl, "</template>")]
	if !strings.Contains(tpl, `class="ewr-line"`) || !strings.Contains(tpl, "played Be6 8.2% (Low) · best practical "+bestSAN+" 43.7% (High)") {
		t.Errorf("ply 24 view lacks the expected winrate: %s", tpl[max(0, len(tpl)-400):])
	}
	if strings.Count(out, `class="ewr-line"`) != 3 {
		t.Errorf("%d move views with expected winrate, want 3", strings.Count(out, `class="ewr-line"`))
	}
}

func TestWriteEWRSections(t *testing.T) {
	a, b := loadFixture(t), loadFixture(t)
	var buf bytes.Buffer
	// a: analysed, no moment; b: not analysed for expected winrate.
	if err := WriteEWR(&buf, []*analysis.Analysis{a, b}, report.EWRSet{a: nil}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if n := strings.Count(out, `<section class="ewr"`); n != 1 {
		t.Errorf("%d sections, want 1", n)
	}
	if !strings.Contains(out, "No critical moment") || !strings.Contains(out, `aria-labelledby="g1-ewr-title"`) {
		t.Error("empty section missing")
	}
	var plain, none bytes.Buffer
	if err := Write(&plain, []*analysis.Analysis{a}); err != nil {
		t.Fatal(err)
	}
	if err := WriteEWR(&none, []*analysis.Analysis{a}, nil); err != nil {
		t.Fatal(err)
	}
	if plain.String() != none.String() || strings.Contains(plain.String(), `class="ewr`) {
		t.Error("report without moments changed")
	}
}

func TestGameEWRBadMoment(t *testing.T) {
	a := loadFixture(t)
	ms := fixtureMoments(t, a)
	ms[0].Ply = 500 // no such move: the board comes from the moment's FEN
	ms[0].FEN = "not a fen"
	if _, err := GameEWR(a, "g1", ms); err == nil || !strings.Contains(err.Error(), "ply 500") {
		t.Errorf("err = %v", err)
	}
}
