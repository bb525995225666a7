package maia1

import (
	"testing"

	"github.com/outpostchess/outpost/models/game"
)

// planes encodes a game for tests.
func planes(t *testing.T, fen string, moves ...string) []float32 {
	t.Helper()
	g, err := game.New(fen, moves)
	if err != nil {
		t.Fatal(err)
	}
	dst := make([]float32, InputSize)
	if err := Encode(g, dst); err != nil {
		t.Fatal(err)
	}
	return dst
}

// plane returns the 64 squares of plane p that are non-zero.
func setSquares(x []float32, p int) map[int]float32 {
	out := map[int]float32{}
	for s := range 64 {
		if v := x[p*64+s]; v != 0 {
			out[s] = v
		}
	}
	return out
}

func constant(x []float32, p int, v float32) bool {
	for s := range 64 {
		if x[p*64+s] != v {
			return false
		}
	}
	return true
}

func squares(list ...int) map[int]float32 {
	m := map[int]float32{}
	for _, s := range list {
		m[s] = 1
	}
	return m
}

func sameSet(a, b map[int]float32) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func rank(r int) []int {
	out := make([]int, 8)
	for f := range 8 {
		out[f] = r*8 + f
	}
	return out
}

func TestEncodeStartPosition(t *testing.T) {
	x := planes(t, "")
	if !sameSet(setSquares(x, 0), squares(rank(1)...)) {
		t.Errorf("our pawns: %v", setSquares(x, 0))
	}
	if !sameSet(setSquares(x, 6), squares(rank(6)...)) {
		t.Errorf("their pawns: %v", setSquares(x, 6))
	}
	if !sameSet(setSquares(x, 5), squares(4)) || !sameSet(setSquares(x, 11), squares(60)) {
		t.Error("kings misplaced")
	}
	// Standard start: missing history stays zero.
	for p := 13; p < 104; p++ {
		if !constant(x, p, 0) {
			t.Fatalf("history plane %d not zero", p)
		}
	}
	for p, v := range map[int]float32{104: 1, 105: 1, 106: 1, 107: 1, 108: 0, 109: 0, 110: 0, 111: 1} {
		if !constant(x, p, v) {
			t.Errorf("plane %d not all %v", p, v)
		}
	}
}

func TestEncodeBlackFlip(t *testing.T) {
	x := planes(t, "", "e2e4")
	// Black to move: black pawns are "ours", drawn on rank 2 after flipping.
	if !sameSet(setSquares(x, 0), squares(rank(1)...)) {
		t.Errorf("our (black) pawns: %v", setSquares(x, 0))
	}
	// White's e4 pawn appears on e5 (28^56 = 36); the rest on rank 7.
	want := squares(48, 49, 50, 51, 53, 54, 55, 36)
	if !sameSet(setSquares(x, 6), want) {
		t.Errorf("their (white) pawns: %v", setSquares(x, 6))
	}
	// Black's king e8 → e1 in our view; White's king e1 → e8.
	if !sameSet(setSquares(x, 5), squares(4)) || !sameSet(setSquares(x, 11), squares(60)) {
		t.Error("kings not flipped")
	}
	// History slot 1 (start position) is drawn from Black's view too.
	if !sameSet(setSquares(x, 13+6), squares(rank(6)...)) {
		t.Errorf("slot 1 their pawns: %v", setSquares(x, 19))
	}
	if !constant(x, 108, 1) {
		t.Error("black-to-move plane not set")
	}
}

func TestEncodeCastling(t *testing.T) {
	// White keeps only queenside, Black only kingside.
	w := planes(t, "r3k2r/8/8/8/8/8/8/R3K2R w Qk - 0 1")
	b := planes(t, "r3k2r/8/8/8/8/8/8/R3K2R b Qk - 0 1")
	for _, c := range []struct {
		name  string
		x     []float32
		plane int
		want  float32
	}{
		{"white: our queenside", w, 104, 1}, {"white: our kingside", w, 105, 0},
		{"white: their queenside", w, 106, 0}, {"white: their kingside", w, 107, 1},
		{"black: our queenside", b, 104, 0}, {"black: our kingside", b, 105, 1},
		{"black: their queenside", b, 106, 1}, {"black: their kingside", b, 107, 0},
	} {
		if !constant(c.x, c.plane, c.want) {
			t.Errorf("%s (plane %d) not all %v", c.name, c.plane, c.want)
		}
	}
	// Rights lost during the game: after h1h3 White has only queenside.
	x := planes(t, "", "h2h4", "e7e5", "h1h3", "d7d6")
	if !constant(x, 104, 1) || !constant(x, 105, 0) || !constant(x, 106, 1) || !constant(x, 107, 1) {
		t.Error("castling after rook move wrong")
	}
}

func TestEncodeRepetition(t *testing.T) {
	x := planes(t, "", "e2e4", "e7e5", "g1f3", "b8c6", "f3g1", "c6b8", "g1f3", "b8c6")
	for slot, want := range map[int]float32{0: 1, 1: 1, 2: 1, 3: 0, 4: 0, 5: 0} {
		if !constant(x, slot*13+12, want) {
			t.Errorf("repetition plane of slot %d not all %v", slot, want)
		}
	}
}

func TestEncodeRule50(t *testing.T) {
	x := planes(t, "2r5/5k2/4p1p1/3pP1Pp/3P3P/4K3/8/2R5 w - - 22 52", "c1c2", "c8c7", "c2c1", "c7c8")
	if !constant(x, 109, 26) {
		t.Errorf("rule-50 plane = %v, want raw 26", x[109*64])
	}
	x = planes(t, "2r5/5k2/4p1p1/3pP1Pp/3P3P/4K3/8/2R5 w - - 22 52", "c1c8")
	if !constant(x, 109, 0) {
		t.Errorf("rule-50 after capture = %v, want 0", x[109*64])
	}
}

func TestEncodeHistoryFill(t *testing.T) {
	// A FEN start repeats its first position into every missing slot.
	x := planes(t, "3k4/8/r7/3PK3/8/8/8/7R b - - 5 58")
	for slot := 1; slot < 8; slot++ {
		for p := range 12 {
			if !sameSet(setSquares(x, slot*13+p), setSquares(x, p)) {
				t.Fatalf("slot %d plane %d differs from slot 0", slot, p)
			}
		}
		if !constant(x, slot*13+12, 0) {
			t.Errorf("fill slot %d marked as repetition", slot)
		}
	}
	// With a pending en-passant double push, the copies take the push back.
	fen := "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3"
	x = planes(t, fen)
	if got := setSquares(x, 6); got[35] != 1 || got[51] != 0 {
		t.Errorf("slot 0 their pawns should have d5 not d7: %v", got)
	}
	for slot := 1; slot < 8; slot++ {
		if got := setSquares(x, slot*13+6); got[35] != 0 || got[51] != 1 {
			t.Errorf("fill slot %d: their pawn should be back on d7: %v", slot, got)
		}
	}
	// After one move, slot 1 is the real start (pawn on d5), slots 2+ the undone copy.
	x = planes(t, fen, "g1f3")
	// Black to move now: White's pieces are "theirs"; Black's d5 pawn is ours at d5^56 = d4 (27).
	if got := setSquares(x, 13+0); got[27] != 1 || got[11] != 0 {
		t.Errorf("slot 1 our pawns: %v", got)
	}
	if got := setSquares(x, 2*13+0); got[27] != 0 || got[11] != 1 {
		t.Errorf("slot 2 our pawns (undone): %v", got)
	}
}

func TestEncodeBufferSize(t *testing.T) {
	g, _ := game.New("", nil)
	if err := Encode(g, make([]float32, 10)); err == nil {
		t.Error("short buffer accepted")
	}
}
