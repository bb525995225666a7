package maia1

import (
	"math"
	"sync"

	"github.com/outpostchess/outpost/models/lc0"
)

// applyConv applies the same-padded convolution c (batch norm folded in by
// package lc0) to x, c.In planes of 64 squares, writing c.Out planes to dst.
// cols is scratch space of at least 64·c.In·c.K² floats. With par > 1 the
// output channels are split into par ranges (multiples of the kernel's
// 4-row tile) computed by as many goroutines, which share the column matrix.
func applyConv(dst, x []float32, c lc0.Conv, cols []float32, par int) {
	k := c.In * c.K * c.K
	cols = cols[:PlaneSize*k]
	if c.K == 3 {
		im2col3x3(cols, x, c.In)
	} else {
		transpose1x1(cols, x, c.In)
	}
	if par < 2 {
		mulCols(dst, c.W, c.B, cols, c.Out, k, PlaneSize)
		return
	}
	step := (c.Out/par + 3) &^ 3
	var wg sync.WaitGroup
	for o0 := 0; o0 < c.Out; o0 += step {
		o1 := min(o0+step, c.Out)
		wg.Go(func() {
			mulCols(dst[o0*PlaneSize:o1*PlaneSize], c.W[o0*k:o1*k], c.B[o0:o1], cols, o1-o0, k, PlaneSize)
		})
	}
	wg.Wait()
}

// applyDense writes d's outputs for input x into dst: dst[o] = B[o] + W[o]·x.
func applyDense(dst, x []float32, d lc0.Dense) {
	for o := range d.Out {
		dst[o] = d.B[o] + dot(d.W[o*d.In:(o+1)*d.In], x)
	}
}

// relu clamps x at zero in place.
func relu(x []float32) {
	for i, v := range x {
		x[i] = max(0, v)
	}
}

// sigmoid is the logistic function in float32.
func sigmoid(x float32) float32 {
	return float32(1 / (1 + math.Exp(-float64(x))))
}

// softmax3 turns three logits into probabilities in place.
func softmax3(x []float32) {
	m := max(x[0], x[1], x[2])
	var sum float64
	var e [3]float64
	for i := range 3 {
		e[i] = math.Exp(float64(x[i] - m))
		sum += e[i]
	}
	for i := range 3 {
		x[i] = float32(e[i] / sum)
	}
}
