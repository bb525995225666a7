package match

import (
	"reflect"
	"strings"
	"testing"
)

func TestECOOpenings(t *testing.T) {
	a, b := ECOOpenings(), ECOOpenings()
	if len(a) != DefaultOpeningCount {
		t.Fatalf("%d openings, want %d", len(a), DefaultOpeningCount)
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatal("ECOOpenings is not deterministic")
	}
	volumes := map[byte]bool{}
	seen := map[string]bool{}
	for _, o := range a {
		if len(o.Moves) < ecoMinPlies || len(o.Moves) > ecoMaxPlies {
			t.Errorf("%s has %d plies", o.Name, len(o.Moves))
		}
		if _, err := o.Position().Board(); err != nil {
			t.Errorf("%s: %v", o.Name, err)
		}
		volumes[o.Name[0]] = true
		key := strings.Join(o.Moves, " ")
		if seen[key] {
			t.Errorf("duplicate opening %s", o.Name)
		}
		seen[key] = true
	}
	if len(volumes) != 5 {
		t.Errorf("ECO volumes covered: %v", volumes)
	}
}

func TestParseOpenings(t *testing.T) {
	in := `# comment
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1
r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5; id "ruy";

1. e4 c5 2. Nf3 d6 3. d4 cxd4 *
1.d4 Nf6 2.c4 e6 3.Nc3 Bb4
e2e4 e7e5 g1f3 b8c6 f1b5
[Event "ignored"]
`
	ops, err := ParseOpenings(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []Opening{
		{Name: "line 2", StartFEN: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"},
		{Name: "line 3", StartFEN: "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 1"},
		{Name: "line 5", Moves: []string{"e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4"}},
		{Name: "line 6", Moves: []string{"d2d4", "g8f6", "c2c4", "e7e6", "b1c3", "f8b4"}},
		{Name: "line 7", Moves: []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5"}},
	}
	if !reflect.DeepEqual(ops, want) {
		t.Errorf("ParseOpenings\n got %+v\nwant %+v", ops, want)
	}
	for in, msg := range map[string]string{
		"":                               "no openings",
		"1. e4 e5 2. Ke3":                `line 1: move "Ke3" is not legal after e2e4 e7e5`,
		"e2e4\nxyz":                      "line 2",
		"8/8/8/8/8/8/8/8 w":              "want at least 4",
		"8/8/8/8/8/8/8/8 w - -":          "FEN",
		"1. f3 e5 2. g4 Qh4#":            "already over",
		"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1": "already over",
	} {
		if _, err := ParseOpenings(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("ParseOpenings(%q) error = %v, want %q", in, err, msg)
		}
	}
}

// FuzzParseOpenings checks the parser never panics and returns only
// openings that replay.
func FuzzParseOpenings(f *testing.F) {
	f.Add("1. e4 e5 2. Nf3")
	f.Add("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
	f.Add("e2e4 e7e5\n# x\n1.d4")
	f.Fuzz(func(t *testing.T, in string) {
		ops, err := ParseOpenings(strings.NewReader(in))
		if err != nil {
			return
		}
		for _, o := range ops {
			if _, err := o.Position().Board(); err != nil {
				t.Fatalf("opening %+v from %q does not replay: %v", o, in, err)
			}
		}
	})
}

// BenchmarkBuildECOOpenings measures building the default list from
// notnil's book (done once per process).
func BenchmarkBuildECOOpenings(b *testing.B) {
	for b.Loop() {
		buildECOOpenings()
	}
}
