package board

import (
	"context"
	"fmt"
)

// Perft counts the leaf nodes of the legal move tree to depth, making and
// unmaking every move (no bulk counting at the leaves), the standard
// correctness and speed test of a move generator.
func (b *Board) Perft(depth int) int64 {
	if depth <= 0 {
		return 1
	}
	return b.perft(make([]MoveList, depth))
}

// perft is Perft to depth len(lists), with one move list a ply, set up
// once: a MoveList is large (MaxMoves), and one zeroed at every node
// would cost more than the node's moves.
func (b *Board) perft(lists []MoveList) int64 {
	if len(lists) == 0 {
		return 1
	}
	ml := &lists[len(lists)-1]
	b.GenerateMoves(ml)
	var n int64
	for _, m := range ml.Slice() {
		b.Make(m)
		n += b.perft(lists[:len(lists)-1])
		b.Unmake()
	}
	return n
}

// DivideEntry is one root move and the perft count below it.
type DivideEntry struct {
	Move  Move
	Nodes int64
}

// Divide returns the perft count below each root move, in generation order.
func (b *Board) Divide(depth int) []DivideEntry {
	out, _ := b.DivideContext(context.Background(), depth)
	return out
}

// DivideContext is Divide that stops between root moves when ctx ends,
// returning the entries counted so far and ctx's error.
func (b *Board) DivideContext(ctx context.Context, depth int) ([]DivideEntry, error) {
	var ml MoveList
	b.GenerateMoves(&ml)
	out := make([]DivideEntry, 0, ml.N)
	for _, m := range ml.Slice() {
		if err := ctx.Err(); err != nil {
			return out, fmt.Errorf("board: divide: %w", err)
		}
		b.Make(m)
		out = append(out, DivideEntry{Move: m, Nodes: b.Perft(depth - 1)})
		b.Unmake()
	}
	return out, nil
}
