package board

// Make plays m, which must be legal in the position (as produced by
// GenerateMoves or ParseUCI). Undo it with Unmake.
func (b *Board) Make(m Move) {
	from, to, flag := m.From(), m.To(), m.Flag()
	us := b.side
	u := undo{move: m, captured: NoPiece, castle: b.castle, ep: b.ep, halfmove: b.halfmove, hash: b.hash}
	if b.ep != NoSquare {
		b.hash ^= zobEP[b.ep.File()]
		b.ep = NoSquare
	}
	piece := b.sq[from]
	b.halfmove++
	switch {
	case flag == FlagEnPassant:
		capSq := to - 8
		if us == Black {
			capSq = to + 8
		}
		u.captured = b.sq[capSq]
		b.remove(capSq)
	case flag&FlagCapture != 0:
		u.captured = b.sq[to]
		b.remove(to)
	}
	switch {
	case flag&FlagPromo != 0:
		b.remove(from)
		b.put(MakePiece(us, m.Promotion()), to)
	case flag == FlagCastleK || flag == FlagCastleQ:
		i := b.castleRight(m)
		rook := b.castleRook[i]
		kTo, rTo := castleTargets(i)
		b.remove(from)
		b.remove(rook)
		b.put(MakePiece(us, King), kTo)
		b.put(MakePiece(us, Rook), rTo)
	default:
		b.move(from, to)
	}
	if piece.Type() == Pawn || u.captured != NoPiece {
		b.halfmove = 0
	}
	if nc := b.castle & b.castleMask[from] & b.castleMask[to]; nc != b.castle {
		b.hash ^= zobCastle[b.castle] ^ zobCastle[nc]
		b.castle = nc
	}
	b.side ^= 1
	b.hash ^= zobSide
	if flag == FlagDoublePush {
		b.setEP(Square((int(from) + int(to)) / 2))
		if b.ep != NoSquare {
			b.hash ^= zobEP[b.ep.File()]
		}
	}
	if us == Black {
		b.fullmove++
	}
	b.hist = append(b.hist, u)
}

// Unmake takes back the last move made with Make or MakeNull.
func (b *Board) Unmake() {
	n := len(b.hist) - 1
	u := b.hist[n]
	b.hist = b.hist[:n]
	b.side ^= 1
	us := b.side
	if us == Black {
		b.fullmove--
	}
	m := u.move
	if m != NullMove {
		from, to, flag := m.From(), m.To(), m.Flag()
		switch {
		case flag&FlagPromo != 0:
			b.remove(to)
			b.put(MakePiece(us, Pawn), from)
		case flag == FlagCastleK || flag == FlagCastleQ:
			i := b.castleRight(m)
			kTo, rTo := castleTargets(i)
			b.remove(kTo)
			b.remove(rTo)
			b.put(MakePiece(us, King), from)
			b.put(MakePiece(us, Rook), b.castleRook[i])
		default:
			b.move(to, from)
		}
		if u.captured != NoPiece {
			capSq := to
			if flag == FlagEnPassant {
				capSq = to - 8
				if us == Black {
					capSq = to + 8
				}
			}
			b.put(u.captured, capSq)
		}
	}
	b.castle, b.ep, b.halfmove, b.hash = u.castle, u.ep, u.halfmove, u.hash
}

// MakeNull passes the move to the opponent (for null-move pruning). The
// side to move must not be in check. Undo it with Unmake.
func (b *Board) MakeNull() {
	b.hist = append(b.hist, undo{move: NullMove, captured: NoPiece, castle: b.castle, ep: b.ep, halfmove: b.halfmove, hash: b.hash})
	if b.ep != NoSquare {
		b.hash ^= zobEP[b.ep.File()]
		b.ep = NoSquare
	}
	if b.side == Black {
		b.fullmove++
	}
	b.halfmove++
	b.side ^= 1
	b.hash ^= zobSide
}
