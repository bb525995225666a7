package game

import "math"

// SoftmaxLegal turns policy logits into probabilities over the legal moves
// only (temperature 1), best first. index maps a legal move (UCI) to its
// logit's position; an error from it is returned as is.
func SoftmaxLegal(legal []string, logits []float32, index func(uci string) (int, error)) ([]MoveProb, error) {
	out := make([]MoveProb, len(legal))
	idx := make([]int, len(legal))
	maxL := math.Inf(-1)
	for i, m := range legal {
		k, err := index(m)
		if err != nil {
			return nil, err
		}
		idx[i] = k
		maxL = math.Max(maxL, float64(logits[k]))
	}
	var sum float64
	for i, m := range legal {
		e := math.Exp(float64(logits[idx[i]]) - maxL)
		out[i] = MoveProb{UCI: m, P: e}
		sum += e
	}
	for i := range out {
		out[i].P /= sum
	}
	SortMoves(out)
	return out, nil
}
