package analysis

import "fmt"

// Worst returns the worst judged move among the plies of a that keep
// accepts (nil keeps every ply), or nil when none of them is judged. It is
// the one rule of the game's critical moment, used by the chat summary's
// "Worst:" and by the expected-winrate line and reports:
//
//  1. the more severe judgement (blunder over mistake over inaccuracy);
//  2. then the larger loss of winning chances (Delta); a mate judgement has
//     no Delta (one eval is a mate) and counts as a loss of 1, half the
//     largest possible loss (2, from certain win to certain loss): a
//     created or lost mate is a swing past most centipawn ones;
//  3. then the earlier move.
func (a *Analysis) Worst(keep func(*Ply) bool) *Ply {
	var worst *Ply
	for i := range a.Plies {
		p := &a.Plies[i]
		if p.Judgement == NoJudgement || (keep != nil && !keep(p)) {
			continue
		}
		if worst == nil || worseThan(p, worst) {
			worst = p
		}
	}
	return worst
}

// worseThan reports whether p ranks strictly before q in Worst's order
// (an equal rank keeps the earlier move).
func worseThan(p, q *Ply) bool {
	if p.Judgement != q.Judgement {
		return p.Judgement > q.Judgement
	}
	return p.chanceLoss() > q.chanceLoss()
}

// mateLoss is the loss of winning chances a mate judgement counts as in
// Worst (see there).
const mateLoss = 1.0

// chanceLoss is the ply's loss of winning chances as Worst ranks it.
func (p *Ply) chanceLoss() float64 {
	switch {
	case p.Delta != nil:
		return *p.Delta
	case p.MateCase != "":
		return mateLoss
	}
	return 0
}

// Label is the move's number and SAN as the summaries print it: "23. Nxe5"
// for White, "23... Nxe5" for Black (PGN's move number indications, a
// space before the move, as Lichess writes them).
func (p *Ply) Label() string { return MoveLabel(p.MoveNumber, p.White(), p.SAN) }

// MoveLabel is Ply.Label of a move by number, side and SAN.
func MoveLabel(moveNumber int, white bool, san string) string {
	if white {
		return fmt.Sprintf("%d. %s", moveNumber, san)
	}
	return fmt.Sprintf("%d... %s", moveNumber, san)
}
