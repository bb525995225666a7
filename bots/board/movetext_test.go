package board

import (
	"strings"
	"testing"
)

func TestMovetext(t *testing.T) {
	cases := []struct {
		fen      string
		chess960 bool
		moves    string
		want     string
	}{
		{StartFEN, false, "", ""},
		{StartFEN, false, "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 e1g1", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O"},
		{StartFEN, false, "f2f3 e7e5 g2g4 d8h4", "1. f3 e5 2. g4 Qh4#"},
		{"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 12", false, "e8c8 e1h1", "12... O-O-O 13. O-O"},
		{"1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1", true, "e1g1 e8b8", "1. O-O O-O-O"},
	}
	for _, c := range cases {
		b := mustFENv(t, c.fen, c.chess960)
		got, err := b.Movetext(strings.Fields(c.moves))
		if err != nil || got != c.want {
			t.Errorf("Movetext(%s, %q) = %q, %v; want %q", c.fen, c.moves, got, err, c.want)
		}
		if b.FEN() != mustFENv(t, c.fen, c.chess960).FEN() {
			t.Errorf("Movetext changed the board")
		}
	}
	if _, err := New().Movetext([]string{"e2e4", "e2e4"}); err == nil || !strings.Contains(err.Error(), "move 2") {
		t.Errorf("illegal move: %v", err)
	}
}

// FuzzParseSAN checks that SAN parsing never panics and that every move it
// accepts is legal and its SAN parses back to the same move.
func FuzzParseSAN(f *testing.F) {
	for _, s := range []string{"e4", "Nf3", "O-O", "0-0-0", "exd5", "e8=Q+", "Qh4#", "Ng1f3", "Pe4", "Kxx", "", "a9"} {
		f.Add(s)
	}
	boards := []*Board{New(), mustFEN(f, perftCases[1].fen), mustFEN(f, perftCases[7].fen),
		mustFEN960(f, "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1")}
	f.Fuzz(func(t *testing.T, s string) {
		for _, b := range boards {
			m, err := b.ParseSAN(s)
			if err != nil {
				continue
			}
			var ml MoveList
			b.GenerateMoves(&ml)
			if !ml.Contains(m) {
				t.Fatalf("ParseSAN(%q) = %s, not legal in %s", s, m, b.FEN())
			}
			if back, err := b.ParseSAN(b.SAN(m)); err != nil || back != m {
				t.Fatalf("SAN %q of %s parses to %s, %v", b.SAN(m), m, back, err)
			}
		}
	})
}
