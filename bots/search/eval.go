package search

import (
	"github.com/outpostchess/outpost/bots/board"
)

// Game phase: each piece contributes phaseWeight to a total of maxPhase at
// the start (4 minors x1, 4 rooks x2, 2 queens x4 = 24). The tapered score
// is (mg*phase + eg*(maxPhase-phase)) / maxPhase, so the evaluation slides
// smoothly from midgame to endgame terms as pieces come off.
var phaseWeight = [6]int{0, 1, 1, 2, 4, 0}

const maxPhase = 24

// Mobility: centipawns per reachable square (not occupied by own pieces,
// and for the full evaluation not attacked by enemy pawns), counted
// relative to a typical number of squares so that an average piece scores
// about 0 and material stays the main term. Minor pieces gain most from
// every extra square (4-5 cp); rooks matter more in the endgame (open
// files); a queen always has many squares, so each is worth little.
var (
	mobilityMg   = [6]int{0, 4, 5, 2, 1, 0}
	mobilityEg   = [6]int{0, 4, 5, 4, 2, 0}
	mobilityBase = [6]int{0, 4, 6, 7, 13, 0}
)

// Other evaluation terms (midgame, endgame), centipawns.
const (
	// tempo: the side to move is roughly a tempo ahead in the midgame.
	tempoMg = 12

	// bishop pair: two bishops cover both square colours; worth about half
	// a pawn, more in open endgames.
	bishopPairMg, bishopPairEg = 30, 50

	// rooks on files without own pawns attack along them (open: no pawns
	// at all; half-open: only enemy pawns).
	rookOpenMg, rookOpenEg = 25, 10
	rookHalfMg, rookHalfEg = 12, 5

	// pawn structure: a doubled pawn cannot defend its twin and blocks it
	// (per extra pawn on a file); an isolated pawn has no pawn neighbour to
	// defend it and is a target, more so in endgames.
	doubledMg, doubledEg   = 10, 20
	isolatedMg, isolatedEg = 10, 15

	// king shelter (midgame only, king on its first two ranks): each own
	// pawn directly in front of the king or beside that square is worth
	// shieldNear, one rank further shieldFar; a file next to the king with
	// no own pawn at all is an open line for the attacker.
	shieldNear, shieldFar = 12, 6
	shieldOpenFile        = 15
)

// Passed pawns by relative rank (index 1 = second rank … 6 = seventh):
// the value grows roughly geometrically because each step makes promotion
// faster and harder to stop; in the endgame it dominates (a seventh-rank
// passer is worth more than a minor piece is short).
var (
	passedMg = [8]int{0, 5, 10, 15, 30, 55, 90, 0}
	passedEg = [8]int{0, 10, 15, 30, 55, 95, 150, 0}
)

// passedFree adds to a passed pawn whose stop square is empty (endgame, by
// relative rank): a blocked passer is much less dangerous.
var passedFree = [8]int{0, 0, 5, 10, 20, 35, 60, 0}

// King-zone attack: attackerWeight per piece type attacking a square
// next to the enemy king (queens the most dangerous, then rooks); the
// summed weight w costs the defender w*w*kingAttackScale/4 cp, capped at
// kingAttackCap. The square makes a lone attacker cheap and a coordinated
// attack by several pieces expensive, which is what matters in practice;
// at least two attackers are needed before anything is charged.
var attackerWeight = [6]int{0, 2, 2, 3, 5, 0}

const (
	kingAttackScale = 3
	kingAttackCap   = 500
)

// Mop-up (both evaluations): when one side has only its king and pawns
// left and the other has at least a rook's worth of pieces, the stronger
// side is paid 10 cp per step the lonely king is from the centre and 4 cp
// per step its own king closes in, which drives the mate instead of aimless
// checks. mopUpMinMaterial = a rook's value.
const mopUpMinMaterial = 470

// Drawish scaling: a side without pawns that is at most a minor piece up
// (KB v K, KR v KB …) can rarely win; the score is divided by drawishDivisor.
const (
	drawishMaxAdvantage = 350
	drawishDivisor      = 8
)

// EvalKind selects an evaluation.
type EvalKind int

// The evaluations: Simple is medium's (material, piece-square tables,
// mobility; untapered midgame terms except for the king), Full is hard's
// tapered evaluation with king safety and pawn structure.
const (
	EvalSimple EvalKind = iota
	EvalFull
	// EvalPlus is EvalFull with threats, outposts and the kings' distance
	// to passed pawns (plusTerms).
	EvalPlus
	// EvalNet is the learned evaluation: EvalPlus corrected by the
	// embedded feature network (net.go), trained on Stockfish's scores.
	EvalNet
)

// Evaluate returns the static evaluation of b in centipawns from the side to
// move's point of view.
// Long: one pass over the pieces summing every term, kept whole for speed.
func Evaluate(b *board.Board, kind EvalKind) int {
	if b.InsufficientMaterial() {
		return 0
	}
	if kind == EvalNet {
		return embeddedNet().Evaluate(b)
	}
	w := &hardWeights
	if kind == EvalSimple {
		w = &ruleWeights
	}
	var mg, eg [2]int
	phase := 0
	occ := b.All()
	var pawnAtt [2]board.Bitboard
	for c := board.White; c <= board.Black; c++ {
		pawns := b.Pieces(c, board.Pawn)
		if c == board.White {
			pawnAtt[c] = (pawns&^board.FileA)<<7 | (pawns&^board.FileH)<<9
		} else {
			pawnAtt[c] = (pawns&^board.FileA)>>9 | (pawns&^board.FileH)>>7
		}
	}
	var attBy [2][6]board.Bitboard // squares attacked by colour c's pieces of each type (EvalPlus)
	var zoneAttack [2]int          // weight of pieces of colour c attacking the enemy king zone
	var zoneAttackers [2]int       // number of such pieces
	var kingZone [2]board.Bitboard
	for c := board.White; c <= board.Black; c++ {
		kingZone[c] = board.KingAttacks(b.KingSquare(c))
	}
	for c := board.White; c <= board.Black; c++ {
		flip := board.Square(0)
		if c == board.Black {
			flip = 56
		}
		own := b.Occupied(c)
		safe := ^own
		if kind >= EvalFull {
			safe &^= pawnAtt[c^1]
		}
		for t := board.Pawn; t <= board.King; t++ {
			for bb := b.Pieces(c, t); bb != 0; {
				s := board.PopLSB(&bb)
				mg[c] += w.ValueMg[t] + w.PstMg[t][s^flip]
				eg[c] += w.ValueEg[t] + w.PstEg[t][s^flip]
				phase += phaseWeight[t]
				var att board.Bitboard
				switch t {
				case board.Knight:
					att = board.KnightAttacks(s)
				case board.Bishop:
					att = board.BishopAttacks(s, occ)
				case board.Rook:
					att = board.RookAttacks(s, occ)
				case board.Queen:
					att = board.QueenAttacks(s, occ)
				default:
					continue
				}
				attBy[c][t] |= att
				n := board.Count(att&safe) - mobilityBase[t]
				mg[c] += n * w.MobilityMg[t]
				eg[c] += n * w.MobilityEg[t]
				if att&kingZone[c^1] != 0 {
					zoneAttack[c] += w.AttackerWeight[t]
					zoneAttackers[c]++
				}
			}
		}
	}
	if phase > maxPhase {
		phase = maxPhase // early promotions
	}
	us := b.SideToMove()
	if kind >= EvalFull {
		mg[us] += w.TempoMg
		for c := board.White; c <= board.Black; c++ {
			fullTerms(b, w, c, &mg, &eg, zoneAttack[c], zoneAttackers[c])
			if kind == EvalPlus {
				attBy[c][board.Pawn] = pawnAtt[c]
				plusTerms(b, w, c, &mg, &eg, &attBy)
			}
		}
	}
	var score int
	if kind >= EvalFull {
		w := (mg[0]-mg[1])*phase + (eg[0]-eg[1])*(maxPhase-phase)
		score = w / maxPhase
	} else {
		// Medium: midgame terms, except that the king switches to its
		// endgame table once the queens are off (the only phase notion it has).
		score = mg[0] - mg[1]
		if b.Pieces(board.White, board.Queen)|b.Pieces(board.Black, board.Queen) == 0 {
			for c := board.White; c <= board.Black; c++ {
				flip := board.Square(0)
				if c == board.Black {
					flip = 56
				}
				k := b.KingSquare(c) ^ flip
				d := w.PstEg[board.King][k] - w.PstMg[board.King][k]
				if c == board.White {
					score += d
				} else {
					score -= d
				}
			}
		}
	}
	score += mopUp(b)
	score = scaleDrawish(b, score)
	if us == board.Black {
		return -score
	}
	return score
}

// nonPawnMaterial is the plain value of colour c's pieces other than pawns.
func nonPawnMaterial(b *board.Board, c board.Color) int {
	m := 0
	for t := board.Knight; t <= board.Queen; t++ {
		m += board.Count(b.Pieces(c, t)) * seeValue[t]
	}
	return m
}

func mopUp(b *board.Board) int {
	for c := board.White; c <= board.Black; c++ {
		loser := c ^ 1
		if nonPawnMaterial(b, loser) != 0 || b.Pieces(loser, board.Pawn) != 0 || nonPawnMaterial(b, c) < mopUpMinMaterial {
			continue
		}
		lk, wk := b.KingSquare(loser), b.KingSquare(c)
		dist := abs(lk.File()-wk.File()) + abs(lk.Rank()-wk.Rank())
		bonus := 10*centreDistance(lk) + 4*(14-dist)
		if c == board.White {
			return bonus
		}
		return -bonus
	}
	return 0
}

func scaleDrawish(b *board.Board, score int) int {
	strong := board.White
	if score < 0 {
		strong = board.Black
	}
	if b.Pieces(strong, board.Pawn) != 0 {
		return score
	}
	if nonPawnMaterial(b, strong)-nonPawnMaterial(b, strong^1) <= drawishMaxAdvantage {
		return score / drawishDivisor
	}
	return score
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// fullTerms adds hard's extra terms for colour c.
// Long: hard's extra terms, one block each, kept in one pass for speed.
func fullTerms(b *board.Board, w *Weights, c board.Color, mg, eg *[2]int, attack, attackers int) {
	them := c ^ 1
	if board.Count(b.Pieces(c, board.Bishop)) >= 2 {
		mg[c] += w.BishopPairMg
		eg[c] += w.BishopPairEg
	}
	ownPawns, theirPawns := b.Pieces(c, board.Pawn), b.Pieces(them, board.Pawn)
	for bb := b.Pieces(c, board.Rook); bb != 0; {
		f := board.PopLSB(&bb).File()
		file := board.FileA << f
		switch {
		case file&(ownPawns|theirPawns) == 0:
			mg[c] += w.RookOpenMg
			eg[c] += w.RookOpenEg
		case file&ownPawns == 0:
			mg[c] += w.RookHalfMg
			eg[c] += w.RookHalfEg
		}
	}
	// Pawn structure.
	for f := 0; f < 8; f++ {
		n := board.Count(ownPawns & (board.FileA << f))
		if n == 0 {
			continue
		}
		if n > 1 {
			mg[c] -= w.DoubledMg * (n - 1)
			eg[c] -= w.DoubledEg * (n - 1)
		}
		if ownPawns&adjacentFiles[f] == 0 {
			mg[c] -= w.IsolatedMg * n
			eg[c] -= w.IsolatedEg * n
		}
	}
	for bb := ownPawns; bb != 0; {
		s := board.PopLSB(&bb)
		if passedMask[c][s]&theirPawns != 0 {
			continue
		}
		r, stop := pawnRankStop(c, s)
		mg[c] += w.PassedMg[r]
		eg[c] += w.PassedEg[r]
		if b.PieceAt(stop) == board.NoPiece {
			eg[c] += w.PassedFree[r]
		}
	}
	// King safety: shelter and attack on the zone around the king.
	k := b.KingSquare(c)
	kr := k.Rank()
	if c == board.Black {
		kr = 7 - kr
	}
	if kr <= 1 {
		dir := 8
		if c == board.Black {
			dir = -8
		}
		for df := -1; df <= 1; df++ {
			f := k.File() + df
			if f < 0 || f > 7 {
				continue
			}
			file := board.FileA << f
			if file&ownPawns == 0 {
				mg[c] -= w.ShieldOpenFile
				continue
			}
			near := board.Square(int(k) + dir + df)
			far := board.Square(int(near) + dir)
			if ownPawns&(board.Bitboard(1)<<near) != 0 {
				mg[c] += w.ShieldNear
			} else if int(far) >= 0 && int(far) < 64 && ownPawns&(board.Bitboard(1)<<far) != 0 {
				mg[c] += w.ShieldFar
			}
		}
	}
	if attackers >= 2 {
		pen := attack * attack * w.KingAttackScale / 4
		if pen > kingAttackCap {
			pen = kingAttackCap
		}
		mg[them] -= pen
	}
}

// Read-only pawn-structure masks.
var (
	adjacentFiles [8]board.Bitboard
	passedMask    [2][64]board.Bitboard // enemy pawns that stop a passer
)

func init() {
	for f := 0; f < 8; f++ {
		if f > 0 {
			adjacentFiles[f] |= board.FileA << (f - 1)
		}
		if f < 7 {
			adjacentFiles[f] |= board.FileA << (f + 1)
		}
	}
	for s := board.Square(0); s < 64; s++ {
		files := adjacentFiles[s.File()] | board.FileA<<s.File()
		for r := 0; r < 8; r++ {
			rank := board.Rank1 << (8 * r)
			if r > s.Rank() {
				passedMask[board.White][s] |= files & rank
			}
			if r < s.Rank() {
				passedMask[board.Black][s] |= files & rank
			}
		}
	}
}

// EvalPlus's terms (centipawns, midgame / endgame by the attacked piece's
// type, index pawn … queen).
var (
	// A piece attacked by an enemy pawn must move or be lost: the
	// attacker gains at least a tempo, often more (forks, a piece short of
	// squares). Rough half values of a minor piece's loss risk; queens and
	// rooks a little more.
	threatByPawnMg = [6]int{0, 50, 50, 60, 60, 0}
	threatByPawnEg = [6]int{0, 35, 35, 45, 45, 0}
	// A rook or queen attacked by a minor piece, or a queen attacked by a
	// rook, is attacked by something worth less: the same kind of pressure,
	// a little smaller (the attacked piece usually just moves).
	threatByLesserMg = [6]int{0, 0, 0, 35, 35, 0}
	threatByLesserEg = [6]int{0, 0, 0, 25, 25, 0}
)

// Outposts: a knight (bishop) on the fourth to sixth rank, defended by an
// own pawn and out of reach of enemy pawns (none on an adjacent file ahead
// of it), cannot be driven away and controls the enemy half.
const (
	outpostKnightMg, outpostKnightEg = 25, 15
	outpostBishopMg, outpostBishopEg = 12, 6
)

// passerKingFar, passerKingNear: in the endgame a passed pawn is worth more
// the farther the enemy king is from its stop square and the nearer its own
// king (5 and 2 cp per square of king distance, times the pawn's relative
// rank − 2, so from the fourth rank on: the nearer promotion, the more the
// kings' race matters).
const (
	passerKingFar  = 5
	passerKingNear = 2
)

// pawnRankStop is the relative rank (0 = own first rank) of colour c's
// pawn on s and its stop square, the square in front of it.
func pawnRankStop(c board.Color, s board.Square) (int, board.Square) {
	if c == board.Black {
		return 7 - s.Rank(), s - 8
	}
	return s.Rank(), s + 8
}

// kingDistance is the Chebyshev distance: the king moves it takes.
func kingDistance(a, b board.Square) int { return max(abs(a.File()-b.File()), abs(a.Rank()-b.Rank())) }

// plusTerms adds EvalPlus's terms for colour c; attBy holds every side's
// attacks by piece type (pawns included).
func plusTerms(b *board.Board, w *Weights, c board.Color, mg, eg *[2]int, attBy *[2][6]board.Bitboard) {
	them := c ^ 1
	pawnAttacks := attBy[c][board.Pawn]
	minorAttacks := attBy[c][board.Knight] | attBy[c][board.Bishop]
	for t := board.Knight; t <= board.Queen; t++ {
		n := board.Count(b.Pieces(them, t) & pawnAttacks)
		mg[c] += n * w.ThreatByPawnMg[t]
		eg[c] += n * w.ThreatByPawnEg[t]
		lesser := minorAttacks
		if t == board.Queen {
			lesser |= attBy[c][board.Rook]
		}
		if t >= board.Rook {
			n = board.Count(b.Pieces(them, t) & lesser &^ pawnAttacks)
			mg[c] += n * w.ThreatByLesserMg[t]
			eg[c] += n * w.ThreatByLesserEg[t]
		}
	}
	ownPawns, theirPawns := b.Pieces(c, board.Pawn), b.Pieces(them, board.Pawn)
	for t := board.Knight; t <= board.Bishop; t++ {
		for bb := b.Pieces(c, t) & pawnAttacks; bb != 0; {
			s := board.PopLSB(&bb)
			r := s.Rank()
			if c == board.Black {
				r = 7 - r
			}
			if r < 3 || r > 5 || passedMask[c][s]&adjacentFiles[s.File()]&theirPawns != 0 {
				continue
			}
			if t == board.Knight {
				mg[c] += w.OutpostKnightMg
				eg[c] += w.OutpostKnightEg
			} else {
				mg[c] += w.OutpostBishopMg
				eg[c] += w.OutpostBishopEg
			}
		}
	}
	ownKing, theirKing := b.KingSquare(c), b.KingSquare(them)
	for bb := ownPawns; bb != 0; {
		s := board.PopLSB(&bb)
		if passedMask[c][s]&theirPawns != 0 {
			continue
		}
		r, stop := pawnRankStop(c, s)
		if r < 3 {
			continue
		}
		rw := r - 2
		eg[c] += rw * (w.PasserKingFar*min(kingDistance(theirKing, stop), 5) - w.PasserKingNear*min(kingDistance(ownKing, stop), 5))
	}
}
