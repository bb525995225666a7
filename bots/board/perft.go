package board

// Perft counts the leaf nodes of the legal move tree to depth, making and
// unmaking every move (no bulk counting at the leaves), the standard
// correctness and speed test of a move generator.
func (b *Board) Perft(depth int) int64 {
	if depth <= 0 {
		return 1
	}
	var ml MoveList
	b.GenerateMoves(&ml)
	var n int64
	for _, m := range ml.Slice() {
		b.Make(m)
		n += b.Perft(depth - 1)
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
	var ml MoveList
	b.GenerateMoves(&ml)
	out := make([]DivideEntry, 0, ml.N)
	for _, m := range ml.Slice() {
		b.Make(m)
		out = append(out, DivideEntry{Move: m, Nodes: b.Perft(depth - 1)})
		b.Unmake()
	}
	return out
}
