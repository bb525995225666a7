//go:build arm64 && !purego

package maia1

// haveSIMD is true: Advanced SIMD (NEON) is part of every arm64 CPU.
const haveSIMD = true

// simdWidth is the float32 count of one NEON register: dot4x2SIMD takes a
// multiple of it.
const simdWidth = 4

// dot4x2SIMD writes s[2i+j] = Σ_{k<n} wi[k]·cj[k] for rows of n floats (n a
// positive multiple of simdWidth): the NEON kernel leaves four lane sums
// per product, added here.
func dot4x2SIMD(s *[8]float32, w0, w1, w2, w3, c0, c1 *float32, n int) {
	var lanes [32]float32
	dot4x2NEON(&lanes, w0, w1, w2, w3, c0, c1, n)
	for i := range s {
		l := lanes[4*i : 4*i+4]
		s[i] = (l[0] + l[1]) + (l[2] + l[3])
	}
}

// dot4x2NEON accumulates the eight products four lanes at a time with
// fused multiply-adds and stores each product's four lane sums, in order,
// into lanes (dot4x2_arm64.s).
//
//go:noescape
func dot4x2NEON(lanes *[32]float32, w0, w1, w2, w3, c0, c1 *float32, n int)
