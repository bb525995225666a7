package search

import "github.com/outpostchess/outpost/bots/board"

// Piece values in centipawns, midgame / endgame. The 1-3-3-5-9 scale of
// every chess primer, refined the usual way: a bishop is worth a little more
// than a knight (long range), knights lose value in the endgame (slow on an
// open board, few outposts), rooks gain value as the board opens, and pawns
// gain value in the endgame because promotion comes within reach.
var (
	valueMg = [6]int{85, 320, 335, 470, 960, 0}
	valueEg = [6]int{105, 295, 320, 520, 980, 0}
)

// seeValue is the plain value used for capture ordering and pruning
// (MVV-LVA, delta pruning): pawn 100, minor 320, rook 500, queen 950; the
// king gets a large value so that "capturing" with it sorts last.
var seeValue = [7]int{100, 320, 330, 500, 950, 2000, 0}

// Piece-square tables, indexed [piece type][square] from White's side
// (Black reads square^56). They are computed from a few explained rules
// instead of typed in, so every number has a reason:
var pstMg, pstEg [6][64]int

// centreDistance is the Manhattan distance to the nearest of d4/e4/d5/e5:
// 0 in the centre, 6 in a corner.
func centreDistance(s board.Square) int {
	df := s.File() - 3
	if s.File() >= 4 {
		df = s.File() - 4
	}
	dr := s.Rank() - 3
	if s.Rank() >= 4 {
		dr = s.Rank() - 4
	}
	if df < 0 {
		df = -df
	}
	if dr < 0 {
		dr = -dr
	}
	return df + dr
}

func init() {
	for s := board.Square(0); s < 64; s++ {
		f, r, cd := s.File(), s.Rank(), centreDistance(s)

		// Pawns: each step forward is worth 3 cp in the midgame (space) and 6
		// in the endgame (closer to promotion; passed pawns get more in the
		// pawn-structure term). Central pawns on d4/e4/d5/e5 (+15) control the
		// key squares; an unmoved d or e pawn (-10) blocks the bishops.
		if r >= 1 && r <= 6 {
			adv := r - 1
			pstMg[board.Pawn][s] = 3 * adv
			pstEg[board.Pawn][s] = 6 * adv
			if (f == 3 || f == 4) && (r == 3 || r == 4) {
				pstMg[board.Pawn][s] += 15
			}
			if (f == 3 || f == 4) && r == 1 {
				pstMg[board.Pawn][s] -= 10
			}
		}

		// Knights: "a knight on the rim is dim". 8 cp per step from the centre
		// in the midgame (a centred knight attacks 8 squares, a cornered one 2),
		// 6 in the endgame; +12 centres the scale so an average square is ~0.
		pstMg[board.Knight][s] = 12 - 8*cd
		pstEg[board.Knight][s] = 10 - 6*cd

		// Bishops: long diagonals pass the centre, so mild centralisation (4
		// cp/step, 3 in the endgame); -10 on the back rank pushes development.
		pstMg[board.Bishop][s] = 8 - 4*cd
		pstEg[board.Bishop][s] = 6 - 3*cd
		if r == 0 {
			pstMg[board.Bishop][s] -= 10
		}

		// Rooks: the seventh rank attacks pawns still at home and confines the
		// king (+20 mg, +15 eg); the d and e files open first (+5 mg).
		if r == 6 {
			pstMg[board.Rook][s] += 20
			pstEg[board.Rook][s] += 15
		}
		if f == 3 || f == 4 {
			pstMg[board.Rook][s] += 5
		}

		// Queen: barely cares in the midgame (2 cp/step, an early queen sortie
		// is not rewarded), but a central endgame queen dominates (5 cp/step).
		pstMg[board.Queen][s] = 4 - 2*cd
		pstEg[board.Queen][s] = 10 - 5*cd

		// King, midgame: stay home (-20 cp per rank advanced) and prefer the
		// castled corners (files a,b,g,h) over the centre files, which open
		// first. Endgame: the king becomes a fighting piece, centralise it
		// (10 cp/step; +30 puts the average near 0).
		pstMg[board.King][s] = -20*r + kingFileMg[f]
		pstEg[board.King][s] = 30 - 10*cd
	}
}

// kingFileMg is the midgame preference for the king's file: the castled
// squares g1 (+25) and b1/c1 (+15/+5) are best, the open centre (d/e) worst.
var kingFileMg = [8]int{10, 15, 5, -15, -10, 0, 25, 15}
