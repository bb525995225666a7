package game

import (
	"strings"
	"testing"
)

func TestNewErrors(t *testing.T) {
	for _, c := range []struct {
		fen   string
		moves []string
	}{
		{"not a fen", nil},
		{"", []string{"e2e5"}},
		{"", []string{"e2"}},
		{"", []string{"e2e4", "e7e5", "zz99"}},
		{"", []string{"e1g1"}},
	} {
		if _, err := New(c.fen, c.moves); err == nil {
			t.Errorf("New(%q, %v): no error", c.fen, c.moves)
		}
	}
}

func TestLC0EnPassantFlag(t *testing.T) {
	// No black pawn beside e4: flag off, so the position after the king
	// shuffle is a repetition of the one after e2e4.
	g, err := New("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", []string{"e2e4", "e8d8", "e1d1", "d8e8", "d1e1"})
	if err != nil {
		t.Fatal(err)
	}
	if g.Snapshots[1].LC0EP || g.Snapshots[1].EPSquare != 20 {
		t.Errorf("after e2e4: lc0 flag %v, ep square %d; want false, 20", g.Snapshots[1].LC0EP, g.Snapshots[1].EPSquare)
	}
	if g.Current().Repetitions != 1 {
		t.Errorf("repetitions %d, want 1", g.Current().Repetitions)
	}
	// A black pawn on d4 beside e4: flag on, so the later position differs.
	g, err = New("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", []string{"e2e4", "e8d8", "e1d1", "d8e8", "d1e1"})
	if err != nil {
		t.Fatal(err)
	}
	if !g.Snapshots[1].LC0EP {
		t.Error("after e2e4 beside d4: lc0 flag not set")
	}
	if g.Current().Repetitions != 0 {
		t.Errorf("repetitions %d, want 0 (en-passant flag differs)", g.Current().Repetitions)
	}
	// Black double push beside a white pawn.
	g, err = New("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", []string{"d7d5"})
	if err != nil {
		t.Fatal(err)
	}
	if !g.Current().LC0EP || !g.EPCaptureLegal() {
		t.Error("d7d5 beside e5: flag or legal ep capture missing")
	}
}

func TestRepetitionCount(t *testing.T) {
	shuffle := []string{"g1f3", "g8f6", "f3g1", "f6g8"}
	var moves []string
	for range 3 {
		moves = append(moves, shuffle...)
	}
	g, err := New("", moves)
	if err != nil {
		t.Fatal(err)
	}
	if got := g.Current().Repetitions; got != 3 {
		t.Errorf("start position seen again: repetitions %d, want 3", got)
	}
	if !g.Standard {
		t.Error("standard start not recognised")
	}
	g, _ = New("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kkq - 0 1", nil)
	if g.Standard {
		t.Error("start with lost castling right counted as standard")
	}
}

func TestSnapshot(t *testing.T) {
	g, err := New("r3k2r/8/8/8/8/8/8/R3K2R b Kq - 7 30", nil)
	if err != nil {
		t.Fatal(err)
	}
	s := g.Current()
	if s.WhiteToMove || s.HalfMove != 7 || s.Castle != [4]bool{true, false, false, true} {
		t.Errorf("snapshot %+v", s)
	}
	if s.Board[0] != WR || s.Board[60] != BK || s.Board[63] != BR || s.Board[30] != Empty {
		t.Error("board squares wrong")
	}
	if len(g.LegalMoves()) == 0 {
		t.Error("no legal moves")
	}
}

func TestNewRejectsImpossiblePositions(t *testing.T) {
	for _, fen := range []string{
		"8/8/8/8/8/8/8/8 w - - 0 1",
		"kk6/8/8/8/8/8/8/K7 w - - 0 1",
		"k7/8/8/8/8/8/8/KP6 w - - 0 1",
	} {
		if _, err := New(fen, nil); err == nil {
			t.Errorf("%s accepted", fen)
		}
	}
}

func TestPlayMatchesNew(t *testing.T) {
	moves := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f3g1", "c6b8", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1"}
	g, err := New("", nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range moves {
		parent := g
		if g, err = g.Play(m); err != nil {
			t.Fatal(err)
		}
		want, err := New("", moves[:i+1])
		if err != nil {
			t.Fatal(err)
		}
		if len(g.Snapshots) != len(want.Snapshots) || *g.Current() != *want.Current() || g.FEN() != want.FEN() {
			t.Fatalf("after %v: Play and New differ", moves[:i+1])
		}
		if len(parent.Snapshots) != i+1 {
			t.Fatal("Play changed its receiver")
		}
	}
	if g.Snapshots[8].Repetitions != 1 || g.Current().Repetitions != 0 {
		t.Error("repetition counts wrong")
	}
	if _, err := g.Play("e1g1"); err == nil {
		t.Error("illegal Play accepted")
	}
}

// Regression (issue 18): predict answered a king capture for a position
// whose side not to move was in check; such positions are refused.
func TestNewRefusesIllegalPositions(t *testing.T) {
	for fen, want := range map[string]string{
		"4k3/8/8/8/8/8/8/4R1K1 w - - 0 1":  "the side not to move (black) is in check",
		"4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1": "castling right 'K': no white rook on h1",
		"4k3/8/8/8/8/8/8/P3K3 w - - 0 1":   "pawn on rank 1",
	} {
		if _, err := New(fen, nil); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error naming %q", fen, err, want)
		}
	}
}
