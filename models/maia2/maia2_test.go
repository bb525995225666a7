package maia2

import (
	"testing"

	"github.com/outpostchess/outpost/models/game"
)

func TestVocabulary(t *testing.T) {
	want := map[int]string{0: "a1h8", 1: "a1a8", 2: "a1g7", 3: "a1a7", 1792: "a7a8q", 1795: "a7a8n", 1796: "a7b8q", 1800: "b7b8q", 1804: "b7a8q", 1808: "b7c8q", 1879: "h7g8n"}
	for i, m := range want {
		if Move(i) != m {
			t.Errorf("vocab[%d] = %s, want %s", i, Move(i), m)
		}
		if Index(m) != i {
			t.Errorf("Index(%s) = %d, want %d", m, Index(m), i)
		}
	}
	seen := map[string]bool{}
	for i := range VocabSize {
		if seen[Move(i)] {
			t.Fatalf("duplicate %s", Move(i))
		}
		seen[Move(i)] = true
	}
	// Queen moves come before knight moves for each from-square.
	if Index("a1b3") < Index("a1a2") || Index("b1a3") < Index("b1b2") {
		t.Error("knight moves should follow queen moves")
	}
	if Index("a1a1") != -1 || Index("e1g1") < 0 {
		t.Error("bad membership")
	}
}

func TestEloCategory(t *testing.T) {
	for r, want := range map[int]int64{0: 0, 1099: 0, 1100: 1, 1199: 1, 1500: 5, 1999: 9, 2000: 10, 3000: 10} {
		if got := EloCategory(r); got != want {
			t.Errorf("EloCategory(%d) = %d, want %d", r, got, want)
		}
	}
}

func TestWinProb(t *testing.T) {
	for v, want := range map[float32]float64{0: 0.5, 1: 1, -1: 0, 3: 1, -3: 0, 0.5: 0.75} {
		if got := WinProb(v); got != want {
			t.Errorf("WinProb(%v) = %v, want %v", v, got, want)
		}
	}
}

func encode(t *testing.T, fen string, moves ...string) ([]float32, *game.Game) {
	t.Helper()
	g, err := game.New(fen, moves)
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float32, InputSize)
	if err := Encode(g, x); err != nil {
		t.Fatal(err)
	}
	return x, g
}

func TestEncodeMirror(t *testing.T) {
	// Black to move with an en-passant capture available (d4xe3) and only
	// Black's kingside and White's queenside castling.
	x, g := encode(t, "r3k2r/8/8/8/3p4/8/4P3/R3K2R w Qk - 0 1", "e2e4")
	// After mirroring, Black's d4 pawn is a white pawn on d5 (27^56 = 35).
	if x[0*64+35] != 1 || x[6*64+35] != 0 {
		t.Error("black pawn not mirrored to a white pawn on d5")
	}
	// White's e4 pawn becomes a black pawn on e5 (28^56 = 36).
	if x[6*64+36] != 1 {
		t.Error("white pawn not mirrored to a black pawn on e5")
	}
	// Black's king e8 → white king e1.
	if x[5*64+4] != 1 || x[11*64+60] != 1 {
		t.Error("kings not mirrored")
	}
	for ch, want := range map[int]float32{12: 1, 13: 1, 14: 0, 15: 0, 16: 1} {
		if x[ch*64+10] != want {
			t.Errorf("channel %d = %v, want %v", ch, x[ch*64+10], want)
		}
	}
	// En-passant target e3 (20) → e6 (44) after mirroring.
	for s := range 64 {
		want := float32(0)
		if s == 44 {
			want = 1
		}
		if x[17*64+s] != want {
			t.Fatalf("ep channel square %d = %v, want %v", s, x[17*64+s], want)
		}
	}
	// The black move d4e3 is e5e6 in the mirrored vocabulary.
	if i, err := MoveIndex(g, "d4e3"); err != nil || Move(i) != "d5e6" {
		t.Errorf("MoveIndex(d4e3) = %v %v, want d5e6", i, err)
	}
	if i, err := MoveIndex(g, "e8g8"); err != nil || Move(i) != "e1g1" {
		t.Errorf("MoveIndex(e8g8) = %v %v, want e1g1", i, err)
	}
}

func TestEncodeNoLegalEP(t *testing.T) {
	// After 1.e4 the ep square is set but no capture is possible.
	x, _ := encode(t, "", "e2e4")
	for s := range 64 {
		if x[17*64+s] != 0 {
			t.Fatal("ep channel set without a legal en-passant capture")
		}
	}
	x, _ = encode(t, "")
	if x[0*64+12] != 1 || x[6*64+52] != 1 || x[13*64] != 1 || x[16*64] != 1 {
		t.Error("start position planes wrong")
	}
}

func TestDecodePromotionsForBlack(t *testing.T) {
	_, g := encode(t, "k7/8/8/8/8/8/1p6/7K b - - 0 1")
	logits := make([]float32, VocabSize)
	logits[Index("b7b8n")] = 3 // Black's b2b1n, mirrored
	moves, err := Decode(g, logits)
	if err != nil {
		t.Fatal(err)
	}
	if moves[0].UCI != "b2b1n" {
		t.Errorf("top move %s, want b2b1n", moves[0].UCI)
	}
}
