package maia2

import (
	"testing"

	"github.com/outpostchess/outpost/models/game"
)

// TestMoveIndexChess960: Maia-2 writes castling as the king's move, so a
// Chess960 game's king-takes-rook castling maps to the king's target.
func TestMoveIndexChess960(t *testing.T) {
	for _, c := range []struct {
		fen, move, want string
	}{
		{"1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3K1R w KQkq - 0 1", "f1h1", "f1g1"},
		{"1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3K1R w KQkq - 0 1", "f1b1", "f1c1"},
		{"1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3K1R w KQkq - 0 1", "f1e1", "f1e1"},
		{"1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3K1R b KQkq - 0 1", "f8b8", "f1c1"}, // mirrored
	} {
		g, err := game.NewVariant(c.fen, nil, true)
		if err != nil {
			t.Fatal(err)
		}
		i, err := MoveIndex(g, c.move)
		if err != nil {
			t.Fatalf("%s: %v", c.move, err)
		}
		if Move(i) != c.want {
			t.Errorf("%s in %s: vocabulary move %s, want %s", c.move, c.fen, Move(i), c.want)
		}
	}
}
