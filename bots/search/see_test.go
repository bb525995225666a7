package search

import (
	"testing"

	"github.com/outpostchess/outpost/bots/board"
)

func TestSEE(t *testing.T) {
	cases := []struct {
		fen, move string
		want      int
	}{
		{"1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5", 100},                // undefended pawn
		{"1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5", 100 - 320}, // NxP, NxN, ... loses the knight for a pawn
		{"4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", 100},                              // pawn takes undefended pawn
		{"4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", 100 - 950},                       // queen takes defended pawn
		{"4k3/8/2p5/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 100 - 500 + 100},               // RxP cxR RxP: x-ray rook behind
		{"3rk3/3r4/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 100 - 500},                    // two rooks each: the pawn is defended once too often
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 100},                              // en passant
		{"4k3/8/8/8/8/8/4q3/4K3 w - - 0 1", "e1e2", 950},                                // king takes undefended queen
		{"4k3/8/8/8/8/8/4q3/4K2r w - - 0 1", "e1e2", 950},                               // rook h1 does not defend e2
	}
	for _, c := range cases {
		b, err := board.FromFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		m, err := b.ParseUCI(c.move)
		if err != nil {
			t.Fatal(err)
		}
		if got := see(b, m); got != c.want {
			t.Errorf("%s %s: SEE %d, want %d", c.fen, c.move, got, c.want)
		}
		if got := badCapture(b, m); got != (c.want < 0) {
			t.Errorf("%s %s: badCapture %v", c.fen, c.move, got)
		}
	}
}
