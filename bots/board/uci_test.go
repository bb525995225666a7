package board

import (
	"strings"
	"testing"
)

func TestFindUCI(t *testing.T) {
	b := mustFEN(t, "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1")
	for _, s := range []string{"e1g1", "e1c1", "b7b8q", "b7a8n", "a1a8"} {
		m, ok := b.FindUCI(s)
		if !ok || m.String() != s {
			t.Errorf("FindUCI(%q) = %s, %v", s, m, ok)
		}
	}
	// Not legal, or not written the canonical way.
	for _, s := range []string{"", "e1", "e1g1x", "i1g1", "b7b8k", "b7b8", "e1e3", "B7B8Q", "b7b8Q", "e1h1", "0000"} {
		if m, ok := b.FindUCI(s); ok {
			t.Errorf("FindUCI(%q) accepted as %s", s, m)
		}
	}
	if n := testing.AllocsPerRun(100, func() { b.FindUCI("e1g1"); b.FindUCI("e1e3") }); n != 0 {
		t.Errorf("FindUCI allocates %v times", n)
	}
}

// FuzzFindUCI checks FindUCI against ParseUCI: it accepts exactly what
// ParseUCI accepts and prints back unchanged.
func FuzzFindUCI(f *testing.F) {
	for _, s := range []string{"e2e4", "e1g1", "e7e8q", "a7b8N", "0000", "e2e9", "zzzz", "e2e4e", "b7a8q"} {
		f.Add(s)
	}
	boards := []*Board{New(), mustFEN(f, perftCases[1].fen), mustFEN(f, perftCases[7].fen)}
	f.Fuzz(func(t *testing.T, s string) {
		for _, b := range boards {
			m, ok := b.FindUCI(s)
			pm, err := b.ParseUCI(s)
			want := err == nil && pm.String() == s
			if ok != want || (ok && m != pm) {
				t.Fatalf("%s: FindUCI(%q) = %s, %v; ParseUCI = %s, %v", b.FEN(), s, m, ok, pm, err)
			}
			if ok && !strings.EqualFold(m.String(), s) {
				t.Fatalf("FindUCI(%q) = %s", s, m)
			}
		}
	})
}
