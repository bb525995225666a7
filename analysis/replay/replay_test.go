package replay

import (
	"strings"
	"testing"
)

func play(t *testing.T, fen string, sans ...string) *Board {
	t.Helper()
	b, err := New(fen)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sans {
		m, err := b.ParseSAN(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		b = b.Play(m)
	}
	return b
}

func TestParseSAN(t *testing.T) {
	cases := []struct {
		fen, san, uci, canon string
	}{
		{"", "e4", "e2e4", "e4"},
		{"", "Nf3", "g1f3", "Nf3"},
		{"", "Ng1f3", "g1f3", "Nf3"}, // over-disambiguated
		{"", "Pe4", "e2e4", "e4"},    // explicit pawn
		{"", "e4!?", "e2e4", "e4"},   // annotation left on
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O", "e1g1", "O-O"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "0-0-0", "e1c1", "O-O-O"},
		{"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "O-O+", "e8g8", "O-O"},
		{"4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a8=Q+", "a7a8q", "a8=Q+"},
		{"4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a8N", "a7a8n", "a8=N"},
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6", "e5d6", "exd6"},
		{"4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "Rad1", "a1d1", "Rad1"},
		{"4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "Rhf1+", "h1f1", "Rhf1"},
		{"4k3/8/8/8/8/1N6/8/1N2K3 w - - 0 1", "N1d2", "b1d2", "N1d2"},
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "Kd2", "e1d2", "Kd2"},
	}
	for _, c := range cases {
		b, err := New(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		m, err := b.ParseSAN(c.san)
		if err != nil {
			t.Errorf("%s in %q: %v", c.san, c.fen, err)
			continue
		}
		if m.UCI != c.uci || m.SAN != c.canon {
			t.Errorf("%s: %s %s, want %s %s", c.san, m.UCI, m.SAN, c.uci, c.canon)
		}
	}
}

func TestParseSANErrors(t *testing.T) {
	b, _ := New("")
	for _, c := range []struct{ san, want string }{
		{"e5", "illegal"}, {"Nd4", "illegal"}, {"Ke2", "illegal"}, {"O-O", "illegal"},
		{"x", "cannot read"}, {"Qz9", "cannot read"}, {"--", "cannot read"},
	} {
		if _, err := b.ParseSAN(c.san); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", c.san, err)
		}
	}
	amb, _ := New("4k3/8/8/8/8/8/4K3/R6R w - - 0 1")
	if _, err := amb.ParseSAN("Rd1"); err == nil || !strings.Contains(err.Error(), "ambiguous") {
		t.Errorf("Rd1: %v", err)
	}
}

func TestBoardState(t *testing.T) {
	b := play(t, "", "f3", "e5", "g4", "Qh4#")
	if !b.Checkmate() || b.Stalemate() {
		t.Error("fool's mate not checkmate")
	}
	s, _ := New("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
	if !s.Stalemate() || s.Checkmate() {
		t.Error("stalemate not detected")
	}
	f, err := New("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 2")
	if err != nil || f.Ply() != 3 || f.WhiteToMove() || f.FullMove() != 2 {
		t.Errorf("ply %d, %v", f.Ply(), err)
	}
	if _, err := New("8/8/8/8/8/8/8/8 w - - 0 1"); err == nil {
		t.Error("kingless FEN accepted")
	}
	if _, err := New("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"); err != nil {
		t.Errorf("4-field FEN: %v", err)
	}
	if _, err := New("garbage"); err == nil {
		t.Error("garbage FEN accepted")
	}
}

func TestLines(t *testing.T) {
	b, _ := New("")
	san := b.LineSAN([]string{"e2e4", "e7e5", "g1f3", "b8c6", "zzzz", "f1b5"}, 0)
	if strings.Join(san, " ") != "e4 e5 Nf3 Nc6" {
		t.Errorf("LineSAN %v", san)
	}
	if got := b.LineSAN([]string{"e2e4", "e7e5", "g1f3"}, 2); len(got) != 2 {
		t.Errorf("max ignored: %v", got)
	}
	if got := b.LineUCI([]string{"e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"}); strings.Join(got, " ") != "e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7" {
		t.Errorf("LineUCI %v", got)
	}
}
