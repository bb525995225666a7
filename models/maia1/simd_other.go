//go:build (!amd64 && !arm64) || purego

package maia1

// haveSIMD is false: this architecture (or a purego build) has only the
// scalar kernel.
const haveSIMD = false

// simdWidth is unused without a vector kernel.
const simdWidth = 8

// dot4x2SIMD is never called without a vector kernel.
func dot4x2SIMD(*[8]float32, *float32, *float32, *float32, *float32, *float32, *float32, int) {
	panic("maia1: no vector kernel on this architecture")
}
