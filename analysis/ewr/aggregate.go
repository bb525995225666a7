package ewr

// summary accumulates a tree's evaluated paths.
type summary struct {
	sumP, sumPW float64 // Σ p and Σ p·wr
	branches    int
	depthSum    int
}

// summarize walks the tree under n. A path counts once its last node has a
// winrate. Below an analysing player's move that is not evaluated yet
// nothing counts: whether the path continues is not known.
func summarize(n *Node, s *summary) {
	if len(n.Children) == 0 {
		if n.Winrate != nil {
			s.sumP += n.CumulativeProbability
			s.sumPW += n.CumulativeProbability * *n.Winrate
			s.branches++
			s.depthSum += n.depth
		}
		return
	}
	if n.ours && n.Winrate == nil {
		return
	}
	for _, c := range n.Children {
		summarize(c, s)
	}
}

// expected applies the normalisation: Σ p·wr + (1 − Σ p)·base. The coverage
// Σ p is clamped to [0, 1] against rounding.
func expected(sumPW, sumP, base float64) (ewr, coverage float64) {
	coverage = min(1, max(0, sumP))
	return sumPW + (1-coverage)*base, coverage
}

// moveResult computes a candidate's figures from its tree.
func moveResult(root *Node, base float64, filtered bool) MoveResult {
	var s summary
	summarize(root, &s)
	e, cov := expected(s.sumPW, s.sumP, base)
	mr := MoveResult{
		SAN:             root.SAN,
		UCI:             root.UCI,
		ExpectedWinrate: e,
		Confidence:      cov,
		ConfidenceLabel: ConfidenceLabel(cov),
		Coverage:        cov,
		Branches:        s.branches,
		Filtered:        filtered,
	}
	var unevaluated []*Node
	collect(root, &unevaluated)
	mr.Partial = len(unevaluated) > 0
	if s.branches > 0 {
		mr.TreeDepth = float64(s.depthSum) / float64(s.branches)
	}
	if root.Winrate != nil {
		mr.StockfishWinrate = *root.Winrate
	}
	return mr
}
