package maia1

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestDot4x2 checks the tiled dot kernel (the vector kernel where the CPU
// has it, plus its scalar tail) against float64 sums, for lengths below,
// at and around the vector width and of the network's real rows.
func TestDot4x2(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 7, 8, 9, 16, 63, 64, 576, 1001, 1008} {
		rows := make([][]float32, 6)
		for r := range rows {
			rows[r] = make([]float32, n)
			for i := range rows[r] {
				rows[r][i] = float32(rng.Float64()*2 - 1)
			}
		}
		var s [8]float32
		s[3] = 99 // stale contents must be overwritten
		dot4x2(&s, rows[0], rows[1], rows[2], rows[3], rows[4], rows[5])
		for i := range 4 {
			for j := range 2 {
				var want float64
				for k := range n {
					want += float64(rows[i][k]) * float64(rows[4+j][k])
				}
				if got := float64(s[2*i+j]); math.Abs(got-want) > 1e-5*math.Sqrt(float64(n)) {
					t.Errorf("n=%d (vector kernel %v): w%d·c%d = %v, want %v", n, haveSIMD, i, j, got, want)
				}
			}
		}
	}
}
