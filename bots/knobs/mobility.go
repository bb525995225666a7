package knobs

// hasMoveQuick reports whether side, not in check, certainly has a legal
// move, without generating moves: its king has a safe square, or a piece
// that cannot be pinned (it shares no line with its king) has a pseudo-legal
// move. False means "unknown" and the caller generates moves.
func hasMoveQuick(m *mailbox, f *features, side int) bool {
	sf := &f[side]
	if sf.kingCanMove || sf.kingSq < 0 {
		return true
	}
	kf, kr := sf.kingSq%8, sf.kingSq/8
	free := func(t int) bool { return m[t] == 0 || pieceColor(m[t]) != side }
	for sq := 0; sq < 64; sq++ {
		p := m[sq]
		if p == 0 || pieceColor(p) != side {
			continue
		}
		f, r := sq%8, sq/8
		if f == kf || r == kr || abs(f-kf) == abs(r-kr) {
			continue // could be pinned
		}
		switch absKind(p) {
		case kPawn:
			step := 8
			if side == black {
				step = -8
			}
			if t := sq + step; t >= 0 && t < 64 && m[t] == 0 {
				return true
			}
			found := false
			m.forEachAttack(sq, func(t int) {
				if m[t] != 0 && pieceColor(m[t]) != side {
					found = true
				}
			})
			if found {
				return true
			}
		case kKnight, kBishop, kRook, kQueen:
			found := false
			m.forEachAttack(sq, func(t int) {
				if free(t) {
					found = true
				}
			})
			if found {
				return true
			}
		}
	}
	return false
}
