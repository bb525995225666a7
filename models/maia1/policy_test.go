package maia1

import (
	"testing"

	"github.com/outpostchess/outpost/models/game"
)

func TestPolicyTable(t *testing.T) {
	idx := map[string]int{}
	for i := range PolicySize {
		m := PolicyMove(i)
		if _, dup := idx[m]; dup {
			t.Fatalf("duplicate policy move %s", m)
		}
		idx[m] = i
	}
	for _, c := range []struct {
		move string
		want int
	}{{"e2e4", 322}, {"g1f3", 159}, {"e1h1", 103}, {"e1a1", 97}, {"a7a8q", 1792}, {"a7a8", 1401}, {"a1b1", 0}, {"a1c1", 1}, {"h7h8b", 1857}} {
		if got := idx[c.move]; got != c.want {
			t.Errorf("index(%s) = %d, want %d", c.move, got, c.want)
		}
	}
	gather := GatherIndices()
	for _, c := range []struct {
		move       string
		ch, square int64
	}{{"e2e4", 1, 12}, {"g1f3", 63, 6}, {"e1h1", 16, 4}, {"a7a8q", 69, 48}, {"a7a8r", 67, 48}, {"a7b8b", 71, 48}, {"b7a8q", 66, 49}, {"a7a8", 0, 48}} {
		g := gather[idx[c.move]]
		if g/64 != c.ch || g%64 != c.square {
			t.Errorf("%s: channel %d square %d, want channel %d square %d", c.move, g/64, g%64, c.ch, c.square)
		}
	}
	seen := map[int64]bool{}
	for _, g := range gather {
		if g < 0 || g >= 73*64 || seen[g] {
			t.Fatalf("gather index %d out of range or repeated", g)
		}
		seen[g] = true
	}
}

func TestLegalIndex(t *testing.T) {
	for _, c := range []struct {
		fen, move string
		want      string
	}{
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "e1h1"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", "e1a1"},
		{"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8g8", "e1h1"},
		{"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8", "e1a1"},
		{"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8f8", "e1f1"},
		{"8/P6k/8/8/8/8/8/K7 w - - 0 1", "a7a8n", "a7a8"},
		{"8/P6k/8/8/8/8/8/K7 w - - 0 1", "a7a8q", "a7a8q"},
		{"k7/8/8/8/8/8/1p6/7K b - - 0 1", "b2b1r", "b7b8r"},
		{"k7/8/8/8/8/8/1p6/7K b - - 0 1", "b2b1n", "b7b8"},
		{"1k6/8/8/8/8/8/8/R6K w - - 0 1", "a1a8", "a1a8"},
	} {
		g, err := game.New(c.fen, nil)
		if err != nil {
			t.Fatal(err)
		}
		i, err := LegalIndex(g.Current(), c.move)
		if err != nil {
			t.Fatalf("%s %s: %v", c.fen, c.move, err)
		}
		if PolicyMove(i) != c.want {
			t.Errorf("%s in %s: policy move %s, want %s", c.move, c.fen, PolicyMove(i), c.want)
		}
	}
}

func TestDecodeMasksAndNormalises(t *testing.T) {
	g, err := game.New("", nil)
	if err != nil {
		t.Fatal(err)
	}
	logits := make([]float32, PolicySize)
	for i := range logits {
		logits[i] = 50 // illegal moves must not take probability
	}
	e2e4, _ := LegalIndex(g.Current(), "e2e4")
	d2d4, _ := LegalIndex(g.Current(), "d2d4")
	for _, m := range g.LegalMoves() {
		i, _ := LegalIndex(g.Current(), m)
		logits[i] = 0
	}
	logits[e2e4], logits[d2d4] = 2, 1
	moves, err := Decode(g, logits)
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != 20 {
		t.Fatalf("%d moves, want 20", len(moves))
	}
	var sum float64
	for _, m := range moves {
		sum += m.P
	}
	if sum < 0.999999 || sum > 1.000001 {
		t.Errorf("probabilities sum to %v", sum)
	}
	e := 2.718281828459045
	want := e * e / (e*e + e + 18)
	if moves[0].UCI != "e2e4" || moves[1].UCI != "d2d4" || moves[0].P-want > 1e-9 || want-moves[0].P > 1e-9 {
		t.Errorf("top moves %v, want e2e4 %.6f then d2d4", moves[:2], want)
	}
	if _, err := Decode(g, logits[:10]); err == nil {
		t.Error("short logits accepted")
	}
}
