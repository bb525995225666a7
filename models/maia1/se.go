package maia1

import "github.com/outpostchess/outpost/models/lc0"

// squeezeExcite applies lc0's squeeze-excitation unit to z in place
// (channels of 64 squares): the channel means go through FC1, ReLU and FC2,
// whose first half gates each channel through a sigmoid and whose second
// half is added to it: z[c] = z[c]·σ(γ[c]) + β[c]. buf holds at least
// channels + FC1.Out + FC2.Out floats.
func squeezeExcite(z []float32, se *lc0.SE, buf []float32) {
	ch := se.FC1.In
	mean := buf[:ch]
	hidden := buf[ch : ch+se.FC1.Out]
	gb := buf[ch+se.FC1.Out : ch+se.FC1.Out+se.FC2.Out]
	for c := range ch {
		var s float32
		for _, v := range z[c*PlaneSize : (c+1)*PlaneSize] {
			s += v
		}
		mean[c] = s / PlaneSize
	}
	applyDense(hidden, mean, se.FC1)
	relu(hidden)
	applyDense(gb, hidden, se.FC2)
	for c := range ch {
		g, b := sigmoid(gb[c]), gb[ch+c]
		plane := z[c*PlaneSize : (c+1)*PlaneSize]
		for i, v := range plane {
			plane[i] = v*g + b
		}
	}
}
