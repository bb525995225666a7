package maia1

// mulCols computes dst[o*n+p] = bias[o] + Σ_k w[o*k+i]·cols[p*k+i] for o < out,
// p < n: the out×k weight matrix times the transposed column matrix cols
// (n rows of k values, one row per output square), written channel-major.
// Both operands are read along contiguous rows of length k, so the inner loop
// is a plain dot product; it is tiled 4 outputs × 2 squares, keeping eight
// accumulators in registers so that every weight and column value loaded is
// used twice or four times.
func mulCols(dst, w, bias, cols []float32, out, k, n int) {
	o := 0
	for ; o+4 <= out; o += 4 {
		w0, w1, w2, w3 := w[o*k:(o+1)*k], w[(o+1)*k:(o+2)*k], w[(o+2)*k:(o+3)*k], w[(o+3)*k:(o+4)*k]
		p := 0
		for ; p+2 <= n; p += 2 {
			c0, c1 := cols[p*k:(p+1)*k], cols[(p+1)*k:(p+2)*k]
			var s [8]float32
			dot4x2(&s, w0, w1, w2, w3, c0, c1)
			for i := range 4 {
				dst[(o+i)*n+p] = bias[o+i] + s[2*i]
				dst[(o+i)*n+p+1] = bias[o+i] + s[2*i+1]
			}
		}
		for ; p < n; p++ {
			c := cols[p*k : (p+1)*k]
			for i, wr := range [4][]float32{w0, w1, w2, w3} {
				dst[(o+i)*n+p] = bias[o+i] + dot(wr, c)
			}
		}
	}
	for ; o < out; o++ {
		wr := w[o*k : (o+1)*k]
		for p := range n {
			dst[o*n+p] = bias[o] + dot(wr, cols[p*k:(p+1)*k])
		}
	}
}

// dot4x2 writes the eight dot products of rows w0..w3 with rows c0, c1
// into s (s[2i+j] = wi·cj). All rows must have the same length. Where the
// CPU has them (amd64 with AVX2 and FMA, see haveSIMD) the leading multiple
// of 8 goes through the vector kernel, the rest through the scalar loop.
func dot4x2(s *[8]float32, w0, w1, w2, w3, c0, c1 []float32) {
	n := len(w0)
	w1, w2, w3, c0, c1 = w1[:n], w2[:n], w3[:n], c0[:n], c1[:n]
	m := 0
	if haveSIMD && n >= simdWidth {
		m = n &^ (simdWidth - 1)
		dot4x2SIMD(s, &w0[0], &w1[0], &w2[0], &w3[0], &c0[0], &c1[0], m)
	} else {
		*s = [8]float32{}
	}
	a0, a1, a2, a3, a4, a5, a6, a7 := s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]
	for i := m; i < n; i++ {
		x, y := c0[i], c1[i]
		a0 += w0[i] * x
		a1 += w0[i] * y
		a2 += w1[i] * x
		a3 += w1[i] * y
		a4 += w2[i] * x
		a5 += w2[i] * y
		a6 += w3[i] * x
		a7 += w3[i] * y
	}
	s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7] = a0, a1, a2, a3, a4, a5, a6, a7
}

// dot returns a·b over len(a) (b at least as long).
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}
