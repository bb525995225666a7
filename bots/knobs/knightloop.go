package knobs

import "github.com/outpostchess/outpost/bots/board"

// knightLoops are the knight loops of the manual test toggle, preferred
// first: home square and the square towards the centre, per colour.
var knightLoops = [2][2][2]board.Square{
	white: {{6, 21}, {1, 18}},   // g1-f3, b1-c3
	black: {{62, 45}, {57, 42}}, // g8-f6, b8-c6
}

// knightLoopMove returns the next move of the knight loop: a knight that
// stands on its loop's centre square goes home, otherwise a knight at home
// goes out. It reports false when no loop move is legal.
func knightLoopMove(root *node, moves []board.Move) (board.Move, bool) {
	side := colorIndex(root.pos.SideToMove())
	find := func(from, to board.Square) (board.Move, bool) {
		if absKind(root.mb[from]) != kKnight || pieceColor(root.mb[from]) != side {
			return board.NullMove, false
		}
		for _, m := range moves {
			if m.From() == from && m.To() == to {
				return m, true
			}
		}
		return board.NullMove, false
	}
	for _, l := range knightLoops[side] {
		if m, ok := find(l[1], l[0]); ok {
			return m, true
		}
	}
	for _, l := range knightLoops[side] {
		if m, ok := find(l[0], l[1]); ok {
			return m, true
		}
	}
	return board.NullMove, false
}
