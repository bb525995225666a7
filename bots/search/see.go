package search

import "github.com/outpostchess/outpost/bots/board"

// see is the static exchange evaluation of capture m: the material the
// side to move wins (positive) or loses (negative) if both sides keep
// recapturing on the target square with their least valuable attacker,
// each side free to stop when continuing would lose. Sliding attackers
// hidden behind the pieces that capture first (x-rays) are included.
// Promotions are ignored (SEE is not consulted for them).
func see(b *board.Board, m board.Move) int {
	from, to := m.From(), m.To()
	var gain [40]int
	occ := b.All()
	if m.IsEnPassant() {
		gain[0] = seeValue[board.Pawn]
		capSq := to - 8
		if b.SideToMove() == board.Black {
			capSq = to + 8
		}
		occ &^= board.Bitboard(1) << capSq
	} else if p := b.PieceAt(to); p != board.NoPiece {
		gain[0] = seeValue[p.Type()]
	}
	diag := b.Pieces(board.White, board.Bishop) | b.Pieces(board.Black, board.Bishop) |
		b.Pieces(board.White, board.Queen) | b.Pieces(board.Black, board.Queen)
	straight := b.Pieces(board.White, board.Rook) | b.Pieces(board.Black, board.Rook) |
		b.Pieces(board.White, board.Queen) | b.Pieces(board.Black, board.Queen)
	attackers := b.AttackersTo(to, occ)
	piece := b.PieceAt(from).Type()
	fromSet := board.Bitboard(1) << from
	side := b.SideToMove()
	d := 0
	for {
		d++
		side ^= 1
		// Speculative: the side now to act captures the piece just moved in.
		gain[d] = seeValue[piece] - gain[d-1]
		if d == len(gain)-1 {
			break
		}
		attackers &^= fromSet
		occ &^= fromSet
		// Removing a piece may uncover a slider behind it.
		attackers |= (board.BishopAttacks(to, occ)&diag | board.RookAttacks(to, occ)&straight) & occ
		fromSet = 0
		own := attackers & b.Occupied(side)
		for t := board.Pawn; t <= board.King; t++ {
			if bb := own & b.Pieces(side, t); bb != 0 {
				fromSet = bb & -bb
				piece = t
				break
			}
		}
		if fromSet == 0 {
			break
		}
	}
	for d--; d > 0; d-- {
		gain[d-1] = -max(-gain[d-1], gain[d])
	}
	return gain[0]
}

// badCapture reports whether capture m loses material by SEE. A capture of
// a piece at least as valuable as the capturer can never lose, so SEE is
// computed only when the capturer is worth more.
func badCapture(b *board.Board, m board.Move) bool {
	if m.IsPromotion() || m.IsEnPassant() {
		return false
	}
	attacker := b.PieceAt(m.From()).Type()
	victim := b.PieceAt(m.To()).Type()
	if seeValue[victim] >= seeValue[attacker] {
		return false
	}
	return see(b, m) < 0
}
