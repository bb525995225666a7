package maia1

// policyHead computes the 1858 policy logits from the tower output s.x:
// a 3×3 convolution with ReLU, a 3×3 convolution to 80 move channels, and
// the gather of each move's (channel, from-square) entry (GatherIndices).
func (fw *Forward) policyHead(s *scratch, logits []float32) {
	n := fw.net
	applyConv(s.y, s.x, n.Policy1, s.cols, s.par)
	relu(s.y)
	applyConv(s.pol, s.y, n.Policy, s.cols, s.par)
	for i, g := range fw.gather {
		logits[i] = s.pol[g]
	}
}

// valueHead computes the softmaxed WDL from the tower output s.x: a 1×1
// convolution with ReLU, flattened channel-major, a dense layer with ReLU
// and a dense layer to three logits.
func (fw *Forward) valueHead(s *scratch, wdl []float32) {
	n := fw.net
	applyConv(s.val, s.x, n.Value, s.cols, s.par)
	relu(s.val)
	hidden := s.hidden[:n.Value1.Out]
	applyDense(hidden, s.val, n.Value1)
	relu(hidden)
	applyDense(wdl, hidden, n.Value2)
	softmax3(wdl)
}
