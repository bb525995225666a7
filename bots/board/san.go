package board

// SAN returns the standard algebraic notation of the legal move m on b,
// with its check or mate sign (b is left unchanged).
func (b *Board) SAN(m Move) string {
	var s []byte
	switch {
	case m.Flag() == FlagCastleK:
		s = append(s, "O-O"...)
	case m.Flag() == FlagCastleQ:
		s = append(s, "O-O-O"...)
	default:
		from, to := m.From(), m.To()
		pt := b.PieceAt(from).Type()
		if pt == Pawn {
			if m.IsCapture() || m.IsEnPassant() {
				s = append(s, byte('a'+from.File()), 'x')
			}
			s = append(s, to.String()...)
			if p := m.Promotion(); p != NoPieceType {
				s = append(s, '=', "NBRQ"[p-Knight])
			}
			break
		}
		s = append(s, "PNBRQK"[pt])
		s = append(s, b.disambiguation(m, pt)...)
		if m.IsCapture() {
			s = append(s, 'x')
		}
		s = append(s, to.String()...)
	}
	b.Make(m)
	if b.InCheck() {
		if b.HasLegalMoves() {
			s = append(s, '+')
		} else {
			s = append(s, '#')
		}
	}
	b.Unmake()
	return string(s)
}

// disambiguation returns the file, rank or square needed to tell m apart
// from other legal moves of the same piece type to the same square.
func (b *Board) disambiguation(m Move, pt PieceType) string {
	from := m.From()
	others, sameFile, sameRank := 0, false, false
	for _, o := range b.LegalMoves() {
		if o.To() != m.To() || o.From() == from || b.PieceAt(o.From()).Type() != pt {
			continue
		}
		others++
		sameFile = sameFile || o.From().File() == from.File()
		sameRank = sameRank || o.From().Rank() == from.Rank()
	}
	switch {
	case others == 0:
		return ""
	case !sameFile:
		return string(rune('a' + from.File()))
	case !sameRank:
		return string(rune('1' + from.Rank()))
	}
	return from.String()
}
