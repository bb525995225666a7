//go:build amd64 && !purego

package maia1

import "golang.org/x/sys/cpu"

// haveSIMD reports whether this CPU runs the AVX2/FMA kernel of
// dot4x2SIMD (read once from CPUID; constant for the process).
var haveSIMD = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// simdWidth is the float32 count of one AVX2 register: dot4x2SIMD takes a
// multiple of it.
const simdWidth = 8

// dot4x2SIMD writes s[2i+j] = Σ_{k<n} wi[k]·cj[k] for rows of n floats (n a
// positive multiple of simdWidth) with eight AVX2 accumulators and fused
// multiply-adds (dot4x2_amd64.s).
//
//go:noescape
func dot4x2SIMD(s *[8]float32, w0, w1, w2, w3, c0, c1 *float32, n int)
