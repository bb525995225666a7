package svgboard

import (
	"encoding/xml"
	"strings"
	"testing"
)

func TestParsePlacement(t *testing.T) {
	tests := []struct {
		name, fen, err string
		at             map[int]byte
	}{
		{name: "start", fen: StartFEN, at: map[int]byte{0: 'R', 4: 'K', 12: 'P', 60: 'k', 63: 'r', 27: 0}},
		{name: "placement only", fen: "8/8/8/8/4P3/8/8/4K2k", at: map[int]byte{28: 'P', 4: 'K', 7: 'k'}},
		{name: "seven ranks", fen: "8/8/8/8/8/8/8 w - - 0 1", err: "7 ranks"},
		{name: "short rank", fen: "7/8/8/8/8/8/8/8 w - - 0 1", err: "rank 8 has 7 squares"},
		{name: "long rank", fen: "ppppppppp/8/8/8/8/8/8/8 w - - 0 1", err: "more than 8"},
		{name: "bad letter", fen: "8/8/8/8/8/8/8/7x w - - 0 1", err: "bad placement character 'x'"},
		{name: "empty", fen: "", err: "1 ranks"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := ParsePlacement(tc.fen)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for i, want := range tc.at {
				if g[i] != want {
					t.Errorf("square %d = %q, want %q", i, g[i], want)
				}
			}
		})
	}
}

func TestSVG(t *testing.T) {
	s, err := SVG(StartFEN, Options{Highlight: []string{"e2", "e4"}, Arrows: []Arrow{{From: "g1", To: "f3", Kind: "best"}}, Label: "Start & go"})
	if err != nil {
		t.Fatal(err)
	}
	// Well-formed XML.
	d := xml.NewDecoder(strings.NewReader(s))
	for {
		if _, err := d.Token(); err != nil {
			if err.Error() == "EOF" {
				break
			}
			t.Fatalf("not XML: %v", err)
		}
	}
	for _, want := range []string{`aria-label="Start &amp; go"`, `class="hl"`, `arrow-best`, `#1b7f3b`, `data-piece="K"`, `data-piece="k"`} {
		if !strings.Contains(s, want) {
			t.Errorf("svg lacks %q", want)
		}
	}
	if n := strings.Count(s, `class="pc"`); n != 32 {
		t.Errorf("%d pieces drawn, want 32", n)
	}
	if n := strings.Count(s, `class="hl"`); n != 2 {
		t.Errorf("%d highlights, want 2", n)
	}
	if strings.Contains(s, "http://") && strings.Count(s, "http://") != 1 { // only the xmlns
		t.Error("svg refers to an external URL")
	}
}

func TestSVGFlipMovesSquares(t *testing.T) {
	o := Options{}
	x, y := o.xy(0) // a1
	if x != 0 || y != 7*square {
		t.Errorf("a1 at %d,%d", x, y)
	}
	o.Flip = true
	x, y = o.xy(0)
	if x != 7*square || y != 0 {
		t.Errorf("flipped a1 at %d,%d", x, y)
	}
}

func TestSVGErrors(t *testing.T) {
	if _, err := SVG(StartFEN, Options{Highlight: []string{"z9"}}); err == nil || !strings.Contains(err.Error(), `"z9"`) {
		t.Errorf("bad highlight: %v", err)
	}
	if _, err := SVG(StartFEN, Options{Arrows: []Arrow{{From: "e2", To: "e9"}}}); err == nil {
		t.Error("bad arrow accepted")
	}
	if _, err := SVG("garbage", Options{}); err == nil {
		t.Error("bad fen accepted")
	}
}

func TestReplayAndPlaySAN(t *testing.T) {
	fens, err := PositionFENs("", []string{"e2e4", "e7e5", "g1f3"})
	if err != nil {
		t.Fatal(err)
	}
	if len(fens) != 3 || !strings.HasPrefix(fens[2], "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b") {
		t.Fatalf("fens = %q", fens)
	}
	if _, err := PositionFENs("", []string{"e2e4", "e2e4"}); err == nil || !strings.Contains(err.Error(), "move 2") {
		t.Errorf("illegal move: %v", err)
	}
	l, err := PlaySAN(fens[1], []string{"Nf3", "Nc6", "Bb5!?"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(l.UCI, " ") != "g1f3 b8c6 f1b5" || len(l.FENs) != 3 {
		t.Errorf("line = %+v", l)
	}
	l, err = PlaySAN("", []string{"e4", "Ke2"})
	if err == nil || len(l.UCI) != 1 || !strings.Contains(err.Error(), "move 2") {
		t.Errorf("bad SAN: %v %+v", err, l)
	}
	if f, to, ok := MoveSquares("e7e8q"); !ok || f != "e7" || to != "e8" {
		t.Error("MoveSquares")
	}
	if _, _, ok := MoveSquares("0000x"); ok {
		t.Error("MoveSquares accepted 0000x")
	}
}

func FuzzParsePlacement(f *testing.F) {
	for _, s := range []string{StartFEN, "8/8/8/8/8/8/8/8", "k7/8/8/8/8/8/8/7K w", "9/8", "////////", "pppppppp1/8/8/8/8/8/8/8"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, fen string) {
		g, err := ParsePlacement(fen)
		if err != nil {
			return
		}
		if _, err := SVG(fen, Options{}); err != nil {
			t.Fatalf("placement parsed but SVG failed: %v", err)
		}
		_ = Describe(g)
	})
}
