package search

import (
	"fmt"

	"github.com/outpostchess/outpost/bots/board"
)

// tracer records, for one position, how often each weight enters
// EvalPlus (White's count minus Black's): the evaluation is linear in all
// weights but the king-attack penalty, which is recorded as a constant.
type tracer struct {
	w       *Weights // the weights traced (their values matter only for the constant parts)
	index   map[*int]int
	coef    []int
	touched []int
	constMg int
}

func newTracer(w *Weights) *tracer {
	ptrs, _ := weightFields(w)
	t := &tracer{w: w, index: make(map[*int]int, len(ptrs)), coef: make([]int, len(ptrs))}
	for i, p := range ptrs {
		t.index[p] = i
	}
	return t
}

// add counts weight p n times for colour c.
func (t *tracer) add(p *int, c board.Color, n int) {
	i, ok := t.index[p]
	if !ok {
		panic("search: tracer: weight outside the traced Weights")
	}
	if c == board.Black {
		n = -n
	}
	if t.coef[i] == 0 {
		t.touched = append(t.touched, i)
	}
	t.coef[i] += n
}

// traceSet traces every position with w.
func traceSet(positions []TexelPosition, w *Weights) (*texelSet, error) {
	t := newTracer(w)
	_, names := weightFields(w)
	ts := &texelSet{isEg: make([]bool, len(names)), start: []int32{0}}
	for i, n := range names {
		ts.isEg[i] = isEgWeight(n)
	}
	for _, pos := range positions {
		b, err := board.FromFEN(pos.FEN)
		if err != nil {
			return nil, fmt.Errorf("search: texel trace: %w", err)
		}
		if b.InsufficientMaterial() {
			continue
		}
		phase := t.trace(b)
		for _, i := range t.touched {
			if c := t.coef[i]; c != 0 {
				ts.entries = append(ts.entries, traceEntry{idx: uint16(i), coef: int16(c)})
			}
			t.coef[i] = 0
		}
		t.touched = t.touched[:0]
		ts.start = append(ts.start, int32(len(ts.entries)))
		ts.phase = append(ts.phase, int8(phase))
		ts.constMg = append(ts.constMg, int32(t.constMg))
		ts.constEg = append(ts.constEg, 0)
		ts.mop = append(ts.mop, int32(mopUp(b)))
		ts.divPos = append(ts.divPos, int8(drawishDivisorFor(b, board.White)))
		ts.divNeg = append(ts.divNeg, int8(drawishDivisorFor(b, board.Black)))
		ts.result = append(ts.result, float32(pos.Result))
	}
	return ts, nil
}

// drawishDivisorFor is scaleDrawish's divisor when strong is ahead.
func drawishDivisorFor(b *board.Board, strong board.Color) int {
	if b.Pieces(strong, board.Pawn) == 0 && nonPawnMaterial(b, strong)-nonPawnMaterial(b, strong^1) <= drawishMaxAdvantage {
		return drawishDivisor
	}
	return 1
}

// trace records b's features (Evaluate with EvalPlus, term by term) and
// returns the phase.
func (t *tracer) trace(b *board.Board) int {
	w := t.w
	t.constMg = 0
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
	var attBy [2][6]board.Bitboard
	var zoneAttack, zoneAttackers [2]int
	for c := board.White; c <= board.Black; c++ {
		flip := board.Square(0)
		if c == board.Black {
			flip = 56
		}
		safe := ^b.Occupied(c) &^ pawnAtt[c^1]
		kingZone := board.KingAttacks(b.KingSquare(c ^ 1))
		for pt := board.Pawn; pt <= board.King; pt++ {
			for bb := b.Pieces(c, pt); bb != 0; {
				s := board.PopLSB(&bb)
				t.add(&w.ValueMg[pt], c, 1)
				t.add(&w.ValueEg[pt], c, 1)
				t.add(&w.PstMg[pt][s^flip], c, 1)
				t.add(&w.PstEg[pt][s^flip], c, 1)
				phase += phaseWeight[pt]
				if pt == board.Pawn || pt == board.King {
					continue
				}
				att := pieceAttacks(pt, s, occ)
				attBy[c][pt] |= att
				n := board.Count(att&safe) - mobilityBase[pt]
				t.add(&w.MobilityMg[pt], c, n)
				t.add(&w.MobilityEg[pt], c, n)
				if att&kingZone != 0 {
					zoneAttack[c] += w.AttackerWeight[pt]
					zoneAttackers[c]++
				}
			}
		}
	}
	t.add(&w.TempoMg, b.SideToMove(), 1)
	for c := board.White; c <= board.Black; c++ {
		t.traceFull(b, c, zoneAttack[c], zoneAttackers[c])
		attBy[c][board.Pawn] = pawnAtt[c]
		t.tracePlus(b, c, &attBy)
	}
	return min(phase, maxPhase)
}

// pieceAttacks is the attack set Evaluate uses for mobility (none for
// pawns and kings).
func pieceAttacks(pt board.PieceType, s board.Square, occ board.Bitboard) board.Bitboard {
	switch pt {
	case board.Knight:
		return board.KnightAttacks(s)
	case board.Bishop:
		return board.BishopAttacks(s, occ)
	case board.Rook:
		return board.RookAttacks(s, occ)
	case board.Queen:
		return board.QueenAttacks(s, occ)
	}
	return 0
}

// traceFull mirrors fullTerms.
// Long: fullTerms term by term, kept in the same order to compare.
func (t *tracer) traceFull(b *board.Board, c board.Color, attack, attackers int) {
	w := t.w
	them := c ^ 1
	if board.Count(b.Pieces(c, board.Bishop)) >= 2 {
		t.add(&w.BishopPairMg, c, 1)
		t.add(&w.BishopPairEg, c, 1)
	}
	ownPawns, theirPawns := b.Pieces(c, board.Pawn), b.Pieces(them, board.Pawn)
	for bb := b.Pieces(c, board.Rook); bb != 0; {
		file := board.FileA << board.PopLSB(&bb).File()
		switch {
		case file&(ownPawns|theirPawns) == 0:
			t.add(&w.RookOpenMg, c, 1)
			t.add(&w.RookOpenEg, c, 1)
		case file&ownPawns == 0:
			t.add(&w.RookHalfMg, c, 1)
			t.add(&w.RookHalfEg, c, 1)
		}
	}
	for f := 0; f < 8; f++ {
		n := board.Count(ownPawns & (board.FileA << f))
		if n == 0 {
			continue
		}
		if n > 1 {
			t.add(&w.DoubledMg, c, -(n - 1))
			t.add(&w.DoubledEg, c, -(n - 1))
		}
		if ownPawns&adjacentFiles[f] == 0 {
			t.add(&w.IsolatedMg, c, -n)
			t.add(&w.IsolatedEg, c, -n)
		}
	}
	for bb := ownPawns; bb != 0; {
		s := board.PopLSB(&bb)
		if passedMask[c][s]&theirPawns != 0 {
			continue
		}
		r, stop := pawnRankStop(c, s)
		t.add(&w.PassedMg[r], c, 1)
		t.add(&w.PassedEg[r], c, 1)
		if b.PieceAt(stop) == board.NoPiece {
			t.add(&w.PassedFree[r], c, 1)
		}
	}
	t.traceShield(b, c, ownPawns)
	if attackers >= 2 {
		pen := min(attack*attack*w.KingAttackScale/4, kingAttackCap)
		if them == board.White {
			t.constMg -= pen
		} else {
			t.constMg += pen
		}
	}
}

// traceShield mirrors fullTerms' king shelter.
func (t *tracer) traceShield(b *board.Board, c board.Color, ownPawns board.Bitboard) {
	w := t.w
	k := b.KingSquare(c)
	kr, dir := k.Rank(), 8
	if c == board.Black {
		kr, dir = 7-kr, -8
	}
	if kr > 1 {
		return
	}
	for df := -1; df <= 1; df++ {
		f := k.File() + df
		if f < 0 || f > 7 {
			continue
		}
		if (board.FileA<<f)&ownPawns == 0 {
			t.add(&w.ShieldOpenFile, c, -1)
			continue
		}
		near := board.Square(int(k) + dir + df)
		far := board.Square(int(near) + dir)
		if ownPawns&(board.Bitboard(1)<<near) != 0 {
			t.add(&w.ShieldNear, c, 1)
		} else if int(far) >= 0 && int(far) < 64 && ownPawns&(board.Bitboard(1)<<far) != 0 {
			t.add(&w.ShieldFar, c, 1)
		}
	}
}

// tracePlus mirrors plusTerms.
// Long: plusTerms term by term, kept in the same order to compare.
func (t *tracer) tracePlus(b *board.Board, c board.Color, attBy *[2][6]board.Bitboard) {
	w := t.w
	them := c ^ 1
	pawnAttacks := attBy[c][board.Pawn]
	minorAttacks := attBy[c][board.Knight] | attBy[c][board.Bishop]
	for pt := board.Knight; pt <= board.Queen; pt++ {
		n := board.Count(b.Pieces(them, pt) & pawnAttacks)
		t.add(&w.ThreatByPawnMg[pt], c, n)
		t.add(&w.ThreatByPawnEg[pt], c, n)
		lesser := minorAttacks
		if pt == board.Queen {
			lesser |= attBy[c][board.Rook]
		}
		if pt >= board.Rook {
			n = board.Count(b.Pieces(them, pt) & lesser &^ pawnAttacks)
			t.add(&w.ThreatByLesserMg[pt], c, n)
			t.add(&w.ThreatByLesserEg[pt], c, n)
		}
	}
	ownPawns, theirPawns := b.Pieces(c, board.Pawn), b.Pieces(them, board.Pawn)
	for pt := board.Knight; pt <= board.Bishop; pt++ {
		for bb := b.Pieces(c, pt) & pawnAttacks; bb != 0; {
			s := board.PopLSB(&bb)
			r := s.Rank()
			if c == board.Black {
				r = 7 - r
			}
			if r < 3 || r > 5 || passedMask[c][s]&adjacentFiles[s.File()]&theirPawns != 0 {
				continue
			}
			if pt == board.Knight {
				t.add(&w.OutpostKnightMg, c, 1)
				t.add(&w.OutpostKnightEg, c, 1)
			} else {
				t.add(&w.OutpostBishopMg, c, 1)
				t.add(&w.OutpostBishopEg, c, 1)
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
		t.add(&w.PasserKingFar, c, (r-2)*min(kingDistance(theirKing, stop), 5))
		t.add(&w.PasserKingNear, c, -(r-2)*min(kingDistance(ownKing, stop), 5))
	}
}
