package board

import (
	"testing"

	"github.com/notnil/chess"
)

func TestStatus(t *testing.T) {
	for _, c := range []struct {
		fen  string
		want Outcome
	}{
		{StartFEN, Ongoing},
		{"7k/5QQ1/8/8/8/8/8/K7 b - - 0 1", Checkmate},
		{"7k/8/6Q1/8/8/8/8/K7 b - - 0 1", Stalemate},
		{"8/8/4k3/8/8/3NK3/8/8 w - - 0 1", DrawInsufficient},
		{"8/8/4k3/8/8/3BK3/8/8 w - - 0 1", DrawInsufficient},
		{"8/8/3bk3/8/8/3BK3/8/8 w - - 0 1", Ongoing},           // opposite-coloured bishops can mate in theory
		{"8/8/2b1k3/8/8/3BK3/8/8 w - - 0 1", DrawInsufficient}, // same-coloured bishops cannot
		{"8/8/4k3/8/8/2NNK3/8/8 w - - 0 1", Ongoing},           // two knights: not automatic
		{"8/8/4k3/8/8/3RK3/8/8 w - - 100 80", DrawFiftyMoves},  // fifty-move rule
		{"R6k/8/7K/8/8/8/8/8 b - - 100 80", Checkmate},         // mate beats the fifty-move rule
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99 50", Ongoing},
	} {
		b := mustFEN(t, c.fen)
		if got := b.Status(); got != c.want {
			t.Errorf("%s: status %v, want %v", c.fen, got, c.want)
		}
	}
}

func TestRepetitionCount(t *testing.T) {
	b := New()
	moves := []string{"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"}
	wantCounts := []int{0, 0, 0, 1, 1, 1, 1, 2}
	for i, s := range moves {
		if err := b.MakeUCI(s); err != nil {
			t.Fatal(err)
		}
		if got := b.RepetitionCount(); got != wantCounts[i] {
			t.Errorf("after %v: repetitions %d, want %d", moves[:i+1], got, wantCounts[i])
		}
	}
	if !b.IsThreefoldRepetition() || b.Status() != DrawRepetition {
		t.Error("threefold not detected")
	}
	// A pawn move resets: earlier positions cannot recur.
	if err := b.MakeUCI("e2e4"); err != nil {
		t.Fatal(err)
	}
	if b.RepetitionCount() != 0 {
		t.Error("repetition across a pawn move")
	}
	// A null move breaks the chain too.
	b.MakeNull()
	b.MakeNull()
	if b.RepetitionCount() != 0 {
		t.Error("repetition across null moves")
	}
	b.Unmake()
	b.Unmake()
}

func TestNullMove(t *testing.T) {
	b := mustFEN(t, "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
	fen, hash := b.FEN(), b.Hash()
	b.MakeNull()
	if b.SideToMove() != Black || b.EnPassant() != NoSquare || b.Hash() != b.computeHash() {
		t.Fatalf("after null move: %s", b.FEN())
	}
	b.Unmake()
	if b.FEN() != fen || b.Hash() != hash {
		t.Fatalf("null unmake: %s", b.FEN())
	}
}

func TestNotnil(t *testing.T) {
	b := New()
	for _, m := range []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1"} {
		if err := b.MakeUCI(m); err != nil {
			t.Fatal(err)
		}
	}
	want := "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4"
	if b.FEN() != want {
		t.Fatalf("FEN %s, want %s", b.FEN(), want)
	}
	if b.Ply() != 7 || b.LastMove().String() != "e1g1" || !b.LastMove().IsCastle() {
		t.Errorf("ply %d last %s", b.Ply(), b.LastMove())
	}
	pos, err := b.ToNotnil()
	if err != nil {
		t.Fatal(err)
	}
	if pos.String() != want {
		t.Errorf("notnil FEN %s", pos.String())
	}
	back, err := FromNotnil(pos)
	if err != nil || back.Hash() != b.Hash() {
		t.Errorf("FromNotnil: %v", err)
	}
	m, _ := b.ParseUCI("f6e4")
	nm, err := NotnilMove(pos, m)
	if err != nil || !nm.HasTag(chess.Capture) {
		t.Errorf("NotnilMove: %v %v", nm, err)
	}
	if _, err := FromNotnil(nil); err == nil {
		t.Error("nil notnil position accepted")
	}
}

func TestClone(t *testing.T) {
	b := New()
	_ = b.MakeUCI("e2e4")
	c := b.Clone()
	_ = c.MakeUCI("e7e5")
	if b.Ply() != 1 || c.Ply() != 2 {
		t.Fatal("clone shares state")
	}
	c.Unmake()
	c.Unmake()
	if c.FEN() != StartFEN {
		t.Fatalf("clone unmake: %s", c.FEN())
	}
}
