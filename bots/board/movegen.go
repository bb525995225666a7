package board

// GenerateMoves fills ml with every legal move of the side to move.
func (b *Board) GenerateMoves(ml *MoveList) {
	ml.N = 0
	b.generate(ml, false)
}

// GenerateCaptures fills ml with the legal tactical moves: every capture
// (en passant and capturing promotions included) and the quiet promotions
// to a queen. It is the generator for quiescence search.
func (b *Board) GenerateCaptures(ml *MoveList) {
	ml.N = 0
	b.generate(ml, true)
}

// LegalMoves returns the legal moves as a new slice (convenience for
// callers outside hot loops).
func (b *Board) LegalMoves() []Move {
	var ml MoveList
	b.GenerateMoves(&ml)
	return append([]Move(nil), ml.Slice()...)
}

func (b *Board) generate(ml *MoveList, tactical bool) {
	us, them := b.side, b.side^1
	ksq := b.KingSquare(us)
	usOcc, themOcc, occ := b.occ[us], b.occ[them], b.all
	checkers := b.AttackersTo(ksq, occ) & themOcc

	kingDest := ^usOcc
	if tactical {
		kingDest = themOcc
	}
	occNoKing := occ &^ (Bitboard(1) << ksq)
	for bb := kingAtt[ksq] & kingDest; bb != 0; {
		to := PopLSB(&bb)
		if !b.attacked(to, them, occNoKing) {
			ml.add(NewMove(ksq, to, captureFlag(themOcc, to)))
		}
	}
	if checkers&(checkers-1) != 0 {
		return // double check: only king moves
	}
	mask := ^Bitboard(0)
	if checkers != 0 {
		mask = between[ksq][LSB(checkers)] | checkers
	}

	tp := &b.pieces[them]
	var pinned Bitboard
	snipers := RookAttacks(ksq, themOcc)&(tp[Rook]|tp[Queen]) | BishopAttacks(ksq, themOcc)&(tp[Bishop]|tp[Queen])
	for snipers != 0 {
		s := PopLSB(&snipers)
		bt := between[ksq][s] & occ
		if bt != 0 && bt&(bt-1) == 0 && bt&usOcc != 0 {
			pinned |= bt
		}
	}

	dest := ^usOcc & mask
	if tactical {
		dest &= themOcc
	}
	p := &b.pieces[us]
	for bb := p[Knight] &^ pinned; bb != 0; {
		from := PopLSB(&bb)
		b.addTargets(ml, from, knightAtt[from]&dest, themOcc)
	}
	for bb := p[Bishop] | p[Queen]; bb != 0; {
		from := PopLSB(&bb)
		t := BishopAttacks(from, occ) & dest
		if pinned&(Bitboard(1)<<from) != 0 {
			t &= lineThru[ksq][from]
		}
		b.addTargets(ml, from, t, themOcc)
	}
	for bb := p[Rook] | p[Queen]; bb != 0; {
		from := PopLSB(&bb)
		t := RookAttacks(from, occ) & dest
		if pinned&(Bitboard(1)<<from) != 0 {
			t &= lineThru[ksq][from]
		}
		b.addTargets(ml, from, t, themOcc)
	}

	b.genPawns(ml, tactical, ksq, mask, pinned)

	if !tactical && checkers == 0 {
		b.genCastling(ml)
	}
}

func captureFlag(themOcc Bitboard, to Square) int {
	if themOcc&(Bitboard(1)<<to) != 0 {
		return FlagCapture
	}
	return FlagQuiet
}

func (b *Board) addTargets(ml *MoveList, from Square, t, themOcc Bitboard) {
	for t != 0 {
		to := PopLSB(&t)
		ml.add(NewMove(from, to, captureFlag(themOcc, to)))
	}
}

func addPromos(ml *MoveList, from, to Square, capture, queenOnly bool) {
	base := FlagPromo
	if capture {
		base = FlagPromoCapt
	}
	if queenOnly {
		ml.add(NewMove(from, to, base+3))
		return
	}
	for i := 3; i >= 0; i-- { // queen first
		ml.add(NewMove(from, to, base+i))
	}
}

func (b *Board) genPawns(ml *MoveList, tactical bool, ksq Square, mask, pinned Bitboard) {
	us, them := b.side, b.side^1
	themOcc, occ := b.occ[them], b.all
	push, startRank, promoRank := 8, 1, 7
	if us == Black {
		push, startRank, promoRank = -8, 6, 0
	}
	for bb := b.pieces[us][Pawn]; bb != 0; {
		from := PopLSB(&bb)
		allowed := mask
		if pinned&(Bitboard(1)<<from) != 0 {
			allowed &= lineThru[ksq][from]
		}
		to := Square(int(from) + push)
		if occ&(Bitboard(1)<<to) == 0 {
			if to.Rank() == promoRank {
				if allowed&(Bitboard(1)<<to) != 0 {
					addPromos(ml, from, to, false, tactical)
				}
			} else if !tactical {
				if allowed&(Bitboard(1)<<to) != 0 {
					ml.add(NewMove(from, to, FlagQuiet))
				}
				if from.Rank() == startRank {
					to2 := Square(int(to) + push)
					if occ&(Bitboard(1)<<to2) == 0 && allowed&(Bitboard(1)<<to2) != 0 {
						ml.add(NewMove(from, to2, FlagDoublePush))
					}
				}
			}
		}
		for t := pawnAtt[us][from] & themOcc & allowed; t != 0; {
			to := PopLSB(&t)
			if to.Rank() == promoRank {
				addPromos(ml, from, to, true, false)
			} else {
				ml.add(NewMove(from, to, FlagCapture))
			}
		}
		if b.ep != NoSquare && pawnAtt[us][from]&(Bitboard(1)<<b.ep) != 0 && b.epLegal(from, ksq) {
			ml.add(NewMove(from, b.ep, FlagEnPassant))
		}
	}
}

// epLegal checks an en passant capture by the pawn on from by looking at the
// king's attackers on the board as it would be after the capture.
func (b *Board) epLegal(from, ksq Square) bool {
	us, them := b.side, b.side^1
	capSq := b.ep - 8
	if us == Black {
		capSq = b.ep + 8
	}
	occ := b.all ^ (Bitboard(1) << from) ^ (Bitboard(1) << capSq) | (Bitboard(1) << b.ep)
	tp := &b.pieces[them]
	return BishopAttacks(ksq, occ)&(tp[Bishop]|tp[Queen]) == 0 &&
		RookAttacks(ksq, occ)&(tp[Rook]|tp[Queen]) == 0 &&
		knightAtt[ksq]&tp[Knight] == 0 &&
		pawnAtt[us][ksq]&tp[Pawn]&^(Bitboard(1)<<capSq) == 0
}
