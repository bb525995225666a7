package uci

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/outpostchess/outpost/bots/score"
)

func TestParseInfo(t *testing.T) {
	tests := []struct {
		name string
		line string
		want Info
	}{
		{
			name: "stockfish 15.1 line",
			line: "info depth 20 seldepth 27 multipv 1 score cp 31 wdl 62 907 31 nodes 1234567 nps 987654 hashfull 412 tbhits 0 time 1250 pv e2e4 e7e5 g1f3 b8c6",
			want: Info{Depth: 20, SelDepth: 27, MultiPV: 1, Score: score.CP(31), HasScore: true,
				WDL: &WDL{Win: 62, Draw: 907, Loss: 31}, Nodes: 1234567, NPS: 987654, HashFull: 412,
				Time: 1250 * time.Millisecond, PV: []string{"e2e4", "e7e5", "g1f3", "b8c6"}},
		},
		{
			name: "mate for the side to move, second line",
			line: "info depth 5 multipv 2 score mate 3 pv d1h5 g7g6 h5e5",
			want: Info{Depth: 5, MultiPV: 2, Score: score.Mate(3), HasScore: true, PV: []string{"d1h5", "g7g6", "h5e5"}},
		},
		{
			name: "getting mated, mate 0",
			line: "info depth 0 score mate 0",
			want: Info{MultiPV: 1, Mated: true},
		},
		{
			name: "negative mate",
			line: "info depth 9 score mate -2 pv a1a2",
			want: Info{Depth: 9, MultiPV: 1, Score: score.Mate(-2), HasScore: true, PV: []string{"a1a2"}},
		},
		{
			name: "lowerbound",
			line: "info depth 14 seldepth 18 multipv 1 score cp -45 lowerbound nodes 100 nps 10 time 10 pv e7e5",
			want: Info{Depth: 14, SelDepth: 18, MultiPV: 1, Score: score.CP(-45), LowerBound: true, HasScore: true,
				Nodes: 100, NPS: 10, Time: 10 * time.Millisecond, PV: []string{"e7e5"}},
		},
		{
			name: "upperbound before the score value is also accepted",
			line: "info score upperbound cp 12",
			want: Info{MultiPV: 1, Score: score.CP(12), UpperBound: true, HasScore: true},
		},
		{
			name: "promotion in pv",
			line: "info depth 3 score cp 900 pv e7e8q d8e8",
			want: Info{Depth: 3, MultiPV: 1, Score: score.CP(900), HasScore: true, PV: []string{"e7e8q", "d8e8"}},
		},
		{
			name: "string line is ignored to its end",
			line: "info string NNUE evaluation using nn-ad9b42354671.nnue enabled depth 3",
			want: Info{MultiPV: 1},
		},
		{
			name: "currmove progress",
			line: "info depth 12 currmove g1f3 currmovenumber 4",
			want: Info{Depth: 12, MultiPV: 1},
		},
		{
			name: "unknown tokens are skipped",
			line: "info depth 7 ebf 1.9 frobnicate score cp 5 pv e2e4",
			want: Info{Depth: 7, MultiPV: 1, Score: score.CP(5), HasScore: true, PV: []string{"e2e4"}},
		},
		{
			name: "pv stops at a non-move and parsing resumes",
			line: "info pv e2e4 e7e5 nodes 42",
			want: Info{MultiPV: 1, PV: []string{"e2e4", "e7e5"}, Nodes: 42},
		},
		{
			name: "refutation and currline are skipped",
			line: "info refutation d1h5 g6h5 currline 1 e2e4 depth 2",
			want: Info{Depth: 2, MultiPV: 1},
		},
		{
			name: "extra whitespace",
			line: "info   depth  4\tscore cp 10  ",
			want: Info{Depth: 4, MultiPV: 1, Score: score.CP(10), HasScore: true},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseInfo(tc.line)
			if err != nil {
				t.Fatalf("ParseInfo: %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ParseInfo(%q)\n got %+v\nwant %+v", tc.line, got, tc.want)
			}
		})
	}
}

func TestParseInfoErrors(t *testing.T) {
	tests := []struct{ line, wantErr string }{
		{"bestmove e2e4", "does not start"},
		{"", "does not start"},
		{"info depth", "depth: missing value"},
		{"info depth x", "depth: \"x\" is not an integer"},
		{"info depth -1", "negative"},
		{"info multipv 0 pv e2e4", "multipv 0"},
		{"info score", "missing cp or mate"},
		{"info score foo 3", "want cp or mate"},
		{"info score cp", "score cp: missing value"},
		{"info score cp 99999999999", "out of range"},
		{"info wdl 1 2", "wdl: missing value"},
		{"info nodes 1e6", "not an integer"},
		{"info time 99999999999999999", "out of range"},
	}
	for _, tc := range tests {
		_, err := ParseInfo(tc.line)
		if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("ParseInfo(%q) error = %v, want it to mention %q", tc.line, err, tc.wantErr)
		}
	}
}

func TestFormatInfo(t *testing.T) {
	in := Info{Depth: 12, SelDepth: 15, MultiPV: 2, Score: score.Mate(-3), UpperBound: true, HasScore: true,
		WDL: &WDL{Win: 1, Draw: 2, Loss: 997}, Nodes: 5000, NPS: 100000, HashFull: 7, Time: 50 * time.Millisecond,
		PV: []string{"e2e4", "e7e5"}}
	want := "info depth 12 seldepth 15 multipv 2 score mate -3 upperbound wdl 1 2 997 nodes 5000 nps 100000 hashfull 7 time 50 pv e2e4 e7e5"
	if got := FormatInfo(in); got != want {
		t.Errorf("FormatInfo\n got %q\nwant %q", got, want)
	}
	back, err := ParseInfo(want)
	if err != nil || !reflect.DeepEqual(back, in) {
		t.Errorf("round trip: %+v, %v", back, err)
	}
	if got := FormatInfo(Info{MultiPV: 1}); got != "info" {
		t.Errorf("empty info formats as %q", got)
	}
}

func TestIsMove(t *testing.T) {
	for s, want := range map[string]bool{
		"e2e4": true, "e7e8q": true, "a1h8": true, "0000": true, "e7e8k": false, "e2e9": false,
		"i2e4": false, "e2": false, "e2e4qq": false, "E2E4": false, "(none)": false,
	} {
		if got := IsMove(s); got != want {
			t.Errorf("IsMove(%q) = %v, want %v", s, got, want)
		}
	}
}

// FuzzParseInfo checks that the parser never panics and that whatever it
// accepts survives a FormatInfo → ParseInfo round trip unchanged.
func FuzzParseInfo(f *testing.F) {
	for _, s := range []string{
		"info depth 20 seldepth 27 multipv 1 score cp 31 wdl 62 907 31 nodes 1234567 nps 987654 hashfull 412 tbhits 0 time 1250 pv e2e4 e7e5",
		"info depth 5 multipv 2 score mate -3 lowerbound pv d1h5",
		"info string hello depth 3",
		"info currmove e2e4 currmovenumber 1 refutation e2e4 e7e5",
		"info score upperbound cp -5 pv e7e8q",
		"info wdl 1 2 3 multipv 9",
		"info depth 1 pv 0000",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		in, err := ParseInfo(line)
		if err != nil {
			return
		}
		if in.MultiPV < 1 {
			t.Fatalf("MultiPV %d < 1 for %q", in.MultiPV, line)
		}
		out := FormatInfo(in)
		back, err := ParseInfo(out)
		if err != nil {
			t.Fatalf("re-parse of %q (from %q): %v", out, line, err)
		}
		if !reflect.DeepEqual(in, back) {
			t.Fatalf("round trip changed the info\n line %q\n out  %q\n in   %+v\n back %+v", line, out, in, back)
		}
	})
}

func BenchmarkParseInfo(b *testing.B) {
	line := "info depth 24 seldepth 33 multipv 1 score cp 31 wdl 62 907 31 nodes 12345678 nps 1987654 hashfull 412 tbhits 0 time 6250 pv e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 d7d6"
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseInfo(line); err != nil {
			b.Fatal(err)
		}
	}
}
