package search

import (
	"testing"

	"github.com/outpostchess/outpost/bots/board"
)

// TestSEEPruning: seeLoses, SEE pruning's test. Nb1-c3 leaves the knight
// to the d4 pawn (SEE -320): lost at every depth up to seePruneDepth; a2-a3
// loses nothing; Rd1xd4 loses the exchange for a pawn (SEE -400, ordered as
// a losing capture): beyond 25·d² at depth 3, not at depth 4; castling is
// never counted as losing.
func TestSEEPruning(t *testing.T) {
	b, err := board.FromFEN("4k3/8/8/2p5/3p4/8/P7/1N1RK2R w K - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	mv := func(s string) board.Move {
		m, err := b.ParseUCI(s)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	s := &searcher{b: b, feat: AllFeatures}
	for d := 1; d <= seePruneDepth; d++ {
		if !s.seeLoses(mv("b1c3"), true, 0, d) || s.seeLoses(mv("a2a3"), true, 0, d) || s.seeLoses(mv("e1g1"), true, 0, d) {
			t.Errorf("depth %d: Nc3 %v, a3 %v, O-O %v; want true false false", d,
				s.seeLoses(mv("b1c3"), true, 0, d), s.seeLoses(mv("a2a3"), true, 0, d), s.seeLoses(mv("e1g1"), true, 0, d))
		}
	}
	rxd4 := mv("d1d4")
	if !badCapture(b, rxd4) {
		t.Fatal("Rxd4 not a losing capture")
	}
	if !s.seeLoses(rxd4, false, orderBad, 3) || s.seeLoses(rxd4, false, orderBad, 4) {
		t.Errorf("Rxd4 at depth 3 %v, 4 %v; want true false", s.seeLoses(rxd4, false, orderBad, 3), s.seeLoses(rxd4, false, orderBad, 4))
	}
}
