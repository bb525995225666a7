package board

// Zobrist keys, fixed by a deterministic generator at init so hashes are
// reproducible across runs.
var (
	zobPiece  [12][64]uint64
	zobCastle [16]uint64
	zobEP     [8]uint64 // by file of the en passant target
	zobSide   uint64
)

func init() {
	rng := &xorshift{s: 0x2545F4914F6CDD1D}
	for p := range zobPiece {
		for s := range zobPiece[p] {
			zobPiece[p][s] = rng.next()
		}
	}
	for i := range zobCastle {
		zobCastle[i] = rng.next()
	}
	for i := range zobEP {
		zobEP[i] = rng.next()
	}
	zobSide = rng.next()
}

// computeHash recomputes the Zobrist hash from scratch.
func (b *Board) computeHash() uint64 {
	var h uint64
	for s := Square(0); s < 64; s++ {
		if p := b.sq[s]; p != NoPiece {
			h ^= zobPiece[p][s]
		}
	}
	h ^= zobCastle[b.castle]
	if b.ep != NoSquare {
		h ^= zobEP[b.ep.File()]
	}
	if b.side == Black {
		h ^= zobSide
	}
	return h
}
