package knobs

import "github.com/notnil/chess"

// knightLoops are the knight loops of the manual test toggle, preferred
// first: home square and the square towards the centre, per colour.
var knightLoops = [2][2][2]chess.Square{
	white: {{chess.G1, chess.F3}, {chess.B1, chess.C3}},
	black: {{chess.G8, chess.F6}, {chess.B8, chess.C6}},
}

// knightLoopMove returns the next move of the knight loop: a knight that
// stands on its loop's centre square goes home, otherwise a knight at home
// goes out. It returns nil when no loop move is legal.
func knightLoopMove(root *node, moves []*chess.Move) *chess.Move {
	side := colorIndex(root.pos.Turn())
	find := func(from, to chess.Square) *chess.Move {
		if absKind(root.mb[from]) != kKnight || pieceColor(root.mb[from]) != side {
			return nil
		}
		for _, m := range moves {
			if m.S1() == from && m.S2() == to {
				return m
			}
		}
		return nil
	}
	for _, l := range knightLoops[side] {
		if m := find(l[1], l[0]); m != nil {
			return m
		}
	}
	for _, l := range knightLoops[side] {
		if m := find(l[0], l[1]); m != nil {
			return m
		}
	}
	return nil
}
