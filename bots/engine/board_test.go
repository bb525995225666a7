package engine

import (
	"strings"
	"testing"
)

func TestPositionBoard(t *testing.T) {
	b, err := Position{Moves: []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1"}}.Board()
	if err != nil {
		t.Fatal(err)
	}
	want := "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4"
	if b.FEN() != want {
		t.Fatalf("FEN %s, want %s", b.FEN(), want)
	}
	if b.Ply() != 7 || b.LastMove().String() != "e1g1" || !b.LastMove().IsCastle() {
		t.Errorf("ply %d last %s", b.Ply(), b.LastMove())
	}
	for _, c := range []struct {
		p    Position
		want string
	}{
		{Position{StartFEN: "bad"}, "fields"},
		{Position{Moves: []string{"e2e4", "e2e4"}}, "move 2"},
		{Position{Moves: []string{"e2e4", "zz"}}, "move 2"},
	} {
		if _, err := c.p.Board(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Board(%+v): %v, want error containing %q", c.p, err, c.want)
		}
	}
}
