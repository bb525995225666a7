package maia1

// boardSide is the side of the 8×8 board planes.
const boardSide = 8

// im2col3x3 writes the transposed column matrix of a same-padded 3×3
// convolution over x (in planes of 64 squares, square = rank*8 + file):
// row p (an output square) holds, for every input plane c and kernel tap
// (dy, dx), x[c] at (rank+dy-1, file+dx-1), or 0 off the board. cols has
// 64 rows of in*9 values, laid out to match lc0's [out][in][3][3] weights.
func im2col3x3(cols, x []float32, in int) {
	k := in * 9
	for p := range PlaneSize {
		r, f := p/boardSide, p%boardSide
		row := cols[p*k : (p+1)*k]
		for c := range in {
			plane := x[c*PlaneSize : (c+1)*PlaneSize]
			taps := row[c*9 : c*9+9]
			for dy := range 3 {
				rr := r + dy - 1
				for dx := range 3 {
					ff := f + dx - 1
					v := float32(0)
					if rr >= 0 && rr < boardSide && ff >= 0 && ff < boardSide {
						v = plane[rr*boardSide+ff]
					}
					taps[dy*3+dx] = v
				}
			}
		}
	}
}

// transpose1x1 writes x (in planes of 64 squares) as 64 rows of in values:
// the column matrix of a 1×1 convolution.
func transpose1x1(cols, x []float32, in int) {
	for c := range in {
		plane := x[c*PlaneSize : (c+1)*PlaneSize]
		for p, v := range plane {
			cols[p*in+c] = v
		}
	}
}
