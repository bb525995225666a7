package search

import (
	"math/bits"

	"github.com/outpostchess/outpost/bots/board"
)

// Correction history (feature corrhist): the static evaluation makes the
// same mistakes again and again in one pawn structure (a blocked centre it
// overrates, a passed pawn it underrates), and the search keeps finding
// them out. Each node whose search result says which way the evaluation
// erred feeds the error into a moving average kept per side to move and
// pawn structure; the next evaluation of that structure adds it.
const (
	// corrBits: 2^14 pawn-structure slots per side (128 KiB per engine);
	// a game rarely shows more than a few thousand structures in one
	// search, and a collision only blends two averages.
	corrBits = 14
	// corrGrain: entries hold centipawns × corrGrain, so that the average
	// moves by fractions of a centipawn.
	corrGrain = 256
	// corrScale and corrMaxWeight: a result of depth d moves the average
	// by min(d+1, corrMaxWeight)/corrScale of the way toward it, so deep
	// results count more and no single one more than a sixteenth.
	corrScale     = 256
	corrMaxWeight = 16
	// corrLimit: the correction never exceeds 96 cp either way: beyond a
	// pawn the evaluation's error is in the position, not the structure.
	corrLimit = 96 * corrGrain
)

// corrHistory holds the averages by side to move and pawn-structure slot.
type corrHistory [2][1 << corrBits]int32

// pawnSlot maps b's pawns of both colours to a slot (a multiplicative hash
// of the two pawn bitboards).
func pawnSlot(b *board.Board) uint64 {
	w := uint64(b.Pieces(board.White, board.Pawn)) * 0x9e3779b97f4a7c15
	k := uint64(b.Pieces(board.Black, board.Pawn)) * 0xc2b2ae3d27d4eb4f
	return (w ^ bits.RotateLeft64(k, 29)) >> (64 - corrBits)
}

// correction is the correction for the current position in centipawns.
func (s *searcher) correction() int {
	if s.feat&FeatCorrHist == 0 || s.corr == nil {
		return 0
	}
	return int(s.corr[s.b.SideToMove()][pawnSlot(s.b)] / corrGrain)
}

// learnCorrection feeds a node's result into the average: best is the
// node's score, raw and corrected its evaluation before and after the
// correction (and the table's refinement), lower/upper whether best is only
// a lower bound (a cut-off) or an upper bound (every move failed low). A
// lower bound at or under the evaluation, or an upper bound at or above
// it, says nothing about the evaluation's error and is skipped, as are
// mate scores; an error beyond corrLimit counts as corrLimit (a tactic the
// search found, not a misjudged structure).
func (s *searcher) learnCorrection(best, raw, corrected, depth int, lower, upper bool) {
	if s.feat&FeatCorrHist == 0 || s.corr == nil || abs(best) >= mateBound ||
		lower && best <= corrected || upper && best >= corrected {
		return
	}
	e := &s.corr[s.b.SideToMove()][pawnSlot(s.b)]
	w := int32(min(depth+1, corrMaxWeight))
	target := int32(max(-corrLimit, min(corrLimit, (best-raw)*corrGrain)))
	*e = max(-corrLimit, min(corrLimit, (*e*(corrScale-w)+target*w)/corrScale))
}
